//! How long checking an LRAT refutation takes compared with finding it.
//!
//! For unsatisfiable random 3-CNF at clause/variable ratio 4.26 and for pigeonhole formulas,
//! prints a Markdown table: solve time with and without proof logging, proof size, the trusted
//! checker's time, and the check/solve ratio. Run with
//! `cargo run --release --example lrat_ratio` (append `-- 100 150` for larger random sizes).

use std::time::{Duration, Instant};

use gamecert::rng::Rng;
use gamecert::sat::{pigeonhole, random_k_cnf, solve, SatOutcome};
use gamecert_certificates::cnf::Cnf;
use gamecert_certificates::lrat::{check_lrat, LratLimits};

/// Unsatisfiable instances wanted per size, and seeds tried at most.
const PER_SIZE: usize = 3;
const MAX_SEEDS: u64 = 60;

/// Runs `f` once, or several times when it is quick, and keeps the fastest run.
fn timed<T>(mut f: impl FnMut() -> T) -> (T, Duration) {
    let start = Instant::now();
    let mut value = f();
    let mut best = start.elapsed();
    if best < Duration::from_millis(200) {
        for _ in 0..4 {
            let start = Instant::now();
            value = f();
            best = best.min(start.elapsed());
        }
    }
    (value, best)
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

fn row(name: &str, cnf: &Cnf) {
    let (plain, solve_plain) = timed(|| solve(cnf, false).expect("solver failed"));
    assert!(matches!(plain, SatOutcome::Unsatisfiable { .. }));
    let (outcome, solve_proof) = timed(|| solve(cnf, true).expect("solver failed"));
    let SatOutcome::Unsatisfiable { lrat } = outcome else {
        panic!("{name}: satisfiable with proof logging, unsatisfiable without");
    };
    let limits = LratLimits::default();
    let (report, check) = timed(|| check_lrat(cnf, &lrat, &limits));
    let report = report.unwrap_or_else(|e| panic!("{name}: proof rejected: {e}"));
    println!(
        "| {name} | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} | {:.2} |",
        cnf.num_vars,
        cnf.clauses.len(),
        ms(solve_proof),
        ms(solve_plain),
        solve_proof.as_secs_f64() / solve_plain.as_secs_f64(),
        lrat.len(),
        report.additions,
        report.hints,
        ms(check),
        check.as_secs_f64() / solve_proof.as_secs_f64(),
    );
}

fn main() {
    println!(
        "| instance | vars | clauses | solve+proof ms | solve ms | proof overhead | LRAT bytes \
         | additions | hints | check ms | check/solve+proof |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    // Extra sizes may be given on the command line, e.g. `-- 100 150`.
    let extra: Vec<u32> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("sizes are numbers of variables"))
        .collect();
    let sizes: Vec<u32> = [20, 30, 40, 50, 60].into_iter().chain(extra).collect();
    for n in sizes {
        let m = (4.26 * f64::from(n)).round() as usize;
        let mut found = 0;
        for seed in 1..=MAX_SEEDS {
            let cnf = random_k_cnf(n, m, 3, &mut Rng::new(seed * 1000 + u64::from(n)));
            if matches!(solve(&cnf, false), Ok(SatOutcome::Unsatisfiable { .. })) {
                row(&format!("3-CNF n={n} seed={seed}"), &cnf);
                found += 1;
                if found == PER_SIZE {
                    break;
                }
            }
        }
    }
    for holes in 5..=8 {
        row(
            &format!("PHP {} pigeons {holes} holes", holes + 1),
            &pigeonhole(holes),
        );
    }
}
