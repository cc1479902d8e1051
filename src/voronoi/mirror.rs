//! Finding B's mirror (`solve --method mirror`, issue 47 item 7): an automorphism of the graph
//! of order 2 without fixed points that swaps the start's colours, written as a
//! `voronoi-mirror` certificate (the checker verifies it in linear time; the lemma is in its
//! module docs, `gamecert_certificates::voronoi::mirror`).
//!
//! The search is a backtracking over σ(u) for one vertex at a time, each choice fixing σ(σ(u))
//! = u as well: the next vertex is the one with the most neighbours already mapped (its image
//! must then be a common neighbour of their images), candidates share its degree, the sorted
//! degrees of its neighbours and its owner (W's vertices map to B's). On paths, even cycles,
//! grids with an even side and hypercubes it finds a map in linear or near-linear time (every
//! choice after the first is forced or nearly); it stops after [`STEP_LIMIT`] steps on graphs
//! where none is found quickly, and says so. Nothing it finds is trusted: the checker verifies
//! the map.

use gamecert_certificates::base::graph::Graph;

/// Candidate images tried in all before the search gives up.
pub const STEP_LIMIT: u64 = 10_000_000;

/// What the search found.
pub enum Found {
    /// σ as pairs of vertex indices, each 2-cycle once.
    Pairs(Vec<(usize, usize)>),
    /// No such map exists (the search was exhaustive).
    None(String),
    /// The search stopped at its step limit.
    GaveUp,
}

