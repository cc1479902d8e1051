//! The solve methods of seed 001's games, as the registry ([`crate::registry`]) lists them: a
//! multi-round Voronoi game by the forward maps of the positive-DNF reduction (when the
//! instance is that reduction's image of its recorded formula, [`crate::voronoi::dnf_maps`]),
//! by seed 001's strategies on a complete k-ary tree from `gen` ([`crate::voronoi::kary`]),
//! by the median rule for one round on a tree ([`crate::voronoi::trees`]), by the gap-state
//! solver on a path ([`crate::voronoi::paths`]) or by the exact multi-round solver
//! ([`crate::voronoi::exact`]); the positive-DNF game by its exact solver
//! ([`crate::voronoi::dnf`]).
//!
//! Each method returns `Ok(None)` when it does not apply, so that `--method auto` tries the
//! next; asked for by name (`--method kary`), a method that does not apply says why instead.

use crate::base::io::BadInput;
use crate::base::limits::{grouped, TooLarge};
use crate::base::method::Method;
use crate::base::solved::{Checked, Options, SolvedGame};
use crate::voronoi::exact::ExactSolver;
use crate::voronoi::kary::{kary_certificate, kary_position_limit};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{Certificate, Instance, MultiRoundSpec};
use gamecert_certificates::voronoi::instance::MultiRound;
use gamecert_certificates::voronoi_paths::path_rule::{PathRule, PathRuleName, Side};
use gamecert_certificates::Decision;
use gamecert_reductions::posdnf_voronoi::{build, PosDnfVoronoi};

/// The multi-round game of a `voronoi` instance, validated.
fn multi_round(instance: &Instance) -> anyhow::Result<(&MultiRoundSpec, MultiRound)> {
    let Instance::Voronoi(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "a Voronoi method"));
    };
    Ok((spec, spec.validate()?))
}

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
    let formula: gamecert_certificates::posdnf::dnf::PosDnf =
        serde_json::from_value(source["formula"].clone())?;
    let built = build(&formula).map_err(anyhow::Error::msg)?;
    let same = built.graph == spec.graph && built.rounds == spec.rounds && spec.start.is_none();
    Ok(same.then_some(built))
}

/// The forward maps of the positive-DNF reduction: on the reduction's own image only.
pub fn forward_maps(instance: &Instance, _: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let (spec, game) = multi_round(instance)?;
    let Some(built) = posdnf_source(spec)? else {
        return Ok(None);
    };
    let dnf_cap = crate::voronoi::dnf::position_cap();
    let cap = crate::voronoi::dnf_maps::position_cap(game.graph.len());
    let certificate = crate::voronoi::dnf_maps::certificate_for_within(&built, dnf_cap, cap)
        .map_err(anyhow::Error::msg)?
        .ok_or_else(|| {
            let classes = crate::voronoi::exact::twin_classes(&game.graph);
            let folded: usize = classes.iter().map(|c| c.len() - 1).sum();
            let choices = (game.graph.len() - folded) as u128;
            BadInput::from(TooLarge {
                what: "the forward maps' certificate".into(),
                estimate: format!(
                    "up to {} positions of the DNF game and {} positions per expanded strategy",
                    grouped(crate::voronoi::dnf::position_bound(built.padded.num_vars)),
                    grouped(crate::voronoi::dnf_maps::expansion_bound(choices, game.rounds))
                ),
                limit: format!(
                    "{} DNF positions and {} strategy positions",
                    grouped(u128::from(dnf_cap)),
                    grouped(cap as u128)
                ),
                suggestion: "the formula is too large for a certified solve; `gamecert reduce \
                             posdnf-game` and `solve` give the DNF game alone"
                    .into(),
            })
        })?;
    Ok(Some(SolvedGame::new(certificate, 0, "forward maps of the positive-DNF reduction")))
}

