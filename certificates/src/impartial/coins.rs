//! Coin-turning games (seed 003): the reference rules and the check of a Grundy labelling.
//!
//! A row (or a rectangle) of coins shows heads or tails. A move turns over a set of coins whose
//! last coin (the rightmost; in two dimensions the south-east corner) goes from heads to tails;
//! which sets may be turned depends only on that last coin. The player who cannot move loses.
//!
//! # Instance `coin-game`
//!
//! ```json
//! {"format": "gamecert-instance", "version": 1, "kind": "coin-game",
//!  "rule": {"game": "mock-turtles"}, "board": [20], "heads": [[3], [7], [12]]}
//!
//! {"format": "gamecert-instance", "version": 1, "kind": "coin-game",
//!  "rule": {"game": "product",
//!           "x": {"game": "subsets", "min_others": 1, "max_others": 1, "max_distance": 4,
//!                 "base": 1},
//!           "y": {"game": "ruler"}},
//!  "board": [100, 100], "heads": [[100, 100], [4, 1]]}
//! ```
//!
//! Coins are numbered from `base` (the one-dimensional rules' own default, or the `base`
//! field): a board `[w]` holds the coins `base .. base + w - 1`, a board `[w, h]` the coins
//! `(x, y)` with `x` in the first range and `y` in the second. One-dimensional rules (`game`),
//! with the flip sets of a move whose last coin is `x`, in terms of its index `i = x - base`
//! (all other coins are to its left):
//!
//! | game | base | the other coins turned |
//! |---|---|---|
//! | `turning-turtles` | 1 | none, or any one coin |
//! | `mock-turtles` | 0 | none, one or two coins |
//! | `twins` | 0 | exactly one coin |
//! | `ruler` | 1 | the `k` coins just left of it, `k >= 0` (a block ending at `x`) |
//! | `grunt` | 0 | the coins at indices `0`, `j`, `i - j` for `0 < j < i - j` |
//! | `subsets` | 0 | any `min_others ..= max_others` coins within `max_distance` (absent: any) |
//! | `offsets` | 0 | for each listed set of offsets `d >= 1`, the coins `x - d` (if on the board) |
//!
//! Two-dimensional rules: `product` of two one-dimensional rules `x` and `y` (a move is
//! `M1 x M2` for moves `M1` of `x` and `M2` of `y`: the tartan game), `turning-corners`
//! (`twins` x `twins`), `rugs` (`ruler` x `ruler`) and `acrostic-twins` (turn the coin and one
//! other coin in its row or column, to its left or above it); `base` on these applies to both
//! coordinates.
//!
//! # Certificate `coin-labelling`
//!
//! `values` labels every single-head position of the board (one number per coin; in two
//! dimensions one list per `x`, `values[i][j]` for the coin `(base + i, base + j)`), `value`
//! is the claimed value of the instance's position, `claim` `first-player-wins` (value not 0)
//! or `second-player-wins`, and `winning_move` optionally lists the coins to turn.
//!
//! The checker verifies every label as the mex, over all moves from that single head, of the
//! nim sum of the labels of the other coins the move turns. By the coin-turning decomposition
//! ([`crate::TRUSTED_COIN_DECOMPOSITION`]) and Sprague-Grundy, the labels are the Grundy values
//! and the position's value is the nim sum of its heads' labels. A winning move must be legal
//! (its last coin a head, its set allowed) and lead to value 0.

use crate::base::budget::Budget;
use crate::base::error::only_fields;
use crate::verdict::{Claim, Theorem, Verdict, Work};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A coin-game rule as written in the instance. Read through `RuleFields`, so that each
/// game takes exactly its own fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RuleFields")]
pub struct RuleSpec {
    #[serde(flatten)]
    pub game: GameSpec,
    /// The number of the first coin (each game has its own default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<i64>,
}

/// The games by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "game", rename_all = "kebab-case")]
pub enum GameSpec {
    TurningTurtles,
    MockTurtles,
    Twins,
    Ruler,
    Grunt,
    Subsets {
        min_others: u64,
        max_others: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_distance: Option<u64>,
    },
    Offsets {
        sets: Vec<Vec<i64>>,
    },
    Product {
        x: Box<RuleSpec>,
        y: Box<RuleSpec>,
    },
    TurningCorners,
    Rugs,
    AcrosticTwins,
}

/// A rule as written: the fields of every game, and any other key (serde's
/// `deny_unknown_fields` does not work through `flatten`, and would name every game's fields).
/// `game` is optional here so that `RuleSpec::try_from` first refuses a field the named game
/// does not take, naming its fields (a misspelt `game` is named as such), then asks for the
/// missing ones. `x` and `y` are rules themselves, read the same way.
#[derive(Deserialize)]
struct RuleFields {
    game: Option<GameName>,
    base: Option<i64>,
    min_others: Option<u64>,
    max_others: Option<u64>,
    max_distance: Option<u64>,
    sets: Option<Vec<Vec<i64>>>,
    x: Option<Box<RuleSpec>>,
    y: Option<Box<RuleSpec>>,
    #[serde(flatten)]
    others: BTreeMap<String, IgnoredAny>,
}

/// The `game` tag of a rule: [`GameSpec`]'s variants.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum GameName {
    TurningTurtles,
    MockTurtles,
    Twins,
    Ruler,
    Grunt,
    Subsets,
    Offsets,
    Product,
    TurningCorners,
    Rugs,
    AcrosticTwins,
}