/// A map σ of `graph` as described in the module docs, the start position `start` (`W`, `B`,
/// `.` per vertex) symmetric under it with colours swapped.
pub fn find(graph: &Graph, start: &[u8]) -> Found {
    let n = graph.len();
    if n % 2 == 1 {
        return Found::None(format!("the graph has an odd number of vertices ({n})"));
    }
    let owners_match = |u: usize, v: usize| match start[u] {
        b'W' => start[v] == b'B',
        b'B' => start[v] == b'W',
        _ => start[v] == b'.',
    };
    // A vertex's invariant: its degree and its neighbours' degrees, sorted.
    let signature: Vec<Vec<usize>> = (0..n)
        .map(|u| {
            let mut s: Vec<usize> =
                graph.neighbours(u).iter().map(|&w| graph.neighbours(w).len()).collect();
            s.sort_unstable();
            s
        })
        .collect();
    let mut image = vec![usize::MAX; n];
    // Each level of the search: the vertex chosen, its candidates, the next to try.
    struct Level {
        u: usize,
        candidates: Vec<usize>,
        next: usize,
    }
    let mut stack: Vec<Level> = Vec::new();
    let mut steps = 0u64;
    let consistent = |image: &[usize], u: usize, v: usize| {
        // Every mapped neighbour of u maps to a neighbour of v, and of v to one of u.
        [(u, v), (v, u)].iter().all(|&(a, b)| {
            graph.neighbours(a).iter().all(|&w| {
                let iw = if w == a {
                    b
                } else if w == b {
                    a
                } else {
                    image[w]
                };
                iw == usize::MAX || graph.neighbours(b).binary_search(&iw).is_ok()
            })
        })
    };
    loop {
        // The next unmapped vertex: the most mapped neighbours, then the first.
        let next = (0..n).filter(|&u| image[u] == usize::MAX).max_by_key(|&u| {
            let mapped = graph.neighbours(u).iter().filter(|&&w| image[w] != usize::MAX).count();
            (mapped, std::cmp::Reverse(u))
        });
        match next {
            None => {
                let pairs = (0..n).filter(|&u| u < image[u]).map(|u| (u, image[u])).collect();
                return Found::Pairs(pairs);
            }
            Some(u) => {
                let anchor = graph.neighbours(u).iter().find(|&&w| image[w] != usize::MAX);
                let pool: Vec<usize> = match anchor {
                    Some(&w) => graph.neighbours(image[w]).to_vec(),
                    None => (0..n).collect(),
                };
                let candidates = pool
                    .into_iter()
                    .filter(|&v| {
                        v != u
                            && image[v] == usize::MAX
                            && signature[v] == signature[u]
                            && owners_match(u, v)
                    })
                    .collect();
                stack.push(Level { u, candidates, next: 0 });
            }
        }
        // Advance: try the top level's next candidate, backtracking while none is left.
        loop {
            let Some(level) = stack.last_mut() else {
                return Found::None(
                    "no automorphism of order 2 without fixed points swaps the start's colours"
                        .into(),
                );
            };
            let u = level.u;
            if let Some(previous) = (image[u] != usize::MAX).then(|| image[u]) {
                image[u] = usize::MAX;
                image[previous] = usize::MAX;
            }
            let mut placed = false;
            while level.next < level.candidates.len() {
                let v = level.candidates[level.next];
                level.next += 1;
                steps += 1;
                if steps > STEP_LIMIT {
                    return Found::GaveUp;
                }
                if image[v] == usize::MAX && consistent(&image, u, v) {
                    image[u] = v;
                    image[v] = u;
                    placed = true;
                    break;
                }
            }
            if placed {
                break;
            }
            stack.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::voronoi::instance::GraphSpec;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        let spec = GraphSpec {
            vertices: (0..n).map(|i| format!("v{i}")).collect(),
            edges: edges.iter().map(|&(a, b)| (format!("v{a}"), format!("v{b}"))).collect(),
        };
        Graph::new(&spec.vertices, &spec.edges).unwrap()
    }

    fn is_mirror(g: &Graph, pairs: &[(usize, usize)]) -> bool {
        let mut image = vec![usize::MAX; g.len()];
        for &(a, b) in pairs {
            image[a] = b;
            image[b] = a;
        }
        image.iter().enumerate().all(|(u, &v)| v != usize::MAX && v != u)
            && (0..g.len()).all(|u| {
                g.neighbours(u).iter().all(|&w| g.neighbours(image[u]).contains(&image[w]))
            })
    }

    /// Paths and cycles of even length, grids with an even side and hypercubes have a mirror;
    /// odd paths, a star and a triangle-with-a-tail do not.
    #[test]
    fn finds_mirrors_where_they_exist() {
        let path = |n: usize| graph(n, &(1..n).map(|i| (i - 1, i)).collect::<Vec<_>>());
        let cycle = |n: usize| graph(n, &(0..n).map(|i| (i, (i + 1) % n)).collect::<Vec<_>>());
        let grid = |r: usize, c: usize| {
            let mut e = Vec::new();
            for i in 0..r {
                for j in 0..c {
                    if j + 1 < c {
                        e.push((i * c + j, i * c + j + 1));
                    }
                    if i + 1 < r {
                        e.push((i * c + j, (i + 1) * c + j));
                    }
                }
            }
            graph(r * c, &e)
        };
        let cube = |d: u32| {
            let n = 1usize << d;
            let e: Vec<_> = (0..n)
                .flat_map(|u| (0..d).map(move |b| (u, u ^ (1 << b))))
                .filter(|&(u, v)| u < v)
                .collect();
            graph(n, &e)
        };
        for g in [
            path(2),
            path(10),
            path(1000),
            cycle(4),
            cycle(60),
            grid(4, 5),
            grid(6, 6),
            cube(4),
            cube(8),
        ] {
            match find(&g, &vec![b'.'; g.len()]) {
                Found::Pairs(pairs) => assert!(is_mirror(&g, &pairs), "{} vertices", g.len()),
                _ => panic!("no mirror found on {} vertices", g.len()),
            }
        }
        let star = graph(4, &[(0, 1), (0, 2), (0, 3)]);
        for g in [path(9), star, graph(4, &[(0, 1), (1, 2), (2, 0), (2, 3)])] {
            assert!(
                matches!(find(&g, &vec![b'.'; g.len()]), Found::None(_)),
                "{} vertices",
                g.len()
            );
        }
    }

    /// Against the exact solver on every connected graph with an even number of vertices up
    /// to 6, every number of rounds: the search finds a mirror exactly when one exists (by
    /// trying every permutation), the checker accepts it, and the exact value is then at most
    /// 0 (B at least ties). 39 of the 119 connected graphs on 2, 4 and 6 vertices have one.
    #[test]
    fn agrees_with_brute_force_and_the_exact_solver() {
        use gamecert_certificates::voronoi::instance::MultiRoundSpec;
        let mut with_mirror = 0;
        for entry in crate::voronoi::census::connected_graphs(6).unwrap() {
            let spec = gamecert_reductions::graphs::to_spec(&entry.graph);
            let n = spec.vertices.len();
            if n % 2 == 1 {
                continue;
            }
            let g = Graph::new(&spec.vertices, &spec.edges).unwrap();
            let found = find(&g, &vec![b'.'; n]);
            let exists = permutations(n).into_iter().any(|p| {
                let pairs: Vec<_> = (0..n).filter(|&u| u < p[u]).map(|u| (u, p[u])).collect();
                (0..n).all(|u| p[p[u]] == u && p[u] != u) && is_mirror(&g, &pairs)
            });
            let Found::Pairs(pairs) = found else {
                assert!(!exists, "{}: a mirror exists and was not found", entry.text);
                continue;
            };
            assert!(exists && is_mirror(&g, &pairs), "{}", entry.text);
            with_mirror += 1;
            for rounds in 1..=n / 2 {
                let instance =
                    MultiRoundSpec { graph: spec.clone(), rounds, start: None, source: None };
                let game = instance.validate().unwrap();
                let value = crate::voronoi::exact::ExactSolver::new(&game).unwrap().solve().value;
                assert!(
                    value <= 0,
                    "{} with {rounds} rounds: value {value} against a mirror",
                    entry.text
                );
                let certificate = gamecert_certificates::format::VoronoiMirror {
                    player: gamecert_certificates::voronoi::rules::Player::Black,
                    claim: gamecert_certificates::voronoi::multi_round::StrategyClaim::AtLeastTies,
                    pairs: pairs
                        .iter()
                        .map(|&(a, b)| (g.name(a).to_string(), g.name(b).to_string()))
                        .collect(),
                };
                let verdict = gamecert_certificates::voronoi::mirror::mirror_verdict(
                    &instance,
                    &certificate,
                    &mut gamecert_certificates::base::budget::Budget::new(1 << 30),
                );
                assert!(verdict.accepted(), "{}: {}", entry.text, verdict.reason);
            }
        }
        assert_eq!(with_mirror, 39, "graphs with a mirror");
    }

    /// Every permutation of 0..n (n <= 6 here).
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = vec![Vec::new()];
        for _ in 0..n {
            let mut longer = Vec::new();
            for p in &out {
                for v in (0..n).filter(|v| !p.contains(v)) {
                    let mut q = p.clone();
                    q.push(v);
                    longer.push(q);
                }
            }
            out = longer;
        }
        out
    }

    /// The start's colours must swap: W at one end of a path and B at the other is symmetric,
    /// W at both ends is not.
    #[test]
    fn the_start_must_swap_colours() {
        let p = graph(6, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]);
        assert!(matches!(find(&p, b"W....B"), Found::Pairs(_)));
        assert!(matches!(find(&p, b"W....W"), Found::None(_)));
        assert!(matches!(find(&p, b"W.B..."), Found::None(_)));
    }
}