/// Seed 001's strategies on a complete k-ary tree made by `gen kary-tree`.
pub fn kary(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let (spec, game) = multi_round(instance)?;
    let asked = options.method == Method::Kary;
    let Some(k) = kary_source(spec)? else {
        if asked {
            return Err(BadInput(
                "--method kary needs a complete k-ary tree made by `gamecert gen kary-tree`".into(),
            )
            .into());
        }
        return Ok(None);
    };
    if let Some((certificate, name)) = kary_certificate(&game, k).map_err(anyhow::Error::msg)? {
        return Ok(Some(SolvedGame::new(certificate, 0, name)));
    }
    if asked {
        return Err(BadInput(format!(
            "the paper's strategies do not settle this tree (the checker rejected them or they \
             outgrew {} positions, the limit for {} vertices); {}",
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
    Ok(None)
}

/// Whether `game` is one round on a tree from an empty start (the median rule's case).
fn one_round_tree(game: &MultiRound) -> bool {
    game.rounds == 1
        && game.start.iter().all(|&c| c == b'.')
        && crate::voronoi::trees::is_tree(&game.graph)
}

/// The linear-time median rule: one round on a tree from an empty start.
pub fn median(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let (_, game) = multi_round(instance)?;
    if !one_round_tree(&game) {
        if options.method != Method::Median {
            return Ok(None);
        }
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
    crate::voronoi::trees::check_median_size(&game.graph).map_err(BadInput::from)?;
    let certificate =
        crate::voronoi::trees::median_certificate(&game).map_err(anyhow::Error::msg)?;
    Ok(Some(SolvedGame::new(certificate, 0, "the median rule (one round on a tree)")))
}

/// The gap-state solver: a path from an empty start, whatever the vertex names and order.
/// B's mirror: an automorphism of order 2 without fixed points that swaps the start's colours
/// ([`crate::voronoi::mirror`]); B at least ties. Asked by name only (it settles B's side, not
/// the game's value).
pub fn mirror(instance: &Instance, _: &Options) -> anyhow::Result<Option<SolvedGame>> {
    use crate::voronoi::mirror::{find, Found};
    let (_, game) = multi_round(instance)?;
    let pairs = match find(&game.graph, &game.start) {
        Found::Pairs(pairs) => pairs,
        Found::None(why) => return Err(BadInput(format!("no mirror for B: {why}")).into()),
        Found::GaveUp => {
            return Err(BadInput(format!(
                "no mirror for B found within {} steps of the search (one may exist: the search \
                 is a backtracking over the graph's automorphisms)",
                grouped(u128::from(crate::voronoi::mirror::STEP_LIMIT))
            ))
            .into())
        }
    };
    let name = |v: usize| game.graph.name(v).to_string();
    let certificate = gamecert_certificates::format::VoronoiMirror {
        player: gamecert_certificates::voronoi::rules::Player::Black,
        claim: gamecert_certificates::voronoi::multi_round::StrategyClaim::AtLeastTies,
        pairs: pairs.iter().map(|&(a, b)| (name(a), name(b))).collect(),
    };
    let nodes = pairs.len() as u64;
    Ok(Some(SolvedGame::new(Certificate::VoronoiMirror(certificate), nodes, "B's mirror")))
}

/// Rule U of issue 49 for `side` on a path from an empty start: a `voronoi-path-rule`
/// certificate (the checker computes the rule's moves; nothing is searched here). Asked by
/// name only: it settles one side, not the value.
fn rule(instance: &Instance, side: Side, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let (_, game) = multi_round(instance)?;
    if let Err(why) = gamecert_certificates::voronoi_paths::paths::path_order(&game.graph) {
        return Err(BadInput(format!("rule U plays on a path: {why}")).into());
    }
    if game.start.iter().any(|&c| c != b'.') {
        return Err(BadInput("rule U plays from an empty start".into()).into());
    }
    let certificate =
        PathRule { vertices: game.graph.len(), rounds: game.rounds, rule: PathRuleName::U, side };
    // Checked here, once: a rule that fails is a result (the play that beats it), not a fault
    // of ours, and the replay is the whole cost of this method.
    let side_name = if side == Side::W { "W" } else { "B" };
    let certificate = Certificate::PathRule(certificate);
    // The budget `verify` gives the certificate's file (its few bytes buy little).
    let limits = match options.max_work {
        Some(max_work) => gamecert_certificates::Limits::work(max_work),
        None => gamecert_certificates::Limits::for_input(certificate.to_json().len() as u64),
    };
    let started = std::time::Instant::now();
    let verdict = gamecert_certificates::check(instance, &certificate, &limits);
    let check_seconds = started.elapsed().as_secs_f64();
    if verdict.outcome == Decision::Rejected && verdict.reason.starts_with("the rule fails") {
        return Err(BadInput(format!(
            "rule U does not hold {side_name}'s side of VG(P_{}, {}): {}",
            game.graph.len(),
            game.rounds,
            verdict.reason
        ))
        .into());
    }
    let fields = serde_json::json!({
        "claim": verdict.claim,
        "kind": certificate.kind(),
        "method": "rule U",
        "search_nodes": 0,
        "check_seconds": check_seconds,
        "work": verdict.work,
    });
    let summary = format!(
        "{}: {} certificate ({} bytes whatever N), accepted by the checker in {check_seconds:.3} s: {}",
        verdict.claim,
        certificate.kind(),
        certificate.to_json().len(),
        verdict.reason
    );
    Ok(Some(SolvedGame {
        certificate,
        nodes: 0,
        method: "rule U".into(),
        checked: Some(Checked { verdict, fields, summary }),
        proof_file: None,
    }))
}

/// [`rule`] for W.
pub fn rule_white(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    rule(instance, Side::W, options)
}

/// [`rule`] for B.
pub fn rule_black(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    rule(instance, Side::B, options)
}

pub fn path_gaps(instance: &Instance, _: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let (_, game) = multi_round(instance)?;
    let applies = game.start.iter().all(|&c| c == b'.')
        && game.graph.len() <= crate::voronoi::paths::MAX_VERTICES
        && gamecert_certificates::voronoi_paths::paths::path_order(&game.graph).is_ok();
    if !applies {
        return Ok(None);
    }
    let cap = crate::voronoi::paths::state_cap();
    let solution = crate::voronoi::paths::PathSolver::new()
        .solve_within(game.graph.len(), game.rounds, cap)
        .map_err(anyhow::Error::msg)?
        .ok_or_else(|| {
            BadInput::from(TooLarge {
                what: "the gap-state path search".into(),
                estimate: format!(
                    "up to {} states (the search stopped at its cap)",
                    grouped(crate::voronoi::paths::state_bound(game.graph.len(), game.rounds))
                ),
                limit: format!(
                    "{} states ({} bytes each)",
                    grouped(cap as u128),
                    crate::voronoi::paths::BYTES_PER_STATE
                ),
                suggestion: "the path is too long for an exact solve".into(),
            })
        })?;
    Ok(Some(SolvedGame::new(
        Certificate::PathValue(solution.certificate),
        solution.nodes,
        "the gap-state path solver",
    )))
}

/// The exact multi-round solver (both players' strategies, a `voronoi-value`).
pub fn exact(instance: &Instance, _: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let (spec, game) = multi_round(instance)?;
    let mut solver = ExactSolver::new(&game).map_err(|why| {
        BadInput(format!(
            "{why}; the instance is too large for an exact solve (--method median solves one \
             round on a tree, --method kary the complete k-ary trees of `gamecert gen kary-tree`)"
        ))
    })?;
    if crate::voronoi::trees::is_tree(&game.graph) {
        let centre = crate::voronoi::trees::medians(&game.graph)[0];
        solver = solver.with_tree_symmetry(centre).map_err(anyhow::Error::msg)?;
    }
    let cap = crate::voronoi::exact::node_cap();
    let solution = solver.solve_within(cap).ok_or_else(|| {
        let suggestion = if one_round_tree(&game) {
            "--method median solves one round on a tree".to_string()
        } else if matches!(kary_source(spec), Ok(Some(_))) {
            "--method kary tries the paper's strategies on this k-ary tree".to_string()
        } else {
            "the instance is too large for an exact solve".to_string()
        };
        BadInput::from(TooLarge {
            what: "the exact search".into(),
            estimate: exact_estimate(&game),
            limit: format!(
                "{} search nodes ({} bytes each)",
                grouped(u128::from(cap)),
                crate::voronoi::exact::BYTES_PER_NODE
            ),
            suggestion,
        })
    })?;
    Ok(Some(SolvedGame::new(
        Certificate::VoronoiValue(solution.certificate()),
        solution.nodes,
        "the exact solver",
    )))
}

/// The exact solver's size estimate for `game`.
fn exact_estimate(game: &MultiRound) -> String {
    format!(
        "up to {} positions (W's and B's vertex sets reachable from the start; the search \
         stopped at its cap)",
        grouped(crate::voronoi::exact::position_bound(game))
    )
}

/// The size `gamecert kinds` and the registry's estimate give a multi-round instance: the
/// exact solver's bound on its positions.
pub fn estimate(instance: &Instance) -> Option<String> {
    let (_, game) = multi_round(instance).ok()?;
    Some(format!(
        "at most {} positions for the exact solver",
        grouped(crate::voronoi::exact::position_bound(&game))
    ))
}

/// The exact DNF game solver (a `dnf-strategy`).
pub fn dnf_game(instance: &Instance, _: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let Instance::PosDnfGame(dnf) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "the DNF game"));
    };
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
    Ok(Some(SolvedGame::new(
        Certificate::DnfStrategy(solution.strategy),
        solution.positions,
        "the exact DNF game solver",
    )))
}

/// The DNF game's size estimate.
pub fn dnf_estimate(instance: &Instance) -> Option<String> {
    let Instance::PosDnfGame(dnf) = instance else { return None };
    Some(format!(
        "at most {} positions",
        grouped(crate::voronoi::dnf::position_bound(dnf.num_vars))
    ))
}

/// A one-round game by SAT (`reduction`: the recorded source formula and Theorem 3; `direct`:
/// the checker's own encoding; auto: the first when the formula is recorded). The pipeline
/// checks the witness or the LRAT refutation itself, so the verdict comes back with it.
pub fn one_round(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    use crate::voronoi::one_round::{solve_one_round, SolveError};
    let Instance::VoronoiOneRound(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "the one-round game"));
    };
    let game = spec.validate()?;
    let backend = options.sat.unwrap_or_default();
    let solved =
        solve_one_round(spec, &game, options.method, backend, options.max_work, &options.proof)
            .map_err(|e| match e {
                SolveError::TooLarge(t) => BadInput(t.to_string()).into(),
                // The user's choice of method or the instance itself: bad input, not a fault of ours.
                e @ (SolveError::NoSource
                | SolveError::NotTheImage(_)
                | SolveError::WrongMethod(_)
                | SolveError::Invalid(_)) => BadInput(e.to_string()).into(),
                other => anyhow::Error::from(other),
            })?;
    // The certificate's keyword (`black-wins`, `black-cannot-win`) is the JSON field; people
    // read the checker's sentence (`summary`).
    let keyword = match &solved.certificate {
        Certificate::Witness(witness) => witness.claim.as_str(),
        Certificate::Refutation(refutation) => refutation.claim.as_str(),
        _ => solved.verdict.claim.as_str(),
    };
    let fields = serde_json::json!({
        "claim": keyword,
        "kind": solved.certificate.kind(),
        "method": solved.method,
        "sat": backend.name(),
        "solve_seconds": solved.solve_seconds,
        "check_seconds": solved.check_seconds,
        "work": solved.verdict.work,
        "lrat_bytes": solved.lrat_bytes,
    });
    let mut fields = fields;
    if let Some(file) = &solved.proof_file {
        fields["certificate_bytes"] = file.bytes.into();
        fields["conflicts"] = file.stats.conflicts.into();
    }
    if let Some(note) = &solved.note {
        fields["note"] = serde_json::Value::from(note.as_str());
    }
    let lrat = match (solved.lrat_bytes, &solved.proof_file) {
        (0, _) => String::new(),
        (bytes, None) => format!(", {} of LRAT", counted(bytes as u64, "byte")),
        (bytes, Some(file)) => {
            let per_conflict = match file.stats.conflicts {
                0 => String::new(),
                conflicts => {
                    format!(", {:.1} a conflict of the solver's", bytes as f64 / conflicts as f64)
                }
            };
            format!(", a binary certificate of {}{per_conflict}", counted(bytes as u64, "byte"))
        }
    };
    let checked = match &solved.proof_file {
        None => format!("accepted by the checker in {:.3} s", solved.check_seconds),
        Some(_) => format!(
            "accepted by the checker, which read the proof on the other core as it was written \
             and finished {:.3} s after the solver",
            solved.check_seconds
        ),
    };
    let summary = format!(
        "{}: {} certificate ({} method with {backend}, {}, {}{lrat}), solved in {:.3} s, \
         {checked}",
        solved.verdict.claim,
        solved.certificate.kind(),
        solved.method,
        counted(solved.cnf_variables, "variable"),
        counted(solved.cnf_clauses, "clause"),
        solved.solve_seconds,
    );
    let summary = match &solved.note {
        Some(note) => format!("{summary}; {note}"),
        None => summary,
    };
    Ok(Some(SolvedGame {
        certificate: solved.certificate,
        nodes: 0,
        method: solved.method.to_string(),
        checked: Some(Checked { verdict: solved.verdict, fields, summary }),
        proof_file: solved.proof_file,
    }))
}

/// A one-round instance's size: its vertices and the stones B places.
pub fn one_round_estimate(instance: &Instance) -> Option<String> {
    let Instance::VoronoiOneRound(spec) = instance else { return None };
    Some(format!(
        "{} vertices, B places {}",
        grouped(spec.graph.vertices.len() as u128),
        spec.black_count
    ))
}
