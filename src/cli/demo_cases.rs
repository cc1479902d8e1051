//! `gamecert demo`: the paper's Figure 3 formula and a few small formulas and graphs, end to end,
//! the positive-DNF reduction on the paper's Figure 4 formula, Algorithms 1 and 2 and B's
//! symmetric strategy on complete k-ary trees, the median rule on a random tree, and one
//! instance of each of the other games (path, triangle avoidance, Kayles, coin turning,
//! Nimstring, Monochromatic Triangle, vertex nim). The size column is vertices, nodes, points, heaps or
//! heads, by kind.
//!
//! Each case is reduced (or read as a hand-written graph), solved, certified, written to the
//! output directory, read back from disk and checked by the checker; the table shows the
//! scores, the verdict and whether the checker accepted. For a refutation the scores are those
//! of B's best placement, found by the exhaustive search (a dash if that search is too large).

use anyhow::Context;
use gamecert::registry::solve_game;
use gamecert::voronoi::one_round::{solve, Method};
use gamecert::voronoi::one_round_exact::{search, Goal};
use gamecert_certificates::format::MultiRoundSpec;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::posdnf::dnf_text::parse_posdnf;
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::triangulations::flipping::FlipGame;
use gamecert_certificates::voronoi::edgelist::parse_edge_list;
use gamecert_certificates::voronoi::rules::score;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Limits};
use gamecert_reductions::dimacs::parse_dimacs;
use gamecert_reductions::posdnf_voronoi::build;
use gamecert_reductions::sat_voronoi::reduce;
use std::path::Path;

