//! Every numeric flag of every command is range-checked (issue 40, item 4): a value out of its
//! range, a negative number, a number past `u64` or a word is bad input (exit 2) whose message
//! names the flag and its range, never an abort; a value in range is a run that ends.
//!
//! **How the flags are found.** The walk reads the command line the binaries describe, not a
//! list kept here: `gamecert --help`, then `gamecert CMD --help` for every command its
//! `Commands:` section names, recursively, and every option its `Options:` section names;
//! `gamecert-check --help` likewise (its modes from its usage lines). Whether an option is
//! numeric is asked of its own value parser, without running anything: `gamecert CMD
//! --FLAG=VALUE --help` parses VALUE with the flag's parser and exits 2 if it refuses it, or
//! prints the help and exits 0 if it takes it (clap parses each value as it reads it and acts
//! on `--help` before checking required or conflicting arguments; `gamecert-check` reads its
//! arguments in order too). An option that takes `x` takes text (a file, a code), one that
//! refuses it listing `[possible values` is a choice; any other is numeric if it takes one of
//! a few numbers, and then its refusal of `x` must name its range, `expected a (whole) number
//! from LO to HI`, as `args::ranged` words it. So a numeric flag added without a range fails
//! here: clap's own parsers say `invalid digit found in string` for `x`. This reads clap's
//! definition through the binary itself (the parser lives in the binary, `src/main.rs`, and
//! the library has no clap types), so nothing is exposed for the test. Not walked: options
//! hidden from the help (gamecert has none) and positional arguments (`nim`'s A and B are
//! read by the command itself, "from 0 to 2^128 - 1").
//!
//! **What is held, per numeric flag.** Its help states the same range (`LO to HI`); LO and HI
//! are taken and the numbers just outside refused; a list flag (`--rounds 1,2`) refuses a list
//! with one bad element. Then the command runs on a small valid base invocation (below, with
//! tiny files written here) with the flag set to each of 0, -1, 2^32 and 2^64, and to the top
//! of its range, HI (issue 46, item 7: a range is one the command can run): out of range it
//! exits 2 within 10 s naming the flag and the range; in range it ends within 60 s with exit
//! 0, 1 or 2, its command line accepted, no signal and no panic. HI runs one at a time, under
//! an address-space limit, and must hold at most 2 GiB at its peak (read by
//! `common::measured`): so the top either runs within these bounds, or is refused before any
//! work with the time and memory it would need (the commands whose tops take long are given
//! `--max-minutes 0.1` in their base invocations, so such a top is refused, not run; without
//! it they allow 60 minutes). `gamecert serve` runs until it is stopped, so for it only the
//! values out of range are run (its ranges are held like every other flag's, and stated on
//! docs/serve.md rather than in the table). Last, the table of docs/commands/README.md
//! ("Numeric flags and their ranges") must state every range the walk found, and no flag it
//! did not.
//!
//! About 340 runs, on four threads: 3 s on the 2-core machine (2026-11-28) before the HI runs;
//! with them about TOTAL_SECONDS. Needs `gamecert-check` built beside `gamecert` (`cargo test
//! --workspace`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The values every numeric flag is run with.
const VALUES: [&str; 4] = ["0", "-1", "4294967296", "18446744073709551616"];

/// How long a run in range may take, and one out of range (clap refuses it at once).
const IN_RANGE: Duration = Duration::from_secs(60);
const OUT_OF_RANGE: Duration = Duration::from_secs(10);

/// The most a run at the top of a range may hold (peak resident memory), and the address space
/// it is given (an allocation past it is an abort the run reports).
const HI_PEAK_BYTES: u64 = 2 << 30;
const HI_ADDRESS_SPACE_KIB: u64 = 8 << 20;

/// The runs at the top of a range go one at a time (each may take seconds and a few hundred
/// megabytes; four at once on two cores would only slow each other).
static ONE_TOP_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The one command whose in-range runs are skipped (it serves until stopped).
const SERVE: &str = "serve";

