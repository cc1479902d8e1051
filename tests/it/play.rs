//! `gamecert hint` and `gamecert play`, and the library behind them (`gamecert::play`): the
//! certified strategy, played against random legal moves, achieves its claim; `play` driven
//! through standard input and (where tmux is installed) through a real terminal.

use crate::common::{bad_input, gamecert, stdout};
use gamecert::base::io::{parse_instance, read_certificate};
use gamecert::base::rng::Rng;
use gamecert::play::{Move, PlayError, Position, Side, Strategy};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const FIXTURES: &str = "certificates/tests/fixtures";

/// The fixture folder's instance (`instance.json` or `instance.txt`) and a certificate in it.
fn fixture(kind: &str, certificate: &str) -> (PathBuf, PathBuf) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURES).join(kind);
    let instance = ["instance.json", "instance.txt"]
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.exists())
        .expect("every fixture folder has an instance");
    (instance, dir.join(certificate))
}

fn strategy(instance: &Path, certificate: &Path) -> Result<Strategy, PlayError> {
    Strategy::from(&parse_instance(instance).unwrap(), &read_certificate(certificate).unwrap())
}

/// Instances and certificates that use the symmetry folds: a k-ary tree (orbits of verified
/// generators) and a random tree's value (twin classes and orbits, both sides).
fn solved_with_symmetry(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let run = |args: &[&str]| assert!(gamecert(args).status.success(), "{args:?}");
    let path = |name: &str| dir.join(name);
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let (k3, k3c, tree, treec) =
        (path("k3.json"), path("k3.cert.json"), path("t.json"), path("t.cert.json"));
    run(&["gen", "kary-tree", "--k", "3", "--height", "2", "--rounds", "2", "-q", "-o", &s(&k3)]);
    run(&["solve", &s(&k3), "--method", "kary", "-q", "-o", &s(&k3c)]);
    run(&["gen", "tree", "--vertices", "9", "--rounds", "2", "--seed", "7", "-q", "-o", &s(&tree)]);
    run(&["solve", &s(&tree), "-q", "-o", &s(&treec)]);
    vec![(k3, k3c), (tree, treec)]
}

/// Every strategy certificate kind `hint` and `play` play, each with a fixture.
const PLAYED: &[&str] = &[
    "voronoi-strategy",
    "voronoi-value",
    "voronoi-path-value",
    "dnf-strategy",
    "heap-labelling",
    "coin-labelling",
    "marking-strategy",
    "construct-strategy",
    "flip-value",
    "triangle-strategy",
    "vertexnim-strategy",
];

/// Every strategy this version plays: the fixtures' accepted certificates and the symmetric ones.
fn playable(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut all: Vec<(PathBuf, PathBuf)> =
        PLAYED.iter().map(|kind| fixture(kind, "accept.json")).collect();
    // The coin fixture's 100 x 100 board plays too long against random moves: small boards
    // instead, one and two dimensions.
    all.retain(|(_, certificate)| !certificate.to_str().unwrap().contains("coin-labelling"));
    all.extend(solved_with_symmetry(dir));
    all.extend(small_coin_games(dir));
    all
}

