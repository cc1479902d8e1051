//! `gamecert bench lrat`'s second table: LRAT proofs as files, checked by `gamecert lrat`
//! (this executable, as a process), drat-trim's `lrat-check` and CakeML's verified `cake_lpr`,
//! best of 3 each, side by side in one run. The proofs are those with RAT steps that CaDiCaL
//! writes through `solve`'s backend on pigeonhole formulas (its `factor` option adds fresh
//! variables by RAT steps), and, with `--examples DIR`, every `NAME.cnf` beside a `NAME.lrat` in
//! DIR (drat-trim's `examples/` folder is the intended one: its proofs have RAT steps and fresh
//! variables). A proof that any of the checkers refuses is an error: the table only compares
//! times on proofs all of them accept.

use super::{outside, time_checker, Progress};
use anyhow::{bail, Context};
use gamecert::base::sat::{pigeonhole, solve, Backend, SatOutcome};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::sat::dimacs::parse_cnf;
use gamecert_certificates::sat::lrat::check_lrat_reader;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One proof file of the table.
#[derive(Clone, Debug, Serialize)]
pub struct ProofFileRow {
    /// The proof's name: the file stem, or the formula it refutes.
    pub proof: String,
    /// Where it comes from: `--examples` or `CaDiCaL` (this build's backend).
    pub source: String,
    pub vars: u32,
    pub clauses: usize,
    pub lrat_bytes: u64,
    pub additions: u64,
    /// Of the additions, those that are RAT steps.
    pub rat_additions: u64,
    /// `gamecert lrat CNF LRAT` as a process, best of 3.
    pub gamecert_lrat_seconds: f64,
    /// drat-trim's `lrat-check`, best of 3, when on `PATH`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_check_seconds: Option<f64>,
    /// CakeML's `cake_lpr`, best of 3, when on `PATH`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cake_lpr_seconds: Option<f64>,
}

/// The pairs `NAME.cnf` / `NAME.lrat` in `dir`, by name.
fn example_pairs(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf, PathBuf)>> {
    let mut pairs = Vec::new();
    let entries = std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "lrat") {
            let cnf = path.with_extension("cnf");
            if cnf.is_file() {
                let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                pairs.push((name, cnf, path));
            }
        }
    }
    pairs.sort();
    if pairs.is_empty() {
        bail!("{}: no NAME.cnf beside a NAME.lrat", dir.display());
    }
    Ok(pairs)
}

/// Measures one pair of files.
fn measure(
    name: &str,
    source: &str,
    cnf_path: &Path,
    lrat_path: &Path,
) -> anyhow::Result<ProofFileRow> {
    let text =
        std::fs::read_to_string(cnf_path).with_context(|| format!("{}", cnf_path.display()))?;
    let cnf = parse_cnf(&text, &mut Budget::unlimited())
        .map_err(|e| anyhow::anyhow!("{}: {e}", cnf_path.display()))?;
    let proof = std::io::BufReader::with_capacity(
        1 << 20,
        std::fs::File::open(lrat_path).with_context(|| format!("{}", lrat_path.display()))?,
    );
    let report = check_lrat_reader(&cnf, proof, &mut Budget::unlimited())
        .map_err(|e| anyhow::anyhow!("{name}: gamecert rejects the proof: {e}"))?;
    let ours =
        time_checker(name, &std::env::current_exe()?, &["lrat"], cnf_path, lrat_path, &|out| {
            out.status.success()
        })?;
    let lrat_check = outside(name, "lrat-check", "c VERIFIED", cnf_path, lrat_path).transpose()?;
    let cake_lpr =
        outside(name, "cake_lpr", "s VERIFIED UNSAT", cnf_path, lrat_path).transpose()?;
    Ok(ProofFileRow {
        proof: name.to_string(),
        source: source.to_string(),
        vars: cnf.num_vars,
        clauses: cnf.clauses.len(),
        lrat_bytes: std::fs::metadata(lrat_path)?.len(),
        additions: report.additions,
        rat_additions: report.rat_additions,
        gamecert_lrat_seconds: ours,
        lrat_check_seconds: lrat_check,
        cake_lpr_seconds: cake_lpr,
    })
}

/// The rows: CaDiCaL's proofs of pigeonhole with `holes` holes, then the pairs in `examples`.
pub fn proof_files(
    holes: &[u32],
    examples: Option<&Path>,
    progress: Progress,
) -> anyhow::Result<Vec<ProofFileRow>> {
    let scratch = crate::cli::scratch_dir("bench-lrat-files")?;
    let dir = scratch.path();
    let mut rows = Vec::new();
    let result = (|| -> anyhow::Result<()> {
        for &h in holes {
            let name = format!("PHP {} pigeons {h} holes", h + 1);
            progress(&format!("lrat: {name} with CaDiCaL, as files"));
            let cnf = pigeonhole(h);
            let SatOutcome::Unsatisfiable { lrat } = solve(&cnf, true, Backend::Cadical)? else {
                bail!("{name} is satisfiable");
            };
            let (cnf_path, lrat_path) =
                (dir.join(format!("php{h}.cnf")), dir.join(format!("php{h}.lrat")));
            std::fs::write(&cnf_path, cnf.to_dimacs())?;
            std::fs::write(&lrat_path, lrat)?;
            rows.push(measure(&name, "CaDiCaL", &cnf_path, &lrat_path)?);
            let _ = std::fs::remove_file(&lrat_path);
        }
        if let Some(examples) = examples {
            for (name, cnf_path, lrat_path) in example_pairs(examples)? {
                progress(&format!("lrat: {name}, as files"));
                rows.push(measure(&name, "--examples", &cnf_path, &lrat_path)?);
            }
        }
        Ok(())
    })();
    result.map(|()| rows)
}

/// The rows as Markdown.
pub fn proof_files_table(rows: &[ProofFileRow]) -> String {
    let mut out = String::from(
        "| proof | source | vars | clauses | LRAT bytes | additions | RAT steps \
         | gamecert lrat ms | lrat-check ms | cake_lpr ms |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let shown = |s: Option<f64>| s.map_or("(absent)".to_string(), |s| format!("{:.1}", s * 1000.0));
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} |",
            r.proof,
            r.source,
            r.vars,
            r.clauses,
            r.lrat_bytes,
            r.additions,
            r.rat_additions,
            r.gamecert_lrat_seconds * 1000.0,
            shown(r.lrat_check_seconds),
            shown(r.cake_lpr_seconds),
        );
    }
    out
}