/// A small valid invocation of every command with numeric flags, after the command's words;
/// the files are written by [`write_files`] into the folder every run starts in.
fn base_invocation(command: &str) -> Option<&'static [&'static str]> {
    // The commands whose flags reach runs of hours take `--max-minutes 0.1`: a top past six
    // seconds (by their estimates) is refused before any work, with its time and memory.
    Some(match command {
        "gen path" => &["--vertices", "4", "--rounds", "1", "--max-minutes", "0.1"],
        "gen kary-tree" => &["--k", "2", "--height", "1", "--rounds", "1", "--max-minutes", "0.1"],
        "gen tree" => &["--vertices", "4", "--rounds", "1", "--max-minutes", "0.1"],
        "gen graph" => &["--graph6", "k4.g6", "--rounds", "1", "--max-minutes", "0.1"],
        "gen triangulation" => {
            &["--kind", "points", "--points", "6", "--inner", "1", "--max-minutes", "0.1"]
        }
        "gen vertexnim" => &["--vertices", "4", "--max-minutes", "0.1"],
        "reduce" => &["posdnf-voronoi", "f.dnf", "-o", "reduced.json"],
        "solve" => &["path.json"],
        "verify" | "hint" | "play" => &["path.json", "path.cert.json"],
        "render" => &["path.json", "-o", "path.svg"],
        "export-proof" => &["s.json", "s.cert.json"],
        "lrat" => &["f.cnf", "f.lrat"],
        "table voronoi-kary" => {
            &["--max-vertices", "3", "--budget", "1", "--prove-limit", "1", "--max-minutes", "0.1"]
        }
        "table voronoi-paths" => &["--max-vertices", "4", "--max-minutes", "0.1"],
        "table voronoi-graphs" => &["--max-n", "3", "--rounds", "1", "--max-minutes", "0.1"],
        "table triangle-avoidance" => {
            &["--max-n", "3", "--processes", "1", "--process", "0", "--max-minutes", "0.1"]
        }
        // Its exact misère rows to 10 triangles take about 10 s whatever N.
        "table nimstring-fans" => &["--max-triangles", "2", "--max-minutes", "1"],
        "table kayles" | "table dawson-kayles" | "table grundy" => {
            &["--n", "5", "--max-minutes", "0.1"]
        }
        "table octal" => &["--code", "0.137", "--n", "5", "--max-minutes", "0.1"],
        "table bichromatic-construct" => &["--max-points", "3", "--max-minutes", "0.1"],
        "table flipping" => &["--max-n", "6", "--max-minutes", "0.1"],
        "table green-wins" => &[
            "--max-convex",
            "4",
            "--point-sets",
            "1",
            "--max-points",
            "5",
            "--cap",
            "10",
            "--max-minutes",
            "0.1",
        ],
        "table vertex-nimg" => &["--max-n", "1", "--max-weight", "1", "--max-minutes", "0.1"],
        "table serpentine-mft" => &["--max-n", "4", "--max-minutes", "0.1"],
        "check-reduction" => &["sat-voronoi1", "--trials", "1", "--max-minutes", "0.1"],
        "bench" => &["construct", "--seconds", "0.1", "--max-minutes", "0.1"],
        "serve" => &[],
        // The module named is missing, so every run ends at once with exit 2 (the demo's cases
        // are not solved): the flags' parsing is what is tested.
        "page" => &["--out", "site", "--wasm", "no.wasm"],
        // gamecert-check's modes.
        "gamecert-check verify" => &["verify", "path.json", "path.cert.json"],
        "gamecert-check lrat" => &["lrat", "f.cnf", "f.lrat"],
        _ => return None,
    })
}

