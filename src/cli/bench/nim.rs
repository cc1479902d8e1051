//! `gamecert bench nim`: nim products per second on random `u64` pairs, ours
//! ([`gamecert::impartial::nim`]) beside the slow reference recursion for scale, and inverses
//! per second. The comparison with the crates.io `nimber` crate is `cargo bench --bench nim`
//! (criterion, the same pairs' kind): an outside baseline is a bench-dependency, never one the
//! product ships.

use gamecert::base::rng::Rng;
use gamecert::impartial::nim;
use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// One implementation's rate.
#[derive(Debug, Serialize)]
pub struct NimRow {
    pub implementation: &'static str,
    pub operation: &'static str,
    pub operations: u64,
    pub seconds: f64,
    pub per_second: f64,
}

fn rate(
    implementation: &'static str,
    operation: &'static str,
    pairs: &[(u64, u64)],
    rounds: u64,
    f: impl Fn(u64, u64) -> u64,
) -> NimRow {
    let started = Instant::now();
    let mut acc = 0u64;
    for _ in 0..rounds {
        for &(a, b) in pairs {
            acc ^= f(black_box(a), black_box(b));
        }
    }
    black_box(acc);
    let seconds = started.elapsed().as_secs_f64();
    let operations = rounds * pairs.len() as u64;
    NimRow {
        implementation,
        operation,
        operations,
        seconds,
        per_second: operations as f64 / seconds,
    }
}

/// Runs the comparison on `count` random pairs (seeded), `rounds` times over.
pub fn nim_bench(count: usize, rounds: u64, note: &dyn Fn(&str)) -> anyhow::Result<Vec<NimRow>> {
    let mut rng = Rng::new(2024);
    let pairs: Vec<(u64, u64)> = (0..count).map(|_| (rng.next_u64(), rng.next_u64())).collect();
    // Same answers first, so that the race is between equals.
    for &(a, b) in pairs.iter().take(1_000) {
        anyhow::ensure!(
            nim::mul(a, b) == nim::mul_reference(a, b),
            "the fast and the reference product disagree on {a} (x) {b}"
        );
    }
    nim::mul(1, 1); // build the tables outside the clock
    note(&format!("nim: {count} random u64 pairs, {rounds} rounds"));
    let rows = vec![
        rate("gamecert::impartial::nim::mul", "product", &pairs, rounds, nim::mul),
        // The slower one on a prefix of the pairs (about 10 us a product).
        rate(
            "gamecert::impartial::nim::mul_reference",
            "product",
            &pairs[..count / 10],
            1,
            nim::mul_reference,
        ),
        rate("gamecert::impartial::nim::inverse", "inverse", &pairs[..count / 20], 1, |a, _| {
            nim::inverse(a).unwrap_or(0)
        }),
    ];
    Ok(rows)
}

/// The rows as a text table.
pub fn nim_table(rows: &[NimRow]) -> String {
    let mut out = format!(
        "{:<30} {:<8} {:>12} {:>9} {:>14}\n",
        "implementation", "op", "operations", "seconds", "per second"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<30} {:<8} {:>12} {:>9.3} {:>14.0}\n",
            r.implementation, r.operation, r.operations, r.seconds, r.per_second
        ));
    }
    out
}