impl TryFrom<RuleFields> for RuleSpec {
    type Error = String;

    fn try_from(rule: RuleFields) -> Result<RuleSpec, String> {
        let RuleFields { game, base, min_others, max_others, max_distance, sets, x, y, others } =
            rule;
        let Some(game) = game else {
            let all =
                ["game", "base", "min_others", "max_others", "max_distance", "sets", "x", "y"];
            only_fields("a rule", others.keys().map(String::as_str), &all)?;
            return Err("missing field `game`".into());
        };
        let (name, known): (&str, &[&str]) = match game {
            GameName::Subsets => {
                ("subsets", &["game", "base", "min_others", "max_others", "max_distance"])
            }
            GameName::Offsets => ("offsets", &["game", "base", "sets"]),
            GameName::Product => ("product", &["game", "base", "x", "y"]),
            GameName::TurningTurtles => ("turning-turtles", &["game", "base"]),
            GameName::MockTurtles => ("mock-turtles", &["game", "base"]),
            GameName::Twins => ("twins", &["game", "base"]),
            GameName::Ruler => ("ruler", &["game", "base"]),
            GameName::Grunt => ("grunt", &["game", "base"]),
            GameName::TurningCorners => ("turning-corners", &["game", "base"]),
            GameName::Rugs => ("rugs", &["game", "base"]),
            GameName::AcrosticTwins => ("acrostic-twins", &["game", "base"]),
        };
        let given = [
            ("min_others", min_others.is_some()),
            ("max_others", max_others.is_some()),
            ("max_distance", max_distance.is_some()),
            ("sets", sets.is_some()),
            ("x", x.is_some()),
            ("y", y.is_some()),
        ];
        let given = given.iter().filter(|(_, is)| *is).map(|(field, _)| *field);
        only_fields(
            &format!("game `{name}`"),
            others.keys().map(String::as_str).chain(given),
            known,
        )?;
        let needs = |field: &str| format!("missing field `{field}` (game `{name}`)");
        let game = match game {
            GameName::Subsets => GameSpec::Subsets {
                min_others: min_others.ok_or_else(|| needs("min_others"))?,
                max_others: max_others.ok_or_else(|| needs("max_others"))?,
                max_distance,
            },
            GameName::Offsets => GameSpec::Offsets { sets: sets.ok_or_else(|| needs("sets"))? },
            GameName::Product => GameSpec::Product {
                x: x.ok_or_else(|| needs("x"))?,
                y: y.ok_or_else(|| needs("y"))?,
            },
            GameName::TurningTurtles => GameSpec::TurningTurtles,
            GameName::MockTurtles => GameSpec::MockTurtles,
            GameName::Twins => GameSpec::Twins,
            GameName::Ruler => GameSpec::Ruler,
            GameName::Grunt => GameSpec::Grunt,
            GameName::TurningCorners => GameSpec::TurningCorners,
            GameName::Rugs => GameSpec::Rugs,
            GameName::AcrosticTwins => GameSpec::AcrosticTwins,
        };
        Ok(RuleSpec { game, base })
    }
}

/// `coin-game` instance as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoinGameSpec {
    pub rule: RuleSpec,
    pub board: Vec<u64>,
    pub heads: Vec<Vec<i64>>,
}

/// A validated one-dimensional rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strip {
    TurningTurtles,
    MockTurtles,
    Twins,
    Ruler,
    Grunt,
    Subsets {
        min: u64,
        max: u64,
        distance: Option<u64>,
    },
    /// Sorted, distinct offsets per set.
    Offsets(Vec<Vec<u64>>),
}

/// A validated rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    Strip(Strip),
    Product(Strip, Strip),
    AcrosticTwins,
}

/// A validated instance: coins by index from 0 (`base` subtracted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinGame {
    pub rule: Rule,
    /// The coordinate of index 0, per axis.
    pub base: Vec<i64>,
    /// Coins per axis.
    pub board: Vec<u64>,
    /// Heads by index (one or two coordinates).
    pub heads: Vec<Vec<u64>>,
}

fn default_base(strip: &Strip) -> i64 {
    match strip {
        Strip::TurningTurtles | Strip::Ruler => 1,
        _ => 0,
    }
}

fn strip_of(game: &GameSpec, at: &str) -> Result<Option<Strip>, String> {
    Ok(Some(match game {
        GameSpec::TurningTurtles => Strip::TurningTurtles,
        GameSpec::MockTurtles => Strip::MockTurtles,
        GameSpec::Twins => Strip::Twins,
        GameSpec::Ruler => Strip::Ruler,
        GameSpec::Grunt => Strip::Grunt,
        GameSpec::Subsets { min_others, max_others, max_distance } => {
            ensure!(
                min_others <= max_others,
                "{at}: min_others {min_others} is larger than max_others {max_others}"
            );
            Strip::Subsets { min: *min_others, max: *max_others, distance: *max_distance }
        }
        GameSpec::Offsets { sets } => {
            let mut out = Vec::with_capacity(sets.len());
            for (k, set) in sets.iter().enumerate() {
                let mut offsets = Vec::with_capacity(set.len());
                for (j, &d) in set.iter().enumerate() {
                    ensure!(
                        d >= 1,
                        "{at}.sets[{k}][{j}]: offset {d} is not a valid game: a move must turn \
                             its rightmost coin from heads to tails, so every other coin it turns \
                             lies to the left of that coin (offsets are at least 1)"
                    );
                    offsets.push(d as u64);
                }
                offsets.sort_unstable();
                if offsets.windows(2).any(|w| w[0] == w[1]) {
                    fail!("{at}.sets[{k}]: an offset is listed twice");
                }
                out.push(offsets);
            }
            Strip::Offsets(out)
        }
        _ => return Ok(None),
    }))
}