/// Where a demo instance comes from.
enum Input {
    /// A DIMACS formula and the reduction to apply.
    Formula(&'static str, SatVoronoi),
    /// A hand-written edge-list instance.
    Graph(&'static str),
    /// A positive DNF, reduced to the multi-round game (posdnf-voronoi).
    Dnf(&'static str),
    /// A multi-round instance from `gamecert gen`.
    Family(fn() -> MultiRoundSpec),
    /// Any other instance kind (the other seeds' games).
    Other(fn() -> Instance),
}

struct Case {
    name: &'static str,
    description: &'static str,
    input: Input,
    method: Method,
}

const FIGURE3: &str = "c Figure 3 of seed 001\np cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n";
const CONTRADICTION: &str = "c x1, x1 -> x2, not x2\np cnf 2 3\n1 0\n-1 2 0\n-2 0\n";
const EXACTLY_ONE: &str =
    "c exactly one of x1, x2, x3\np cnf 3 4\n1 2 3 0\n-1 -2 0\n-1 -3 0\n-2 -3 0\n";
const ALL_EIGHT: &str = "c every clause over x1, x2, x3: unsatisfiable\np cnf 3 8\n\
1 2 3 0\n1 2 -3 0\n1 -2 3 0\n1 -2 -3 0\n-1 2 3 0\n-1 2 -3 0\n-1 -2 3 0\n-1 -2 -3 0\n";
const WIDE: &str = "c one clause of width 5 and a frequent variable\np cnf 5 5\n\
1 2 3 4 5 0\n-1 2 0\n-1 -2 0\n-1 3 0\n1 -4 0\n";
const FIGURE4: &str = "c Figure 4 of seed 001\n1 2 4 5\n3 5 7 8\n6 8\n";
const FIRST_WINS: &str = "c the first player takes x3, then x1 or x2\n1 2\n3 4\n3\n";
const STAR: &str = "# a star: W holds the centre, B places 2 leaves and loses\n\
white c\nblack 2\nc l1\nc l2\nc l3\nc l4\nc l5\n";
const KAYLES: &str = r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
 "game": "kayles", "heaps": [5, 7, 9]}"#;
const COIN_EXAMPLE: &str = r#"{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
 "rule": {"game": "product",
          "x": {"game": "subsets", "min_others": 1, "max_others": 1, "max_distance": 4, "base": 1},
          "y": {"game": "ruler"}},
 "board": [100, 100], "heads": [[100, 100], [4, 1]]}"#;

fn parsed(text: &str) -> Instance {
    Instance::from_json(text).expect("the demo's instances parse")
}

fn marking(
    kind: gamecert::triangulations::generate::Kind,
    points: usize,
    inner: usize,
    game: gamecert_certificates::triangulations::marking::MarkingGame,
) -> Instance {
    let mut triangulation = gamecert::triangulations::generate::generate(kind, points, inner, 1)
        .expect("a valid family");
    if game == gamecert_certificates::triangulations::marking::MarkingGame::MonochromaticTriangle {
        triangulation.triangles.clear();
    }
    Instance::MarkingGame(gamecert_certificates::triangulations::marking::MarkingSpec {
        game,
        triangulation,
    })
}

/// A flipping game on a random convex triangulation (`abstract_convex`: without coordinates).
fn flip(points: usize, game: FlipGame, abstract_convex: bool) -> Instance {
    Instance::FlipGame(
        gamecert::triangulations::flipping::gen_instance(
            gamecert::triangulations::generate::Kind::Convex,
            points,
            0,
            3,
            game,
            abstract_convex,
        )
        .expect("a valid family"),
    )
}

const PATHS: &str = "# W holds an end of a path a-b-c-d-e-f; B takes b and wins\n\
white a\nblack 1\na b\nb c\nc d\nd e\ne f\n";

/// How many cases the demo runs (its progress total).
pub fn case_count() -> usize {
    cases().len()
}

fn cases() -> Vec<Case> {
    use Input::*;
    vec![
        Case {
            name: "figure3-p1",
            description: "Figure 3, Problem 1",
            input: Formula(FIGURE3, SatVoronoi::Problem1),
            method: Method::Auto,
        },
        Case {
            name: "figure3-p2",
            description: "Figure 3, Problem 2",
            input: Formula(FIGURE3, SatVoronoi::Problem2),
            method: Method::Auto,
        },
        Case {
            name: "figure3-direct",
            description: "Figure 3, Problem 1, direct",
            input: Formula(FIGURE3, SatVoronoi::Problem1),
            method: Method::Direct,
        },
        Case {
            name: "contradiction-p1",
            description: "x1, -x1|x2, -x2",
            input: Formula(CONTRADICTION, SatVoronoi::Problem1),
            method: Method::Auto,
        },
        Case {
            name: "contradiction-direct",
            description: "x1, -x1|x2, -x2, direct",
            input: Formula(CONTRADICTION, SatVoronoi::Problem1),
            method: Method::Direct,
        },
        Case {
            name: "exactly-one-p2",
            description: "exactly one of 3",
            input: Formula(EXACTLY_ONE, SatVoronoi::Problem2),
            method: Method::Auto,
        },
        Case {
            name: "all-eight-p1",
            description: "all 8 clauses on 3 vars",
            input: Formula(ALL_EIGHT, SatVoronoi::Problem1),
            method: Method::Auto,
        },
        Case {
            name: "wide-p1",
            description: "width-5 clause",
            input: Formula(WIDE, SatVoronoi::Problem1),
            method: Method::Auto,
        },
        Case {
            name: "star",
            description: "star K1,5, hand-written",
            input: Graph(STAR),
            method: Method::Auto,
        },
        Case {
            name: "path",
            description: "path P6, hand-written",
            input: Graph(PATHS),
            method: Method::Auto,
        },
        Case {
            name: "figure4",
            description: "Figure 4, posdnf-voronoi",
            input: Dnf(FIGURE4),
            method: Method::Auto,
        },
        Case {
            name: "first-wins",
            description: "(x1 x2) or (x3 x4) or x3",
            input: Dnf(FIRST_WINS),
            method: Method::Auto,
        },
        Case {
            name: "kary-6-3",
            description: "6-ary tree, height 3, n = 3",
            input: Family(|| gamecert::voronoi::gen::kary_tree(6, 3, 3).expect("a valid family")),
            method: Method::Auto,
        },
        Case {
            name: "kary-5-4",
            description: "5-ary tree, height 4, n = 3 (Theorem 1)",
            input: Family(|| gamecert::voronoi::gen::kary_tree(5, 4, 3).expect("a valid family")),
            method: Method::Auto,
        },
        Case {
            name: "kary-4-4",
            description: "4-ary tree, height 4, n = 3 (Theorem 2)",
            input: Family(|| gamecert::voronoi::gen::kary_tree(4, 4, 3).expect("a valid family")),
            method: Method::Auto,
        },
        Case {
            name: "path-12",
            description: "path P12, n = 3 (gap states)",
            input: Family(|| gamecert::voronoi::gen::path(12, 3).expect("a valid family")),
            method: Method::Auto,
        },
        Case {
            name: "triangle-8",
            description: "triangle avoidance, 8 nodes",
            input: Other(|| {
                Instance::TriangleAvoidance(gamecert_certificates::format::TriangleSpec { n: 8 })
            }),
            method: Method::Auto,
        },
        Case {
            name: "kayles",
            description: "Kayles, heaps 5, 7, 9",
            input: Other(|| parsed(KAYLES)),
            method: Method::Auto,
        },
        Case {
            name: "coins",
            description: "slides' G1 x Ruler example",
            input: Other(|| parsed(COIN_EXAMPLE)),
            method: Method::Auto,
        },
        Case {
            name: "fan-nimstring",
            description: "Nimstring, fan of 6 triangles",
            input: Other(|| {
                marking(
                    gamecert::triangulations::generate::Kind::Fan,
                    8,
                    0,
                    gamecert_certificates::triangulations::marking::MarkingGame::Nimstring,
                )
            }),
            method: Method::Auto,
        },
        Case {
            name: "mono-triangle",
            description: "Monochromatic Triangle, 7 points",
            input: Other(|| {
                marking(
                    gamecert::triangulations::generate::Kind::Points,
                    7,
                    2,
                    gamecert_certificates::triangulations::marking::MarkingGame::MonochromaticTriangle,
                )
            }),
            method: Method::Auto,
        },
        Case {
            name: "kayles-coloring",
            description: "Coloring, simple-branching, 20,000 points (Theorem 1)",
            input: Other(|| {
                marking(
                    gamecert::triangulations::generate::Kind::SimpleBranching,
                    20_000,
                    0,
                    gamecert_certificates::triangulations::marking::MarkingGame::Coloring,
                )
            }),
            method: Method::Auto,
        },
        Case {
            name: "all-green",
            description: "All-Green Solitaire, convex 10,000-gon (Theorem 11)",
            input: Other(|| flip(10_000, FlipGame::AllGreen, true)),
            method: Method::Auto,
        },
        Case {
            name: "mono-flipping",
            description: "Monochromatic Flipping, convex 10 points (Theorem 9)",
            input: Other(|| flip(10, FlipGame::MonochromaticFlipping, false)),
            method: Method::Auto,
        },
        Case {
            name: "mft-serpentine-20",
            description: "Flipping to Triangle, serpentine 20-gon (Theorem 10)",
            input: Other(|| {
                Instance::FlipGame(
                    gamecert::triangulations::flipping::gen_instance(
                        gamecert::triangulations::generate::Kind::Serpentine,
                        20,
                        0,
                        3,
                        FlipGame::FlippingToTriangle,
                        true,
                    )
                    .expect("a valid family"),
                )
            }),
            method: Method::Auto,
        },
        Case {
            name: "vertexnim",
            description: "vertex nim, 8 vertices",
            input: Other(|| {
                Instance::VertexNim(
                    gamecert::vertexnim::solver::generate(
                        &gamecert::vertexnim::solver::GenOptions {
                            vertices: 8,
                            max_weight: 3,
                            seed: 2,
                            directed: false,
                            variant: gamecert_certificates::vertexnim::strategy::Variant::Vertexnim,
                            misere: false,
                            density: 1.0,
                            loops: 0.3,
                        },
                    )
                    .expect("a valid family"),
                )
            }),
            method: Method::Auto,
        },
        Case {
            name: "adjacent-nim",
            description: "Adjacent Nim, circuit of 1,000 vertices",
            // Weights 2 + (7i mod 5): Adjacent Nim far too large for a strategy, certified by
            // Theorem 3's labelling.
            input: Other(|| {
                let weights: Vec<u64> = (0..1000).map(|i| 2 + (7 * i) % 5).collect();
                Instance::VertexNim(gamecert::vertexnim::solver::circuit_spec(
                    &weights,
                    gamecert_certificates::vertexnim::strategy::Variant::Vertexnim,
                ))
            }),
            method: Method::Auto,
        },
        Case {
            name: "median-tree",
            description: "random tree, 60 vertices, n = 1",
            input: Family(|| {
                gamecert::voronoi::gen::random_tree(60, 1, 11).expect("a valid family")
            }),
            method: Method::Auto,
        },
    ]
}

/// One row of the summary table (and of `demo --json`).
#[derive(serde::Serialize)]
pub struct Row {
    /// The case's name, the stem of its files.
    pub case: String,
    /// The formula or graph, in words.
    pub description: String,
    /// Vertices, nodes, points, heaps or heads, by kind.
    pub size: usize,
    /// One-round games: B's and W's scores, from the witness or (`best`) from B's best
    /// placement found by exhaustive search; `None` when there are none.
    pub black: Option<usize>,
    pub white: Option<usize>,
    pub best: bool,
    /// The claim the checker was asked to accept: the case's answer.
    pub claim: String,
    /// The certificate's kind (and the positions the checker replayed).
    pub certificate: String,
    pub accepted: bool,
}

/// Runs every case (one step of `progress` each) and writes the files to `out`; the rows in
/// order.
pub fn run(out: &Path, progress: &crate::cli::progress::Progress) -> anyhow::Result<Vec<Row>> {
    run_reporting(out, progress, &|_| {})
}

/// [`run`], telling `begun(k)` as each case begins, `k` cases done before it (`serve` shows it
/// on the page while it prepares the gallery).
pub fn run_reporting(
    out: &Path,
    progress: &crate::cli::progress::Progress,
    begun: &dyn Fn(u64),
) -> anyhow::Result<Vec<Row>> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut rows = Vec::new();
    for (k, case) in cases().into_iter().enumerate() {
        begun(k as u64);
        progress.step(case.name);
        rows.push(run_case(&case, out).with_context(|| format!("demo case {}", case.name))?);
    }
    Ok(rows)
}