/// The files the base invocations name: a path game and its certificate (made by `gen` and
/// `solve`), a refuted formula with its LRAT proof, a graph6 stream of K4.
fn write_files(dir: &Path) {
    std::fs::write(dir.join("k4.g6"), "C~\n").unwrap();
    std::fs::write(dir.join("f.cnf"), "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    std::fs::write(dir.join("f.lrat"), "3 0 1 2 0\n").unwrap();
    std::fs::write(dir.join("f.dnf"), "p dnf 2 1\n1 2\n").unwrap();
    std::fs::write(dir.join("s.cnf"), "p cnf 3 2\n1 2 0\n-1 3 0\n").unwrap();
    let gamecert = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    gamecert(&["gen", "path", "--vertices", "4", "--rounds", "1", "-o", "path.json"]);
    gamecert(&["-q", "solve", "path.json", "-o", "path.cert.json"]);
    // A witness of a reduced formula, for export-proof's model.
    gamecert(&["reduce", "sat-voronoi1", "s.cnf", "-o", "s.json"]);
    gamecert(&["-q", "solve", "s.json", "-o", "s.cert.json"]);
}

/// One of the two binaries: its path and the words of its command line.
#[derive(Clone)]
struct Program {
    binary: PathBuf,
    /// `gamecert`, or `gamecert-check` (no clap: its help is its own usage text).
    name: &'static str,
}

/// An option as a command's help lists it.
#[derive(Clone, Debug)]
struct Flag {
    /// `--point-sets`.
    long: String,
    /// Its help paragraph, on one line.
    help: String,
}

/// A command of a binary and the options of its help that take a value.
#[derive(Clone)]
struct Walked {
    program: Program,
    /// The command's words after the binary (`table green-wins`); for `gamecert-check`, its
    /// mode (`verify`, `lrat`).
    words: Vec<String>,
    flags: Vec<Flag>,
}

impl Walked {
    /// The command as named in [`base_invocation`] and in messages.
    fn name(&self) -> String {
        match self.program.name {
            "gamecert" => self.words.join(" "),
            other => format!("{other} {}", self.words.join(" ")),
        }
    }
}

/// The outcome of one run.
struct Run {
    /// `None`: ended by a signal, or killed at the time limit.
    code: Option<i32>,
    stderr: String,
    timed_out: bool,
    seconds: f64,
}

/// Runs `binary args` in `dir` (standard input empty, standard output dropped), killed at
/// `limit`.
fn run(binary: &Path, args: &[String], dir: &Path, limit: Duration) -> Run {
    let started = Instant::now();
    let mut child = Command::new(binary)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break status;
        }
        if started.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("waiting for the killed child");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = reader.join().expect("the reader thread");
    Run { code: status.code(), stderr, timed_out, seconds: started.elapsed().as_secs_f64() }
}

/// Whether `--FLAG=VALUE` is taken by the flag's parser (exit 0 with `--help` after it), and
/// the refusal's message if not.
fn parses(walked: &Walked, flag: &str, value: &str, dir: &Path) -> Result<(), String> {
    let mut args = walked.words.clone();
    args.push(format!("{flag}={value}"));
    args.push("--help".into());
    let out = run(&walked.program.binary, &args, dir, OUT_OF_RANGE);
    match out.code {
        Some(0) => Ok(()),
        Some(2) => Err(out.stderr),
        _ => panic!("{} {args:?}: neither help nor a refusal: {:?}", walked.name(), out.code),
    }
}

/// An option line of a help text: the long name, whether it takes a value, and the text after
/// its value's name. clap writes `  -o, --output <OUTPUT>  text` or `      --json`;
/// `gamecert-check`, `  --max-work N    text`. Description lines are indented further.
fn option_line(line: &str) -> Option<(String, bool, String)> {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    if !(2..=6).contains(&indent) || !trimmed.starts_with('-') {
        return None;
    }
    let rest = match trimmed.strip_prefix("--") {
        Some(rest) => rest,
        // A short name first: `-o, --output`.
        None => trimmed.split_once(", --")?.1,
    };
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(rest.len());
    let (name, after) = rest.split_at(end);
    let (takes_value, text) = if let Some(value) = after.strip_prefix(" <") {
        (true, value.split_once('>').map_or("", |(_, text)| text))
    } else {
        // An upper-case word: gamecert-check's `--max-work N`.
        let word = after.split_whitespace().next().unwrap_or("");
        match !word.is_empty() && word.chars().all(|c| c.is_ascii_uppercase()) {
            true => (true, after.trim_start().strip_prefix(word).unwrap_or("")),
            false => (false, after),
        }
    };
    let text = text.trim_start_matches("...").trim();
    Some((format!("--{name}"), takes_value, text.to_string()))
}

