//! The SAT backends `solve` can run ([`Backend`]) and why a run gives no answer
//! ([`SatError`]): kept apart from the solving code so that the proof writer
//! ((`lrat_writer.rs`)) can name its errors without depending on its parent.

/// A SAT solver `solve` can run. The names ([`Backend::name`]) are the ones the command
/// line (`gamecert solve --sat`) and other front ends take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// CaDiCaL 3.0.1 (C++, compiled from source), with a proof tracer.
    #[default]
    Cadical,
    /// varisat 0.2 (pure Rust), with its proof checker's LRAT steps.
    Varisat,
}

impl Backend {
    /// Every backend, the default first.
    pub const ALL: [Backend; 2] = [Backend::Cadical, Backend::Varisat];

    /// The backend's name: `cadical` or `varisat`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cadical => "cadical",
            Backend::Varisat => "varisat",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    type Err = String;

    fn from_str(name: &str) -> Result<Backend, String> {
        crate::base::by_name(&Backend::ALL, Backend::name, "SAT backend", name)
    }
}

/// Why `solve` gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SatError {
    /// A literal is 0 or names a variable beyond `num_vars`.
    #[error("clause {clause} (0-based) has literal {literal}, outside variables 1..={num_vars}")]
    BadLiteral {
        /// Index of the clause in `cnf.clauses`.
        clause: usize,
        /// The offending literal.
        literal: i32,
        /// The formula's variable count.
        num_vars: u32,
    },
    /// More variables than the backend supports.
    #[error("{num_vars} variables exceed {backend}'s limit of {max}")]
    TooManyVariables {
        /// The formula's variable count.
        num_vars: u32,
        /// The backend's limit.
        max: usize,
        /// The backend.
        backend: Backend,
    },
    /// The solver returned an error or no answer.
    #[error("{backend} failed: {message}")]
    Solver {
        /// The backend.
        backend: Backend,
        /// What went wrong.
        message: String,
    },
    /// The solver (or its Rust binding) panicked, for instance varisat's on-the-fly proof
    /// self-check failed, or `cadical-sys` refused a call CaDiCaL would have aborted on.
    #[error("{backend} panicked: {message}")]
    SolverPanicked {
        /// The backend.
        backend: Backend,
        /// The panic's message.
        message: String,
    },
    /// The solver's model does not satisfy the formula (a solver or translation bug).
    #[error("the solver's model falsifies clause {clause} (0-based)")]
    BadModel {
        /// Index of the falsified clause.
        clause: usize,
    },
    /// The LRAT translation could not be completed (a bug, reported instead of a bad proof).
    #[error("LRAT translation failed: {0}")]
    Proof(String),
    /// The proof grew past `max_proof_bytes`: solving stops instead of growing the proof
    /// without bound.
    #[error("the LRAT proof grew past {limit} bytes, the most a proof may take")]
    ProofTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
}