fn run_case(case: &Case, out: &Path) -> anyhow::Result<Row> {
    match &case.input {
        Input::Dnf(text) => return run_dnf_case(case, text, out),
        Input::Family(make) => return run_multi_round_case(case, make(), out),
        Input::Other(make) => return run_instance_case(case, make(), out),
        _ => {}
    }
    let spec = match &case.input {
        Input::Formula(text, problem) => {
            std::fs::write(out.join(format!("{}.cnf", case.name)), text)?;
            let cnf: Cnf = parse_dimacs(text, case.name)?.cnf;
            reduce(&cnf, *problem).map_err(anyhow::Error::msg)?.instance
        }
        Input::Graph(text) => {
            std::fs::write(out.join(format!("{}.txt", case.name)), text)?;
            parse_edge_list(text)?
        }
        Input::Dnf(_) | Input::Family(_) | Input::Other(_) => {
            unreachable!("the other cases are handled above")
        }
    };
    let instance = Instance::VoronoiOneRound(spec);
    let solved = solve(&instance, case.method)?;
    let instance_path = out.join(format!("{}.instance.json", case.name));
    let cert_path = out.join(format!("{}.cert.json", case.name));
    std::fs::write(&instance_path, instance.to_json())?;
    std::fs::write(&cert_path, solved.certificate.to_json())?;

    // The independent check: read both files back and hand them to the checker.
    let instance = Instance::from_json(&std::fs::read_to_string(&instance_path)?)?;
    let certificate = Certificate::from_json(&std::fs::read_to_string(&cert_path)?)?;
    let verdict = check(&instance, &certificate, &Limits::default());

    let spec = instance.one_round().context("the demo's instances are one-round games")?;
    let game = spec.validate()?;
    let (black, white, best) =
        match (&certificate, verdict.work.black_score, verdict.work.white_score) {
            (Certificate::Witness(_), Some(b), Some(w)) => (Some(b), Some(w), false),
            _ => {
                let best = search(&game, Goal::Best, 200_000);
                match best.placements.first() {
                    Some(p) if best.complete => {
                        let s = score(&game.graph, &game.white, p);
                        (Some(s.black), Some(s.white), true)
                    }
                    _ => (None, None, false),
                }
            }
        };
    let kind = match &certificate {
        Certificate::Witness(_) => "witness".to_string(),
        Certificate::Refutation(_) => format!("LRAT, {}", solved.method),
        other => other.kind().to_string(),
    };
    Ok(Row {
        case: case.name.into(),
        description: case.description.into(),
        size: game.graph.len(),
        black,
        white,
        best,
        claim: verdict.claim.clone(),
        certificate: kind,
        accepted: verdict.accepted(),
    })
}