/// The options that take a value, with their help paragraphs, and the subcommands, of a help
/// text.
fn read_help(help: &str) -> (Vec<Flag>, Vec<String>) {
    let (mut flags, mut commands) = (Vec::new(), Vec::new());
    let mut section = "";
    let mut current: Option<(Flag, bool)> = None;
    let mut finish = |current: &mut Option<(Flag, bool)>| {
        if let Some((flag, true)) = current.take() {
            flags.push(flag);
        }
    };
    for line in help.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            finish(&mut current);
            section = line.trim_end_matches(':');
            continue;
        }
        if section == "Commands" {
            let name = line.split_whitespace().next().unwrap_or("");
            let listed = line.starts_with("  ") && !line.starts_with("   ");
            if listed && !name.is_empty() && name != "help" {
                commands.push(name.to_string());
            }
            continue;
        }
        // clap's `Options:`; gamecert-check's options follow its text unheaded. (An argument
        // or a possible value is not an option line: `  <NAME>`, `          - linear: ...`.)
        if let Some((long, takes_value, text)) = option_line(line) {
            finish(&mut current);
            current = Some((Flag { long, help: text }, takes_value));
        } else if let Some((flag, _)) = current.as_mut() {
            if line.trim().is_empty() {
                continue;
            }
            flag.help = format!("{} {}", flag.help, line.trim()).trim().to_string();
        }
    }
    finish(&mut current);
    (flags, commands)
}

/// Every command of `gamecert`, walked from its top-level help.
fn walk_gamecert(program: &Program, dir: &Path) -> Vec<Walked> {
    let mut walked = Vec::new();
    let mut queue = vec![Vec::<String>::new()];
    while let Some(words) = queue.pop() {
        let mut args = words.clone();
        args.push("--help".into());
        let out = Command::new(&program.binary).args(&args).current_dir(dir).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "gamecert {args:?}");
        let help = String::from_utf8(out.stdout).expect("UTF-8 help");
        let (flags, commands) = read_help(&help);
        // A command with subcommands (`gen`, `table`) lists its global options (`--json`,
        // `--max-minutes`), which every subcommand takes: they are walked there.
        let flags = if commands.is_empty() { flags } else { Vec::new() };
        for command in commands {
            let mut sub = words.clone();
            sub.push(command);
            queue.push(sub);
        }
        if !words.is_empty() {
            walked.push(Walked { program: program.clone(), words, flags });
        }
    }
    walked
}

/// `gamecert-check`'s modes (the words after the program in its usage lines: `[verify]`,
/// `lrat`), each with the options its help lists.
fn walk_checker(program: &Program) -> Vec<Walked> {
    let out = Command::new(&program.binary).arg("--help").output().expect("gamecert-check runs");
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8(out.stdout).expect("UTF-8 help");
    let (flags, _) = read_help(&help);
    let modes: Vec<String> = help
        .lines()
        .filter_map(|line| {
            let after = line.split_once("gamecert-check ")?.1;
            let word = after.split_whitespace().next()?.trim_matches(|c| c == '[' || c == ']');
            (!word.starts_with('-') && word.chars().all(|c| c.is_ascii_lowercase()))
                .then(|| word.to_string())
        })
        .collect();
    assert!(modes.len() >= 2, "gamecert-check's usage names its modes: {modes:?}\n{help}");
    let words = |mode: &String| vec![mode.clone()];
    modes
        .iter()
        .map(|mode| Walked { program: program.clone(), words: words(mode), flags: flags.clone() })
        .collect()
}

/// A numeric flag's range, read from its refusal of `x`: `expected a whole number from LO to
/// HI`, or `expected a number from LO to HI` for fractions; the bounds as the messages write
/// them (`64`, `0.01`, `10^15`, `2^26`, `2^64 - 1`).
#[derive(Clone, Debug)]
struct Range {
    lo: String,
    hi: String,
    whole: bool,
}

impl Range {
    /// `LO to HI`, as the message and the help write it.
    fn text(&self) -> String {
        format!("{} to {}", self.lo, self.hi)
    }

    /// Whether the probe value `text` (a decimal number) is in the range: exactly for whole
    /// numbers (2^64 is past 2^64 - 1, which `f64` cannot tell).
    fn contains(&self, text: &str) -> bool {
        match self.whole {
            true => {
                let value: i128 = text.parse().expect("a whole probe");
                (whole(&self.lo) as i128..=whole(&self.hi) as i128).contains(&value)
            }
            false => {
                let value: f64 = text.parse().expect("a probe");
                (fraction(&self.lo)..=fraction(&self.hi)).contains(&value)
            }
        }
    }

    /// A bound written as a plain number: LO or HI (`2^26` as `67108864`).
    fn plain(&self, bound: &str) -> String {
        match self.whole {
            true => whole(bound).to_string(),
            false => bound.to_string(),
        }
    }

