//! Nim products of random `u64` pairs: gamecert's [`gamecert::impartial::nim::mul`] beside the crates.io
//! `nimber` crate (`FiniteNimber`) in the same run, on the same 1024 pairs; throughput is
//! reported in products per second. `gamecert bench nim` measures the same outside criterion.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gamecert::base::rng::Rng;
use std::time::Duration;

fn nim_products(c: &mut Criterion) {
    let mut rng = Rng::new(2024);
    let pairs: Vec<(u64, u64)> = (0..1024).map(|_| (rng.next_u64(), rng.next_u64())).collect();
    for &(a, b) in &pairs {
        assert_eq!(gamecert::impartial::nim::mul(a, b), nimber_mul(a, b));
    }
    let mut group = c.benchmark_group("nim_product_u64");
    group
        .throughput(Throughput::Elements(pairs.len() as u64))
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("gamecert", |bench| {
        bench.iter(|| {
            pairs.iter().fold(0, |acc, &(a, b)| {
                acc ^ gamecert::impartial::nim::mul(black_box(a), black_box(b))
            })
        })
    });
    group.bench_function("nimber", |bench| {
        bench.iter(|| {
            pairs.iter().fold(0, |acc, &(a, b)| acc ^ nimber_mul(black_box(a), black_box(b)))
        })
    });
    group.finish();
}

criterion_group!(benches, nim_products);
criterion_main!(benches);

/// The `nimber` crate's product of two `u64` nimbers, as a `u64`.
fn nimber_mul(a: u64, b: u64) -> u64 {
    let p = nimber::FiniteNimber::from(a) * nimber::FiniteNimber::from(b);
    p.as_slice().first().copied().unwrap_or(0)
}
