//! `gamecert bench wasm` (issue 48): the checker built for WebAssembly beside the native one.
//!
//! - **The demo's cases.** `gamecert demo` writes its pairs; each is checked by `gamecert
//!   verify` and by `node wasm/run.mjs` (target/wasm/gamecert-checker.wasm, scripts/build-wasm),
//!   both child processes timed from start to exit (node's includes compiling the module).
//! - **Memory.** `vertexnim-outcomes` certificates of growing size (Vertex NimG on a path of
//!   k vertices of weight 1 with a loop each: k * 2^k positions, one letter each, written in the
//!   binary form by `solve --method outcomes`), each checked by node with the budget
//!   `--max-work 10^15`, until one fails (the module's 4 GiB, or less) or the certificate
//!   passes the size cap: the largest checked, its bytes and the module's memory.

use super::{measure_child, measure_process, ProcessCost, Progress};
use anyhow::bail;
use serde::Serialize;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One demo case.
#[derive(Clone, Debug, Serialize)]
pub struct WasmRow {
    pub case: String,
    /// The instance's and the certificate's bytes together.
    pub bytes: u64,
    pub native: ProcessCost,
    pub node: ProcessCost,
}

/// One size of the memory search.
#[derive(Clone, Debug, Serialize)]
pub struct MemoryRow {
    pub vertices: u32,
    pub certificate_bytes: u64,
    /// node's exit code: 0 accepted, 3 not checked (the memory ran out).
    pub code: i32,
    /// The module's memory at the end, in bytes.
    pub wasm_memory_bytes: Option<u64>,
    pub node: ProcessCost,
}

/// The result of [`wasm`].
#[derive(Clone, Debug, Serialize)]
pub struct WasmReport {
    pub cases: Vec<WasmRow>,
    pub memory: Vec<MemoryRow>,
}

fn os(text: &str) -> &OsStr {
    OsStr::new(text)
}

/// wasm/run.mjs of this source tree ($GAMECERT_WASM_RUNNER overrides it).
fn runner() -> anyhow::Result<PathBuf> {
    let path = std::env::var_os("GAMECERT_WASM_RUNNER")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("wasm/run.mjs"));
    let module = std::env::var_os("GAMECERT_WASM").map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wasm/gamecert-checker.wasm")
    });
    if !path.exists() || !module.exists() {
        bail!(
            "{} or {} is missing: build it with scripts/build-wasm",
            path.display(),
            module.display()
        );
    }
    Ok(path)
}