    /// The numbers just outside: below LO and above HI.
    fn just_outside(&self) -> [String; 2] {
        match self.whole {
            true => [(whole(&self.lo) as i128 - 1).to_string(), (whole(&self.hi) + 1).to_string()],
            false => {
                [format!("{}", fraction(&self.lo) - 1.0), format!("{}", fraction(&self.hi) + 1.0)]
            }
        }
    }
}

/// A whole bound (`64`, `10^15`, `2^26`, `2^64 - 1`) exactly.
fn whole(text: &str) -> u128 {
    let (power, minus_one) = match text.strip_suffix(" - 1") {
        Some(power) => (power, 1),
        None => (text, 0),
    };
    let value = match power.split_once('^') {
        Some(("10", k)) => 10u128.pow(k.parse().expect("an exponent")),
        Some(("2", k)) => 1u128 << k.parse::<u32>().expect("an exponent"),
        _ => power.parse().unwrap_or_else(|_| panic!("a bound: {text:?}")),
    };
    value - minus_one
}

/// A bound of a fraction flag (`0.01`, `4096`).
fn fraction(text: &str) -> f64 {
    text.parse().unwrap_or_else(|_| panic!("a bound: {text:?}"))
}

/// The range a refusal names, if it names one.
fn named_range(message: &str) -> Option<Range> {
    let line = message.lines().find(|l| l.contains("expected a"))?;
    let (whole, rest) = match line.split_once("expected a whole number from ") {
        Some((_, rest)) => (true, rest),
        None => (false, line.split_once("expected a number from ")?.1),
    };
    let (lo, hi) = rest.trim().split_once(" to ")?;
    Some(Range { lo: lo.to_string(), hi: hi.to_string(), whole })
}

/// The arguments of `walked` on its base invocation with `flag` set to `value` (its base
/// value replaced, or the flag added).
fn invocation(walked: &Walked, base: &[&str], flag: &str, value: &str) -> Vec<String> {
    let mut args = walked.words.clone();
    let mut base: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    // gamecert-check's base invocations name the mode themselves.
    if walked.program.name != "gamecert" {
        base.remove(0);
    }
    match base.iter().position(|a| a == flag) {
        Some(i) => {
            base.remove(i + 1);
            base[i] = format!("{flag}={value}");
        }
        None => base.push(format!("{flag}={value}")),
    }
    args.extend(base);
    args
}

/// What one flag's walk found wrong (empty: nothing), and what it ran.
#[derive(Default)]
struct Report {
    problems: Vec<String>,
    ran: Vec<String>,
    numeric: bool,
    /// The range its refusals name (`0 to 10^5`).
    range: Option<String>,
}

