//! Reading the project's input files with errors that name the file, line and column.
//!
//! Every error here is a [`BadInput`]: the command line prints it and exits with code 2.

use gamecert_certificates::base::cnf::Cnf;
use gamecert_certificates::format::{Certificate, FormatError, Instance, OneRound, OneRoundSpec};
use gamecert_reductions::dimacs::parse_dimacs;
use std::path::Path;

/// Input that cannot be used: the message names the file and, where known, line and column.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

fn read(path: &Path) -> Result<String, BadInput> {
    std::fs::read_to_string(path).map_err(|e| BadInput(format!("{}: {e}", path.display())))
}

fn located(path: &Path, err: FormatError) -> BadInput {
    BadInput(format!("{}:{err}", path.display()))
}

/// Reads a DIMACS CNF file; warnings (a clause-count mismatch) are returned for printing.
pub fn read_cnf(path: &Path) -> Result<(Cnf, Vec<String>), BadInput> {
    let text = read(path)?;
    let parsed =
        parse_dimacs(&text, &path.display().to_string()).map_err(|e| BadInput(e.to_string()))?;
    Ok((parsed.cnf, parsed.warnings))
}

/// Reads an instance without validating it, as the checker reads it
/// ([`gamecert_certificates::verify::read_instance`]): JSON, a positive DNF text, or the
/// edge-list text of a one-round instance.
pub fn parse_instance(path: &Path) -> Result<Instance, BadInput> {
    gamecert_certificates::verify::read_instance(path).map_err(BadInput)
}

/// Validates an instance read from `path` (named in the error).
pub fn validate_instance(path: &Path, instance: &Instance) -> Result<(), BadInput> {
    instance.validate().map_err(|e| located(path, e))
}

/// Validates a one-round instance read from `path`, keeping the built game.
pub fn validate_one_round(path: &Path, spec: &OneRoundSpec) -> Result<OneRound, BadInput> {
    spec.validate().map_err(|e| located(path, e))
}

/// Reads a certificate. A certificate that does not parse is not bad input but a rejected
/// certificate, so the error is returned as text for the verdict.
pub fn read_certificate(path: &Path) -> Result<Result<Certificate, String>, BadInput> {
    let text = read(path)?;
    Ok(Certificate::from_json(&text).map_err(|e| format!("{}:{e}", path.display())))
}
