//! `gamecert-check [verify] [--json] [--max-work N] INSTANCE CERT`: the stand-alone checker.
//!
//! The same pipeline as `gamecert verify` ([`gamecert_certificates::verify`]): the same input
//! formats, messages and exit codes (0 accepted, 1 rejected, 3 not checked (the budget ran out
//! before the check could decide), 2 bad usage or a file that cannot
//! be read, does not parse or is not a valid instance; with `--json` also as JSON on standard
//! output); `--help` and `--version` exit 0.

use gamecert_certificates::verify::{
    error_json, open_file, parse_args, read_file, run, run_lrat, Args, Request,
};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = parse_args(&args);
    match &parsed {
        Args::Info(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Args::Usage(text) => {
            eprint!("{text}");
            ExitCode::from(2)
        }
        Args::Verify { instance: first, certificate: second, json, max_work }
        | Args::Lrat { cnf: first, proof: second, json, max_work } => {
            let lrat = matches!(parsed, Args::Lrat { .. });
            // A fault of the checker is reported in the verdict; keep standard error clean of
            // the default panic message.
            std::panic::set_hook(Box::new(|_| {}));
            let request = Request {
                instance: Path::new(&first),
                certificate: Path::new(&second),
                json: *json,
                max_work: *max_work,
                read: read_file,
                open: open_file,
                command: if lrat { "lrat" } else { "verify" },
                started: Some(std::time::Instant::now()),
            };
            let outcome = if lrat { run_lrat(&request) } else { run(&request) };
            let stdout = match *json && outcome.code == 2 {
                true => error_json(
                    request.command,
                    &outcome.stderr,
                    request.started.map_or(0.0, |started| started.elapsed().as_secs_f64()),
                ),
                false => outcome.stdout,
            };
            let _ = std::io::stdout().write_all(stdout.as_bytes());
            let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
            ExitCode::from(outcome.code)
        }
    }
}