/// Mock Turtles on 20 coins and Turning Corners on a 6 x 6 board, solved.
fn small_coin_games(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let games = [
        ("c1", r#""rule": {"game": "mock-turtles"}, "board": [20], "heads": [[3], [7], [12]]"#),
        (
            "c2",
            r#""rule": {"game": "turning-corners"}, "board": [6, 6], "heads": [[5, 5], [2, 3]]"#,
        ),
    ];
    games
        .iter()
        .map(|(name, fields)| {
            let instance = dir.join(format!("{name}.json"));
            let certificate = dir.join(format!("{name}.cert.json"));
            let text = format!(
                r#"{{"format": "gamecert-instance", "version": 1, "kind": "coin-game", {fields}}}"#
            );
            std::fs::write(&instance, text).unwrap();
            let (i, c) = (instance.to_str().unwrap(), certificate.to_str().unwrap());
            assert!(gamecert(&["solve", i, "-q", "-o", c]).status.success());
            (instance, certificate)
        })
        .collect()
}

/// The sides a person can play against a certified side: the one `play` picks by default,
/// and for a value (both sides certified) the other too.
fn opponents(strategy: &Strategy) -> Vec<Side> {
    let default = strategy.default_human();
    if strategy.certifies(default) {
        vec![default, default.other()]
    } else {
        vec![default]
    }
}

/// One game from the start: `human` moves at random (`rng`), the strategy answers (a position
/// where it gives no move fails the test); `each` sees every position with the move made
/// there. Returns the final position.
fn random_play(
    strategy: &Strategy,
    human: Side,
    rng: &mut Rng,
    each: &mut dyn FnMut(&Position, &Move),
) -> Position {
    let mut position = strategy.start();
    while position.outcome().is_none() {
        let mv = if position.to_move() == human {
            let moves = position.legal_moves();
            moves[rng.below(moves.len() as u64) as usize].clone()
        } else {
            strategy
                .reply(&position)
                .unwrap_or_else(|| panic!("{}: no certified move at {position:?}", strategy.kind()))
        };
        each(&position, &mv);
        position = position.apply(&mv);
    }
    position
}

#[test]
fn the_certified_side_meets_its_claim_against_random_moves() {
    let dir = tempfile::tempdir().unwrap();
    for (instance, certificate) in playable(dir.path()) {
        let strategy = strategy(&instance, &certificate).unwrap();
        for human in opponents(&strategy) {
            for seed in 0..8 {
                // The notation of every move reads back as the same move.
                let position = random_play(&strategy, human, &mut Rng::new(seed), &mut |at, mv| {
                    assert_eq!(at.parse_move(mv.notation()).unwrap(), *mv);
                });
                assert_eq!(
                    strategy.claim_met(&position, human.other()),
                    Some(true),
                    "{certificate:?}, seed {seed}: {:?} ends {position:?}",
                    position.outcome()
                );
            }
        }
    }
}

#[test]
fn a_position_in_notation_reads_back_and_gets_the_same_move() {
    let dir = tempfile::tempdir().unwrap();
    for (instance, certificate) in playable(dir.path()) {
        let strategy = strategy(&instance, &certificate).unwrap();
        let human = strategy.default_human();
        random_play(&strategy, human, &mut Rng::new(3), &mut |position, _| {
            if position.to_move() == human {
                return;
            }
            // Read from its notation alone, with no history, the position gets a certified
            // move too (found through a play that reaches it when the certificate lists
            // positions up to symmetry).
            let read = strategy.parse_position(&position.notation()).unwrap();
            assert_eq!(read, *position);
            assert!(strategy.reply(&read).is_some(), "{certificate:?} at {position:?}");
        });
    }
}

#[test]
fn kinds_without_a_strategy_and_rejected_certificates_are_refused() {
    for kind in [
        "witness",
        "refutation-direct",
        "flip-sequence",
        "balanced-colouring",
        "vertexnim-labelling",
        "marking-kayles",
        "nimstring-strips",
    ] {
        let (instance, certificate) = fixture(kind, "accept.json");
        match strategy(&instance, &certificate) {
            Err(PlayError::NoStrategy(why)) => assert!(why.contains("no strategy to ask"), "{why}"),
            other => panic!("{kind}: {other:?}"),
        }
        let args = [instance.to_str().unwrap(), certificate.to_str().unwrap()];
        bad_input(&["hint", args[0], args[1]], "holds no strategy to ask");
    }
    let (instance, certificate) = fixture("heap-labelling", "reject-wrong-label.json");
    assert!(matches!(strategy(&instance, &certificate), Err(PlayError::Rejected { .. })));
    let out = gamecert(&["hint", instance.to_str().unwrap(), certificate.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("REJECTED (claim: "), "{}", stdout(&out));
}

#[test]
fn a_triangle_stream_is_refused_after_its_first_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, _) = fixture("triangle-strategy", "accept.json");
    let stream = dir.path().join("t.stream");
    let mut bytes = gamecert_certificates::triangle_avoidance::stream::MAGIC.to_vec();
    bytes.extend([6, b'A', 0, 0, 0, 0, 0, 0]);
    std::fs::write(&stream, bytes).unwrap();
    let args = [instance.to_str().unwrap(), stream.to_str().unwrap()];
    bad_input(&["hint", args[0], args[1]], "a triangle-stream certificate cannot be played");
    bad_input(&["play", args[0], args[1]], "more than a bounded read");
}