/// Holds one flag of one command to the rule (the module's doc comment).
fn check_flag(walked: &Walked, flag: &Flag, dir: &Path) -> Report {
    let mut report = Report::default();
    let command = walked.name();
    let who = format!("{command} {}", flag.long);
    let x = match parses(walked, &flag.long, "x", dir) {
        Ok(()) => return report, // text: a file, a code
        Err(message) if message.contains("[possible values") => return report, // a choice
        Err(message) => message,
    };
    let range = named_range(&x);
    if range.is_none() {
        // Numeric if it takes a number; else some other typed value (an address).
        let numbers = ["0", "1", "2", "10", "1000", "0.5"];
        if !numbers.iter().any(|n| parses(walked, &flag.long, n, dir).is_ok()) {
            return report;
        }
    }
    report.numeric = true;
    let Some(base) = base_invocation(&command) else {
        report.problems.push(format!(
            "{who}: no base invocation for `{command}`: add a small valid one to \
             tests/it/flags.rs's base_invocation"
        ));
        return report;
    };
    let serve = command == SERVE;
    let Some(range) = range else {
        report.problems.push(format!(
            "{who} takes numbers but names no range when it refuses 'x' (give it a value \
             parser from src/cli/args.rs's `ranged`): {}",
            x.trim()
        ));
        return report;
    };
    let range_text = range.text();
    report.range = Some(range_text.clone());
    // Its help states the range its parser has.
    let help = flag.help.split_whitespace().collect::<Vec<_>>().join(" ");
    if !help.contains(&range_text) {
        report
            .problems
            .push(format!("{who}: its help does not state its range `{range_text}`: {help:?}"));
    }
    // The bounds are taken, the numbers just outside refused, with the same range named.
    for inside in [range.plain(&range.lo), range.plain(&range.hi)] {
        if let Err(message) = parses(walked, &flag.long, &inside, dir) {
            report.problems.push(format!("{who}: its bound {inside} is refused: {message}"));
        }
    }
    for outside in range.just_outside() {
        match parses(walked, &flag.long, &outside, dir) {
            Ok(()) => report.problems.push(format!("{who}: {outside}, out of range, is taken")),
            Err(message) if !message.contains(&range_text) => report
                .problems
                .push(format!("{who}: {outside} is refused without the range: {message}")),
            Err(_) => {}
        }
    }
    // A list flag (`--rounds 1,2`) refuses a list with one element out of range.
    let lo = range.plain(&range.lo);
    let list = parses(walked, &flag.long, &format!("{lo},{lo}"), dir).is_ok();
    // The four values, each on the base invocation; then the top of the range.
    let hi = range.plain(&range.hi);
    let top = (!VALUES.contains(&hi.as_str())).then_some(hi.as_str());
    for value in VALUES.into_iter().chain(top) {
        if Some(value) == top {
            if !serve {
                report.problems.extend(check_top(
                    walked,
                    base,
                    &flag.long,
                    value,
                    dir,
                    &mut report.ran,
                ));
            }
            continue;
        }
        let inside = range.contains(value);
        let mut values = vec![value.to_string()];
        if list && !inside {
            values.push(format!("{lo},{value}"));
        }
        for value in values {
            let args = invocation(walked, base, &flag.long, &value);
            if inside && serve {
                report.ran.push(format!("{who}={value}: in range, skipped (a server)"));
                continue;
            }
            let limit = if inside { IN_RANGE } else { OUT_OF_RANGE };
            let out = run(&walked.program.binary, &args, dir, limit);
            let what = if inside { "in range" } else { "out of range" };
            report.ran.push(format!(
                "{who}={value}: {what}, exit {:?} in {:.2} s",
                out.code, out.seconds
            ));
            let panicked = out.stderr.contains("panicked");
            let usage_error = out.stderr.contains("For more information, try '--help'")
                || out.stderr.contains("usage: gamecert-check");
            let fine = match inside {
                false => {
                    out.code == Some(2)
                        && out.stderr.contains(&flag.long)
                        && out.stderr.contains(&range_text)
                }
                true => matches!(out.code, Some(0..=2)) && !usage_error,
            };
            if !fine || panicked || out.timed_out {
                let expected = match inside {
                    true => "expected an end with exit 0, 1 or 2, the command line accepted",
                    false => "expected exit 2 naming the flag and its range",
                };
                report.problems.push(format!(
                    "{who}={value} ({what}: {expected}): exit {:?}{} after {:.1} s: {}\n  (ran \
                     {args:?})",
                    out.code,
                    if out.timed_out { ", killed at the time limit" } else { "" },
                    out.seconds,
                    out.stderr.trim(),
                ));
            }
        }
    }
    report
}

/// Runs `walked` on its base invocation with `flag` at the top of its range, `value`, alone
/// (no other top runs meanwhile), measured: it must end within 60 s with exit 0, 1 or 2 (a
/// refusal, before any work, of what would not fit), its command line accepted, no signal and
/// no panic, holding at most [`HI_PEAK_BYTES`]. What it did goes to `ran`; the problems are
/// returned.
fn check_top(
    walked: &Walked,
    base: &[&str],
    flag: &str,
    value: &str,
    dir: &Path,
    ran: &mut Vec<String>,
) -> Vec<String> {
    let who = format!("{} {flag}", walked.name());
    let args = invocation(walked, base, flag, value);
    let arguments: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = {
        let _alone = ONE_TOP_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let binary = &walked.program.binary;
        crate::common::measured(binary, &arguments, dir, HI_ADDRESS_SPACE_KIB, IN_RANGE)
    };
    ran.push(format!(
        "{who}={value}: the top, exit {:?} in {:.2} s, {} MB at the peak{}",
        out.code,
        out.seconds,
        out.peak >> 20,
        if out.code == Some(2) { format!(": {}", out.stderr.trim()) } else { String::new() }
    ));
    let usage_error = out.stderr.contains("For more information, try '--help'")
        || out.stderr.contains("usage: gamecert-check");
    let fine = matches!(out.code, Some(0..=2)) && !usage_error && out.signal == 0;
    if fine && !out.timed_out && !out.stderr.contains("panicked") && out.peak <= HI_PEAK_BYTES {
        return Vec::new();
    }
    vec![format!(
        "{who}={value} (the top of its range: expected an end within 60 s and {} MB, with exit \
         0, 1 or 2, or a refusal before any work): exit {:?}, signal {}{}, {} MB at the peak, \
         after {:.1} s: {}\n  (ran {args:?})",
        HI_PEAK_BYTES >> 20,
        out.code,
        out.signal,
        if out.timed_out { ", killed at the time limit" } else { "" },
        out.peak >> 20,
        out.seconds,
        out.stderr.trim(),
    )]
}

