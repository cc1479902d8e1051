//! Every shell command of the README and of docs/ runs (issue 25, item 7), taken from the
//! Markdown itself so that none can be missed: every fenced block whose info string starts with
//! `sh` is run line by line (a line ending in `\` continues on the next), in one scratch
//! directory per Markdown file (so a later block may use the files an earlier one wrote), with
//! `gamecert` and `gamecert-check` on the PATH. Each command must exit 0, and every `verify`
//! must accept.
//!
//! - A block written as a transcript (`$ command` lines, each followed by its output) must print
//!   exactly that output.
//! - A block tagged `sh long` (minutes of work, gigabytes) runs only in the ignored test
//!   `every_long_doc_command_runs`.
//! - A command naming a program that is not installed (nauty, Graphviz's `dot`, the outside LRAT
//!   checkers) is skipped with a note; the set-up block of the README (the cargo commands) is
//!   what runs this test, so it is left out.
//! - A block tagged `sh setup` installs something (the Python package into a virtual
//!   environment): the test named beside it runs those steps (tests/it/python.rs), not this one.
//! - Every other fenced block must say what it is (`json`, `text`): an untagged block could hide
//!   a command.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A command of a Markdown file, with the output it shows when the block is a transcript.
#[derive(Debug)]
struct DocCommand {
    line: usize,
    text: String,
    expected: Option<Vec<String>>,
}

/// A fenced `sh` block.
#[derive(Debug)]
struct Block {
    long: bool,
    commands: Vec<DocCommand>,
}

/// The Markdown files: README.md and every `.md` under docs/, in a fixed order.
fn markdown_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut pending = vec![root.join("docs")];
    let mut docs = Vec::new();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                docs.push(path);
            }
        }
    }
    docs.sort();
    files.extend(docs);
    files
}

/// The `sh` blocks of `text`; panics on a fenced block without an info string.
fn blocks(file: &Path, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else { continue };
        let info = info.trim();
        assert!(
            !info.is_empty(),
            "{}:{}: a fenced block without a language",
            file.display(),
            index + 1
        );
        let mut body = Vec::new();
        for (k, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                break;
            }
            body.push((k + 1, l.to_string()));
        }
        let mut words = info.split_whitespace();
        if words.next() != Some("sh") {
            continue;
        }
        let tags: Vec<&str> = words.collect();
        if tags.contains(&"setup") {
            // Installs into the machine: tests/it/python.rs runs these very steps in a fresh
            // virtual environment.
            continue;
        }
        let long = tags.contains(&"long");
        out.push(Block { long, commands: commands(&body) });
    }
    out
}

/// The commands of a block's lines: continuations joined, comments dropped; in a transcript,
/// the `$ ` lines with the lines up to the next `$ ` as their output.
fn commands(body: &[(usize, String)]) -> Vec<DocCommand> {
    let transcript = body.iter().any(|(_, l)| l.starts_with("$ "));
    let mut out: Vec<DocCommand> = Vec::new();
    let mut continuing = false;
    for (line, text) in body {
        if continuing {
            let last = out.last_mut().expect("a continued command");
            last.text.push(' ');
            last.text.push_str(text.trim().trim_end_matches('\\'));
            continuing = text.trim_end().ends_with('\\');
            continue;
        }
        let command = if transcript { text.strip_prefix("$ ") } else { Some(text.as_str()) };
        match command {
            Some(c) if !c.trim().is_empty() && !c.trim_start().starts_with('#') => {
                continuing = c.trim_end().ends_with('\\');
                out.push(DocCommand {
                    line: *line,
                    text: c.trim().trim_end_matches('\\').trim().to_string(),
                    expected: transcript.then(Vec::new),
                });
            }
            Some(_) => {}
            None => {
                if let Some(expected) = out.last_mut().and_then(|c| c.expected.as_mut()) {
                    expected.push(text.trim_end().to_string());
                }
            }
        }
    }
    out
}

/// The programs a command line runs: the first word of each pipeline or list element (after
/// variable assignments).
fn programs(command: &str) -> Vec<String> {
    let code = command.split(" #").next().unwrap_or(command);
    code.split(['|', ';', '&', '(', ')'])
        .filter_map(|part| part.split_whitespace().find(|w| !w.contains('=')))
        .map(str::to_string)
        .collect()
}

fn installed(program: &str, path: &str) -> bool {
    ["echo", "printf", "cd", "wait", "cat", "grep", "cut", "head", "tail"].contains(&program)
        || std::env::split_paths(path).any(|dir| dir.join(program).is_file())
}

