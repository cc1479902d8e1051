//! Solving the instance kinds other than `voronoi-one-round`, each with a certificate for the
//! checker: `voronoi` by the forward maps of the positive-DNF reduction when the instance is
//! that reduction's image of its recorded formula ([`crate::voronoi::dnf_maps`]), on a
//! complete k-ary tree from `gen` by seed 001's strategies when their certificate checks
//! ([`crate::voronoi::kary`]: Algorithm 1 for 2n <= k, Algorithm 2 for odd k, Algorithm 2 against B's
//! symmetric strategy for even k; below the paper's size bound they are tried too and the
//! checker decides), by the median rule for one round on a tree ([`crate::voronoi::trees`]), by the
//! gap-state solver on a path with no start stones ([`crate::voronoi::paths`], a `voronoi-path-value`
//! certificate), else by the exact multi-round solver ([`crate::voronoi::exact`]);
//! `posdnf-game` by the exact DNF game solver ([`crate::voronoi::dnf`]); `heap-game` by the
//! nim-sequence of its game ([`crate::impartial::octal`]); `triangle-avoidance` by the game digraph
//! ([`crate::triangle_avoidance::solver`]); `coin-game` by closed forms and the tartan theorem ([`crate::impartial::coins`]). `--method median|kary|exact` forces one of the Voronoi methods.

use crate::base::io::BadInput;
use crate::base::limits::{grouped, TooLarge};
use crate::base::method::Method;
use crate::voronoi::exact::ExactSolver;
use crate::voronoi::kary::{kary_certificate, kary_position_limit};
use gamecert_certificates::format::{Certificate, Instance, MultiRoundSpec};
use gamecert_certificates::triangulations::marking::MarkingGame;
use gamecert_certificates::voronoi::dnf::PosDnf;
use gamecert_reductions::posdnf_voronoi::{build, PosDnfVoronoi};

/// The arity of the complete k-ary tree behind `spec`, if `gen kary-tree` made it (checked by
/// regenerating it from the recorded k and height).
fn kary_source(spec: &MultiRoundSpec) -> anyhow::Result<Option<u64>> {
    let Some(source) = &spec.source else {
        return Ok(None);
    };
    if source.get("family").and_then(|f| f.as_str()) != Some("kary-tree") {
        return Ok(None);
    }
    let (Some(k), Some(height)) = (source["k"].as_u64(), source["height"].as_u64()) else {
        return Ok(None);
    };
    let Ok(height) = u32::try_from(height) else {
        return Ok(None);
    };
    let same = crate::voronoi::gen::kary_tree(k, height, spec.rounds)
        .map(|regenerated| regenerated.graph == spec.graph && spec.start.is_none())
        .unwrap_or(false);
    Ok(same.then_some(k))
}

/// The posdnf-voronoi construction behind `spec`, if its recorded source is that reduction and
/// rebuilding from the recorded formula gives exactly this instance.
fn posdnf_source(spec: &MultiRoundSpec) -> anyhow::Result<Option<PosDnfVoronoi>> {
    let Some(source) = &spec.source else {
        return Ok(None);
    };
    if source.get("reduction").and_then(|r| r.as_str()) != Some("posdnf-voronoi") {
        return Ok(None);
    }
    let formula: PosDnf = serde_json::from_value(source["formula"].clone())?;
    let built = build(&formula).map_err(anyhow::Error::msg)?;
    let same = built.graph == spec.graph && built.rounds == spec.rounds && spec.start.is_none();
    Ok(same.then_some(built))
}

/// A solved game: the certificate (not yet checked by the caller), the search nodes spent and
/// the method that produced it.
pub struct SolvedGame {
    pub certificate: Certificate,
    pub nodes: u64,
    pub method: String,
}

