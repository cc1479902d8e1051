//! The truth about an accepted mutant, decided without the checker's verdict: the exact
//! solvers of the `gamecert` crate (or a direct test of the property) on the mutated instance,
//! compared with what the mutated certificate claims. Instances too large for an exact answer
//! within the bounds here are skipped and counted.
//!
//! The solvers take the instance through the checker crate's own parsing and validation (the
//! types are shared); what is never used is the checker's verdict or its replay.

use gamecert::voronoi::one_round_exact::{search, Goal};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, Instance, MultiRound};
use gamecert_certificates::triangulations::constructing::Pos;
use gamecert_certificates::triangulations::flipping::{setup, FlipSpec};
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
use gamecert_certificates::voronoi::multi_round::StrategyClaim;
use gamecert_certificates::voronoi::rules::Player;
use std::collections::{HashMap, VecDeque};

/// The outcome of a truth check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Truth {
    /// The claim holds.
    Verified,
    /// No exact answer within the bounds (or the pair is not one the truth check knows).
    Skipped(String),
    /// The checker accepted a false claim.
    False(String),
}

/// What the exact solvers say about an instance (cached per instance text).
#[derive(Clone, Debug)]
pub enum Fact {
    /// One round: can B win?
    BlackCanWin(bool),
    /// Multi-round: W's margin under optimal play, and the game's size.
    VoronoiValue { value: i64, vertices: usize, rounds: usize },
    /// DNF game, marking game, vertex nim: does the first player win?
    FirstWins(bool),
    /// Triangle avoidance: "A" or "B", on n nodes.
    TriangleWinner(String, usize),
    /// Construct games: R's value.
    ConstructValue(i64),
    /// Two-player flipping: the first player's payoff.
    FlipValue(i64),
    /// Solitaire flipping: the most green edges any sequence reaches, and the edge count.
    MostGreen(usize, usize),
    /// Heap game: the nim value of the position.
    HeapValue(u64),
    /// Coin game: the Grundy value and the solver's claim.
    CoinValue(u64, String),
    /// Balanced colouring: no fact is needed, the property is tested directly.
    Property,
}

/// Facts by the canonical JSON of their instance.
pub type Cache = HashMap<String, Result<Fact, String>>;

/// Largest instances decided exactly.
const MAX_ONE_ROUND_VERTICES: usize = 400;
const SEARCH_NODES: u64 = 3_000_000;
const MAX_VORONOI_VERTICES: usize = 40;
const VORONOI_NODES: u64 = 2_000_000;
const MAX_DNF_VARS: u32 = 20;
const MAX_TRIANGLE_N: usize = 8;
const MARKING_POSITIONS: usize = 2_000_000;
const CONSTRUCT_STATES: usize = 3_000_000;
const MAX_FLIP_POINTS: usize = 9;
const MAX_HEAP: u64 = 4_096;
const MAX_COINS: u64 = 100_000;
const MAX_VERTEXNIM_VERTICES: usize = 10;
const VERTEXNIM_POSITIONS: usize = 2_000_000;

/// Decides the truth of an accepted (instance, certificate) pair; `cache` holds the facts of
/// instances seen before (keyed by their canonical JSON).
pub fn decide(instance: &Instance, certificate: &Certificate, cache: &mut Cache) -> Truth {
    if let Err(err) = instance.validate() {
        return Truth::False(format!(
            "accepted on an instance that Instance::validate() refuses: {err}"
        ));
    }
    let key = instance.to_json();
    let fact = match cache.get(&key) {
        Some(f) => f.clone(),
        None => {
            let f = fact(instance, certificate);
            cache.insert(key, f.clone());
            f
        }
    };
    let fact = match fact {
        Ok(f) => f,
        Err(why) => return Truth::Skipped(why),
    };
    compare(instance, certificate, &fact)
}

fn wins_claim(winner: &str) -> Result<bool, Truth> {
    match winner {
        "first" | "A" => Ok(true),
        "second" | "B" => Ok(false),
        other => Err(Truth::False(format!(
            "accepted a winner {other:?} that is neither first nor second"
        ))),
    }
}

fn verdict(holds: bool, what: impl FnOnce() -> String) -> Truth {
    if holds {
        Truth::Verified
    } else {
        Truth::False(what())
    }
}

