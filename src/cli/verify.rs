//! `gamecert verify INSTANCE CERTIFICATE`: the checker's own pipeline, shared with
//! `gamecert-check`.

use clap::Args as ClapArgs;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check a certificate against an instance (exit 0 accepted, 1 rejected, 2 bad input, 3 not
/// checked: the budget ran out before the check could decide).
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
    /// The checker's work budget, 1 to 10^15 units (default: 2*10^9 units plus 64 per input
    /// byte; about one unit per step or byte held). Raise it for a large honest certificate.
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { instance, certificate, json, max_work } = args;
    let files = (instance.as_path(), certificate.as_path());
    Ok(run_checker(files, json, max_work, "verify", quiet, gamecert_certificates::verify::run))
}

/// Bytes the checker has read so far in this process (its input files, as parsed: a
/// decompressed file counts what it decompresses to), for the progress display.
static BYTES_READ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`gamecert::base::io::reader`], counted into [`BYTES_READ`].
fn counted_reader(
    path: &std::path::Path,
    max_work: Option<u64>,
) -> Result<gamecert_certificates::verify::Content, String> {
    let content = gamecert::base::io::reader(path, max_work)?;
    BYTES_READ.fetch_add(content.bytes.len() as u64, std::sync::atomic::Ordering::Relaxed);
    Ok(content)
}

/// A stream counting what is read from it into [`BYTES_READ`].
struct Counted(Box<dyn std::io::Read>);

impl std::io::Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.0.read(buf)?;
        BYTES_READ.fetch_add(read as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(read)
    }
}

/// [`gamecert::base::io::opener`], counted into [`BYTES_READ`] as the stream is read.
fn counted_opener(
    path: &std::path::Path,
    max_work: Option<u64>,
) -> Result<gamecert_certificates::verify::Stream, String> {
    let mut stream = gamecert::base::io::opener(path, max_work)?;
    stream.read = Box::new(Counted(stream.read));
    Ok(stream)
}

/// Runs one of the checker's own pipelines (`verify`, `lrat`) as `gamecert-check` does, with
/// gamecert's readers (`-`, compressed files) and progress while it works: the bytes read of
/// the two files (a streamed proof or certificate is checked as it is read), then the check.
pub fn run_checker(
    (first, second): (&std::path::Path, &std::path::Path),
    json: bool,
    max_work: Option<u64>,
    command: &'static str,
    quiet: bool,
    pipeline: fn(&gamecert_certificates::verify::Request) -> gamecert_certificates::verify::Outcome,
) -> ExitCode {
    use std::sync::atomic::Ordering;
    // The files' sizes on disk as the total (standard input: none known).
    let size =
        |p: &std::path::Path| std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len());
    let total = size(first).zip(size(second)).map(|(a, b)| a + b);
    let mut working = crate::cli::progress::Progress::new("bytes read", total, quiet);
    working.message("reading and checking");
    // A fault of the checker is reported in the verdict, so the default panic message is
    // kept off stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::time::Instant::now();
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let outcome = std::thread::scope(|scope| {
        // The count, copied to the display five times a second while the checker works.
        let shown = &working;
        scope.spawn(move || {
            let tick = std::time::Duration::from_millis(200);
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(tick) {
                shown.set(BYTES_READ.load(Ordering::Relaxed));
            }
        });
        let outcome = pipeline(&gamecert_certificates::verify::Request {
            instance: first,
            certificate: second,
            json,
            max_work,
            read: counted_reader,
            open: counted_opener,
            command,
            started: Some(started),
        });
        drop(stop);
        outcome
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
