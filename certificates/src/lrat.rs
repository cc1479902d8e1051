//! Placeholder until the LRAT checker lands (same API).
use crate::cnf::Cnf;
pub struct LratLimits {
    pub max_steps: u64,
    pub max_bytes: usize,
}
impl Default for LratLimits {
    fn default() -> Self {
        LratLimits { max_steps: 50_000_000, max_bytes: 2 << 30 }
    }
}
#[derive(Debug, Clone)]
pub struct LratReport {
    pub additions: u64,
    pub deletions: u64,
    pub hints: u64,
    pub empty_clause_id: u64,
}
#[derive(Debug, Clone)]
pub struct LratError {
    pub line: usize,
    pub clause_id: Option<u64>,
    pub message: String,
}
impl std::fmt::Display for LratError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LRAT line {}: {}", self.line, self.message)
    }
}
impl std::error::Error for LratError {}
pub fn check_lrat(_cnf: &Cnf, _proof: &str, _limits: &LratLimits) -> Result<LratReport, LratError> {
    Err(LratError { line: 0, clause_id: None, message: "not yet".into() })
}