fn compare(instance: &Instance, certificate: &Certificate, fact: &Fact) -> Truth {
    use Certificate as C;
    match (certificate, fact) {
        (C::Witness(w), Fact::BlackCanWin(can)) => {
            if w.claim != "black-wins" {
                return Truth::False(format!("accepted a witness claiming {:?}", w.claim));
            }
            if !can {
                return Truth::False("a witness accepted, but B has no winning placement".into());
            }
            // B can win; the placement itself must also win (scored here, not by the checker).
            match witness_wins(instance, &w.placement) {
                Some(true) => Truth::Verified,
                Some(false) => Truth::False(format!(
                    "B can win, but the accepted placement {:?} does not win (or is illegal)",
                    w.placement
                )),
                None => Truth::Skipped("cannot score the placement".into()),
            }
        }
        (C::Refutation(r), Fact::BlackCanWin(can)) => {
            if r.claim != "black-cannot-win" {
                return Truth::False(format!("accepted a refutation claiming {:?}", r.claim));
            }
            verdict(!can, || "a refutation accepted, but B has a winning placement".into())
        }
        (C::VoronoiStrategy(s), Fact::VoronoiValue { value, .. }) => {
            let k = match (s.claim, s.margin) {
                (StrategyClaim::Wins, _) => 1,
                (StrategyClaim::AtLeastTies, _) => 0,
                (StrategyClaim::MarginAtLeast, Some(k)) => k,
                (StrategyClaim::MarginAtLeast, None) => {
                    return Truth::False("accepted margin-at-least without a margin".into())
                }
            };
            let own = match s.player {
                Player::White => *value,
                Player::Black => -*value,
            };
            verdict(own >= k, || {
                format!(
                    "{:?} claims a margin of at least {k}, but the game's value (W's margin) is {value}",
                    s.player
                )
            })
        }
        (C::VoronoiMirror(m), Fact::VoronoiValue { value, .. }) => {
            if (m.player, m.claim) != (Player::Black, StrategyClaim::AtLeastTies) {
                return Truth::False(format!(
                    "accepted a mirror for {:?}, {:?}",
                    m.player, m.claim
                ));
            }
            verdict(*value <= 0, || {
                format!(
                    "a mirror says B at least ties, but the game's value (W's margin) is {value}"
                )
            })
        }
        (C::VoronoiValue(v), Fact::VoronoiValue { value, .. }) => {
            verdict(v.value == *value, || {
                format!("claims the value {}, the exact value is {value}", v.value)
            })
        }
        (C::PathValue(p), Fact::VoronoiValue { value, vertices, rounds }) => {
            verdict(p.value == *value && p.vertices == *vertices && p.rounds == *rounds, || {
                format!(
                    "claims VG(P_{}, {}) = {}, the instance has {vertices} vertices, {rounds} \
                     rounds and value {value}",
                    p.vertices, p.rounds, p.value
                )
            })
        }
        (C::PathRule(p), Fact::VoronoiValue { value, vertices, rounds }) => {
            use gamecert_certificates::voronoi_paths::path_rule::Side;
            let holds = match p.side {
                Side::W => *value >= 0,
                Side::B => *value <= 0,
            };
            verdict(holds && p.vertices == *vertices && p.rounds == *rounds, || {
                format!(
                    "says {:?} at least ties VG(P_{}, {}), the instance has {vertices} vertices, \
                     {rounds} rounds and value {value}",
                    p.side, p.vertices, p.rounds
                )
            })
        }
        (C::DnfStrategy(s), Fact::FirstWins(first)) => {
            if s.claim != "wins" {
                return Truth::False(format!("accepted a dnf-strategy claiming {:?}", s.claim));
            }
            let claimed = s.player == gamecert_certificates::posdnf::dnf::DnfPlayer::First;
            verdict(claimed == *first, || {
                format!("claims {:?} wins, the exact solver disagrees", s.player)
            })
        }
        (C::TriangleStrategy(t), Fact::TriangleWinner(w, n)) => {
            verdict(t.winner == *w && t.n == *n, || {
                format!(
                    "claims {} wins on {} nodes; on the instance's {n} nodes {w} wins",
                    t.winner, t.n
                )
            })
        }
        (C::MarkingStrategy(m), Fact::FirstWins(first)) => match wins_claim(&m.winner) {
            Ok(claimed) => verdict(claimed == *first, || {
                format!("claims the {} player wins, the exact solver disagrees", m.winner)
            }),
            Err(t) => t,
        },
        (C::NimstringStrips(m), Fact::FirstWins(first)) => match wins_claim(&m.winner) {
            Ok(claimed) => verdict(claimed == *first, || {
                format!("claims the {} player wins, the exact solver disagrees", m.winner)
            }),
            Err(t) => t,
        },
        (C::MarkingKayles(m), Fact::FirstWins(first)) => match wins_claim(&m.winner) {
            Ok(claimed) => verdict(claimed == *first, || {
                format!("claims the {} player wins, the exact solver disagrees", m.winner)
            }),
            Err(t) => t,
        },
        (C::VertexNimStrategy(s), Fact::FirstWins(first)) => match wins_claim(&s.winner) {
            Ok(claimed) => verdict(claimed == *first, || {
                format!("claims the {} player wins, the exact solver disagrees", s.winner)
            }),
            Err(t) => t,
        },
        (C::VertexNimLabelling(l), Fact::FirstWins(first)) => match wins_claim(&l.winner) {
            Ok(claimed) => verdict(claimed == *first, || {
                format!("claims the {} player wins, the exact solver disagrees", l.winner)
            }),
            Err(t) => t,
        },
        (C::VertexNimOutcomes(o), Fact::FirstWins(first)) => match wins_claim(&o.winner) {
            Ok(claimed) => verdict(claimed == *first, || {
                format!("claims the {} player wins, the exact solver disagrees", o.winner)
            }),
            Err(t) => t,
        },
        (C::ConstructStrategy(c), Fact::ConstructValue(v)) => {
            let low = c.first.as_ref().map(|f| f.at_least);
            let high = c.second.as_ref().map(|s| s.at_most);
            verdict(low.is_none_or(|l| l <= *v) && high.is_none_or(|h| h >= *v), || {
                format!("claims value >= {low:?} and <= {high:?}, the exact value is {v}")
            })
        }
        (C::BalancedColouring(b), Fact::Property) => match instance {
            Instance::MarkingGame(spec) => balanced(spec, &b.colours),
            _ => Truth::False("a balanced colouring accepted on a non-marking instance".into()),
        },
        (C::FlipValue(f), Fact::FlipValue(v)) => verdict(f.value == *v, || {
            format!("claims the value {}, the exact value is {v}", f.value)
        }),
        (C::FlipBound(b), Fact::MostGreen(most, _)) => verdict(b.at_most >= *most, || {
            format!("claims at most {} green edges, a sequence reaches {most}", b.at_most)
        }),
        (C::FlipSequence(f), Fact::MostGreen(most, edges)) => {
            verdict(f.green <= *most && f.flips.len() <= *edges, || {
                format!(
                    "{} flips claim {} green edges, but at most {most} of {edges} can be green",
                    f.flips.len(),
                    f.green
                )
            })
        }
        (C::HeapLabelling(h), Fact::HeapValue(v)) => {
            let claimed = match h.claim.as_str() {
                "first-player-wins" => true,
                "second-player-wins" => false,
                other => return Truth::False(format!("accepted a heap claim {other:?}")),
            };
            verdict(claimed == (*v != 0), || {
                format!("claims {}, the position's nim value is {v}", h.claim)
            })
        }
        (C::CoinLabelling(c), Fact::CoinValue(v, claim)) => {
            verdict(c.value == *v && c.claim == *claim, || {
                format!(
                    "claims value {} ({}), the solver's value is {v} ({claim})",
                    c.value, c.claim
                )
            })
        }
        (c, f) => Truth::False(format!(
            "accepted a {} certificate on a {} instance (fact {f:?})",
            c.kind(),
            instance.kind()
        )),
    }
}

