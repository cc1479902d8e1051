//! `gamecert page --out DIR`: the static site of the papers' examples (issue 48): the demo's
//! cases solved and checked here, drawn, and written with the docs and the checker compiled to
//! WebAssembly ([`gamecert::serve::site`]), for any static host.
//!
//! The WebAssembly checker is built apart, with Debian's toolchain (`scripts/build-wasm`,
//! docs/wasm.md), so that the README's main command needs no more than cargo: this command
//! takes the module it built, and says how to build it when there is none.

use gamecert::base::io::BadInput;
use gamecert::serve::gallery::{Gallery, Preparing};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Write a static site: the gallery of the papers' examples, the docs, and the checker
/// compiled to WebAssembly, which checks any instance and certificate in the reader's browser
/// (no gamecert server needed). Serve DIR with any static file server and open index.html;
/// `index.html?instance=I&certificate=C` checks that pair on load.
#[derive(clap::Args)]
pub struct Args {
    /// The folder to write (made if missing; files of the same names are replaced).
    #[arg(long)]
    out: PathBuf,
    /// The checker module (default: $GAMECERT_WASM, else gamecert-checker.wasm in target/wasm/
    /// beside this program's folder or below the current folder, where scripts/build-wasm puts
    /// it).
    #[arg(long, value_name = "FILE")]
    wasm: Option<PathBuf>,
    /// The checker's work budget for the gallery's checks, 1 to 10^15 (as for `verify`).
    #[arg(long, value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
}

/// Where the checker module is looked for, in order.
fn wasm_candidates() -> Vec<PathBuf> {
    let mut found = Vec::new();
    if let Some(path) = std::env::var_os("GAMECERT_WASM") {
        found.push(PathBuf::from(path));
    }
    // target/release/gamecert: its module is target/wasm/gamecert-checker.wasm.
    if let Some(target) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().and_then(Path::parent).map(Path::to_path_buf))
    {
        found.push(target.join("wasm/gamecert-checker.wasm"));
    }
    found.push(PathBuf::from("target/wasm/gamecert-checker.wasm"));
    found
}

/// The checker module's bytes, or why there is none.
fn read_wasm(given: Option<&Path>) -> anyhow::Result<(PathBuf, Vec<u8>)> {
    let candidates = match given {
        Some(path) => vec![path.to_path_buf()],
        None => wasm_candidates(),
    };
    for path in &candidates {
        match std::fs::read(path) {
            Ok(bytes) if bytes.starts_with(b"\0asm") => return Ok((path.clone(), bytes)),
            Ok(_) => {
                return Err(BadInput(format!("{}: not a WebAssembly module", path.display())).into())
            }
            Err(_) if given.is_none() => continue,
            Err(why) => return Err(BadInput(format!("{}: {why}", path.display())).into()),
        }
    }
    let looked: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
    Err(BadInput(format!(
        "no WebAssembly checker found (looked at {}): build it with scripts/build-wasm (it \
         needs Debian's rustc-web, rust-web-src and lld; docs/wasm.md), or name one with --wasm",
        looked.join(", ")
    ))
    .into())
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { out, wasm, max_work } = args;
    let (wasm_path, wasm) = read_wasm(wasm.as_deref())?;
    crate::cli::note(
        quiet,
        &format!("the checker: {} ({} bytes)", wasm_path.display(), wasm.len()),
    );
    let files = crate::cli::serve::demo_files(quiet, &Preparing::new())?;
    let given = files.clone();
    let (gallery, dropped) = Gallery::load(files, max_work, &|_| {});
    for why in &dropped {
        crate::cli::note(quiet, &format!("left out (the checker did not accept it): {why}"));
    }
    let cases: Vec<_> = gallery
        .cases
        .into_iter()
        .filter_map(|case| {
            let files = given.iter().find(|f| f.name == case.name)?.clone();
            Some((case, files))
        })
        .collect();
    let written = gamecert::serve::site::write(&out, &cases, &wasm)
        .map_err(|why| anyhow::anyhow!("{}: {why}", out.display()))?;
    println!(
        "wrote {}: {} files, {:.1} MB ({} cases, {} docs, the checker); serve it with any static \
         file server (python3 -m http.server -d {}) and open index.html",
        out.display(),
        written.files,
        written.bytes as f64 / 1e6,
        written.cases,
        written.docs,
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}