fn strip_rule(spec: &RuleSpec, at: &str) -> Result<(Strip, i64), String> {
    match strip_of(&spec.game, at)? {
        Some(strip) => {
            let base = spec.base.unwrap_or_else(|| default_base(&strip));
            Ok((strip, base))
        }
        None => Err(format!("{at}: a product's components must be one-dimensional games")),
    }
}

impl CoinGameSpec {
    /// Checks the rule, the board and the heads; errors name the field.
    pub fn validate(&self) -> Result<CoinGame, String> {
        let (rule, base) = match &self.rule.game {
            GameSpec::Product { x, y } => {
                if self.rule.base.is_some() {
                    return Err(
                        "rule.base: a product takes its bases from its components x and y".into()
                    );
                }
                let (sx, bx) = strip_rule(x, "rule.x")?;
                let (sy, by) = strip_rule(y, "rule.y")?;
                (Rule::Product(sx, sy), vec![bx, by])
            }
            GameSpec::TurningCorners | GameSpec::Rugs => {
                let strip =
                    if self.rule.game == GameSpec::Rugs { Strip::Ruler } else { Strip::Twins };
                let b = self.rule.base.unwrap_or_else(|| default_base(&strip));
                (Rule::Product(strip.clone(), strip), vec![b, b])
            }
            GameSpec::AcrosticTwins => {
                let b = self.rule.base.unwrap_or(0);
                (Rule::AcrosticTwins, vec![b, b])
            }
            game => {
                let strip = strip_of(game, "rule")?.expect("one-dimensional");
                let b = self.rule.base.unwrap_or_else(|| default_base(&strip));
                (Rule::Strip(strip), vec![b])
            }
        };
        let dims = base.len();
        ensure!(
            self.board.len() == dims,
            "board: this game is {dims}-dimensional, so the board is {}, not a list of {} \
                 numbers",
            if dims == 1 { "[width]" } else { "[width, height]" },
            self.board.len()
        );
        if let Some(k) = self.board.iter().position(|&w| w == 0) {
            fail!("board[{k}]: the board has no coins");
        }
        let mut heads = Vec::with_capacity(self.heads.len());
        for (k, head) in self.heads.iter().enumerate() {
            let show =
                format!("({})", head.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", "));
            ensure!(
                head.len() == dims,
                "heads[{k}]: coin {show} needs {dims} coordinate{}",
                if dims == 1 { "" } else { "s" }
            );
            let mut index = Vec::with_capacity(dims);
            for d in 0..dims {
                // In i128: a base near i64::MIN and a coordinate near i64::MAX are more than
                // i64::MAX apart.
                let offset = i128::from(head[d]) - i128::from(base[d]);
                if offset < 0 || offset >= i128::from(self.board[d]) {
                    let hi = i128::from(base[d]) + i128::from(self.board[d]) - 1;
                    fail!(
                        "heads[{k}]: coin {show} is outside the board ({} from {} to {hi})",
                        ["x", "y"][d],
                        base[d]
                    );
                }
                index.push(offset as u64);
            }
            heads.push(index);
        }
        let mut sorted: Vec<(&Vec<u64>, usize)> = heads.iter().zip(0..).collect();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
            fail!("heads[{}]: the same coin as heads[{}]", w[0].1.max(w[1].1), w[0].1.min(w[1].1));
        }
        Ok(CoinGame { rule, base, board: self.board.clone(), heads })
    }
}

/// Binomial coefficient, saturating.
fn choose(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for j in 0..k {
        c = c.saturating_mul((n - j) as u128) / (j as u128 + 1);
        if c > u64::MAX as u128 {
            return u128::MAX;
        }
    }
    c
}

/// (number of moves, total number of coins turned) from the single head at index `i`, counted
/// without listing them (saturating).
pub fn count_moves(strip: &Strip, i: u64) -> (u128, u128) {
    let sum = |counts: &[(u128, u64)]| {
        counts.iter().fold((0u128, 0u128), |(n, t), &(c, size)| {
            (n.saturating_add(c), t.saturating_add(c.saturating_mul(size as u128 + 1)))
        })
    };
    match strip {
        Strip::TurningTurtles => sum(&[(1, 0), (i as u128, 1)]),
        Strip::MockTurtles => sum(&[(1, 0), (i as u128, 1), (choose(i, 2), 2)]),
        Strip::Twins => sum(&[(i as u128, 1)]),
        Strip::Ruler => {
            let n = i as u128 + 1;
            (n, n.saturating_mul(n + 1) / 2)
        }
        Strip::Grunt => sum(&[(i.saturating_sub(1) as u128 / 2, 3)]),
        Strip::Subsets { min, max, distance } => {
            let k = distance.map_or(i, |d| d.min(i));
            let mut total = (0u128, 0u128);
            for s in *min..=(*max).min(k) {
                let c = choose(k, s);
                total.0 = total.0.saturating_add(c);
                total.1 = total.1.saturating_add(c.saturating_mul(s as u128 + 1));
                // A saturated count cannot grow: the larger subsets need not be counted (at
                // most about 64 sizes are counted before one saturates).
                if c == u128::MAX {
                    break;
                }
            }
            total
        }
        Strip::Offsets(sets) => sets
            .iter()
            .filter(|s| s.iter().all(|&d| d <= i))
            .fold((0, 0), |(n, t), s| (n + 1, t + s.len() as u128 + 1)),
    }
}