/// Scores a one-round placement by breadth-first search from both sides (no checker code):
/// `Some(true)` iff it is a legal placement (distinct free vertices, as many as the instance
/// asks) and B's region is larger than W's.
fn witness_wins(instance: &Instance, placement: &[String]) -> Option<bool> {
    let spec = instance.one_round()?;
    let names = &spec.graph.vertices;
    let index: HashMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    if index.len() != names.len() {
        return None;
    }
    let mut adj = vec![Vec::new(); names.len()];
    for (a, b) in &spec.graph.edges {
        let (a, b) = (*index.get(a.as_str())?, *index.get(b.as_str())?);
        adj[a].push(b);
        adj[b].push(a);
    }
    let white: Vec<usize> =
        spec.white.iter().map(|w| index.get(w.as_str()).copied()).collect::<Option<_>>()?;
    let mut black = Vec::new();
    for p in placement {
        let Some(&v) = index.get(p.as_str()) else {
            return Some(false);
        };
        if white.contains(&v) || black.contains(&v) {
            return Some(false);
        }
        black.push(v);
    }
    if black.len() != spec.black_count {
        return Some(false);
    }
    let bfs = |sources: &[usize]| {
        let mut d = vec![usize::MAX; names.len()];
        let mut q = VecDeque::new();
        for &s in sources {
            d[s] = 0;
            q.push_back(s);
        }
        while let Some(v) = q.pop_front() {
            for &w in &adj[v] {
                if d[w] == usize::MAX {
                    d[w] = d[v] + 1;
                    q.push_back(w);
                }
            }
        }
        d
    };
    let (dw, db) = (bfs(&white), bfs(&black));
    let b = (0..names.len()).filter(|&v| db[v] < dw[v]).count();
    let w = (0..names.len()).filter(|&v| dw[v] < db[v]).count();
    Some(b > w)
}