/// A positive DNF: reduce it to the multi-round game, then as any multi-round case (solving
/// recognises the reduction and uses its forward maps).
fn run_dnf_case(case: &Case, text: &str, out: &Path) -> anyhow::Result<Row> {
    std::fs::write(out.join(format!("{}.dnf", case.name)), text)?;
    let dnf = parse_posdnf(text, case.name)?.dnf;
    let built = build(&dnf).map_err(anyhow::Error::msg)?;
    let spec = MultiRoundSpec {
        graph: built.graph,
        rounds: built.rounds,
        start: None,
        source: Some(serde_json::json!({"reduction": "posdnf-voronoi", "formula": built.padded})),
    };
    run_multi_round_case(case, spec, out)
}

/// A multi-round instance: as any instance, its size the number of vertices.
fn run_multi_round_case(case: &Case, spec: MultiRoundSpec, out: &Path) -> anyhow::Result<Row> {
    run_instance_case(case, Instance::Voronoi(spec), out)
}

/// The size shown for an instance: vertices, nodes, points, heaps or heads.
fn instance_size(instance: &Instance) -> usize {
    match instance {
        Instance::VoronoiOneRound(spec) => spec.graph.vertices.len(),
        Instance::Voronoi(spec) => spec.graph.vertices.len(),
        Instance::PosDnfGame(dnf) => dnf.num_vars as usize,
        Instance::TriangleAvoidance(spec) => spec.n,
        Instance::MarkingGame(spec) => spec.triangulation.points.len(),
        Instance::FlipGame(spec) => spec.convex_polygon.unwrap_or(spec.points.len()),
        Instance::HeapGame(game) => game.heaps.len(),
        Instance::CoinGame(spec) => spec.heads.len(),
        Instance::VertexNim(spec) => spec.vertices.len(),
    }
}

