//! `check(instance, certificate) -> Verdict`: the one entry point users trust.
//!
//! - A witness is scored with the reference rules ([`crate::voronoi::rules`]).
//! - A direct refutation: the checker encodes the instance itself ([`crate::voronoi::encode`]) and checks
//!   the LRAT proof against that formula ([`crate::base::lrat`]).
//! - A refutation through a reduction: the checker checks that the carried formula is in the
//!   theorem's domain, rebuilds the instance from it ([`crate::voronoi::sat_reduction`]), compares it with
//!   the instance it was given, checks the LRAT proof against the formula, and names the theorem
//!   it trusts for the step from "unsatisfiable" to "B cannot win".
//! - A heap labelling (octal games, Grundy's game): every label is the mex over the moves of
//!   the plain rules ([`crate::impartial::heaps`]); the sum of heaps by the Sprague-Grundy theorem.
//! - A strategy (multi-round Voronoi game, positive-DNF game) is replayed against every
//!   opponent move ([`crate::voronoi::multi_round`], [`crate::voronoi::dnf`]).
//! - A `voronoi-path-value` certificate fits a `voronoi` instance whose graph is a path with no
//!   start stones; both strategies are replayed over the abstract gap states of
//!   [`crate::voronoi::paths`], trusting the lemma [`crate::TRUSTED_PATH_GAPS`].

use crate::base::budget::Budget;
pub use crate::base::budget::Limits;
use crate::base::lrat::{check_lrat, LratReport};
use crate::format::{
    Certificate, FormatError, Instance, MultiRound, OneRound, Refutation, RefutationMethod,
    Witness, CLAIM_BLACK_CANNOT_WIN, CLAIM_BLACK_WINS,
};
use crate::impartial::coins::{CoinGame, CoinLabelling, CLAIM_FIRST_WINS};
use crate::impartial::heaps::{
    check_labelling, HeapGame, HeapLabelling, CLAIM_FIRST_PLAYER_WINS, CLAIM_SECOND_PLAYER_WINS,
};
use crate::triangle_avoidance::strategy::TriangleStrategy;
pub use crate::verdict::{reject, Verdict, Work, INTERNAL_ERROR};
use crate::voronoi::dnf::{DnfPlayer, DnfStrategy, PosDnf};
use crate::voronoi::encode::black_wins_cnf;
use crate::voronoi::multi_round::{
    check_strategy, check_value, StrategyClaim, VoronoiStrategy, VoronoiValue,
};
use crate::voronoi::paths::{check_path_value, path_order, PathValue};
use crate::voronoi::rules::Player;
use crate::voronoi::rules::{score, Outcome};
use crate::voronoi::sat_reduction::{self, SatVoronoi};
use crate::{TRUSTED_COIN_DECOMPOSITION, TRUSTED_SPRAGUE_GRUNDY};
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Checks a certificate against an instance within `limits`. Never panics; a certificate of
/// the wrong kind for the instance is rejected with a reason, and so is a check that would pass
/// the work limit.
pub fn check(instance: &Instance, certificate: &Certificate, limits: &Limits) -> Verdict {
    let mut budget = limits.budget();
    check_with(instance, certificate, &mut budget)
}

/// [`check`] charging an existing budget (one that may already have paid for validating the
/// instance).
pub fn check_with(instance: &Instance, certificate: &Certificate, budget: &mut Budget) -> Verdict {
    guarded(certificate, budget, |budget| check_within(instance, certificate, budget))
}