/// Lemma 4's property tested directly: one letter per edge of the triangulation, `r` or `b`,
/// counts differing by at most one, and no face with three edges of one colour.
fn balanced(spec: &MarkingSpec, colours: &str) -> Truth {
    if spec.game != MarkingGame::BichromaticColoring {
        return Truth::False(format!(
            "a balanced colouring accepted for {:?}, not bichromatic-coloring",
            spec.game
        ));
    }
    let t = match spec.triangulation.validate(&mut Budget::unlimited()) {
        Ok(t) => t,
        Err(why) => return Truth::False(format!("accepted on an invalid triangulation: {why}")),
    };
    let letters: Vec<char> = colours.chars().collect();
    if letters.len() != t.edges.len() || letters.iter().any(|c| !matches!(c, 'r' | 'b')) {
        return Truth::False(format!(
            "{} letters {:?} for {} edges",
            letters.len(),
            colours,
            t.edges.len()
        ));
    }
    let red = letters.iter().filter(|&&c| c == 'r').count();
    let blue = letters.len() - red;
    if red.abs_diff(blue) > 1 {
        return Truth::False(format!("{red} red and {blue} blue edges"));
    }
    let colour = |a: usize, b: usize| {
        let e = [a.min(b), a.max(b)];
        t.edges.iter().position(|&f| f == e).map(|k| letters[k])
    };
    for f in &t.triangles {
        let c = [colour(f[0], f[1]), colour(f[1], f[2]), colour(f[2], f[0])];
        if c[0].is_none() || c[0] == c[1] && c[1] == c[2] {
            return Truth::False(format!("face {f:?} is monochromatic ({c:?})"));
        }
    }
    Truth::Verified
}

fn voronoi_value(game: &MultiRound) -> Result<Fact, String> {
    if game.graph.len() > MAX_VORONOI_VERTICES {
        return Err(format!("{} vertices", game.graph.len()));
    }
    let solver = gamecert::voronoi::exact::ExactSolver::new(game)?;
    let solution = solver.solve_within(VORONOI_NODES).ok_or("the exact solver's node limit")?;
    Ok(Fact::VoronoiValue {
        value: solution.value,
        vertices: game.graph.len(),
        rounds: game.rounds,
    })
}

