//! The one-round Voronoi game's certificates: a `witness` (B's winning placement, scored by the
//! reference rules) and a `refutation` (an LRAT proof of the checker's own encoding, or of a
//! formula whose image under the paper's reduction is the instance).

use crate::base::budget::Budget;
use crate::base::error::only_fields;
use crate::base::prepay::Reader::Json;
use crate::sat::cnf::Cnf;
use crate::sat::lrat::{check_lrat, LratError, LratReport};
use crate::sat::lrat_binary;
use crate::verdict::{reject, Claim, Verdict, Work};
use crate::voronoi::encode::black_wins_cnf;
use crate::voronoi::instance::{OneRound, OneRoundSpec};
use crate::voronoi::rules::{score, Outcome};
use crate::voronoi::sat_reduction::{self, SatVoronoi};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;

/// The claim of a witness: B has a winning placement.
pub const CLAIM_BLACK_WINS: &str = "black-wins";
/// The claim of a refutation: B has no winning placement (W wins or ties).
pub const CLAIM_BLACK_CANNOT_WIN: &str = "black-cannot-win";

/// How a refutation proves that B cannot win.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum RefutationMethod {
    /// The LRAT refutes the checker's own encoding of the instance ([`crate::voronoi::encode`]).
    Direct,
    /// The LRAT refutes `formula`; the instance must be the named reduction's image of it, and
    /// the paper's theorem carries unsatisfiability over to the game.
    Reduction { reduction: SatVoronoi, formula: Cnf },
}

/// A witness: B's placement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Witness {
    pub claim: String,
    pub placement: Vec<String>,
}

/// A refutation: an LRAT proof, of the direct encoding or of a reduction's formula. Read
/// through `RefutationFields`, so that each method takes exactly its own fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RefutationFields")]
pub struct Refutation {
    pub claim: String,
    #[serde(flatten)]
    pub method: RefutationMethod,
    pub lrat: String,
}

/// A refutation as written: the fields of either method, and any other key (serde's
/// `deny_unknown_fields` does not work through `flatten`, and would name every method's fields).
/// Every field is optional here so that `Refutation::try_from` first refuses a field the named
/// method does not take, naming its fields (a misspelt `lrat` is named as such, not reported as
/// a missing `lrat`), then asks for the missing ones.
#[derive(Deserialize)]
struct RefutationFields {
    claim: Option<String>,
    method: Option<MethodName>,
    lrat: Option<String>,
    reduction: Option<SatVoronoi>,
    formula: Option<Cnf>,
    #[serde(flatten)]
    others: BTreeMap<String, IgnoredAny>,
}

/// The `method` tag of a refutation.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum MethodName {
    Direct,
    Reduction,
}

impl TryFrom<RefutationFields> for Refutation {
    type Error = String;

    fn try_from(fields: RefutationFields) -> Result<Refutation, String> {
        let RefutationFields { claim, method, lrat, reduction, formula, others } = fields;
        let given = [("reduction", reduction.is_some()), ("formula", formula.is_some())];
        let given = given.iter().filter(|(_, is)| *is).map(|(field, _)| *field);
        let given = others.keys().map(String::as_str).chain(given);
        let (what, known): (&str, &[&str]) = match method {
            Some(MethodName::Direct) => ("method `direct`", &["claim", "method", "lrat"]),
            Some(MethodName::Reduction) => {
                ("method `reduction`", &["claim", "method", "reduction", "formula", "lrat"])
            }
            None => ("a refutation", &["claim", "method", "reduction", "formula", "lrat"]),
        };
        only_fields(what, given, known)?;
        let needs = |field: &str| format!("missing field `{field}`");
        let (claim, lrat) =
            (claim.ok_or_else(|| needs("claim"))?, lrat.ok_or_else(|| needs("lrat"))?);
        let method = match method.ok_or_else(|| needs("method"))? {
            MethodName::Direct => RefutationMethod::Direct,
            MethodName::Reduction => RefutationMethod::Reduction {
                reduction: reduction.ok_or_else(|| needs("reduction") + " (method `reduction`)")?,
                formula: formula.ok_or_else(|| needs("formula") + " (method `reduction`)")?,
            },
        };
        Ok(Refutation { claim, method, lrat })
    }
}

