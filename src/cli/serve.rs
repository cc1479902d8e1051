//! `gamecert serve [--bind ADDR] [--port N] [limits]`: the page in the browser
//! ([`gamecert::serve`]), with its flags (every limit range-checked, its default stated).
//! The gallery is the demo's cases, run once at start-up into a private temporary directory,
//! read back and removed, on a thread of its own while the server already listens (the page
//! says "preparing" until it is ready); the server then offers the ones the checker accepted.

use gamecert::serve::gallery::{CaseFiles, Gallery, Preparing};
use gamecert::serve::Config;
use std::io::Write;
use std::net::IpAddr;
use std::process::ExitCode;

/// Serve a page in the browser: the demo's cases to open, verify uploaded files, play against
/// a certified strategy (runs until Ctrl-C or SIGTERM, which let the requests in flight finish).
///
/// Every limit below holds against abuse on an open network (`--bind 0.0.0.0`); docs/serve.md
/// says what each bounds.
#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on (127.0.0.1: this machine only; 0.0.0.0: every network).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port, 0 to 65535 (0: the system picks a free one; the first line printed names it).
    #[arg(long, default_value_t = 8080, value_parser = crate::cli::args::ranged::<u16>(0, u16::MAX))]
    port: u16,
    /// The largest request accepted, in megabytes, 1 to 4096 (a larger one gets 413).
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = crate::cli::args::ranged::<u64>(1, 4096))]
    max_upload_mb: u64,
    /// The megabytes all requests' bodies may hold at once, each upload counted twice (its
    /// body, then its files): past it an upload waits --busy-wait for room, then gets 503. At least
    /// twice --max-upload-mb; 2 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 512, value_parser = crate::cli::args::ranged::<u64>(2, 65536))]
    max_uploads_mb: u64,
    /// The slowest a request's body may arrive, in kilobytes a second on average after its
    /// first --idle-timeout seconds (a slower one gets 408); 1 to 10^6.
    #[arg(long, value_name = "KB", default_value_t = 16, value_parser = crate::cli::args::ranged::<u64>(1, 1_000_000))]
    min_upload_rate: u64,
    /// The checker's work budget for every check, 1 to 10^15 (as for `verify`; default:
    /// verify's, from the files' sizes).
    #[arg(long, value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
    /// The megabytes the checks running at once may reserve, each its work budget (a unit is
    /// about a byte held); a check waits --busy-wait for room, then gets 503, and one whose
    /// budget is larger than all of it runs with all of it. 64 to 2^20 (default: half the
    /// machine's memory, at most 4096).
    #[arg(long, value_name = "MB", value_parser = crate::cli::args::ranged::<u64>(64, 1 << 20))]
    checks_memory_mb: Option<u64>,
    /// Open connections at most, and at most the open-file limit less 64; at the cap a new
    /// connection closes the one idle the longest (503 when every one has a request in flight);
    /// 1 to 10^6.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = crate::cli::args::ranged::<u64>(1, 1_000_000))]
    max_connections: u64,
    /// Seconds a connection has to send a request's headers, from its opening or its previous
    /// answer (a silent, slow or unused connection is closed after it); 1 to 3600.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = crate::cli::args::ranged::<u64>(1, 3600))]
    header_timeout: u64,
    /// Seconds a request's body may pause (408), or an answer stay unread (the connection is
    /// closed); 1 to 3600.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = crate::cli::args::ranged::<u64>(1, 3600))]
    idle_timeout: u64,
    /// Seconds a request's body may take in all (408), 1 to 86400.
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = crate::cli::args::ranged::<u64>(1, 86400))]
    upload_timeout: u64,
    /// The megabytes one game's moves may take, 1 to 4096 (further moves refused: start a new
    /// game).
    #[arg(long, value_name = "MB", default_value_t = 16, value_parser = crate::cli::args::ranged::<u64>(1, 4096))]
    max_game_mb: u64,
    /// The megabytes all games together may take, uploaded strategies included (the least
    /// recently used games are dropped). At least --max-game-mb; 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 512, value_parser = crate::cli::args::ranged::<u64>(1, 65536))]
    max_games_mb: u64,
    /// Games kept at once, 1 to 10^6 (past it the least recently used is dropped).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = crate::cli::args::ranged::<usize>(1, 1_000_000))]
    max_games: usize,
    /// Of those, games from uploaded files, 1 to 10^6 and at most --max-games (past it the
    /// least recently used upload is dropped).
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = crate::cli::args::ranged::<usize>(1, 1_000_000))]
    max_uploaded_games: usize,
    /// Positions one game keeps, 2 to 10^6 (further moves refused: start a new game).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = crate::cli::args::ranged::<usize>(2, 1_000_000))]
    max_game_positions: usize,
    /// Checks run at once (a verify, an uploaded certificate checked before a game), 1 to 1024
    /// (default: as many as the machine has cores).
    #[arg(long, value_name = "N", value_parser = crate::cli::args::ranged::<usize>(1, 1024))]
    checks: Option<usize>,
    /// Moves, views and hints worked on at once, apart from the checks, 1 to 1024 (default: as
    /// many as the machine has cores).
    #[arg(long, value_name = "N", value_parser = crate::cli::args::ranged::<usize>(1, 1024))]
    plays: Option<usize>,
    /// Seconds a request waits for one of --checks or --plays, or for room in --max-uploads-mb
    /// or --checks-memory-mb, before it gets 503 with Retry-After; 1 to 3600.
    #[arg(long, value_name = "SECS", default_value_t = 5, value_parser = crate::cli::args::ranged::<u64>(1, 3600))]
    busy_wait: u64,
    /// Offer no gallery (the demo's cases are not run: the server is ready at once, for
    /// verifying and playing uploaded files only).
    #[arg(long)]
    no_gallery: bool,
    /// Seconds the requests in flight may take to finish after Ctrl-C or SIGTERM; 1 to 3600.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = crate::cli::args::ranged::<u64>(1, 3600))]
    grace: u64,
}