/// Any instance: solve, write, read back, check.
fn run_instance_case(case: &Case, instance: Instance, out: &Path) -> anyhow::Result<Row> {
    let size = instance_size(&instance);
    let certificate = solve_game(&instance, Method::Auto)?.certificate;
    let instance_path = out.join(format!("{}.instance.json", case.name));
    let cert_path = out.join(format!("{}.cert.json", case.name));
    std::fs::write(&instance_path, instance.to_json())?;
    std::fs::write(&cert_path, certificate.to_json())?;
    let instance = Instance::from_json(&std::fs::read_to_string(&instance_path)?)?;
    let certificate = Certificate::from_json(&std::fs::read_to_string(&cert_path)?)?;
    let verdict = check(&instance, &certificate, &Limits::default());
    let positions = verdict.work.positions.map_or(String::new(), |p| {
        format!(", {}", gamecert_certificates::base::text::counted(p, "position"))
    });
    Ok(Row {
        case: case.name.into(),
        description: case.description.into(),
        size,
        black: None,
        white: None,
        best: false,
        claim: verdict.claim.clone(),
        certificate: format!("{}{positions}", certificate.kind()),
        accepted: verdict.accepted(),
    })
}

/// The terminal width the table keeps to unless `--wide`.
pub const COLUMNS: usize = 100;