/// Solves `instance` with `method` (see [`Method`]; `auto` picks as the module docs say) and
/// returns its certificate. The caller runs the checker on it. A method that does not apply
/// to the instance (`median` on a graph that is not a tree) is a [`BadInput`].
pub fn solve_game(instance: &Instance, method: Method) -> anyhow::Result<SolvedGame> {
    let done = |certificate, nodes, method: &str| SolvedGame {
        certificate,
        nodes,
        method: method.to_string(),
    };
    match instance {
        Instance::Voronoi(spec) => {
            let game = spec.validate()?;
            match method {
                Method::Auto | Method::Exact | Method::Median | Method::Kary => {}
                Method::Direct | Method::Reduction => {
                    return Err(BadInput(format!(
                    "--method {} applies to one-round instances; use auto, median, kary or exact",
                    if method == Method::Direct {
                        "direct"
                    } else {
                        "reduction"
                    }
                ))
                    .into())
                }
                Method::Lemma4 | Method::Heaps => {
                    return Err(BadInput(format!(
                        "--method {} applies to games on triangulations",
                        if method == Method::Lemma4 {
                            "lemma4 (bichromatic-coloring)"
                        } else {
                            "heaps (coloring and monochromatic-triangle in convex position)"
                        }
                    ))
                    .into())
                }
            }
            if method == Method::Auto {
                if let Some(built) = posdnf_source(spec)? {
                    let dnf_cap = crate::voronoi::dnf::position_cap();
                    let cap = crate::voronoi::dnf_maps::position_cap(game.graph.len());
                    let certificate =
                        crate::voronoi::dnf_maps::certificate_for_within(&built, dnf_cap, cap)
                            .map_err(anyhow::Error::msg)?
                            .ok_or_else(|| {
                                let classes = crate::voronoi::exact::twin_classes(&game.graph);
                                let folded: usize = classes.iter().map(|c| c.len() - 1).sum();
                                let choices = (game.graph.len() - folded) as u128;
                                BadInput::from(TooLarge {
                                    what: "the forward maps' certificate".into(),
                                    estimate: format!(
                                        "up to {} positions of the DNF game and {} positions \
                                         per expanded strategy",
                                        grouped(crate::voronoi::dnf::position_bound(
                                            built.padded.num_vars
                                        )),
                                        grouped(crate::voronoi::dnf_maps::expansion_bound(
                                            choices,
                                            game.rounds
                                        ))
                                    ),
                                    limit: format!(
                                        "{} DNF positions and {} strategy positions",
                                        grouped(u128::from(dnf_cap)),
                                        grouped(cap as u128)
                                    ),
                                    suggestion: "the formula is too large for a certified \
                                                 solve; `gamecert reduce posdnf-game` and \
                                                 `solve` give the DNF game alone"
                                        .into(),
                                })
                            })?;
                    return Ok(done(certificate, 0, "forward maps of the positive-DNF reduction"));
                }
            }
            if matches!(method, Method::Auto | Method::Kary) {
                match kary_source(spec)? {
                    Some(k) => {
                        if let Some((certificate, name)) =
                            kary_certificate(&game, k).map_err(anyhow::Error::msg)?
                        {
                            return Ok(done(certificate, 0, name));
                        }
                        if method == Method::Kary {
                            return Err(BadInput(format!(
                                "the paper's strategies do not settle this tree (the checker \
                                 rejected them or they outgrew {} positions, the limit for \
                                 {} vertices); {}",
                                grouped(kary_position_limit(&game) as u128),
                                grouped(game.graph.len() as u128),
                                if game.graph.len() <= crate::voronoi::exact::MAX_VERTICES {
                                    "try --method exact"
                                } else {
                                    "the tree is too large for the exact solver"
                                }
                            ))
                            .into());
                        }
                    }
                    None if method == Method::Kary => {
                        return Err(BadInput(
                            "--method kary needs a complete k-ary tree made by `gamecert gen kary-tree`".into(),
                        )
                        .into())
                    }
                    None => {}
                }
            }
            let one_round_tree = game.rounds == 1
                && game.start.iter().all(|&c| c == b'.')
                && crate::voronoi::trees::is_tree(&game.graph);
            if method == Method::Median && !one_round_tree {
                let why = if game.rounds != 1 {
                    format!("it has {} rounds, not 1", game.rounds)
                } else if game.start.iter().any(|&c| c != b'.') {
                    "it starts with stones placed".to_string()
                } else {
                    crate::voronoi::trees::not_a_tree(&game.graph)
                };
                return Err(BadInput(format!(
                    "--method median needs one round on a tree from an empty start: {why}"
                ))
                .into());
            }
            if one_round_tree && method != Method::Exact {
                // One round on a tree: the linear-time median rule.
                crate::voronoi::trees::check_median_size(&game.graph).map_err(BadInput::from)?;
                let certificate =
                    crate::voronoi::trees::median_certificate(&game).map_err(anyhow::Error::msg)?;
                return Ok(done(certificate, 0, "the median rule (one round on a tree)"));
            }
            if method == Method::Auto
                && game.start.iter().all(|&c| c == b'.')
                && game.graph.len() <= crate::voronoi::paths::MAX_VERTICES
                && gamecert_certificates::voronoi::paths::path_order(&game.graph).is_ok()
            {
                // A path: the gap abstraction, whatever the vertex names and order.
                let cap = crate::voronoi::paths::state_cap();
                let solution = crate::voronoi::paths::PathSolver::new()
                    .solve_within(game.graph.len(), game.rounds, cap)
                    .map_err(anyhow::Error::msg)?
                    .ok_or_else(|| {
                        BadInput::from(TooLarge {
                            what: "the gap-state path search".into(),
                            estimate: format!(
                                "up to {} states (the search stopped at its cap)",
                                grouped(crate::voronoi::paths::state_bound(
                                    game.graph.len(),
                                    game.rounds
                                ))
                            ),
                            limit: format!(
                                "{} states ({} bytes each)",
                                grouped(cap as u128),
                                crate::voronoi::paths::BYTES_PER_STATE
                            ),
                            suggestion: "the path is too long for an exact solve".into(),
                        })
                    })?;
                return Ok(done(
                    Certificate::PathValue(solution.certificate),
                    solution.nodes,
                    "the gap-state path solver",
                ));
            }
            let mut solver = ExactSolver::new(&game).map_err(|why| {
                BadInput(format!(
                    "{why}; the instance is too large for an exact solve (--method median \
                     solves one round on a tree, --method kary the complete k-ary trees of \
                     `gamecert gen kary-tree`)"
                ))
            })?;
            if crate::voronoi::trees::is_tree(&game.graph) {
                let centre = crate::voronoi::trees::medians(&game.graph)[0];
                solver = solver.with_tree_symmetry(centre).map_err(anyhow::Error::msg)?;
            }
            let cap = crate::voronoi::exact::node_cap();
            let solution = solver.solve_within(cap).ok_or_else(|| {
                let suggestion = if one_round_tree {
                    "--method median solves one round on a tree".to_string()
                } else if matches!(kary_source(spec), Ok(Some(_))) {
                    "--method kary tries the paper's strategies on this k-ary tree".to_string()
                } else {
                    "the instance is too large for an exact solve".to_string()
                };
                BadInput::from(TooLarge {
                    what: "the exact search".into(),
                    estimate: format!(
                        "up to {} positions (W's and B's vertex sets reachable from the start; \
                         the search stopped at its cap)",
                        grouped(crate::voronoi::exact::position_bound(&game))
                    ),
                    limit: format!(
                        "{} search nodes ({} bytes each)",
                        grouped(u128::from(cap)),
                        crate::voronoi::exact::BYTES_PER_NODE
                    ),
                    suggestion,
                })
            })?;
            Ok(done(
                Certificate::VoronoiValue(solution.certificate()),
                solution.nodes,
                "the exact solver",
            ))
        }
        Instance::PosDnfGame(dnf) => {
            let cap = crate::voronoi::dnf::position_cap();
            let solution = crate::voronoi::dnf::solve_dnf_game_within(dnf, cap)
                .map_err(anyhow::Error::msg)?
                .ok_or_else(|| {
                    BadInput::from(TooLarge {
                        what: "the DNF game's search".into(),
                        estimate: format!(
                            "up to {} positions ({} variables; the search stopped at its cap)",
                            grouped(crate::voronoi::dnf::position_bound(dnf.num_vars)),
                            dnf.num_vars
                        ),
                        limit: format!(
                            "{} positions ({} bytes each)",
                            grouped(u128::from(cap)),
                            crate::voronoi::dnf::BYTES_PER_POSITION
                        ),
                        suggestion: "the instance is too large for an exact solve".into(),
                    })
                })?;
            Ok(done(
                Certificate::DnfStrategy(solution.strategy),
                solution.positions,
                "the exact DNF game solver",
            ))
        }
        Instance::MarkingGame(spec) if spec.game.is_construct_game() => {
            let how = match method {
                Method::Auto => crate::triangulations::constructing::How::Paper,
                Method::Exact => crate::triangulations::constructing::How::Exact,
                Method::Lemma4 if spec.game == MarkingGame::BichromaticColoring => {
                    let colouring = crate::triangulations::constructing::lemma4_colouring(spec)
                        .map_err(BadInput)?;
                    return Ok(done(
                        Certificate::BalancedColouring(colouring),
                        0,
                        "Lemma 4: the induction's balanced colouring",
                    ));
                }
                _ => {
                    return Err(BadInput(
                        "games on points with scores or ties take --method auto (the paper's \
                         strategy where it applies) or exact (bichromatic-coloring also lemma4)"
                            .into(),
                    )
                    .into())
                }
            };
            let (certificate, method, nodes) =
                crate::triangulations::constructing::solve(spec, how).map_err(BadInput)?;
            Ok(done(certificate, nodes, &method))
        }
        Instance::MarkingGame(spec) => {
            // Small boards get a strategy replayed under the plain rules (nothing trusted);
            // larger ones the sum-of-heaps certificate of Theorem 1 or 2 where it applies.
            let exact = |strategy| {
                done(
                    Certificate::MarkingStrategy(strategy),
                    0,
                    "the exact solver over sets of green edges",
                )
            };
            let heaps = |heaps| {
                done(
                    Certificate::MarkingKayles(heaps),
                    0,
                    if spec.game == MarkingGame::Coloring {
                        "Theorem 1: Kayles on the arrays of the dual"
                    } else {
                        "Theorem 2: Dawson's Kayles on the points"
                    },
                )
            };
            match method {
                Method::Auto => match crate::triangulations::marking::solve_instance(spec) {
                    Ok(strategy) => Ok(exact(strategy)),
                    Err(too_large) => crate::triangulations::convex_heaps::certificate(spec)
                        .map(heaps)
                        .map_err(|why| {
                            BadInput(format!("{too_large}; and no heap reduction applies: {why}"))
                                .into()
                        }),
                },
                Method::Exact => {
                    crate::triangulations::marking::solve_instance(spec).map(exact).map_err(|why| {
                        BadInput(format!("{why} (--method exact asks for the exact solver)")).into()
                    })
                }
                Method::Heaps => crate::triangulations::convex_heaps::certificate(spec)
                    .map(heaps)
                    .map_err(|why| BadInput(why).into()),
                _ => Err(BadInput(
                    "marking games take --method auto (exact when small, else the heaps of \
                     Theorem 1 or 2), exact or heaps"
                        .into(),
                )
                .into()),
            }
        }
        Instance::FlipGame(spec) => {
            let (certificate, nodes, method) =
                crate::triangulations::flip_solve::solve_instance(spec, method)?;
            Ok(done(certificate, nodes, &method))
        }
        Instance::TriangleAvoidance(spec) => {
            if spec.n > crate::triangle_avoidance::solver::MAX_CERTIFIED_N {
                return Err(BadInput(format!(
                    "triangle avoidance on n = {} nodes: the JSON certificate stops at n = {} \
                     (it lists every position the strategy reaches at once); `gamecert solve` \
                     writes a triangle-stream certificate for it (give -o FILE)",
                    spec.n,
                    crate::triangle_avoidance::solver::MAX_CERTIFIED_N
                ))
                .into());
            }
            let digraph = crate::triangle_avoidance::solver::GameDigraph::build(
                spec.n,
                crate::triangle_avoidance::solver::Rules::TriangleAvoidance,
                &mut |_, _| {},
            );
            let labels = digraph.label();
            let strategy = crate::triangle_avoidance::solver::certificate(&digraph, &labels);
            let (positions, _) = digraph.size();
            Ok(done(
                Certificate::TriangleStrategy(strategy),
                positions as u64,
                "the triangle-avoidance game digraph over unlabelled graphs",
            ))
        }
        Instance::HeapGame(game) => Ok(done(
            crate::impartial::octal::solve(game)?,
            game.heaps.iter().copied().max().unwrap_or(0) + 1,
            "the rare/common nim-sequence",
        )),
        Instance::CoinGame(spec) => {
            if method != Method::Auto {
                return Err(BadInput(
                    "coin games are solved one way: by closed forms, the tartan theorem or mex; \
                     drop --method"
                        .into(),
                )
                .into());
            }
            let game = spec.validate().map_err(BadInput)?;
            let certificate = crate::impartial::coins::certificate(&game).map_err(BadInput)?;
            Ok(done(
                Certificate::CoinLabelling(certificate),
                0,
                "closed forms and the tartan theorem (labels checked by mex)",
            ))
        }
        Instance::VertexNim(spec) => {
            let game = spec.validate().map_err(BadInput)?;
            let (certificate, positions, method) = crate::vertexnim::solver::solve(&game)?;
            Ok(SolvedGame { certificate, nodes: positions, method })
        }
        Instance::VoronoiOneRound(_) => {
            anyhow::bail!("one-round instances are solved by gamecert::voronoi::one_round")
        }
    }
}