/// Runs the benchmark; `quick` caps the memory search at 16 MB certificates (else 1 GB).
pub fn wasm(quick: bool, progress: Progress) -> anyhow::Result<WasmReport> {
    let run_mjs = runner()?;
    let dir = tempfile::tempdir()?;
    progress("writing the demo's cases");
    measure_child(&[os("-q"), os("demo"), os("--out"), dir.path().as_os_str()])?;
    let mut names: Vec<String> = std::fs::read_dir(dir.path())?
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".cert.json").map(String::from))
        .collect();
    names.sort();
    let mut cases = Vec::new();
    for name in names {
        progress(&name);
        let instance = dir.path().join(format!("{name}.instance.json"));
        let certificate = dir.path().join(format!("{name}.cert.json"));
        let bytes = std::fs::metadata(&instance)?.len() + std::fs::metadata(&certificate)?.len();
        let exe = std::env::current_exe()?;
        let args = [instance.as_os_str(), certificate.as_os_str()];
        let (native, ..) =
            measure_process(exe.as_os_str(), &[os("-q"), os("verify"), args[0], args[1]], &[0])?;
        let (node, ..) =
            measure_process(os("node"), &[run_mjs.as_os_str(), args[0], args[1]], &[0])?;
        cases.push(WasmRow { case: name, bytes, native, node });
    }
    let cap: u64 = if quick { 16 << 20 } else { 1 << 30 };
    // wasm/run.mjs prints the module's memory at the end on standard output with this set.
    std::env::set_var("GAMECERT_WASM_STATS", "1");
    let mut memory = Vec::new();
    for k in 16u32.. {
        progress(&format!("memory: a path of {k} vertices"));
        let instance = dir.path().join(format!("path{k}.json"));
        let certificate = dir.path().join(format!("path{k}.cert"));
        let names: Vec<String> = (0..k).map(|v| format!("v{v}")).collect();
        let edges: Vec<[&str; 2]> = (0..k as usize)
            .flat_map(|v| {
                let mut e = vec![[names[v].as_str(), names[v].as_str()]];
                if v + 1 < k as usize {
                    e.push([names[v].as_str(), names[v + 1].as_str()]);
                }
                e
            })
            .collect();
        let vertices: Vec<_> =
            names.iter().map(|n| serde_json::json!({"name": n, "weight": 1})).collect();
        let text = serde_json::json!({
            "format": "gamecert-instance", "version": 1, "kind": "vertexnim",
            "directed": false, "variant": "nimg", "play": "normal",
            "vertices": vertices, "edges": edges, "token": "v0",
        });
        std::fs::write(&instance, text.to_string())?;
        let solved = measure_process(
            std::env::current_exe()?.as_os_str(),
            &[
                os("-q"),
                os("solve"),
                instance.as_os_str(),
                os("--method"),
                os("outcomes"),
                os("--max-work"),
                os("1000000000000000"),
                os("-o"),
                certificate.as_os_str(),
            ],
            &[0, 1, 2, 3],
        )?;
        if solved.1 != 0 {
            progress(&format!("memory: solve stopped at {k} vertices (exit {})", solved.1));
            break;
        }
        let certificate_bytes = std::fs::metadata(&certificate)?.len();
        let (node, code, printed) = measure_process(
            os("node"),
            &[
                run_mjs.as_os_str(),
                os("--max-work"),
                os("1000000000000000"),
                instance.as_os_str(),
                certificate.as_os_str(),
            ],
            &[0, 1, 2, 3],
        )?;
        let wasm_memory_bytes = printed
            .lines()
            .find_map(|l| l.strip_prefix("wasm memory: ")?.strip_suffix(" bytes")?.parse().ok());
        memory.push(MemoryRow { vertices: k, certificate_bytes, code, wasm_memory_bytes, node });
        let _ = std::fs::remove_file(&certificate);
        if code != 0 || certificate_bytes > cap {
            break;
        }
    }
    Ok(WasmReport { cases, memory })
}

fn ms(cost: &ProcessCost) -> f64 {
    cost.wall_seconds * 1000.0
}

/// The table of [`wasm`].
pub fn wasm_table(report: &WasmReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<22} {:>10} {:>10} {:>10} {:>7}",
        "case", "bytes", "native ms", "node ms", "ratio"
    );
    let (mut bytes, mut native, mut node) = (0, 0.0, 0.0);
    for row in &report.cases {
        let _ = writeln!(
            out,
            "{:<22} {:>10} {:>10.1} {:>10.1} {:>7.2}",
            row.case,
            row.bytes,
            ms(&row.native),
            ms(&row.node),
            ms(&row.node) / ms(&row.native)
        );
        bytes += row.bytes;
        native += ms(&row.native);
        node += ms(&row.node);
    }
    let _ = writeln!(
        out,
        "{:<22} {:>10} {:>10.1} {:>10.1} {:>7.2}",
        "total",
        bytes,
        native,
        node,
        node / native
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>8} {:>14} {:>5} {:>10} {:>12} {:>14}",
        "vertices", "cert bytes", "exit", "node s", "node RSS MB", "wasm memory"
    );
    for row in &report.memory {
        let _ = writeln!(
            out,
            "{:>8} {:>14} {:>5} {:>10.1} {:>12.0} {:>14}",
            row.vertices,
            row.certificate_bytes,
            row.code,
            row.node.wall_seconds,
            row.node.max_rss_bytes as f64 / 1e6,
            row.wasm_memory_bytes.map_or("-".into(), |b| b.to_string())
        );
    }
    out
}