/// The table as text: by default within [`COLUMNS`], each case's short cells on one line and
/// its instance and answer on the next (wrapped between words, never cut); `wide`, one line a
/// case with every cell, as wide as the longest.
pub fn table(rows: &[Row], out: &Path, wide: bool) -> String {
    let score = |s: Option<usize>, best: bool| match s {
        Some(s) if best => format!("{s} (best)"),
        Some(s) => s.to_string(),
        None => "-".into(),
    };
    let checked = |r: &Row| if r.accepted { "accepted" } else { "REJECTED" }.to_string();
    let (header, cells): (Vec<&str>, Vec<Vec<String>>) = if wide {
        let header =
            vec!["case", "formula / graph", "size", "B", "W", "claim", "certificate", "checked"];
        let cells = rows
            .iter()
            .map(|r| {
                vec![
                    r.case.clone(),
                    r.description.clone(),
                    r.size.to_string(),
                    score(r.black, r.best),
                    score(r.white, false),
                    r.claim.clone(),
                    r.certificate.clone(),
                    checked(r),
                ]
            })
            .collect();
        (header, cells)
    } else {
        let header = vec!["case", "size", "B", "W", "certificate", "checked"];
        let cells = rows
            .iter()
            .map(|r| {
                vec![
                    r.case.clone(),
                    r.size.to_string(),
                    score(r.black, r.best),
                    score(r.white, false),
                    r.certificate.clone(),
                    checked(r),
                ]
            })
            .collect();
        (header, cells)
    };
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells.iter().map(|c| c[i].chars().count()).chain([header[i].len()]).max().unwrap_or(0)
        })
        .collect();
    let line = |items: &[String]| {
        let padded: Vec<String> = items
            .iter()
            .zip(&widths)
            .map(|(s, &w)| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count()))))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut text = line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    text += &line(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>());
    for (row, cells) in rows.iter().zip(&cells) {
        text += &line(cells);
        if !wide {
            text += &wrapped(&format!("{}: {}", row.description, row.claim), "    ", "      ");
        }
    }
    let accepted = rows.iter().filter(|r| r.accepted).count();
    text += &format!(
        "\n{accepted} of {} certificates accepted by the checker; files in {}\n",
        rows.len(),
        out.display()
    );
    text
}

/// `text` wrapped between words into lines of at most [`COLUMNS`] characters, the first
/// starting with `first`, the others with `rest` (a word longer than a line stays whole).
fn wrapped(text: &str, first: &str, rest: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > COLUMNS {
            out += line.trim_end();
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line += word;
        empty = false;
    }
    out += line.trim_end();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(claim: &str) -> Row {
        Row {
            case: "a-case".into(),
            description: "a description of the case".into(),
            size: 12,
            black: Some(3),
            white: Some(4),
            best: true,
            claim: claim.into(),
            certificate: "witness".into(),
            accepted: true,
        }
    }

    /// Issue 25: the default table fits 100 columns with every answer whole (wrapped, never
    /// cut), and `--wide` keeps one line a case.
    #[test]
    fn answers_are_whole_within_the_width() {
        let long = "the value of a game with a very long name indeed is 1 (first player's payoff: \
                    1 win, 0 tie, -1 loss), and then some more words to pass one line";
        let rows = [row("black-wins"), row(long)];
        let text = table(&rows, Path::new("out"), false);
        assert!(text.lines().all(|l| l.chars().count() <= COLUMNS), "{text}");
        assert!(!text.contains('…'), "{text}");
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(joined.contains(long), "{text}");
        assert!(joined.contains("3 (best)"), "{text}");
        let wide = table(&rows, Path::new("out"), true);
        assert_eq!(wide.lines().filter(|l| l.contains(long)).count(), 1, "{wide}");
        assert_eq!(wrapped("a b", "  ", "    "), "  a b\n");
    }
}