/// Every numeric flag of `gamecert` and `gamecert-check`, walked and held to its range.
#[test]
fn every_numeric_flag_is_range_checked() {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path());
    let gamecert =
        Program { binary: PathBuf::from(env!("CARGO_BIN_EXE_gamecert")), name: "gamecert" };
    let checker =
        Program { binary: crate::common::gamecert_check_binary(), name: "gamecert-check" };
    let mut commands = walk_gamecert(&gamecert, dir.path());
    commands.extend(walk_checker(&checker));
    let jobs: Vec<(&Walked, &Flag)> =
        commands.iter().flat_map(|c| c.flags.iter().map(move |f| (c, f))).collect();
    // Four threads over the flags: most runs are a process refusing its command line.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let reports: Vec<(String, Report)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((walked, flag)) = jobs.get(i) else { break done };
                        let name = format!("{} {}", walked.name(), flag.long);
                        done.push((name, check_flag(walked, flag, dir.path())));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker")).collect()
    });
    let reports: BTreeMap<String, Report> = reports.into_iter().collect();
    let numeric: Vec<&String> = reports.iter().filter(|(_, r)| r.numeric).map(|(n, _)| n).collect();
    let runs: usize = reports.values().map(|r| r.ran.len()).sum();
    eprintln!(
        "{} commands, {} numeric flags, {runs} runs, {:.1} s",
        commands.len(),
        numeric.len(),
        started.elapsed().as_secs_f64()
    );
    // The walk is not vacuous: it finds the flags named in the issue and the base invocations'
    // commands (a base invocation no walked numeric flag uses is stale).
    for expected in [
        "table green-wins --point-sets",
        "table voronoi-graphs --rounds",
        "verify --max-work",
        "gen vertexnim --density",
        "gamecert-check verify --max-work",
        "gamecert-check lrat --max-work",
    ] {
        assert!(numeric.iter().any(|n| *n == expected), "the walk missed {expected}: {numeric:?}");
    }
    let commands_with_numbers: std::collections::BTreeSet<String> =
        numeric.iter().map(|n| n.rsplit_once(" --").expect("a flag").0.to_string()).collect();
    for command in commands.iter().map(Walked::name) {
        if base_invocation(&command).is_some() && !commands_with_numbers.contains(&command) {
            panic!("{command} has a base invocation but the walk found no numeric flag of it");
        }
    }
    // What each top did (with --nocapture): ran, or was refused and why.
    for line in reports.values().flat_map(|r| &r.ran).filter(|l| l.contains(": the top,")) {
        eprintln!("{line}");
    }
    let doc_problems = problems_in_the_docs(&commands, &reports);
    assert!(numeric.len() >= 50, "only {} numeric flags found: {numeric:?}", numeric.len());
    let problems: Vec<&String> =
        reports.values().flat_map(|r| &r.problems).chain(&doc_problems).collect();
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.iter().map(|p| p.as_str()).collect::<Vec<_>>().join("\n")
    );
}