/// Steps to count or list the moves from one coin besides the coins they turn: an `offsets`
/// rule looks at each of its sets, and at their offsets, whether or not a set fits.
fn scan_cost(strip: &Strip) -> u128 {
    match strip {
        Strip::Offsets(sets) => sets.iter().map(|s| s.len() as u128 + 1).sum(),
        _ => 1,
    }
}

/// The work of listing the moves of the coins `0..n` of `strip`: every coin's [`scan_cost`],
/// then each coin's moves weighed by `weigh(moves, coins turned)`, counted coin by coin and no
/// further than just past `limit`. Counting a coin costs its scan and no more than the work
/// its moves add (a subset count of c takes at most log2 c steps), so the count itself stays
/// within what is then charged.
fn listing_work(
    strip: &Strip,
    n: u64,
    limit: u64,
    mut weigh: impl FnMut((u128, u128)) -> u128,
) -> u128 {
    let mut work = u128::from(n).saturating_mul(scan_cost(strip));
    for i in 0..n {
        if work > u128::from(limit) {
            break;
        }
        work = work.saturating_add(weigh(count_moves(strip, i)));
    }
    work
}

/// Calls `f` with the other coins of every move from the single head at index `i` (all
/// smaller than `i`, increasing). No recursion; the caller bounds the count first.
pub fn for_each_move(strip: &Strip, i: u64, f: &mut dyn FnMut(&[u64])) {
    match strip {
        Strip::TurningTurtles => {
            f(&[]);
            for j in 0..i {
                f(&[j]);
            }
        }
        Strip::MockTurtles => {
            f(&[]);
            for j in 0..i {
                f(&[j]);
            }
            for j in 0..i {
                for k in j + 1..i {
                    f(&[j, k]);
                }
            }
        }
        Strip::Twins => {
            for j in 0..i {
                f(&[j]);
            }
        }
        Strip::Ruler => {
            let block: Vec<u64> = (0..i).collect();
            for k in 0..=block.len() {
                f(&block[block.len() - k..]);
            }
        }
        Strip::Grunt => {
            let mut j = 1;
            while 2 * j < i {
                f(&[0, j, i - j]);
                j += 1;
            }
        }
        Strip::Subsets { min, max, distance } => {
            let lo = distance.map_or(0, |d| i.saturating_sub(d));
            let k = i - lo;
            for s in *min..=(*max).min(k) {
                // Combinations of size s of lo..i in lexicographic order.
                let mut pick: Vec<u64> = (lo..lo + s).collect();
                loop {
                    f(&pick);
                    // Advance: the last position that can still move right.
                    let s = pick.len();
                    let Some(p) = (0..s).rev().find(|&p| pick[p] < i - (s - p) as u64) else {
                        break;
                    };
                    pick[p] += 1;
                    for q in p + 1..s {
                        pick[q] = pick[q - 1] + 1;
                    }
                }
            }
        }
        Strip::Offsets(sets) => {
            for set in sets {
                if set.iter().all(|&d| d <= i) {
                    let mut coins: Vec<u64> = set.iter().map(|&d| i - d).collect();
                    coins.reverse();
                    f(&coins);
                }
            }
        }
    }
}

/// Whether turning `others` (increasing, all left of `i`) with the head at `i` is a move.
fn is_move(strip: &Strip, i: u64, others: &[u64]) -> bool {
    let mut found = false;
    for_each_move(strip, i, &mut |m| found |= m == others);
    found
}

/// The mex of a set of values given as flags.
fn mex(seen: &[bool]) -> u64 {
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64
}

/// The mex over the moves from a single head at index `i` of a strip, each move valued by the
/// nim sum of the other coins' `labels` (which must cover every index below `i`), and the
/// number of moves. `seen` is scratch space. The checker checks labels with it; the solver
/// computes them with it.
pub fn strip_mex(strip: &Strip, i: u64, labels: &[u64], seen: &mut Vec<bool>) -> (u64, usize) {
    // The checker has made sure every count fits (`check_labels`); one that did not would end
    // in a fault here (no table of usize::MAX + 1 flags), never in a count cut short.
    let n = usize::try_from(count_moves(strip, i).0).unwrap_or(usize::MAX);
    seen.clear();
    seen.resize(n + 1, false);
    for_each_move(strip, i, &mut |others| {
        // Lossless: every `j` is a coin below `i`, and `labels` covers them all.
        let v = others.iter().fold(0, |acc, &j| acc ^ labels[j as usize]);
        // Lossless: `v` is at most `n`, a usize.
        if v <= n as u64 {
            seen[v as usize] = true;
        }
    });
    (mex(seen), n)
}