/// Runs the blocks (the long ones only when `long`), returns how many commands ran and which
/// were skipped.
fn run_all(long: bool, part: Part) -> (usize, Vec<String>) {
    let bin = Path::new(env!("CARGO_BIN_EXE_gamecert")).parent().unwrap().to_owned();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let (mut ran, mut skipped) = (0, Vec::new());
    for file in &part.files() {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = tempfile::tempdir().unwrap();
        for block in blocks(file, &text) {
            if block.commands.first().is_some_and(|c| c.text.starts_with("cargo ")) {
                continue; // the set-up block: what runs this test
            }
            for command in &block.commands {
                let place = format!("{}:{}", file.display(), command.line);
                if let Some(missing) =
                    programs(&command.text).into_iter().find(|p| !installed(p, &path))
                {
                    skipped.push(format!("{place}: `{missing}` is not installed"));
                    continue;
                }
                if block.long && !long {
                    continue;
                }
                if !block.long && long {
                    continue;
                }
                let out = Command::new("bash")
                    .args(["-o", "pipefail", "-c", &command.text])
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .output()
                    .unwrap();
                let (stdout, stderr) =
                    (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
                assert!(out.status.success(), "{place}: `{}` failed: {stderr}", command.text);
                if command.text.contains("gamecert verify")
                    || command.text.contains("gamecert-check")
                {
                    assert!(stdout.contains("ACCEPTED"), "{place}: `{}`: {stdout}", command.text);
                }
                if let Some(expected) = &command.expected {
                    let printed: Vec<&str> = stdout.lines().map(str::trim_end).collect();
                    assert_eq!(printed, *expected, "{place}: `{}` printed otherwise", command.text);
                }
                ran += 1;
            }
        }
    }
    (ran, skipped)
}

/// Which Markdown files a test runs: part `.0` of `.1`, the files split between tests by their
/// number of commands (largest first, each to the part with the fewest so far), so that the
/// test harness's threads share the minute they take.
#[derive(Clone, Copy)]
struct Part(usize, usize);

impl Part {
    fn files(self) -> Vec<PathBuf> {
        let mut sized: Vec<(usize, PathBuf)> = markdown_files()
            .into_iter()
            .map(|file| {
                let text = std::fs::read_to_string(&file).unwrap();
                (blocks(&file, &text).iter().map(|b| b.commands.len()).sum(), file)
            })
            .collect();
        sized.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let mut load = vec![0; self.1];
        let mut mine = Vec::new();
        for (commands, file) in sized {
            let least = (0..self.1).min_by_key(|&k| load[k]).unwrap();
            load[least] += commands;
            if least == self.0 {
                mine.push(file);
            }
        }
        mine
    }
}

/// Every file.
const ALL: Part = Part(0, 1);

/// Runs one part of the files' commands; returns how many ran.
fn run_part(part: Part) -> usize {
    let (ran, skipped) = run_all(false, part);
    for note in &skipped {
        eprintln!("skipped {note}");
    }
    ran
}

#[test]
fn every_doc_command_runs_part_1_of_2() {
    let ran = run_part(Part(0, 2));
    assert!(ran >= 30, "{ran} commands ran");
}

#[test]
fn every_doc_command_runs_part_2_of_2() {
    let ran = run_part(Part(1, 2));
    assert!(ran >= 30, "{ran} commands ran");
}

#[test]
#[ignore = "minutes and gigabytes: cargo test --release --test it -- --ignored every_long_doc_command_runs"]
fn every_long_doc_command_runs() {
    let (ran, _) = run_all(true, ALL);
    assert!(ran >= 1, "{ran} commands ran");
}

#[test]
fn the_extraction_sees_transcripts_continuations_and_tags() {
    let text = "```sh\n$ echo a \\\n  b\na b\n$ true\n```\n\n```sh long\nx\n# comment\n```\n";
    let found = blocks(Path::new("t.md"), text);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].commands[0].text, "echo a b");
    assert_eq!(found[0].commands[0].expected.as_deref(), Some(&["a b".to_string()][..]));
    assert_eq!(found[0].commands[1].expected.as_deref(), Some(&[][..]));
    assert!(found[1].long && found[1].commands.len() == 1);
    assert_eq!(
        programs("A=1 nauty-geng -c 3 | gamecert x && cut -f1 # a | b"),
        ["nauty-geng", "gamecert", "cut"]
    );
}

#[test]
#[should_panic(expected = "a fenced block without a language")]
fn an_untagged_block_is_refused() {
    blocks(Path::new("t.md"), "```\ngamecert demo\n```\n");
}
