//! Propositional logic, the checker's own: CNF formulas ([`cnf`]), their DIMACS text
//! ([`dimacs`]), cardinality constraints as clauses ([`totalizer`]), and the LRAT proof checker
//! that reads a refutation as text ([`lrat`]) or in the binary form ([`lrat_binary`]). Moved out
//! of `base/` when that folder passed the family limit (2026-12-07).

pub mod cnf;
pub mod dimacs;
pub mod lrat;
pub mod lrat_binary;
pub mod totalizer;