/// `Ok(work)`, or the first coin whose label is wrong. `values` as read: one list per x.
pub fn check_labels(game: &CoinGame, values: &Labels, budget: &mut Budget) -> Result<u64, String> {
    let coord = |index: &[u64]| -> String {
        let parts: Vec<String> = index
            .iter()
            .zip(&game.base)
            .map(|(&i, &b)| (b as i128 + i as i128).to_string())
            .collect();
        format!("({})", parts.join(", "))
    };
    // The first wrong label stops the check, naming the coin, its label, its moves and the mex.
    let compare = |index: &[u64], label: u64, moves: usize, m: u64| {
        if label == m {
            Ok(())
        } else {
            Err(format!(
                "the label of coin {} is {label}, but the mex over its {moves} moves is {m}",
                coord(index)
            ))
        }
    };
    // Counting stops just past what the budget can pay for.
    let limit = budget.remaining().max(budget.steps_remaining());
    // Pays for `work` (counted before anything is listed or computed): bytes to be held are
    // charged as work; the labels' check itself is pure computation over what is already
    // held, counted as steps (its scratch space, one mex's table, charged as work first).
    let mut pay = |work: u128, held: bool, what: &str| {
        let units = u64::try_from(work).unwrap_or(u64::MAX);
        if held { budget.charge(units, what) } else { budget.step(units, what) }
            .map_err(|why| format!("{why} (about {work} steps)"))
    };
    match (&game.rule, values) {
        (Rule::Strip(strip), Labels::Strip(labels)) => {
            let w = game.board[0];
            ensure!(
                labels.len() as u64 == w,
                "values: {} labels for a board of {w} coins",
                labels.len()
            );
            let mut widest = 0;
            let work = listing_work(strip, w, limit, |(moves, coins)| {
                widest = widest.max(moves);
                coins
            });
            pay(work, false, "checking the labels")?;
            pay(widest.saturating_add(1), true, "holding one position's options")?;
            crate::base::budget::to_usize(widest, "the most moves from one coin")?;
            let mut seen = Vec::new();
            // Lossless casts below: every index is a coin below `w`, `labels.len()`.
            for i in 0..w {
                let (m, n) = strip_mex(strip, i, labels, &mut seen);
                compare(&[i], labels[i as usize], n, m)?;
            }
            Ok(work as u64)
        }
        (Rule::Product(sx, sy), Labels::Plane(labels)) => {
            let (w, h) = (game.board[0], game.board[1]);
            check_shape(labels, w, h)?;
            // Per axis: moves counted, then listed; the product work is separable. Listing holds
            // every move as a vector: about 48 bytes a move besides 8 a coin.
            let axis_listing = |s: &Strip, n: u64| {
                listing_work(s, n, limit, |(moves, coins)| {
                    moves.saturating_mul(48).saturating_add(coins.saturating_mul(8))
                })
            };
            let listing = axis_listing(sx, w).saturating_add(axis_listing(sy, h));
            pay(listing, true, "listing the moves of both axes")?;
            let list = |s: &Strip, n: u64| -> Vec<Vec<Vec<u64>>> {
                (0..n)
                    .map(|i| {
                        let mut moves = Vec::new();
                        for_each_move(s, i, &mut |m| moves.push(m.to_vec()));
                        moves
                    })
                    .collect()
            };
            let (mx, my) = (list(sx, w), list(sy, h));
            // Coins x' that some move from x turns, x included.
            let unions: Vec<Vec<u64>> = mx
                .iter()
                .enumerate()
                .map(|(x, moves)| {
                    let mut u: Vec<u64> = moves.iter().flatten().copied().collect();
                    u.push(x as u64);
                    u.sort_unstable();
                    u.dedup();
                    u
                })
                .collect();
            let sum_u: u128 = unions.iter().map(|u| u.len() as u128).sum();
            let sum_t1: u128 =
                mx.iter().flat_map(|ms| ms.iter().map(|m| m.len() as u128 + 1)).sum();
            let sum_s2: u128 =
                my.iter().flat_map(|ms| ms.iter().map(|m| m.len() as u128 + 1)).sum();
            let sum_n2: u128 = my.iter().map(|ms| ms.len() as u128).sum();
            let work = sum_u
                .saturating_mul(sum_s2)
                .saturating_add(sum_t1.saturating_mul(sum_n2))
                .saturating_add(u128::from(w) * 8);
            let widest = |moves: &[Vec<Vec<u64>>]| moves.iter().map(Vec::len).max().unwrap_or(0);
            let scratch = (widest(&mx) as u128).saturating_mul(widest(&my) as u128);
            pay(work, false, "checking the labels")?;
            pay(scratch.saturating_add(1), true, "holding one position's options")?;
            let mut seen = Vec::new();
            // Lossless casts below: `check_shape` found `w` lists of `h` labels, and every
            // coin a move turns is below `w` or `h`.
            let mut row = vec![0u64; w as usize];
            for x in 0..w as usize {
                for y in 0..h as usize {
                    let n = mx[x].len().checked_mul(my[y].len()).ok_or("too many moves")?;
                    seen.clear();
                    seen.resize(n + 1, false);
                    for m2 in &my[y] {
                        // row[a] = nim sum of labels (a, b) over b in M2 and y.
                        for &a in &unions[x] {
                            let a = a as usize;
                            row[a] =
                                m2.iter().fold(labels[a][y], |acc, &b| acc ^ labels[a][b as usize]);
                        }
                        for m1 in &mx[x] {
                            // Every coin of M1 x M2 but the head (x, y) itself.
                            let v = m1
                                .iter()
                                .fold(row[x] ^ labels[x][y], |acc, &a| acc ^ row[a as usize]);
                            if v <= n as u64 {
                                seen[v as usize] = true;
                            }
                        }
                    }
                    let m = mex(&seen);
                    compare(&[x as u64, y as u64], labels[x][y], n, m)?;
                }
            }
            Ok(work as u64)
        }
        (Rule::AcrosticTwins, Labels::Plane(labels)) => {
            let (w, h) = (game.board[0], game.board[1]);
            check_shape(labels, w, h)?;
            let work = (w as u128) * (h as u128) * (w as u128 + h as u128 + 1);
            pay(work, false, "checking the labels")?;
            let mut seen = Vec::new();
            // Lossless: `check_shape` found `w` lists of `h` labels.
            for x in 0..w as usize {
                for y in 0..h as usize {
                    seen.clear();
                    seen.resize(x + y + 1, false);
                    let others = (0..x).map(|a| labels[a][y]);
                    for v in others.chain((0..y).map(|b| labels[x][b])) {
                        if v <= (x + y) as u64 {
                            seen[v as usize] = true;
                        }
                    }
                    let m = mex(&seen);
                    compare(&[x as u64, y as u64], labels[x][y], x + y, m)?;
                }
            }
            Ok(work as u64)
        }
        (Rule::Strip(_), Labels::Plane(_)) => {
            Err("values: a one-dimensional game needs one label per coin, not lists".into())
        }
        (_, Labels::Strip(_)) => {
            Err("values: a two-dimensional game needs one list of labels per x".into())
        }
    }
}