/// A one-round certificate's claim in words, as every verdict states it: the keyword is a
/// field of the certificate file (and of `solve --json`), not what a person reads.
pub fn claim_sentence(keyword: &str) -> String {
    match keyword {
        CLAIM_BLACK_WINS => "B wins the one-round game".into(),
        CLAIM_BLACK_CANNOT_WIN => "B cannot win the one-round game".into(),
        other => format!("'{}'", crate::base::text::printable(other)),
    }
}

impl Claim for Witness {
    fn claim(&self) -> String {
        claim_sentence(&self.claim)
    }
}

impl Claim for Refutation {
    fn claim(&self) -> String {
        claim_sentence(&self.claim)
    }
}

/// Registry entry for `witness`: validates the instance, then [`check_witness`].
pub fn witness(spec: &OneRoundSpec, witness: &Witness, budget: &mut Budget) -> Verdict {
    match spec.validate_within(budget) {
        Ok(game) => check_witness(&game, witness, budget),
        Err(err) => Verdict::invalid(witness.claim(), err),
    }
}

/// Registry entry for `refutation`: validates the instance, then [`check_refutation`].
pub fn refutation(spec: &OneRoundSpec, refutation: &Refutation, budget: &mut Budget) -> Verdict {
    match spec.validate_within(budget) {
        Ok(game) => check_refutation(&game, refutation, budget),
        Err(err) => Verdict::invalid(refutation.claim(), err),
    }
}

fn base_work(game: &OneRound) -> Work {
    Work {
        vertices: Some(game.graph.len()),
        edges: Some(game.graph.edge_count()),
        ..Work::default()
    }
}