/// Runs a check, turning a panic (a fault of the checker: every input is meant to be refused
/// by range checks before arithmetic could overflow, and the checker crate is built with
/// overflow checks in every profile) into a rejection whose reason starts with
/// [`INTERNAL_ERROR`], and records the work spent.
pub(crate) fn guarded(
    certificate: &Certificate,
    budget: &mut Budget,
    run: impl FnOnce(&mut Budget) -> Verdict,
) -> Verdict {
    let outcome = catch_unwind(AssertUnwindSafe(|| run(&mut *budget)));
    let mut verdict = outcome.unwrap_or_else(|payload| {
        reject(
            claim_of(certificate),
            format!(
                "{INTERNAL_ERROR}: the checker stopped on a fault ({}); the certificate is \
                 rejected, and this input shows a bug in the checker",
                panic_message(payload.as_ref())
            ),
            Work::default(),
        )
    });
    verdict.work.work_units = budget.used();
    verdict
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

fn check_within(instance: &Instance, certificate: &Certificate, budget: &mut Budget) -> Verdict {
    let invalid = |err: FormatError| {
        reject(claim_of(certificate), format!("the instance is not valid: {err}"), Work::default())
    };
    match (instance, certificate) {
        (Instance::VoronoiOneRound(spec), _) => match spec.validate_within(budget) {
            Ok(game) => check_one_round_within(&game, certificate, budget),
            Err(err) => invalid(err),
        },
        (Instance::Voronoi(spec), Certificate::VoronoiStrategy(strategy)) => {
            match spec.validate_within(budget) {
                Ok(game) => check_voronoi_strategy(&game, strategy, budget),
                Err(err) => invalid(err),
            }
        }
        (Instance::Voronoi(spec), Certificate::VoronoiValue(value)) => {
            match spec.validate_within(budget) {
                Ok(game) => check_voronoi_value(&game, value, budget),
                Err(err) => invalid(err),
            }
        }
        (Instance::Voronoi(spec), Certificate::PathValue(value)) => {
            match spec.validate_within(budget) {
                Ok(game) => check_voronoi_path_value(&game, value, budget),
                Err(err) => invalid(err),
            }
        }
        (Instance::PosDnfGame(dnf), Certificate::DnfStrategy(strategy)) => {
            check_dnf_strategy(dnf, strategy, budget)
        }
        (Instance::MarkingGame(spec), Certificate::MarkingStrategy(strategy)) => {
            let claim = format!("the {} player wins {:?}", strategy.winner, spec.game);
            match crate::triangulations::marking::check_marking_strategy(spec, strategy, budget)
            {
                Ok(report) => Verdict {
                    accepted: true,
                    claim,
                    reason: format!(
                        "replayed against every opponent move: {} positions, {} final positions, all won by the winner",
                        report.positions, report.wins
                    ),
                    work: Work {
                        positions: Some(report.positions),
                        leaves: Some(report.wins),
                        ..Work::default()
                    },
                    trusted: Vec::new(),
                },
                Err(why) => reject(claim, why, Work::default()),
            }
        }
        (Instance::FlipGame(spec), Certificate::FlipValue(_) | Certificate::FlipSequence(_)) => {
            let (accepted, claim, reason, positions, leaves) =
                crate::triangulations::flipping::verdict(spec, certificate, budget);
            Verdict {
                accepted,
                claim,
                reason,
                work: Work { positions, leaves, ..Work::default() },
                trusted: Vec::new(),
            }
        }
        (Instance::MarkingGame(spec), Certificate::MarkingKayles(cert)) => {
            let claim = format!("the {} player wins {:?}", cert.winner, spec.game);
            match crate::triangulations::convex_heaps::check_marking_kayles(spec, cert, budget) {
                Ok(report) => Verdict {
                    accepted: true,
                    claim,
                    reason: format!(
                        "by {} the game is a sum of {} heaps (largest {}); every label up to heap \
                         {} is the mex over its moves ({} moves); the value is {}{}",
                        report.theorem,
                        report.heaps.len(),
                        report.heaps.iter().max().unwrap_or(&0),
                        report.labelling.bound,
                        report.labelling.moves,
                        report.labelling.value,
                        if report.labelling.value == 0 {
                            ""
                        } else {
                            "; the winning edge leaves value 0"
                        }
                    ),
                    work: Work { positions: Some(report.labelling.bound + 1), ..Work::default() },
                    trusted: [crate::TRUSTED_TRIANGULATION_HEAPS.to_string()]
                        .into_iter()
                        .chain(heap_theorems(&report.labelling))
                        .collect(),
                },
                Err(why) => reject(claim, why, Work::default()),
            }
        }
        (Instance::MarkingGame(spec), Certificate::ConstructStrategy(cert)) => {
            crate::triangulations::constructing::verdict(spec, cert, budget)
        }
        (Instance::MarkingGame(spec), Certificate::BalancedColouring(cert)) => {
            crate::triangulations::constructing::colouring_verdict(spec, cert, budget)
        }
        (Instance::TriangleAvoidance(spec), Certificate::TriangleStrategy(strategy)) => {
            check_triangle(spec.n, strategy, budget)
        }
        (Instance::HeapGame(game), Certificate::HeapLabelling(labelling)) => {
            check_heap_labelling(game, labelling, budget)
        }
        (Instance::CoinGame(spec), Certificate::CoinLabelling(labelling)) => {
            match spec.validate() {
                Ok(game) => check_coin_labelling(&game, labelling, budget),
                Err(err) => invalid(FormatError::new(err)),
            }
        }
        (Instance::VertexNim(spec), Certificate::VertexNimStrategy(strategy)) => {
            match spec.validate() {
                Ok(game) => check_vertexnim(&game, strategy, budget),
                Err(err) => invalid(FormatError::new(err)),
            }
        }
        (Instance::VertexNim(spec), Certificate::VertexNimLabelling(labelling)) => {
            let claim = format!("the {} player wins", labelling.winner);
            match spec.validate() {
                Ok(game) => {
                    match crate::vertexnim::strategy::check_labelling(&game, labelling, budget) {
                        Ok((theorem, how)) => Verdict {
                            accepted: true,
                            claim,
                            reason: format!(
                                "every label (and peeling round) satisfies the local rules; by \
                             {theorem}: {how}"
                            ),
                            work: Work {
                                vertices: game.names.len(),
                                positions: Some(game.names.len() as u64),
                                ..Work::default()
                            },
                            trusted: vec![match theorem {
                                "Theorem 3" => crate::TRUSTED_VERTEXNIM_THEOREM_3,
                                "Theorem 6" | "Theorem 14" => crate::TRUSTED_VERTEXNIM_THEOREM_6,
                                _ => crate::TRUSTED_VERTEXNIM_THEOREM_10,
                            }
                            .to_string()],
                        },
                        Err(why) => reject(claim, why, Work::default()),
                    }
                }
                Err(err) => invalid(FormatError::new(err)),
            }
        }
        _ => mismatch(instance, certificate),
    }
}

fn check_vertexnim(
    game: &crate::vertexnim::strategy::VertexNim,
    strategy: &crate::vertexnim::strategy::VertexNimStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim = format!("the {} player wins", strategy.winner);
    let work = Work {
        vertices: game.names.len(),
        edges: game.start.adj.iter().map(|a| a.len()).sum(),
        ..Work::default()
    };
    match crate::vertexnim::strategy::check_strategy(game, strategy, budget) {
        Ok(report) => Verdict {
            accepted: true,
            claim,
            reason: format!(
                "the winner's strategy replayed against every move of the other player: {} \
                 positions, {} moves followed, {} final positions",
                report.positions, report.moves_followed, report.final_positions
            ),
            work: Work {
                positions: Some(report.positions),
                leaves: Some(report.final_positions),
                ..work
            },
            trusted: Vec::new(),
        },
        Err(why) => reject(claim, why, work),
    }
}

fn check_heap_labelling(
    game: &HeapGame,
    labelling: &HeapLabelling,
    budget: &mut Budget,
) -> Verdict {
    let claim = match labelling.claim.as_str() {
        CLAIM_FIRST_PLAYER_WINS => "the first player wins".to_string(),
        CLAIM_SECOND_PLAYER_WINS => "the second player wins".to_string(),
        other => other.to_string(),
    };
    if let Some(why) = game.violation() {
        return reject(claim, format!("the instance is not valid: {why}"), Work::default());
    }
    match check_labelling(game, labelling, budget) {
        Ok(report) => Verdict {
            accepted: true,
            claim,
            reason: format!(
                "every label up to heap {} is the mex over its moves under {} ({} moves); the \
                 position's value is {}{}",
                report.bound,
                game.game,
                report.moves,
                report.value,
                if report.value == 0 {
                    String::new()
                } else {
                    "; the winning move leaves value 0".to_string()
                }
            ),
            work: Work { positions: Some(report.bound + 1), ..Work::default() },
            trusted: heap_theorems(&report),
        },
        Err(why) => reject(claim, why, Work::default()),
    }
}

/// The theorems a heap-labelling verdict rests on: Sprague-Grundy, and the periodicity theorem
/// when a heap beyond the checked labels took its value from the period.
fn heap_theorems(report: &crate::impartial::heaps::LabellingReport) -> Vec<String> {
    let mut trusted = vec![TRUSTED_SPRAGUE_GRUNDY.to_string()];
    if report.periodic {
        trusted.push(crate::TRUSTED_OCTAL_PERIODICITY.to_string());
    }
    trusted
}

/// [`check`] for a `voronoi-one-round` instance the caller has already validated (so a large
/// graph is built once).
pub fn check_one_round(game: &OneRound, certificate: &Certificate, limits: &Limits) -> Verdict {
    let mut budget = limits.budget();
    check_one_round_with(game, certificate, &mut budget)
}

/// [`check_one_round`] charging an existing budget (the one that validated the instance).
pub fn check_one_round_with(
    game: &OneRound,
    certificate: &Certificate,
    budget: &mut Budget,
) -> Verdict {
    guarded(certificate, budget, |budget| check_one_round_within(game, certificate, budget))
}

fn check_one_round_within(
    game: &OneRound,
    certificate: &Certificate,
    budget: &mut Budget,
) -> Verdict {
    match certificate {
        Certificate::Witness(w) => check_witness(game, w, budget),
        Certificate::Refutation(r) => check_refutation(game, r, budget),
        _ => reject(
            claim_of(certificate),
            format!(
                "a {} certificate does not fit a voronoi-one-round instance",
                certificate.kind()
            ),
            Work::default(),
        ),
    }
}

fn mismatch(instance: &Instance, certificate: &Certificate) -> Verdict {
    reject(
        claim_of(certificate),
        format!("a {} certificate does not fit a {} instance", certificate.kind(), instance.kind()),
        Work::default(),
    )
}

fn check_voronoi_strategy(
    game: &MultiRound,
    strategy: &VoronoiStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim = voronoi_claim(strategy);
    let mut work =
        Work { vertices: game.graph.len(), edges: game.graph.edge_count(), ..Work::default() };
    match check_strategy(&game.graph, game.rounds, &game.start, strategy, budget) {
        Ok(report) => {
            work.positions = Some(report.positions);
            work.leaves = Some(report.leaves);
            work.symmetries = Some(report.symmetries_used);
            Verdict {
                accepted: true,
                claim,
                reason: format!(
                    "replayed against every opponent move: {} positions, {} final positions \
                     (worst margin {}), {} opponent moves folded by verified symmetries",
                    report.positions,
                    report.leaves,
                    report.worst_margin.map_or("none".to_string(), |m| m.to_string()),
                    report.symmetries_used
                ),
                work,
                trusted: Vec::new(),
            }
        }
        Err(why) => reject(claim, why, work),
    }
}

fn check_voronoi_value(game: &MultiRound, value: &VoronoiValue, budget: &mut Budget) -> Verdict {
    let claim = format!("the game's value (W's margin) is {}", value.value);
    let mut work =
        Work { vertices: game.graph.len(), edges: game.graph.edge_count(), ..Work::default() };
    match check_value(&game.graph, game.rounds, &game.start, value, budget) {
        Ok((white, black)) => {
            work.positions = Some(white.positions + black.positions);
            work.leaves = Some(white.leaves + black.leaves);
            work.symmetries = Some(white.symmetries_used + black.symmetries_used);
            Verdict {
                accepted: true,
                claim,
                reason: format!(
                    "W's strategy guarantees a margin of at least {v} ({} positions) and B's holds \
                     W to at most {v} ({} positions), each replayed against every opponent move",
                    white.positions,
                    black.positions,
                    v = value.value
                ),
                work,
                trusted: Vec::new(),
            }
        }
        Err(why) => reject(claim, why, work),
    }
}

fn check_voronoi_path_value(game: &MultiRound, value: &PathValue, budget: &mut Budget) -> Verdict {
    let claim = path_claim(value);
    let mut work =
        Work { vertices: game.graph.len(), edges: game.graph.edge_count(), ..Work::default() };
    if let Err(why) = path_order(&game.graph) {
        return reject(
            claim,
            format!("a voronoi-path-value certificate needs a path: {why}"),
            work,
        );
    }
    if game.start.iter().any(|&c| c != b'.') {
        return reject(
            claim,
            "a voronoi-path-value certificate needs a game without start stones".into(),
            work,
        );
    }
    match check_path_value(game.graph.len(), game.rounds, value, budget) {
        Ok((white, black)) => {
            work.positions = Some(white.states + black.states);
            work.leaves = Some(white.leaves + black.leaves);
            Verdict {
                accepted: true,
                claim,
                reason: format!(
                    "W's strategy guarantees a margin of at least {v} ({} gap states) and B's \
                     holds W to at most {v} ({} gap states), each replayed against every \
                     opponent move",
                    white.states,
                    black.states,
                    v = value.value
                ),
                work,
                trusted: vec![crate::TRUSTED_PATH_GAPS.to_string()],
            }
        }
        Err(why) => reject(claim, why, work),
    }
}

fn path_claim(value: &PathValue) -> String {
    format!(
        "the value of VG(P_{}, {}) (W's margin) is {}",
        value.vertices, value.rounds, value.value
    )
}

fn voronoi_claim(strategy: &VoronoiStrategy) -> String {
    let who = match strategy.player {
        Player::White => "white",
        Player::Black => "black",
    };
    match (strategy.claim, strategy.margin) {
        (StrategyClaim::Wins, _) => format!("{who} wins"),
        (StrategyClaim::AtLeastTies, _) => format!("{who} at least ties"),
        (StrategyClaim::MarginAtLeast, Some(k)) => format!("{who} has margin at least {k}"),
        (StrategyClaim::MarginAtLeast, None) => format!("{who} has margin at least ?"),
    }
}

fn check_dnf_strategy(dnf: &PosDnf, strategy: &DnfStrategy, budget: &mut Budget) -> Verdict {
    let who = match strategy.player {
        DnfPlayer::First => "first",
        DnfPlayer::Second => "second",
    };
    let claim = format!("the {who} player wins");
    match crate::voronoi::dnf::check_strategy(dnf, strategy, budget) {
        Ok(report) => Verdict {
            accepted: true,
            claim,
            reason: format!(
                "replayed against every opponent move: {} positions, {} settled",
                report.positions, report.leaves
            ),
            work: Work {
                positions: Some(report.positions),
                leaves: Some(report.leaves),
                ..Work::default()
            },
            trusted: Vec::new(),
        },
        Err(why) => reject(claim, why, Work::default()),
    }
}

fn check_triangle(n: usize, strategy: &TriangleStrategy, budget: &mut Budget) -> Verdict {
    let claim =
        format!("{} wins one-colour triangle avoidance on {} nodes", strategy.winner, strategy.n);
    if strategy.n != n {
        let why = format!("the certificate is for n = {}, the instance for n = {n}", strategy.n);
        return reject(claim, why, Work::default());
    }
    match crate::triangle_avoidance::strategy::check_triangle_strategy(strategy, budget) {
        Ok(report) => Verdict {
            accepted: true,
            claim,
            reason: format!(
                "the Winner's strategy replayed against every move of the other player: {} \
                 positions, {} moves mapped onto stored positions by verified permutations, {} \
                 final positions",
                report.positions, report.moves_checked, report.final_positions
            ),
            work: Work {
                positions: Some(report.positions),
                leaves: Some(report.final_positions),
                ..Work::default()
            },
            trusted: Vec::new(),
        },
        Err(why) => reject(claim, why, Work::default()),
    }
}

fn check_coin_labelling(game: &CoinGame, cert: &CoinLabelling, budget: &mut Budget) -> Verdict {
    let claim = format!(
        "the position has Grundy value {}: {}{}",
        cert.value,
        if cert.claim == CLAIM_FIRST_WINS {
            "the first player wins"
        } else {
            "the second player wins"
        },
        if cert.winning_move.is_some() { " with the given move" } else { "" }
    );
    match crate::impartial::coins::check_labelling(game, cert, budget) {
        Ok(report) => Verdict {
            accepted: true,
            claim,
            reason: format!(
                "every one of the {} labels is the mex over its moves ({} steps){}",
                report.coins,
                report.work,
                if cert.winning_move.is_some() {
                    "; the winning move is legal and leads to value 0"
                } else {
                    ""
                }
            ),
            work: Work { positions: Some(report.coins), ..Work::default() },
            trusted: vec![
                TRUSTED_COIN_DECOMPOSITION.to_string(),
                TRUSTED_SPRAGUE_GRUNDY.to_string(),
            ],
        },
        Err(why) => reject(claim, why, Work::default()),
    }
}

fn claim_of(certificate: &Certificate) -> String {
    match certificate {
        Certificate::Witness(w) => w.claim.clone(),
        Certificate::Refutation(r) => r.claim.clone(),
        Certificate::VoronoiStrategy(s) => voronoi_claim(s),
        Certificate::VoronoiValue(v) => format!("the game's value (W's margin) is {}", v.value),
        Certificate::DnfStrategy(s) => format!("{:?} player wins", s.player).to_lowercase(),
        Certificate::PathValue(v) => path_claim(v),
        Certificate::TriangleStrategy(t) => format!("{} wins", t.winner),
        Certificate::MarkingStrategy(m) => format!("the {} player wins", m.winner),
        Certificate::FlipValue(v) => format!("the game's value is {}", v.value),
        Certificate::FlipSequence(f) => format!("{} edges green", f.green),
        Certificate::MarkingKayles(m) => format!("the {} player wins", m.winner),
        Certificate::HeapLabelling(h) => h.claim.clone(),
        Certificate::CoinLabelling(c) => format!("{} (value {})", c.claim, c.value),
        Certificate::VertexNimStrategy(v) => format!("the {} player wins", v.winner),
        Certificate::VertexNimLabelling(v) => format!("the {} player wins", v.winner),
        Certificate::ConstructStrategy(_) => "bounds on the value of a game on points".into(),
        Certificate::BalancedColouring(_) => {
            crate::triangulations::constructing::LEMMA_4_CLAIM.into()
        }
    }
}

fn base_work(game: &OneRound) -> Work {
    Work { vertices: game.graph.len(), edges: game.graph.edge_count(), ..Work::default() }
}

fn check_witness(game: &OneRound, witness: &Witness, budget: &mut Budget) -> Verdict {
    let mut work = base_work(game);
    let claim = witness.claim.clone();
    if claim != CLAIM_BLACK_WINS {
        return reject(claim, format!("a witness can only claim '{CLAIM_BLACK_WINS}'"), work);
    }
    let mut is_white = vec![false; game.graph.len()];
    for &w in &game.white {
        is_white[w] = true;
    }
    let mut occupied = is_white.clone();
    let mut black = Vec::with_capacity(witness.placement.len());
    for (k, name) in witness.placement.iter().enumerate() {
        let Some(v) = game.graph.vertex(name) else {
            return reject(claim, format!("placement[{k}]: unknown vertex '{name}'"), work);
        };
        if is_white[v] {
            return reject(claim, format!("placement[{k}]: vertex '{name}' is in W's set S"), work);
        }
        if occupied[v] {
            return reject(claim, format!("placement[{k}]: vertex '{name}' is placed twice"), work);
        }
        occupied[v] = true;
        black.push(v);
    }
    if black.len() != game.black_count {
        return reject(
            claim,
            format!(
                "the placement has {} vertices, B must place exactly {}",
                black.len(),
                game.black_count
            ),
            work,
        );
    }
    if let Err(why) =
        budget.charge(crate::voronoi::rules::score_cost(&game.graph), "scoring the placement")
    {
        return reject(claim, why, work);
    }
    let s = score(&game.graph, &game.white, &black);
    work.white_score = Some(s.white);
    work.black_score = Some(s.black);
    if s.outcome() != Outcome::BlackWins {
        return reject(
            claim,
            format!(
                "the placement does not win: B dominates {}, W dominates {} ({} neutral)",
                s.black, s.white, s.neutral
            ),
            work,
        );
    }
    Verdict {
        accepted: true,
        claim,
        reason: format!(
            "B's placement dominates {} vertices against W's {} ({} neutral)",
            s.black, s.white, s.neutral
        ),
        work,
        trusted: Vec::new(),
    }
}

fn record_lrat(work: &mut Work, report: &LratReport) {
    work.lrat_additions = Some(report.additions);
    work.lrat_deletions = Some(report.deletions);
    work.lrat_hints = Some(report.hints);
}

fn check_refutation(game: &OneRound, refutation: &Refutation, budget: &mut Budget) -> Verdict {
    let mut work = base_work(game);
    let claim = refutation.claim.clone();
    if claim != CLAIM_BLACK_CANNOT_WIN {
        return reject(
            claim,
            format!("a refutation can only claim '{CLAIM_BLACK_CANNOT_WIN}'"),
            work,
        );
    }
    match &refutation.method {
        RefutationMethod::Direct => {
            // Charged clause by clause as it is built: an instance whose encoding would not fit
            // the budget is refused before the proof is read.
            let encoding = match black_wins_cnf(&game.graph, &game.white, game.black_count, budget)
            {
                Ok(encoding) => encoding,
                Err(why) => {
                    return reject(
                        claim,
                        format!(
                            "{why} (building the checker's own encoding of the instance; a \
                             refutation through a reduction avoids it)"
                        ),
                        work,
                    )
                }
            };
            work.cnf_variables = Some(encoding.cnf.num_vars);
            work.cnf_clauses = Some(encoding.cnf.clauses.len());
            match check_lrat(&encoding.cnf, &refutation.lrat, budget) {
                Ok(report) => {
                    record_lrat(&mut work, &report);
                    Verdict {
                        accepted: true,
                        claim,
                        reason: format!(
                            "the LRAT proof refutes the checker's {}-clause encoding of \
                             \"B places {} vertices and wins\": B cannot win",
                            encoding.cnf.clauses.len(),
                            game.black_count
                        ),
                        work,
                        trusted: Vec::new(),
                    }
                }
                Err(err) => reject(claim, format!("the LRAT proof fails: {err}"), work),
            }
        }
        RefutationMethod::Reduction { reduction, formula } => {
            work.cnf_variables = Some(formula.num_vars);
            work.cnf_clauses = Some(formula.clauses.len());
            // Compare sizes before building anything: a carried formula may declare billions of
            // variables.
            let image = sat_reduction::paper_size(formula.num_vars as usize, formula.clauses.len());
            if image != game.graph.len() {
                return reject(
                    claim,
                    format!(
                        "the instance is not the {} image of the carried formula: that image has \
                         10n + 2m - 1 = {image} vertices, the instance {}",
                        reduction.name(),
                        game.graph.len()
                    ),
                    work,
                );
            }
            if let Err(why) = same_as_construction(game, formula, *reduction, budget) {
                return reject(claim, why, work);
            }
            match check_lrat(formula, &refutation.lrat, budget) {
                Ok(report) => {
                    record_lrat(&mut work, &report);
                    Verdict {
                        accepted: true,
                        claim,
                        reason: format!(
                            "the instance is the {} image of the carried {}-clause formula, \
                             and the LRAT proof refutes that formula: B cannot win",
                            reduction.name(),
                            formula.clauses.len()
                        ),
                        work,
                        trusted: vec![reduction.theorem().to_string()],
                    }
                }
                Err(err) => reject(claim, format!("the LRAT proof fails: {err}"), work),
            }
        }
    }
}

/// Rebuilds the reduction's instance from `formula` and compares it with `game` as labelled
/// graphs (vertex names, edges as unordered pairs, W's set, B's count); names the first
/// difference.
fn same_as_construction(
    game: &OneRound,
    formula: &crate::base::cnf::Cnf,
    reduction: SatVoronoi,
    budget: &mut Budget,
) -> Result<(), String> {
    // The image has as many vertices as the instance (checked by the caller) and at most
    // 3 + 3 + 3 + 3 edges a variable and 2 + 3 a clause besides the pendants: building it and
    // the three name sets is linear in the instance, about 200 units a vertex and edge.
    budget.charge_each(
        (game.graph.len() as u64).saturating_add(game.graph.edge_count() as u64),
        200,
        "rebuilding the reduction's image",
    )?;
    let built = sat_reduction::build(formula, reduction)
        .map_err(|why| format!("the carried formula cannot be reduced: {why}"))?;
    let ours: BTreeSet<&str> = built.vertices.iter().map(String::as_str).collect();
    let theirs: BTreeSet<&str> = game.graph.names().collect();
    if let Some(v) = ours.symmetric_difference(&theirs).next() {
        let side =
            if ours.contains(v) { "the reduction has vertex" } else { "the instance has vertex" };
        return Err(format!(
            "the instance is not the {} image of the carried formula: {side} '{v}' and the other does not",
            reduction.name()
        ));
    }
    let pair = |a: &str, b: &str| {
        if a < b {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        }
    };
    let ours: BTreeSet<(String, String)> = built.edges.iter().map(|(a, b)| pair(a, b)).collect();
    let theirs: BTreeSet<(String, String)> = game
        .graph
        .edges()
        .into_iter()
        .map(|(i, j)| pair(game.graph.name(i), game.graph.name(j)))
        .collect();
    if let Some((a, b)) = ours.symmetric_difference(&theirs).next() {
        let side = if ours.contains(&(a.clone(), b.clone())) {
            "the reduction has edge"
        } else {
            "the instance has edge"
        };
        return Err(format!(
            "the instance is not the {} image of the carried formula: {side} {a} - {b} and the other does not",
            reduction.name()
        ));
    }
    let ours: BTreeSet<&str> = built.white.iter().map(String::as_str).collect();
    let theirs: BTreeSet<&str> = game.white.iter().map(|&w| game.graph.name(w)).collect();
    if ours != theirs {
        return Err(format!(
            "W's set differs from the {} construction's {:?}",
            reduction.name(),
            built.white
        ));
    }
    if built.black_count != game.black_count {
        return Err(format!(
            "B's count is {}, the construction gives {}",
            game.black_count, built.black_count
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An arithmetic overflow inside a check (the crate is built with overflow checks in every
    /// profile) is a rejection naming the fault, never a panic and never an acceptance.
    #[test]
    fn an_overflow_is_a_clean_rejection() {
        let certificate =
            Certificate::Witness(Witness { claim: CLAIM_BLACK_WINS.into(), placement: vec![] });
        let mut budget = Budget::new(100);
        let verdict = guarded(&certificate, &mut budget, |budget| {
            budget.charge(7, "testing").unwrap();
            let big = std::hint::black_box(u64::MAX);
            let wrapped = big + std::hint::black_box(1);
            Verdict {
                accepted: true,
                claim: format!("{wrapped}"),
                reason: String::new(),
                work: Work::default(),
                trusted: Vec::new(),
            }
        });
        assert!(!verdict.accepted);
        assert!(verdict.reason.starts_with(INTERNAL_ERROR), "{}", verdict.reason);
        assert!(verdict.reason.contains("overflow"), "{}", verdict.reason);
        assert_eq!(verdict.work.work_units, 7);
    }

    /// Numbers near 2^63 in a multi-round instance are refused on entry (the comparison
    /// `2 * rounds > vertices` used to wrap), and a path certificate with such rounds is
    /// rejected.
    #[test]
    fn huge_rounds_are_refused_not_wrapped() {
        let spec = crate::format::MultiRoundSpec {
            graph: crate::format::GraphSpec::numbered(4, &[(0, 1), (1, 2), (2, 3)]),
            rounds: 1 << 63,
            start: None,
            source: None,
        };
        let err = spec.validate().unwrap_err();
        assert!(err.message.contains("rounds"), "{err}");
        let value = crate::voronoi::paths::PathValue {
            vertices: 4,
            rounds: 1 << 63,
            value: 0,
            white: vec![],
            black: vec![],
        };
        let err = check_path_value(4, 1 << 63, &value, &mut Budget::new(1_000_000)).unwrap_err();
        assert!(err.contains("do not fit"), "{err}");
    }
}