/// Megabytes as bytes (the flags' ranges keep them far from overflow on 64-bit; saturating
/// elsewhere).
fn megabytes(mb: u64) -> usize {
    usize::try_from(mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    if args.max_uploads_mb < 2 * args.max_upload_mb {
        anyhow::bail!(
            "--max-uploads-mb {} is less than twice --max-upload-mb {}: the largest upload \
             would never fit",
            args.max_uploads_mb,
            args.max_upload_mb
        );
    }
    if args.max_games_mb < args.max_game_mb {
        anyhow::bail!(
            "--max-games-mb {} is less than --max-game-mb {}",
            args.max_games_mb,
            args.max_game_mb
        );
    }
    if args.max_uploaded_games > args.max_games {
        anyhow::bail!(
            "--max-uploaded-games {} is more than --max-games {}",
            args.max_uploaded_games,
            args.max_games
        );
    }
    // A server is no filter: main sets SIGPIPE back to its default (a reader gone ends a
    // pipeline quietly), but a client gone in the middle of an answer must end only its
    // connection. Vectored socket writes (writev, which hyper uses) raise SIGPIPE, unlike send.
    #[cfg(unix)]
    // SAFETY: SIG_IGN is always a valid disposition; no handler code runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let wanted = usize::try_from(args.max_connections).unwrap_or(usize::MAX);
    let (connections, open_files) = gamecert::serve::listen::connection_cap(wanted);
    if let (true, Some(limit)) = (connections < wanted, open_files) {
        crate::cli::note(
            quiet,
            &format!(
                "at most {connections} connections at once: the open-file limit is {limit} \
                 (ulimit -n), {} of them kept for the server itself",
                gamecert::serve::listen::RESERVE
            ),
        );
    }
    let seconds = std::time::Duration::from_secs;
    let config = Config {
        bind: args.bind,
        port: args.port,
        max_upload_bytes: megabytes(args.max_upload_mb),
        max_uploads_bytes: megabytes(args.max_uploads_mb),
        min_upload_rate: args.min_upload_rate.saturating_mul(1 << 10),
        max_work: args.max_work,
        checks_memory: args
            .checks_memory_mb
            .map_or_else(gamecert::serve::default_checks_memory, |mb| mb.saturating_mul(1 << 20)),
        max_connections: connections,
        header_timeout: seconds(args.header_timeout),
        idle_timeout: seconds(args.idle_timeout),
        upload_timeout: seconds(args.upload_timeout),
        max_game_bytes: megabytes(args.max_game_mb),
        max_games_bytes: megabytes(args.max_games_mb),
        max_games: args.max_games,
        max_uploaded_games: args.max_uploaded_games,
        max_game_positions: args.max_game_positions,
        checks: args.checks,
        plays: args.plays,
        check_wait: seconds(args.busy_wait),
        grace: seconds(args.grace),
    };
    let max_work = args.max_work;
    // The server listens at once; the gallery is prepared beside it (the page says so).
    let no_gallery = args.no_gallery;
    let prepare = move |preparing: &Preparing| -> Result<Gallery, String> {
        if no_gallery {
            return Ok(Gallery::load(Vec::new(), max_work, &|_| {}).0);
        }
        let files = demo_files(quiet, preparing).map_err(|e| format!("{e:#}"))?;
        let count = files.len() as u64;
        let checking = |done| preparing.report("checking and drawing the cases", done, count);
        let (gallery, dropped) = Gallery::load(files, max_work, &checking);
        for why in &dropped {
            crate::cli::note(quiet, &format!("not offered: {why}"));
        }
        crate::cli::note(
            quiet,
            &format!(
                "gallery ready: {} of {count} demo cases accepted by the checker",
                gallery.cases.len()
            ),
        );
        Ok(gallery)
    };
    let prepare = move |preparing: &Preparing| {
        let made = prepare(preparing);
        if let Err(why) = &made {
            crate::cli::note(
                quiet,
                &format!("the gallery could not be prepared: {why} (uploads still work)"),
            );
        }
        made
    };
    gamecert::serve::serve(config, prepare, |address| {
        // The first line of standard output, read by tests and scripts.
        println!("listening on http://{address}/");
        let _ = std::io::stdout().flush();
        if !no_gallery {
            crate::cli::note(
                quiet,
                "preparing the gallery: the demo's cases are solved and checked",
            );
        }
    })?;
    crate::cli::note(quiet, "stopped: the requests in flight were answered");
    Ok(ExitCode::SUCCESS)
}

/// The demo's cases as files: solved and checked into a private directory, read, removed; each
/// case begun is reported to `preparing` (and shown on standard error).
pub(crate) fn demo_files(quiet: bool, preparing: &Preparing) -> anyhow::Result<Vec<CaseFiles>> {
    let total = crate::cli::demo_cases::case_count() as u64;
    let solving = |done| preparing.report("solving the demo's cases", done, total);
    solving(0); // the count is known before any work: the API says "0 of N" at once
    let scratch = crate::cli::scratch_dir("serve")?;
    let dir = scratch.path();
    let mut working = crate::cli::progress::Progress::new("demo cases", Some(total), quiet);
    let rows = crate::cli::demo_cases::run_reporting(dir, &working, &solving);
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
    rows.and_then(read)
}