pub fn check_witness(game: &OneRound, witness: &Witness, budget: &mut Budget) -> Verdict {
    let mut work = base_work(game);
    let claim = witness.claim();
    if witness.claim != CLAIM_BLACK_WINS {
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
    let reason = format!(
        "B's placement dominates {} against W's {} ({} neutral)",
        crate::base::text::counted(s.black, "vertex"),
        s.white,
        s.neutral
    );
    Verdict::accept(claim, reason, work, &[])
}

pub fn check_refutation(game: &OneRound, refutation: &Refutation, budget: &mut Budget) -> Verdict {
    check_refutation_with(game, refutation, budget, |cnf, b| check_lrat(cnf, &refutation.lrat, b))
}

/// [`check_refutation`] with the proof checked by `prove` (its `lrat`, or the binary proof of a
/// binary refutation, read as it is checked: [`check_binary`]).
pub fn check_refutation_with(
    game: &OneRound,
    refutation: &Refutation,
    budget: &mut Budget,
    prove: impl FnOnce(&Cnf, &mut Budget) -> Result<LratReport, LratError>,
) -> Verdict {
    let mut work = base_work(game);
    let claim = refutation.claim();
    if refutation.claim != CLAIM_BLACK_CANNOT_WIN {
        let why = format!("a refutation can only claim '{CLAIM_BLACK_CANNOT_WIN}'");
        return reject(claim, why, work);
    }
    let encoding;
    let (formula, reason, trusted) = match &refutation.method {
        RefutationMethod::Direct => {
            // Charged clause by clause as it is built: an instance whose encoding would not fit
            // the budget is refused before the proof is read.
            let why = |why| {
                format!(
                    "{why} (building the checker's own encoding of the instance; a refutation \
                     through a reduction avoids it)"
                )
            };
            encoding = match black_wins_cnf(&game.graph, &game.white, game.black_count, budget) {
                Ok(encoding) => encoding,
                Err(e) => return reject(claim, why(e), work),
            };
            let reason = format!(
                "the LRAT proof refutes the checker's {}-clause encoding of \"B places {} \
                 vertices and wins\": B cannot win",
                encoding.cnf.clauses.len(),
                game.black_count
            );
            (&encoding.cnf, reason, None)
        }
        RefutationMethod::Reduction { reduction, formula } => {
            (work.cnf_variables, work.cnf_clauses) =
                (Some(formula.num_vars), Some(formula.clauses.len()));
            if let Err(why) = image_of(game, formula, *reduction, budget) {
                return reject(claim, why, work);
            }
            let reason = format!(
                "the instance is the {} image of the carried {}-clause formula, and the LRAT \
                 proof refutes that formula: B cannot win",
                reduction.name(),
                formula.clauses.len()
            );
            (formula, reason, Some(reduction.theorem()))
        }
    };
    (work.cnf_variables, work.cnf_clauses) = (Some(formula.num_vars), Some(formula.clauses.len()));
    match prove(formula, budget) {
        Ok(r) => {
            let counts = (Some(r.additions), Some(r.deletions), Some(r.hints));
            (work.lrat_additions, work.lrat_deletions, work.lrat_hints) = counts;
            work.lrat_rat_additions = (r.rat_additions > 0).then_some(r.rat_additions);
            Verdict::accept(claim, reason, work, trusted.as_slice())
        }
        Err(err) => reject(claim, format!("the LRAT proof fails: {err}"), work),
    }
}

/// A binary refutation's header ([`crate::sat::lrat_binary`]) read from `read`, its fields
/// as a JSON refutation's without `lrat` (the same rules; `lrat` is left empty), with the
/// offset of the proof that follows.
pub fn binary_header(read: &mut impl BufRead, b: &mut Budget) -> Result<(Refutation, u64), String> {
    let header = lrat_binary::read_header(read, b)?;
    crate::base::prepay::prepay(&header, Json, "reading the certificate's header", b)?;
    let mut fields: RefutationFields =
        serde_json::from_str(&header).map_err(|e| format!("the header (from byte 12): {e}"))?;
    ensure!(fields.lrat.is_none(), "the header has `lrat`: the proof follows the header");
    fields.lrat = Some(String::new());
    Ok((Refutation::try_from(fields)?, lrat_binary::proof_offset(&header)))
}

/// A binary refutation read from `read` as it is checked: its [`binary_header`], then its
/// proof, to the end of the file.
pub fn check_binary(game: &OneRound, read: &mut impl BufRead, b: &mut Budget) -> Verdict {
    match binary_header(read, b) {
        Ok(header) => check_binary_proof(game, header, read, b),
        Err(why) => reject(claim_sentence(CLAIM_BLACK_CANNOT_WIN), why, base_work(game)),
    }
}

/// The rest of [`check_binary`] once its header (`refutation`, and the proof's offset `at` in
/// the file) has been read: `verify` reads the header itself, so that a file whose header does
/// not parse is bad input (exit 2), as a JSON file that does not parse is.
pub fn check_binary_proof(
    game: &OneRound,
    (refutation, at): (Refutation, u64),
    read: &mut impl BufRead,
    b: &mut Budget,
) -> Verdict {
    check_refutation_with(game, &refutation, b, |cnf, b| {
        lrat_binary::check_certificate_proof(cnf, read, at, b)
    })
}

/// Whether `game` is exactly the `reduction` image of `formula`: the sizes first (a carried
/// formula may declare billions of variables, so nothing is built before they agree), then
/// [`same_as_construction`]. The error names the first difference. The solver side asks the
/// same question before it picks `--method reduction`.
pub fn image_of(
    game: &OneRound,
    formula: &Cnf,
    reduction: SatVoronoi,
    budget: &mut Budget,
) -> Result<(), String> {
    let image = sat_reduction::paper_size(formula.num_vars as usize, formula.clauses.len());
    ensure!(
        image == game.graph.len(),
        "the instance is not the {} image of the carried formula: that image has 10n + 2m - 1 \
         = {image} vertices, the instance {}",
        reduction.name(),
        game.graph.len()
    );
    same_as_construction(game, formula, reduction, budget)
}

/// Whether `game` is `built` (the caller has charged for this): each built name names a vertex
/// of the game (the counts agree and both have distinct names, so the names are the same), and
/// each built edge is an edge of the game (the counts agree, so the edges are the same); the
/// same W set and count. No sorting and no strings: one hash look-up a name.
fn same_graph(game: &OneRound, built: &sat_reduction::Construction) -> bool {
    let Ok(ours) = crate::base::graph::Graph::new(&built.vertices, &built.edges) else {
        return false;
    };
    let to_game: Option<Vec<usize>> = ours.names().map(|name| game.graph.vertex(name)).collect();
    let Some(to_game) = to_game.filter(|m| m.len() == game.graph.len()) else { return false };
    let white: Option<BTreeSet<usize>> = built.white.iter().map(|w| game.graph.vertex(w)).collect();
    ours.edge_count() == game.graph.edge_count()
        && ours
            .edges()
            .iter()
            .all(|&(i, j)| game.graph.neighbours(to_game[i]).binary_search(&to_game[j]).is_ok())
        && white == Some(game.white.iter().copied().collect())
        && built.white.len() == game.white.len()
        && built.black_count == game.black_count
}

/// Rebuilds the reduction's instance from `formula` and compares it with `game` as labelled
/// graphs (vertex names, edges as unordered pairs, W's set, B's count); names the first
/// difference.
fn same_as_construction(
    game: &OneRound,
    formula: &Cnf,
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
    if same_graph(game, &built) {
        return Ok(());
    }
    // They differ: the sorted name sets below name the first difference.
    let ours: BTreeSet<&str> = built.vertices.iter().map(String::as_str).collect();
    let theirs: BTreeSet<&str> = game.graph.names().collect();
    if let Some(v) = ours.symmetric_difference(&theirs).next() {
        let side =
            if ours.contains(v) { "the reduction has vertex" } else { "the instance has vertex" };
        fail!(
            "the instance is not the {} image of the carried formula: {side} '{v}' and the other does not",
            reduction.name()
        );
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
        fail!(
            "the instance is not the {} image of the carried formula: {side} {a} - {b} and the other does not",
            reduction.name()
        );
    }
    let ours: BTreeSet<&str> = built.white.iter().map(String::as_str).collect();
    let theirs: BTreeSet<&str> = game.white.iter().map(|&w| game.graph.name(w)).collect();
    ensure!(
        ours == theirs,
        "W's set differs from the {} construction's {:?}",
        reduction.name(),
        built.white
    );
    ensure!(
        built.black_count == game.black_count,
        "B's count is {}, the construction gives {}",
        game.black_count,
        built.black_count
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::graph::Graph;

    fn game(
        vertices: &[String],
        edges: &[(String, String)],
        white: &[String],
        n: usize,
    ) -> OneRound {
        let graph = Graph::new(vertices, edges).unwrap();
        let white = white.iter().map(|w| graph.vertex(w).unwrap()).collect();
        OneRound { graph, white, black_count: n }
    }

    /// The image is recognised without sorting names, and an instance that differs anywhere
    /// (a name, an edge, W's set, B's count, with every count kept) is refused with the
    /// first difference named.
    #[test]
    fn the_image_is_recognised_and_each_difference_named() {
        let formula = Cnf { num_vars: 3, clauses: vec![vec![1, 2, -3], vec![-1, 2, 3]] };
        let problem = SatVoronoi::Problem1;
        let c = sat_reduction::build(&formula, problem).unwrap();
        let image = |g: &OneRound| image_of(g, &formula, problem, &mut Budget::unlimited());
        assert_eq!(image(&game(&c.vertices, &c.edges, &c.white, c.black_count)), Ok(()));
        let mut renamed = c.vertices.clone();
        let last = renamed.len() - 1;
        renamed[last] = "zz".into();
        let mut edges = c.edges.clone();
        for (a, b) in &mut edges {
            for end in [a, b] {
                if *end == c.vertices[last] {
                    *end = "zz".into();
                }
            }
        }
        let err = image(&game(&renamed, &edges, &c.white, c.black_count)).unwrap_err();
        let vertex =
            format!("the reduction has vertex '{}' and the other does not", c.vertices[last]);
        assert!(err.ends_with(&vertex), "{err}");
        // One edge moved: its far end goes to a vertex it was not joined to.
        let mut moved = c.edges.clone();
        let (a, _) = moved[0].clone();
        let free = c.vertices.iter().find(|v| {
            **v != a && !c.edges.iter().any(|(x, y)| (x == &a && y == *v) || (y == &a && x == *v))
        });
        moved[0].1 = free.unwrap().clone();
        let err = image(&game(&c.vertices, &moved, &c.white, c.black_count)).unwrap_err();
        assert!(err.contains("has edge"), "{err}");
        let err = image(&game(&c.vertices, &c.edges, &c.white, c.black_count + 1)).unwrap_err();
        assert!(err.starts_with("B's count is"), "{err}");
        let other = vec![c.vertices[1].clone()];
        let err = image(&game(&c.vertices, &c.edges, &other, c.black_count)).unwrap_err();
        assert!(err.starts_with("W's set differs"), "{err}");
    }
}