fn fact(instance: &Instance, certificate: &Certificate) -> Result<Fact, String> {
    match instance {
        Instance::VoronoiOneRound(spec) => {
            let game = spec.validate().map_err(|e| e.to_string())?;
            if game.graph.len() > MAX_ONE_ROUND_VERTICES {
                return Err(format!("{} vertices", game.graph.len()));
            }
            let found = search(&game, Goal::AllWinning { max_results: 1 }, SEARCH_NODES);
            if !found.placements.is_empty() {
                Ok(Fact::BlackCanWin(true))
            } else if found.complete {
                Ok(Fact::BlackCanWin(false))
            } else {
                Err("the placement search's node limit".into())
            }
        }
        Instance::Voronoi(spec) => voronoi_value(&spec.validate().map_err(|e| e.to_string())?),
        Instance::PosDnfGame(dnf) => {
            if dnf.num_vars > MAX_DNF_VARS {
                return Err(format!("{} variables", dnf.num_vars));
            }
            let solution = gamecert::voronoi::dnf::solve_dnf_game(dnf)?;
            Ok(Fact::FirstWins(
                solution.winner == gamecert_certificates::posdnf::dnf::DnfPlayer::First,
            ))
        }
        Instance::TriangleAvoidance(spec) => {
            if spec.n > MAX_TRIANGLE_N {
                return Err(format!("n = {}", spec.n));
            }
            let outcome = gamecert::triangle_avoidance::solver::solve(
                spec.n,
                gamecert::triangle_avoidance::solver::Rules::TriangleAvoidance,
                &mut |_, _| {},
            );
            Ok(Fact::TriangleWinner(outcome.winner, spec.n))
        }
        Instance::MarkingGame(spec) => {
            if matches!(certificate, Certificate::BalancedColouring(_)) {
                return Ok(Fact::Property);
            }
            if spec.game.is_construct_game() {
                let rules = gamecert_certificates::triangulations::constructing::rules(
                    spec,
                    &mut Budget::unlimited(),
                )?;
                let mut solver = gamecert::triangulations::constructing::Solver::new(&rules)
                    .with_max_states(CONSTRUCT_STATES);
                return solver
                    .value(Pos::START)
                    .map(Fact::ConstructValue)
                    .map_err(|_| "the construct solver's limit".to_string());
            }
            gamecert::triangulations::marking::first_player_wins_within(spec, MARKING_POSITIONS)?
                .map(Fact::FirstWins)
                .ok_or_else(|| "the marking solver's position limit".into())
        }
        Instance::FlipGame(spec) => flip_fact(spec),
        Instance::HeapGame(game) => {
            let rules = gamecert_certificates::impartial::heaps::Rules::parse(&game.game)?;
            let largest = game.heaps.iter().copied().max().unwrap_or(0);
            if largest > MAX_HEAP || game.heaps.len() > 10_000 {
                return Err(format!("heaps up to {largest}"));
            }
            let g = gamecert::impartial::octal::plain(&rules, largest as usize);
            Ok(Fact::HeapValue(game.heaps.iter().fold(0, |x, &h| x ^ u64::from(g[h as usize]))))
        }
        Instance::CoinGame(spec) => {
            let game = spec.validate()?;
            let cells =
                game.board.iter().try_fold(1u64, |a, &s| a.checked_mul(s)).unwrap_or(u64::MAX);
            if cells > MAX_COINS {
                return Err(format!("{cells} coins"));
            }
            let c = gamecert::impartial::coins::certificate(&game)?;
            Ok(Fact::CoinValue(c.value, c.claim))
        }
        Instance::VertexNim(spec) => {
            let game = spec.validate()?;
            if game.names.len() > MAX_VERTEXNIM_VERTICES
                || game
                    .start
                    .weights
                    .iter()
                    .any(|&w| w > gamecert::vertexnim::solver::EXACT_MAX_WEIGHT)
            {
                return Err("too large for the exact solver".into());
            }
            let mut exact =
                gamecert::vertexnim::solver::Exact::new(&game)?.with_budget(VERTEXNIM_POSITIONS);
            exact.wins(&game.start).map(Fact::FirstWins)
        }
    }
}

fn flip_fact(spec: &FlipSpec) -> Result<Fact, String> {
    let (shape, board) = setup(spec, &mut Budget::unlimited())?;
    if shape.len() > MAX_FLIP_POINTS {
        return Err(format!("{} points", shape.len()));
    }
    if spec.game.solitaire() {
        let (green, _) = gamecert::triangulations::solitaire::exhaustive(&shape, &board);
        return Ok(Fact::MostGreen(green, board.edges.len()));
    }
    let mut solver = gamecert::triangulations::flipping::Solver::new(spec)?;
    solver.deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(20));
    let v = solver.solve();
    if solver.aborted {
        return Err("the flip solver's deadline".into());
    }
    Ok(Fact::FlipValue(v))
}