fn check_shape(labels: &[Vec<u64>], w: u64, h: u64) -> Result<(), String> {
    ensure!(labels.len() as u64 == w, "values: {} lists for a board {w} coins wide", labels.len());
    match labels.iter().position(|col| col.len() as u64 != h) {
        Some(x) => {
            Err(format!("values[{x}]: {} labels for a board {h} coins high", labels[x].len()))
        }
        None => Ok(()),
    }
}

/// The labels of a certificate: one per coin, or one list per x.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Labels {
    Strip(Vec<u64>),
    Plane(Vec<Vec<u64>>),
}

impl Labels {
    fn at(&self, index: &[u64]) -> u64 {
        // Lossless: the shapes are checked first, and every index is a coin of the board.
        match (self, index) {
            (Labels::Strip(l), [i]) => l[*i as usize],
            (Labels::Plane(l), [x, y]) => l[*x as usize][*y as usize],
            _ => unreachable!("shapes are checked first"),
        }
    }
}

/// Certificate kind `coin-labelling`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoinLabelling {
    /// `first-player-wins` or `second-player-wins`.
    pub claim: String,
    /// The Grundy value of the instance's position.
    pub value: u64,
    pub values: Labels,
    /// Coins to turn (coordinates as in the instance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_move: Option<Vec<Vec<i64>>>,
}

pub const CLAIM_FIRST_WINS: &str = "first-player-wins";
pub const CLAIM_SECOND_WINS: &str = "second-player-wins";

/// What an accepted labelling established.
pub struct LabellingReport {
    pub work: u64,
    pub coins: u64,
}

/// Checks a `coin-labelling` certificate: every label, the value, the claim, the move.
pub fn check_labelling(
    game: &CoinGame,
    cert: &CoinLabelling,
    budget: &mut Budget,
) -> Result<LabellingReport, String> {
    let work = check_labels(game, &cert.values, budget)?;
    let value = game.heads.iter().fold(0, |acc, h| acc ^ cert.values.at(h));
    ensure!(
        value == cert.value,
        "the position's value is {value} (the nim sum of its heads' labels), not {}",
        cert.value
    );
    let expected = if value == 0 { CLAIM_SECOND_WINS } else { CLAIM_FIRST_WINS };
    ensure!(
        cert.claim == expected,
        "the claim '{}' does not match the value {value} (expected '{expected}')",
        cert.claim
    );
    if let Some(coins) = &cert.winning_move {
        if value == 0 {
            return Err("winning_move: a position of value 0 has no winning move".into());
        }
        check_winning_move(game, &cert.values, coins, value, budget)?;
    }
    Ok(LabellingReport { work, coins: game.board.iter().fold(1u64, |p, &w| p.saturating_mul(w)) })
}

/// Checks that turning `coins` is a legal move of the position and leads to value 0.
fn check_winning_move(
    game: &CoinGame,
    labels: &Labels,
    coins: &[Vec<i64>],
    value: u64,
    budget: &mut Budget,
) -> Result<(), String> {
    let dims = game.base.len();
    budget.charge(coins.len() as u64 * 64, "checking the winning move")?;
    let mut index = Vec::with_capacity(coins.len());
    for (k, c) in coins.iter().enumerate() {
        if c.len() != dims
            || (0..dims).any(|d| {
                c[d] < game.base[d] || c[d] as i128 - game.base[d] as i128 >= game.board[d] as i128
            })
        {
            fail!("winning_move[{k}]: {c:?} is not a coin of the board");
        }
        index.push(
            (0..dims)
                .map(|d| (i128::from(c[d]) - i128::from(game.base[d])) as u64)
                .collect::<Vec<u64>>(),
        );
    }
    index.sort();
    if index.windows(2).any(|w| w[0] == w[1]) {
        return Err("winning_move: a coin is listed twice".into());
    }
    let Some(last) = index.last().cloned() else {
        return Err("winning_move: no coins".into());
    };
    let illegal = |why: &str| Err(format!("winning_move: not a legal move: {why}"));
    // Looking for the move lists the moves of its last coin once more.
    let listing = |s: &Strip, i: u64| {
        let work = count_moves(s, i).1.saturating_add(scan_cost(s));
        u64::try_from(work).unwrap_or(u64::MAX)
    };
    let legal = match &game.rule {
        Rule::Strip(strip) => {
            budget.charge(listing(strip, last[0]), "checking the winning move")?;
            is_move(strip, last[0], &flat(&index[..index.len() - 1], 0))
        }
        Rule::Product(sx, sy) => {
            let mut xs = flat(&index, 0);
            let mut ys = flat(&index, 1);
            xs.sort_unstable();
            xs.dedup();
            ys.sort_unstable();
            ys.dedup();
            let corner = vec![*xs.last().unwrap(), *ys.last().unwrap()];
            if corner != last {
                return illegal("its south-east coin is not one of the coins turned");
            }
            if xs.len().checked_mul(ys.len()) != Some(index.len()) {
                return illegal("the coins are not a product of a set of columns and rows");
            }
            budget.charge(
                listing(sx, corner[0]).saturating_add(listing(sy, corner[1])),
                "checking the winning move",
            )?;
            is_move(sx, corner[0], &xs[..xs.len() - 1])
                && is_move(sy, corner[1], &ys[..ys.len() - 1])
        }
        Rule::AcrosticTwins => {
            index.len() == 2 && (index[0][0] == last[0] || index[0][1] == last[1])
        }
    };
    if !legal {
        return illegal("the rule does not allow this set of coins");
    }
    if !game.heads.contains(&last) {
        return illegal("its last coin is a tail (the last coin must go from heads to tails)");
    }
    let after = index.iter().fold(value, |acc, c| acc ^ labels.at(c));
    ensure!(after == 0, "winning_move: the position after it has value {after}, not 0");
    Ok(())
}

