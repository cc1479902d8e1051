//! How long checking an LRAT refutation takes compared with finding it: a thin wrapper around
//! [`gamecert::bench::lrat`], the same table as `gamecert bench lrat`.
//!
//! Run with `cargo run --release --example lrat_ratio`; append sizes to add larger random
//! formulas (`-- 70 80`).

use gamecert::bench::{lrat, lrat_table};

fn main() -> anyhow::Result<()> {
    let extra = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("sizes are numbers of variables: {e}"))?;
    let sizes: Vec<u32> = [20, 30, 40, 50, 60].into_iter().chain(extra).collect();
    let rows = lrat(&sizes, 3, &[5, 6, 7, 8], &|note| eprintln!("{note}"))?;
    print!("{}", lrat_table(&rows));
    Ok(())
}
