//! Random vertex nim instances for benchmarks and tests.

use gamecert_certificates::vertexnim::strategy::{Play, Variant, VertexNimSpec, VertexSpec};

/// A random connected loopless graph on n vertices (a random tree plus `n` random edges),
/// weights uniform in 2..=n+1.
pub fn instance(n: usize, seed: u64) -> VertexNimSpec {
    let mut rng = crate::base::rng::Rng::new(seed);
    let name = |v: usize| format!("v{v}");
    let mut edges = std::collections::BTreeSet::new();
    for i in 1..n {
        let j = rng.below(i as u64) as usize;
        edges.insert((j, i));
    }
    for _ in 0..n {
        let a = rng.below(n as u64) as usize;
        let b = rng.below(n as u64) as usize;
        if a != b {
            edges.insert((a.min(b), a.max(b)));
        }
    }
    VertexNimSpec {
        directed: false,
        variant: Variant::Vertexnim,
        play: Play::Normal,
        vertices: (0..n)
            .map(|v| VertexSpec { name: name(v), weight: 2 + rng.below(n as u64) as i64 })
            .collect(),
        edges: edges.into_iter().map(|(a, b)| (name(a), name(b))).collect(),
        token: name(0),
        source: None,
    }
}