/// The table of docs/commands/README.md ("Numeric flags and their ranges") against the walk:
/// every numeric flag of `gamecert` (but `serve`'s, on docs/serve.md) in its command's row with
/// the range its refusals name, and no row naming a flag the walk did not find.
fn problems_in_the_docs(commands: &[Walked], reports: &BTreeMap<String, Report>) -> Vec<String> {
    let mut problems = Vec::new();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands/README.md");
    let text = std::fs::read_to_string(&path).expect("docs/commands/README.md");
    let section = text
        .split_once("### Numeric flags and their ranges")
        .map(|(_, rest)| rest.split("\n## ").next().unwrap_or(rest))
        .expect("docs/commands/README.md has its section on numeric flags");
    // Each row: its commands (`table kayles`, `dawson-kayles` is `table dawson-kayles`) and
    // its text of flags and ranges.
    let mut rows: BTreeMap<String, String> = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let names: Vec<&str> = cells[1].split(", ").map(|n| n.trim_matches('`')).collect();
        let prefix = names[0].split_once(' ').map(|(first, _)| first);
        for name in &names {
            let name = match (prefix, name.contains(' ')) {
                (Some(prefix), false) => format!("{prefix} {name}"),
                _ => name.to_string(),
            };
            rows.insert(name, format!("{} ", cells[2]));
        }
    }
    for walked in commands.iter().filter(|c| c.program.name == "gamecert" && c.name() != SERVE) {
        let command = walked.name();
        for flag in &walked.flags {
            let Some(report) = reports.get(&format!("{command} {}", flag.long)) else { continue };
            let Some(range) = &report.range else { continue };
            let stated = format!("`{}` {range}", flag.long);
            let row = rows.get(&command);
            // The range whole: followed by a separator, not by more digits.
            let states = row.is_some_and(|row| {
                row.match_indices(&stated).any(|(at, _)| {
                    matches!(row[at + stated.len()..].chars().next(), Some(' ' | ',' | ';'))
                })
            });
            if !states {
                problems.push(format!(
                    "docs/commands/README.md: the row of `{command}` does not state {stated}: {row:?}"
                ));
            }
        }
    }
    for (command, row) in &rows {
        for flag in row.split('`').filter(|w| w.starts_with("--")) {
            if reports.get(&format!("{command} {flag}")).is_none_or(|r| r.range.is_none()) {
                problems.push(format!(
                    "docs/commands/README.md: `{command}` has no numeric flag {flag} with a range"
                ));
            }
        }
    }
    problems
}

/// The help reader on both help formats (a failure here would make the walk blind).
#[test]
fn help_texts_are_read() {
    let clap_help = "About\n\nUsage: gamecert table x [OPTIONS]\n\nCommands:\n  kayles  Kayles\n  \
                     help    Print help\n\nOptions:\n      --n <N>\n          Print G(0..=N), N \
                     from 0 to 2^26\n\n  -q, --quiet\n          Quiet\n  -o, --output <OUTPUT>  \
                     Output file\n      --rounds <ROUNDS>...  The rounds\n";
    let (flags, commands) = read_help(clap_help);
    assert_eq!(commands, ["kayles"]);
    let names: Vec<&str> = flags.iter().map(|f| f.long.as_str()).collect();
    assert_eq!(names, ["--n", "--output", "--rounds"]);
    assert_eq!(flags[0].help, "Print G(0..=N), N from 0 to 2^26");
    assert_eq!(flags[1].help, "Output file");
    let checker_help = "usage: gamecert-check [verify] [-q] INSTANCE CERTIFICATE\n\nChecks.\n\n  \
                        -q, --quiet     quiet\n  --max-work N    the budget, 1 to\n          \
                        10^15\n  -h, --help      help\n";
    let (flags, _) = read_help(checker_help);
    assert_eq!(flags.len(), 1, "{flags:?}");
    assert_eq!(
        (flags[0].long.as_str(), flags[0].help.as_str()),
        ("--max-work", "the budget, 1 to 10^15")
    );
    assert_eq!(whole("2^64 - 1"), u128::from(u64::MAX));
    assert_eq!(whole("10^15"), 10u128.pow(15));
    let message =
        "error: invalid value 'x' for '--n <N>': expected a whole number from 0 to 2^64 - 1";
    let range = named_range(message).unwrap();
    assert_eq!(range.text(), "0 to 2^64 - 1");
    assert!(range.contains("4294967296") && !range.contains("18446744073709551616"));
    assert!(!range.contains("-1") && range.contains("0"));
    assert_eq!(range.just_outside(), ["-1", "18446744073709551616"]);
    let range = named_range("...: expected a number from 0.01 to 4096").unwrap();
    assert!(!range.whole && !range.contains("0") && range.contains("4096"));
    assert_eq!(range.just_outside(), ["-0.99", "4097"]);
}
