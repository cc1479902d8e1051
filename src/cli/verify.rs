//! `gamecert verify INSTANCE CERTIFICATE`: the checker's own pipeline, shared with
//! `gamecert-check`.

use clap::Args as ClapArgs;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check a certificate against an instance (exit 0 accepted, 1 rejected, 2 bad input).
#[derive(ClapArgs)]
pub struct Args {
    /// The instance: JSON, a positive DNF text (*.dnf or `p dnf` header), or an edge list;
    /// `-` for standard input; gzip, xz and bzip2 files are read as they are.
    instance: PathBuf,
    /// The certificate (JSON; `-` for standard input, compressed files as for the instance).
    certificate: PathBuf,
    /// Print the verdict as JSON.
    #[arg(long)]
    json: bool,
    /// The checker's work budget (default: 2*10^9 units plus 64 per input byte; about one
    /// unit per step or byte held). Raise it for a large honest certificate.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_work: Option<u64>,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { instance, certificate, json, max_work } = args;
    let files = (instance.as_path(), certificate.as_path());
    Ok(run_checker(files, json, max_work, "verify", quiet, gamecert_certificates::verify::run))
}

/// Runs one of the checker's own pipelines (`verify`, `lrat`) as `gamecert-check` does, with
/// gamecert's readers (`-`, compressed files) and a spinner while it works; prints its output.
pub fn run_checker(
    (first, second): (&std::path::Path, &std::path::Path),
    json: bool,
    max_work: Option<u64>,
    command: &'static str,
    quiet: bool,
    pipeline: fn(&gamecert_certificates::verify::Request) -> gamecert_certificates::verify::Outcome,
) -> ExitCode {
    // A large certificate can take minutes: a spinner (or a line every 10 s) on stderr.
    let mut working = crate::cli::progress::Progress::alive("checking", quiet);
    // A fault of the checker is reported in the verdict, so the default panic message is
    // kept off stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::time::Instant::now();
    let outcome = pipeline(&gamecert_certificates::verify::Request {
        instance: first,
        certificate: second,
        json,
        max_work,
        read: gamecert::base::io::reader,
        open: gamecert::base::io::opener,
        command,
        started,
    });
    working.finish();
    if json && outcome.code == 2 {
        crate::cli::print_error_json(command, &outcome.stderr, started);
    } else {
        print!("{}", outcome.stdout);
    }
    eprint!("{}", outcome.stderr);
    ExitCode::from(outcome.code)
}
