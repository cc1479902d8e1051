//! `gamecert convert IN -o OUT [--to json|binary]`: a certificate's JSON into its binary form
//! or back (issue 47), streaming; nothing is checked.

use clap::Args as ClapArgs;
use gamecert::base::binary::{from_binary, from_json, BinaryWriter, Form, PrettyJson};
use gamecert::base::io::{open_stream, BadInput};
use gamecert_certificates::base::binary::BINARY_BYTE_WEIGHT;
use gamecert_certificates::base::text::counted;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Turn a certificate's JSON into its binary form or back, streaming (checks nothing:
/// `gamecert verify` checks either form the same way)
#[derive(ClapArgs)]
pub struct Args {
    /// The certificate: JSON or binary (told by its first bytes); `-` for standard input;
    /// gzip, xz and bzip2 files are read as they are.
    input: PathBuf,
    /// The file to write (`-`: standard output).
    #[arg(short, long)]
    output: PathBuf,
    /// The form to write [default: the other form than the input's].
    #[arg(long, value_enum)]
    to: Option<To>,
    /// Report as JSON on standard output (the two forms and their sizes).
    #[arg(long)]
    json: bool,
}

/// The forms `--to` names.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum To {
    /// JSON, laid out as `gamecert solve` writes it.
    Json,
    /// The binary form (`GCVALUE1`, docs/formats.md).
    Binary,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let Args { input, output, to, json } = args;
    if json && output == Path::new("-") {
        return Err(
            BadInput("--json prints its report on standard output: give -o FILE".into()).into()
        );
    }
    let mut opened = open_stream(&input)?;
    let mut head = Vec::new();
    (&mut opened).take(8).read_to_end(&mut head)?;
    let mut first: Box<dyn BufRead> =
        Box::new(std::io::BufReader::new(std::io::Cursor::new(head.clone()).chain(opened)));
    let from = Form::of(&head);
    let to = match to {
        Some(To::Json) => Form::Json,
        Some(To::Binary) => Form::Binary,
        None if from == Form::Json => Form::Binary,
        None => Form::Json,
    };
    let write = |path: &Path| -> anyhow::Result<Box<dyn std::io::Write>> {
        if path == Path::new("-") {
            return Ok(Box::new(std::io::BufWriter::new(std::io::stdout().lock())));
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = std::fs::File::create(path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        Ok(Box::new(std::io::BufWriter::with_capacity(1 << 20, file)))
    };
    let name = gamecert_certificates::verify::shown(&input);
    let bad = |e: String| BadInput(format!("{name}: {e}"));
    let out = write(&output)?;
    let written = match from {
        Form::Binary => {
            // Decoded by the checker's reader with the budget `verify` would give the file.
            let stored = std::fs::metadata(&input).map(|m| m.len()).unwrap_or(0);
            let limits = gamecert_certificates::Limits::for_input(stored * BINARY_BYTE_WEIGHT);
            let mut budget = limits.budget();
            match to {
                Form::Json => from_binary(first, &mut budget, &mut PrettyJson::new(out)),
                Form::Binary => from_binary(first, &mut budget, &mut BinaryWriter::new(out)?),
            }
            .map_err(bad)?
        }
        Form::Json => {
            // Two passes (the envelope first): a file is opened again, standard input held.
            let mut held = None;
            if input == Path::new("-") {
                let mut bytes = Vec::new();
                first.read_to_end(&mut bytes)?;
                held = Some(bytes);
            }
            let mut first = Some(first).filter(|_| held.is_none());
            let mut open = || -> std::io::Result<Box<dyn BufRead>> {
                if let Some(bytes) = &held {
                    return Ok(Box::new(std::io::Cursor::new(bytes.clone())));
                }
                match first.take() {
                    Some(reader) => Ok(reader),
                    None => open_stream(&input).map_err(|e| std::io::Error::other(e.0)),
                }
            };
            match to {
                Form::Json => from_json(&mut open, &mut PrettyJson::new(out)),
                Form::Binary => from_json(&mut open, &mut BinaryWriter::new(out)?),
            }
            .map_err(bad)?
        }
    };
    let read = std::fs::metadata(&input).map(|m| m.len()).ok();
    let text = format!(
        "{name} ({}{}) written to {} as {} ({}); nothing was checked: `gamecert verify` checks \
         either form",
        from.name(),
        read.map(|b| format!(", {}", counted(b, "byte"))).unwrap_or_default(),
        gamecert_certificates::verify::shown(&output),
        to.name(),
        counted(written, "byte")
    );
    if json {
        let fields = serde_json::json!({
            "input": name, "from": from.name(), "input_bytes": read,
            "output": gamecert_certificates::verify::shown(&output), "to": to.name(),
            "output_bytes": written,
        });
        crate::cli::print_json("convert", "unchecked", &text, started, fields)?;
    } else {
        crate::cli::note(quiet, &text);
    }
    Ok(ExitCode::SUCCESS)
}
