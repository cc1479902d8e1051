//! `gamecert serve [--bind ADDR] [--port N]`: the page in the browser ([`gamecert::serve`]).
//! The gallery is the demo's cases, run once at start-up into a private temporary directory,
//! read back and removed; the server then offers the ones the checker accepted.

use gamecert::serve::gallery::{CaseFiles, Gallery};
use gamecert::serve::Config;
use std::io::Write;
use std::net::IpAddr;
use std::process::ExitCode;

/// Serve a page in the browser: the demo's cases to open, verify uploaded files, play against
/// a certified strategy (runs until stopped).
#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port (0: the system picks a free one; the first line printed names it).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The largest upload accepted, in megabytes (a larger request gets 413).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    max_upload_mb: u64,
    /// The checker's work budget for every check (as for `verify`; default: verify's, from
    /// the files' sizes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_work: Option<u64>,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let files = demo_files(quiet)?;
    let count = files.len();
    let (gallery, dropped) = Gallery::load(files, args.max_work);
    for why in &dropped {
        crate::cli::note(quiet, &format!("not offered: {why}"));
    }
    crate::cli::note(
        quiet,
        &format!("gallery: {} of {count} demo cases accepted by the checker", gallery.cases.len()),
    );
    let config = Config {
        bind: args.bind,
        port: args.port,
        max_upload_bytes: usize::try_from(args.max_upload_mb << 20).unwrap_or(usize::MAX),
        max_work: args.max_work,
        ..Config::default()
    };
    gamecert::serve::serve(config, gallery, |address| {
        // The first line of standard output, read by tests and scripts.
        println!("listening on http://{address}/");
        let _ = std::io::stdout().flush();
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The demo's cases as files: solved and checked into a private directory, read, removed.
fn demo_files(quiet: bool) -> anyhow::Result<Vec<CaseFiles>> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir =
        std::env::temp_dir().join(format!("gamecert-serve-{}-{nanos:09}", std::process::id()));
    std::fs::create_dir(&dir)?;
    let total = crate::cli::demo_cases::case_count() as u64;
    let mut working = crate::cli::progress::Progress::new("demo cases", Some(total), quiet);
    let rows = crate::cli::demo_cases::run(&dir, &working);
    working.finish();
    let read = |rows: Vec<crate::cli::demo_cases::Row>| -> anyhow::Result<Vec<CaseFiles>> {
        let mut files = Vec::new();
        for row in rows.into_iter().filter(|row| row.accepted) {
            let text =
                |suffix: &str| std::fs::read_to_string(dir.join(format!("{}.{suffix}", row.case)));
            files.push(CaseFiles {
                instance: text("instance.json")?,
                certificate: text("cert.json")?,
                name: row.case,
                description: row.description,
            });
        }
        Ok(files)
    };
    let files = rows.and_then(read);
    let _ = std::fs::remove_dir_all(&dir);
    files
}