/// For each newly played kind, a position in its notation and the move `hint` prints there
/// (found by playing the certified side against the first legal moves, so it is one the
/// strategy reaches), and the move read back.
#[test]
fn hint_prints_a_move_in_each_games_notation() {
    for kind in PLAYED {
        let (instance, certificate) = fixture(kind, "accept.json");
        let strategy = strategy(&instance, &certificate).unwrap();
        let human = strategy.default_human();
        let mut position = strategy.start();
        // Two moves in, where the game lasts that long: a position that is not the start.
        let mut played = 0;
        while position.outcome().is_none() && (played < 2 || position.to_move() == human) {
            let mv = if position.to_move() == human {
                position.legal_moves()[0].clone()
            } else {
                strategy.reply(&position).unwrap()
            };
            position = position.apply(&mv);
            played += 1;
        }
        if position.outcome().is_some() {
            continue;
        }
        let notation = position.notation();
        let (i, c) = (instance.to_str().unwrap(), certificate.to_str().unwrap());
        let out = gamecert(&["hint", i, c, "--position", &notation, "--json"]);
        assert!(
            out.status.success(),
            "{kind} at '{notation}': {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["position"], notation.as_str(), "{kind}");
        let mv = json["move"].as_str().unwrap();
        let expected = strategy.reply(&position).unwrap();
        assert_eq!(mv, expected.notation(), "{kind} at '{notation}'");
        assert_eq!(position.parse_move(mv).unwrap(), expected, "{kind}");
    }
}

#[test]
fn hint_answers_in_the_games_notation() {
    let (instance, certificate) = fixture("heap-labelling", "accept.json");
    let (i, c) = (instance.to_str().unwrap(), certificate.to_str().unwrap());
    let out = gamecert(&["hint", i, c, "--position", "5 3 3 8", "--json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["command"], "hint");
    assert_eq!(json["position"], "5 3 3 8");
    // 5 3 3 8 has value 4 ^ 1 ^ 1 ^ 1 = 5: heap 1 of 5 (value 4) to a heap of 4 (value 1).
    assert_eq!(json["move"], "1:4");
    // Value 0: the labelling has no winning move there.
    bad_input(&["hint", i, c, "--position", "5 3 3 9"], "no move at '5 3 3 9'");
    bad_input(&["hint", i, c, "--position", "5 x"], "'x' is not a heap size");
    let (instance, certificate) = fixture("voronoi-value", "accept.json");
    let out = gamecert(&["hint", instance.to_str().unwrap(), certificate.to_str().unwrap()]);
    assert!(stdout(&out).contains("W to move; the certified strategy"), "{}", stdout(&out));
}

/// Reads the child's output until it ends with a prompt (`> `) or the output ends.
fn until_prompt(out: &mut impl Read, transcript: &mut String) -> bool {
    let mut byte = [0u8];
    loop {
        match out.read(&mut byte).unwrap() {
            0 => return false,
            _ => transcript.push(byte[0] as char),
        }
        if transcript.ends_with("> ") {
            return true;
        }
    }
}

/// The moves a `moves` answer lists (`12 legal moves: a b c`, `1 legal move: a`; a long listing
/// ends with ` ... (the first K shown; ...)`), if `line` is one.
fn listed_moves(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once(" legal move")?;
    let (_, moves) = rest.split_once(": ")?;
    Some(moves.split(" ... (").next().unwrap())
}

/// Plays a whole game through `gamecert play`'s standard input, choosing a random legal move
/// from what `moves` lists; returns the transcript.
fn drive(instance: &Path, certificate: &Path, side: Option<&str>, seed: u64) -> String {
    let mut args = vec!["play", instance.to_str().unwrap(), certificate.to_str().unwrap()];
    if let Some(side) = side {
        args.extend(["--as", side]);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let mut rng = Rng::new(seed);
    // An illegal move first: explained, and the prompt comes back.
    let mut first = true;
    while until_prompt(&mut output, &mut transcript) {
        if first {
            writeln!(input, "no-such-move").unwrap();
            assert!(until_prompt(&mut output, &mut transcript));
            assert!(transcript.contains("illegal move 'no-such-move'"), "{transcript}");
            first = false;
        }
        writeln!(input, "moves").unwrap();
        assert!(until_prompt(&mut output, &mut transcript));
        let listed = transcript.lines().rev().find_map(listed_moves).unwrap();
        let moves: Vec<&str> = listed.split_whitespace().collect();
        let mv = moves[rng.below(moves.len() as u64) as usize].to_string();
        writeln!(input, "{mv}").unwrap();
    }
    let mut rest = String::new();
    output.read_to_string(&mut rest).unwrap();
    transcript.push_str(&rest);
    assert!(child.wait().unwrap().success(), "{transcript}");
    transcript
}

#[test]
fn play_through_standard_input_ends_with_the_claim_achieved() {
    let dir = tempfile::tempdir().unwrap();
    for (instance, certificate) in playable(dir.path()) {
        for seed in 0..3 {
            let transcript = drive(&instance, &certificate, None, seed);
            let result = transcript
                .lines()
                .find(|l| l.starts_with("Result: "))
                .unwrap_or_else(|| panic!("{certificate:?}: no result line in\n{transcript}"));
            assert!(!result.is_empty());
            let claim = transcript.lines().find(|l| l.starts_with("Certified claim: ")).unwrap();
            assert!(claim.ends_with("achieved it."), "{certificate:?}: {claim}\n{transcript}");
        }
    }
    // Playing the certified side: the strategy's opponent has no certified move and says so.
    let (instance, certificate) = fixture("dnf-strategy", "accept.json");
    let transcript = drive(&instance, &certificate, Some("first"), 1);
    assert!(transcript.contains("the certificate gives no move here"), "{transcript}");
    assert!(transcript.contains("it is a claim for the first player, whom you played"));
}

#[test]
fn play_quits_and_stops_at_the_end_of_input() {
    let (instance, certificate) = fixture("heap-labelling", "accept.json");
    let run = |input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamecert"))
            .args(["play", instance.to_str().unwrap(), certificate.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("help\nquit\n");
    assert!(
        text.contains("the first player (the certified strategy) opened with 2:3+3."),
        "{text}"
    );
    assert!(text.contains("3 heaps: 5 7 9; 21 tokens in all"), "{text}");
    assert!(text.contains("a move is HEAP:REST"), "{text}");
    assert!(text.contains("You quit"), "{text}");
    assert!(run("").contains("Input ended"));
}

/// `gamecert play` in a real terminal: a detached tmux session, keys sent, the pane captured
/// until the result line shows. Skipped where tmux is not installed.
#[test]
fn play_in_a_terminal_through_tmux() {
    if Command::new("tmux").arg("-V").output().map_or(true, |o| !o.status.success()) {
        eprintln!("tmux is not installed: skipping the terminal test");
        return;
    }
    let (instance, certificate) = fixture("heap-labelling", "accept.json");
    let session = format!("gamecert-play-{}", std::process::id());
    let command = format!(
        "{} play {} {}; sleep 30",
        env!("CARGO_BIN_EXE_gamecert"),
        instance.display(),
        certificate.display()
    );
    let tmux = |args: &[&str]| Command::new("tmux").args(args).output().unwrap();
    let started = tmux(&["new-session", "-d", "-s", &session, "-x", "200", "-y", "60", &command]);
    assert!(started.status.success(), "{}", String::from_utf8_lossy(&started.stderr));
    let capture = || {
        String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", &session, "-S", "-200"]).stdout)
            .into_owned()
    };
    let mut result = None;
    for _ in 0..200 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let pane = capture();
        if let Some(line) = pane.lines().find(|l| l.starts_with("Result: ")) {
            result = Some(line.to_string());
            break;
        }
        if pane.trim_end().ends_with("to move>") {
            tmux(&["send-keys", "-t", &session, "moves", "Enter"]);
            std::thread::sleep(std::time::Duration::from_millis(200));
            let pane = capture();
            let listed = pane.lines().rev().find_map(listed_moves);
            if let Some(first) = listed.and_then(|l| l.split_whitespace().next()) {
                tmux(&["send-keys", "-t", &session, first, "Enter"]);
            }
        }
    }
    let pane = capture();
    tmux(&["kill-session", "-t", &session]);
    let result = result.unwrap_or_else(|| panic!("no result line in the pane:\n{pane}"));
    assert!(result.contains("the first player wins"), "{result}");
    assert!(pane
        .lines()
        .any(|l| l.starts_with("Certified claim: ") && l.ends_with("achieved it.")));
}

/// Every family's drawing is a few lines and its summary one, at every position of a play:
/// the terminal shows who holds what, never the whole graph.
#[test]
fn every_drawing_is_compact_and_every_summary_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for (instance, certificate) in playable(dir.path()) {
        let strategy = strategy(&instance, &certificate).unwrap();
        let check = |position: &Position| {
            let drawing = gamecert::play::render_text(position);
            assert!(drawing.lines().count() <= 5, "{certificate:?}:\n{drawing}");
            assert!(drawing.lines().all(|l| l.len() <= 400), "{certificate:?}:\n{drawing}");
            let summary = position.summary();
            assert!(!summary.is_empty() && !summary.contains('\n'), "{certificate:?}: {summary}");
            // Counts in words: never "1 edges", "1 heaps", ...
            let words: Vec<&str> = summary.split(' ').collect();
            for pair in words.windows(2) {
                assert!(pair[0] != "1" || !pair[1].ends_with('s'), "{certificate:?}: {summary}");
            }
        };
        let end =
            random_play(&strategy, strategy.default_human(), &mut Rng::new(5), &mut |at, _| {
                check(at)
            });
        check(&end);
    }
}

/// `play` on a Voronoi game on a small tree: each position takes a few lines (the move, the
/// stones, the empty vertices, who owns what and the margin so far, the notation), never the
/// adjacency list, and the last summary agrees with the result.
#[test]
fn voronoi_play_on_a_tree_shows_owners_and_score_in_a_few_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (tree, cert) = (dir.path().join("t.json"), dir.path().join("t.cert.json"));
    let (t, c) = (tree.to_str().unwrap(), cert.to_str().unwrap());
    let shape = ["--vertices", "30", "--rounds", "2", "--seed", "3"];
    let made = gamecert(&[&["gen", "tree"][..], &shape, &["-q", "-o", t]].concat());
    assert!(made.status.success());
    assert!(gamecert(&["solve", t, "-q", "-o", c]).status.success());
    for seed in 0..3 {
        let transcript = drive(&tree, &cert, None, seed);
        // The lines from one `position:` line to the next, prompts and listings left out.
        let mut block: Vec<&str> = Vec::new();
        let mut summaries = Vec::new();
        for line in transcript.lines() {
            let banner = ["The checker accepted", "You play ", "Type a move"];
            if line.contains("to move>")
                || line.trim().is_empty()
                || banner.iter().any(|b| line.starts_with(b))
            {
                continue;
            }
            block.push(line);
            if line.starts_with("position: ") {
                assert!(
                    block.len() <= 6,
                    "a position takes {} lines:\n{}",
                    block.len(),
                    block.join("\n")
                );
                let summary = block
                    .iter()
                    .find(|l| l.starts_with("W owns "))
                    .unwrap_or_else(|| panic!("no summary in\n{}", block.join("\n")));
                assert!(
                    summary.contains(", B owns ") && summary.contains("; W's margin so far "),
                    "{summary}"
                );
                summaries.push(summary.to_string());
                block.clear();
            }
        }
        assert!(summaries.len() >= 5, "{transcript}");
        // A long list is cut with a count: 30 empty vertices, 12 named.
        assert!(transcript.contains("  empty (30): "), "{transcript}");
        assert!(transcript.contains(" ... and 18 more\n"), "{transcript}");
        assert!(transcript.contains("You played "), "{transcript}");
        assert!(
            transcript.contains("W (the certified strategy) opened with ")
                || transcript.contains("B (the certified strategy) replied "),
            "{transcript}"
        );
        // The final summary's counts are the result's.
        let result = transcript.lines().find(|l| l.starts_with("Result: W is nearer to ")).unwrap();
        let words: Vec<&str> = result.split_whitespace().collect();
        let (w, b) = (words[5], words[9]);
        let last = summaries.last().unwrap();
        let owns = |side: &str, n: &str| {
            if n == "0" {
                format!("{side} owns nothing")
            } else {
                format!("{side} owns {n} (")
            }
        };
        assert!(last.contains(&owns("W", w)) && last.contains(&owns("B", b)), "{result}\n{last}");
        // No line of the adjacency list (a vertex and its neighbours after a dash).
        assert!(!transcript.contains("  - "), "{transcript}");
    }
}