fn flat(coins: &[Vec<u64>], d: usize) -> Vec<u64> {
    coins.iter().map(|c| c[d]).collect()
}

impl Claim for CoinLabelling {
    fn claim(&self) -> String {
        format!("{} (value {})", self.claim, self.value)
    }
}

/// Registry entry for `coin-labelling`.
pub fn labelling_verdict(
    spec: &CoinGameSpec,
    cert: &CoinLabelling,
    budget: &mut Budget,
) -> Verdict {
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
    let game = match spec.validate() {
        Ok(game) => game,
        Err(err) => return Verdict::invalid(cert.claim(), err),
    };
    Verdict::decide(
        claim,
        check_labelling(&game, cert, budget),
        |report| {
            let reason = format!(
                "every one of the {} is the mex over its moves ({}){}",
                crate::base::text::counted(report.coins, "label"),
                crate::base::text::counted(report.work, "step"),
                if cert.winning_move.is_some() {
                    "; the winning move is legal and leads to value 0"
                } else {
                    ""
                }
            );
            (reason, Work { positions: Some(report.coins), ..Work::default() })
        },
        &[Theorem::CoinDecomposition, Theorem::SpragueGrundy],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;

    fn strip_values(s: &Strip, n: u64) -> Vec<u64> {
        let mut v: Vec<u64> = Vec::new();
        for i in 0..n {
            let mut seen = vec![false; count_moves(s, i).0 as usize + 1];
            for_each_move(s, i, &mut |m| {
                let x = m.iter().fold(0, |a, &j| a ^ v[j as usize]) as usize;
                if x < seen.len() {
                    seen[x] = true;
                }
            });
            v.push(mex(&seen));
        }
        v
    }

    #[test]
    fn counts_match_listings() {
        let strips = [
            Strip::TurningTurtles,
            Strip::MockTurtles,
            Strip::Twins,
            Strip::Ruler,
            Strip::Grunt,
            Strip::Subsets { min: 1, max: 3, distance: Some(5) },
            Strip::Subsets { min: 0, max: 9, distance: None },
            Strip::Offsets(vec![vec![1], vec![2, 3], vec![]]),
        ];
        for s in &strips {
            for i in 0..12 {
                let (mut n, mut t) = (0u128, 0u128);
                for_each_move(s, i, &mut |m| {
                    n += 1;
                    t += m.len() as u128 + 1;
                    assert!(m.windows(2).all(|w| w[0] < w[1]) && m.iter().all(|&j| j < i));
                });
                assert_eq!(count_moves(s, i), (n, t), "{s:?} at {i}");
            }
        }
        assert_eq!(strip_values(&Strip::MockTurtles, 6), [1, 2, 4, 7, 8, 11]);
        assert_eq!(strip_values(&Strip::Ruler, 8), [1, 2, 1, 4, 1, 2, 1, 8]);
        assert_eq!(
            strip_values(&Strip::Grunt, 21),
            [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
        );
    }

    fn game(rule: &str, board: &str, heads: &str) -> CoinGame {
        let spec: CoinGameSpec = serde_json::from_str(&format!(
            r#"{{"rule": {rule}, "board": {board}, "heads": {heads}}}"#
        ))
        .unwrap();
        spec.validate().unwrap()
    }

    #[test]
    fn labellings_and_moves() {
        let g = game(r#"{"game": "mock-turtles"}"#, "[6]", "[[1], [3]]");
        let mut cert = CoinLabelling {
            claim: CLAIM_FIRST_WINS.into(),
            value: 2 ^ 7,
            values: Labels::Strip(vec![1, 2, 4, 7, 8, 11]),
            winning_move: Some(vec![vec![3], vec![2], vec![0]]),
        };
        // 7 -> turn 3 with 2 (4) and 0 (1): 2 ^ 7 ^ 7 ^ 4 ^ 1 = 7: not 0.
        let err = check_labelling(&g, &cert, &mut Budget::new(1_048_576_000)).err().unwrap();
        assert!(err.contains("value 7"), "{err}");
        // Turn 3 and 1: both go to tails, value 0.
        cert.winning_move = Some(vec![vec![1], vec![3]]);
        assert!(check_labelling(&g, &cert, &mut Budget::new(1_048_576_000)).is_ok());
        cert.winning_move = Some(vec![vec![4], vec![3]]);
        assert!(check_labelling(&g, &cert, &mut Budget::new(1_048_576_000))
            .err()
            .unwrap()
            .contains("tail"));
        cert.winning_move = None;
        let mut bad = cert.clone();
        bad.values = Labels::Strip(vec![1, 2, 4, 6, 8, 11]);
        bad.value = 2 ^ 6;
        let err = check_labelling(&g, &bad, &mut Budget::new(1_048_576_000)).err().unwrap();
        assert!(err.contains("coin (3)"), "{err}");
        assert!(check_labelling(&g, &cert, &mut Budget::new(10)).err().unwrap().contains("limit"));

        // Turning Corners on 4 x 4: labels are nim products.
        let tc = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]];
        let g = game(r#"{"game": "turning-corners"}"#, "[4, 4]", "[[3, 3]]");
        let values = Labels::Plane(tc.iter().map(|r| r.to_vec()).collect());
        let mut cert = CoinLabelling {
            claim: CLAIM_FIRST_WINS.into(),
            value: 2,
            values,
            // The head (3, 3) has value 2; a winning move turns three tails whose labels sum
            // to 0: the corner (2, 1) gives 2 ^ 1 ^ 3 = 0 (the corner (1, 1) gives 1 ^ 3 ^ 3).
            winning_move: Some(vec![vec![2, 1], vec![2, 3], vec![3, 1], vec![3, 3]]),
        };
        assert!(check_labelling(&g, &cert, &mut Budget::new(1_048_576_000)).is_ok());
        cert.winning_move = Some(vec![vec![1, 1], vec![1, 3], vec![3, 1], vec![3, 3]]);
        assert!(check_labelling(&g, &cert, &mut Budget::new(1_048_576_000))
            .err()
            .unwrap()
            .contains("value 1"));
        cert.winning_move = Some(vec![vec![2, 1], vec![3, 1], vec![3, 3]]);
        assert!(check_labelling(&g, &cert, &mut Budget::new(1_048_576_000))
            .err()
            .unwrap()
            .contains("product"));
        if let Labels::Plane(l) = &mut cert.values {
            l[2][2] = 2;
        }
        cert.winning_move = None;
        let err = check_labelling(&g, &cert, &mut Budget::new(1_048_576_000)).err().unwrap();
        assert!(err.contains("coin (2, 2)"), "{err}");
    }

    #[test]
    fn bad_instances() {
        let bad = |rule: &str, board: &str, heads: &str| {
            let spec: CoinGameSpec = serde_json::from_str(&format!(
                r#"{{"rule": {rule}, "board": {board}, "heads": {heads}}}"#
            ))
            .unwrap();
            spec.validate().unwrap_err()
        };
        let e = bad(r#"{"game": "ruler"}"#, "[5]", "[[0]]");
        assert!(e.contains("outside the board (x from 1 to 5)"), "{e}");
        let e = bad(r#"{"game": "offsets", "sets": [[1, 0]]}"#, "[5]", "[]");
        assert!(e.contains("not a valid game"), "{e}");
        let e = bad(r#"{"game": "offsets", "sets": [[-2]]}"#, "[5]", "[]");
        assert!(e.contains("offset -2"), "{e}");
        let e = bad(r#"{"game": "twins"}"#, "[5]", "[[1], [1]]");
        assert!(e.contains("heads[1]: the same coin as heads[0]"), "{e}");
        let e = bad(r#"{"game": "rugs"}"#, "[5]", "[]");
        assert!(e.contains("2-dimensional"), "{e}");
        let e = bad(r#"{"game": "rugs"}"#, "[5, 5]", "[[6, 1]]");
        assert!(e.contains("outside"), "{e}");
        let e = bad(
            r#"{"game": "product", "x": {"game": "rugs"}, "y": {"game": "ruler"}}"#,
            "[5, 5]",
            "[]",
        );
        assert!(e.contains("one-dimensional"), "{e}");
    }

    /// Issue 24: counting the moves of a wide board took time the budget never saw, subsets of
    /// every size (a count for each size, for each coin) or offset sets that never fit (every
    /// set looked at for every coin, charged nothing since no coin is turned). Both are now
    /// counted within the budget and refused at once.
    #[test]
    fn counting_the_moves_costs_no_more_than_the_budget() {
        let w = 30_000u64;
        let cert = CoinLabelling {
            claim: CLAIM_SECOND_WINS.into(),
            value: 0,
            values: Labels::Strip(vec![0; w as usize]),
            winning_move: None,
        };
        let strip = |strip: Strip| CoinGame {
            rule: Rule::Strip(strip),
            base: vec![0],
            board: vec![w],
            heads: vec![],
        };
        let subsets = strip(Strip::Subsets { min: 0, max: u64::MAX, distance: None });
        let offsets = strip(Strip::Offsets(vec![vec![u64::MAX]; 100_000]));
        for game in [subsets, offsets] {
            let started = std::time::Instant::now();
            let err = check_labelling(&game, &cert, &mut Budget::new(2_000_000_000)).err().unwrap();
            assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", game.rule);
            assert!(err.contains("work limit reached while checking the labels"), "{err}");
        }
    }
}
