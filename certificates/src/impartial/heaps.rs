//! Heap games: octal (take-and-break) games given by their code, and Grundy's game. The
//! reference rules, the instance and certificate formats, and the check of a Grundy labelling.
//!
//! # The rules
//!
//! A position is a list of heaps (sizes >= 1; a heap of 0 is no heap). A move takes one heap.
//!
//! An **octal code** `d0.d1d2...dt` (digits 0 to 7) says, for each k, what removing k tokens from
//! a heap of n >= k may leave: bit 1 of `dk` allows leaving nothing (so n = k), bit 2 one heap
//! (n - k >= 1), bit 4 two heaps (any a + b = n - k with a, b >= 1). `d0` concerns removing no
//! token: only 0 or 4 (split a heap into two non-empty heaps) make sense, so `d0` must be 0 or 4;
//! `.07` is short for `0.07`. Examples: Kayles `0.77`, Dawson's Kayles `0.07`, Dawson's chess
//! `0.137`. The names `kayles`, `dawson-kayles` and `dawsons-chess` stand for those codes.
//!
//! **Grundy's game** (`grundy`): split a heap into two non-empty heaps of different sizes.
//!
//! # The check
//!
//! A `heap-labelling` certificate gives `values[n]` for every heap size n <= B. The checker
//! verifies, for every n <= B, that `values[n]` is the mex over every legal move from a single
//! heap of n of the XOR of the labels of the heaps the move leaves (so the labels are the
//! Grundy values, by induction on n), that B covers every heap of the instance, and then the
//! claim: the position's value is the XOR of its heaps' labels; "second-player-wins" needs 0,
//! "first-player-wins" needs a winning move that is legal and leaves value 0. Going from the
//! single-heap values to a sum of heaps is the Sprague-Grundy theorem, which the verdict names.
//! The work (number of single-heap moves enumerated) is computed and bounded before it is done.
//!
//! A labelling may also claim a `period` (octal games with d0 = 0): then the labels are checked
//! as above up to a bound fixed by the period, their repetition is checked over the stretch the
//! periodicity theorem of Guy and Smith asks for, and every larger heap takes its value from
//! the period; the verdict then names that theorem too ([`check_labelling`]).

use crate::base::budget::Budget;
use crate::verdict::{reject, Claim, Theorem, Verdict, Work};
use serde::{Deserialize, Serialize};

/// The largest heap an instance may hold (the check is quadratic in it).
pub const MAX_HEAP: u64 = 1 << 16;

/// The most digits an octal code may have after the point.
pub const MAX_CODE_DIGITS: usize = 64;

/// Claims of a `heap-labelling` certificate.
pub const CLAIM_FIRST_PLAYER_WINS: &str = "first-player-wins";
pub const CLAIM_SECOND_PLAYER_WINS: &str = "second-player-wins";

/// Instance kind `heap-game`: a sum of heaps of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeapGame {
    /// An octal code (`0.77`, `.07`, `4.07`), `grundy`, or a name (`kayles`, ...).
    pub game: String,
    pub heaps: Vec<u64>,
}

/// A move: from heap number `heap` (0-based), remove `take` tokens and leave the heaps `leave`
/// (zero, one or two sizes, each at least 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeapMove {
    pub heap: usize,
    pub take: u64,
    pub leave: Vec<u64>,
}

/// Certificate kind `heap-labelling`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeapLabelling {
    /// `first-player-wins` or `second-player-wins`.
    pub claim: String,
    /// `values[n]`: the Grundy value of a single heap of n, for n = 0..=B.
    pub values: Vec<u64>,
    /// For a first-player win: a move to a position of value 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_move: Option<HeapMove>,
    /// Optional: the values are periodic from heap `from` on with period `length`, by the
    /// periodicity theorem (see [`check_labelling`]); heaps beyond `values` take the value
    /// `values[from + (n - from) % length]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
}

/// A claimed period of an octal game's Grundy values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Period {
    pub from: u64,
    pub length: u64,
}

/// The rules of a heap game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    /// `digits[k]` is the octal digit for removing k tokens (`digits[0]` is 0 or 4); no trailing
    /// zero digit is kept.
    Octal { digits: Vec<u8> },
    /// Grundy's game.
    Grundy,
}

impl Rules {
    /// Reads a game: an octal code, `grundy`, or one of the names.
    pub fn parse(code: &str) -> Result<Rules, String> {
        let code = code.trim();
        match code {
            "grundy" => return Ok(Rules::Grundy),
            "kayles" => return Rules::parse("0.77"),
            "dawson-kayles" => return Rules::parse("0.07"),
            "dawsons-chess" => return Rules::parse("0.137"),
            _ => {}
        }
        let bad = |why: String| {
            Err(format!(
                "malformed octal code '{code}': {why} (expected d0.d1d2... with octal digits 0 to \
                 7 and d0 = 0 or 4, e.g. 0.77, .07, 0.137; or grundy, kayles, dawson-kayles, \
                 dawsons-chess)"
            ))
        };
        let Some((whole, fraction)) = code.split_once('.') else {
            return bad("no point".into());
        };
        let d0 = match whole {
            "" | "0" => 0,
            "4" => 4,
            _ => return bad(format!("the digit before the point is '{whole}', not 0 or 4")),
        };
        if fraction.is_empty() {
            return bad("no digit after the point".into());
        }
        if fraction.len() > MAX_CODE_DIGITS {
            return bad(format!("more than {MAX_CODE_DIGITS} digits after the point"));
        }
        let mut digits = vec![d0];
        for (i, c) in fraction.chars().enumerate() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return bad(format!("'{c}' (digit {}) is not an octal digit", i + 1)),
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(Rules::Octal { digits })
    }

    /// The game's name as a code (`0.77`, `4.07`, `grundy`).
    pub fn code(&self) -> String {
        match self {
            Rules::Grundy => "grundy".into(),
            Rules::Octal { digits } => {
                let rest: String = digits[1..].iter().map(|d| d.to_string()).collect();
                format!("{}.{}", digits[0], if rest.is_empty() { "0" } else { &rest })
            }
        }
    }

    /// Whether removing `take` tokens from a heap of `n` and leaving `leave` is a legal move.
    pub fn is_legal(&self, n: u64, take: u64, leave: &[u64]) -> bool {
        if leave.contains(&0) || leave.len() > 2 {
            return false;
        }
        let total = leave.iter().try_fold(take, |s, &h| s.checked_add(h));
        if total != Some(n) {
            return false;
        }
        match self {
            Rules::Grundy => take == 0 && leave.len() == 2 && leave[0] != leave[1],
            Rules::Octal { digits } => {
                let digit =
                    usize::try_from(take).ok().and_then(|k| digits.get(k)).copied().unwrap_or(0);
                digit & (1 << leave.len()) != 0
            }
        }
    }

    /// Calls `f` with the heaps left by every legal move from a single heap of `n` (each
    /// unordered split once).
    pub fn for_each_option(&self, n: u64, mut f: impl FnMut(&[u64])) {
        match self {
            Rules::Grundy => {
                for a in 1..n.div_ceil(2) {
                    f(&[a, n - a]);
                }
            }
            Rules::Octal { digits } => {
                for (k, &d) in digits.iter().enumerate() {
                    let k = k as u64;
                    if k > n {
                        break;
                    }
                    let rest = n - k;
                    if d & 1 != 0 && rest == 0 {
                        f(&[]);
                    }
                    if d & 2 != 0 && rest >= 1 {
                        f(&[rest]);
                    }
                    if d & 4 != 0 {
                        for a in 1..=rest / 2 {
                            f(&[a, rest - a]);
                        }
                    }
                }
            }
        }
    }

    /// How many options [`Rules::for_each_option`] gives from a heap of `n` (without listing
    /// them).
    pub fn option_count(&self, n: u64) -> u64 {
        match self {
            Rules::Grundy => n.div_ceil(2).saturating_sub(1),
            Rules::Octal { digits } => digits
                .iter()
                .enumerate()
                .filter(|&(k, _)| k as u64 <= n)
                .map(|(k, &d)| {
                    let rest = n - k as u64;
                    u64::from(d & 1 != 0 && rest == 0)
                        + u64::from(d & 2 != 0 && rest >= 1)
                        + if d & 4 != 0 { rest / 2 } else { 0 }
                })
                .sum(),
        }
    }
}

impl HeapGame {
    /// What is wrong with this instance, if anything.
    pub fn violation(&self) -> Option<String> {
        if let Err(why) = Rules::parse(&self.game) {
            return Some(why);
        }
        self.heaps
            .iter()
            .position(|&h| h > MAX_HEAP)
            .map(|i| format!("heap {i} has {} tokens, over the limit of {MAX_HEAP}", self.heaps[i]))
    }
}

/// What a successful check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabellingReport {
    /// The position's Grundy value.
    pub value: u64,
    /// B: the labelling was checked for heaps 0..=B.
    pub bound: u64,
    /// Single-heap moves enumerated.
    pub moves: u64,
    /// Whether larger heaps took their values from a verified period (the periodicity theorem
    /// was used).
    pub periodic: bool,
}

/// Checks a labelling against the rules, then the claim about the position `game`.
/// `max_moves` bounds the single-heap moves enumerated (counted before any is).
///
/// With a `period` (octal games with d0 = 0 only), the checker verifies the labels by the mex
/// up to heap `2 from + 2 length + t - 1` (t: the last position of a non-zero digit) and that
/// they repeat with the period from `from` through that heap; the periodicity theorem of Guy
/// and Smith ([`crate::TRUSTED_OCTAL_PERIODICITY`]) then gives every larger heap, so heaps of
/// any size (up to the instance's limit) cost nothing more.
pub fn check_labelling(
    game: &HeapGame,
    cert: &HeapLabelling,
    budget: &mut Budget,
) -> Result<LabellingReport, String> {
    let rules = Rules::parse(&game.game)?;
    let largest = game.heaps.iter().copied().max().unwrap_or(0);
    ensure!(largest <= MAX_HEAP, "a heap of {largest} is over the limit of {MAX_HEAP}");
    check_labelling_of(&rules, &game.heaps, cert, budget)
}

/// [`check_labelling`] for a position given by its rules and heaps (a decomposition computed
/// by the caller, e.g. from a triangulation); heaps of any size when a period is given.
pub fn check_labelling_of(
    rules: &Rules,
    heaps: &[u64],
    cert: &HeapLabelling,
    budget: &mut Budget,
) -> Result<LabellingReport, String> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let bound = match (&cert.period, rules) {
        (None, _) => {
            ensure!(
                largest <= MAX_HEAP,
                "a heap of {largest} is over the limit of {MAX_HEAP} for a labelling \
                     without a period"
            );
            largest
        }
        (Some(p), Rules::Octal { digits }) if digits[0] == 0 && p.length >= 1 => {
            let t = digits.len() as u64 - 1;
            p.from
                .checked_mul(2)
                .and_then(|x| x.checked_add(p.length.checked_mul(2)?))
                .and_then(|x| x.checked_add(t)?.checked_sub(1))
                .filter(|&b| b <= MAX_HEAP)
                .ok_or_else(|| {
                    format!(
                        "the period (from {}, length {}) needs labels beyond heap {MAX_HEAP}",
                        p.from, p.length
                    )
                })?
        }
        (Some(_), _) => {
            fail!(
                "a period can only be claimed for an octal game with first digit 0 and a \
                 positive length, not for {}",
                rules.code()
            )
        }
    };
    ensure!(
        (cert.values.len() as u64) > bound,
        "the labelling covers heaps 0..={} but heap {bound} is needed{}",
        cert.values.len() as i64 - 1,
        if cert.period.is_some() { " to verify the period" } else { " (the instance's largest)" }
    );
    let mut moves = 0u64;
    for n in 0..=bound {
        moves = moves.saturating_add(rules.option_count(n));
    }
    // Each move is a nim sum of at most two labels; each heap's mex needs a flag per move.
    budget
        .charge_each(moves, 2, "checking the labels")
        .and_then(|()| budget.charge_each(bound + 1, 16, "checking the labels"))
        .map_err(|why| {
            format!("{why} (checking the labelling up to heap {bound} takes {moves} moves)")
        })?;
    // Only the heaps up to the bound matter; a longer labelling is not checked further.
    // Lossless casts of heaps below: `values` covers every heap up to `bound` (checked above),
    // and every heap looked up is at most `bound`.
    let values = &cert.values[..=bound as usize];
    for n in 0..=bound {
        let count = crate::base::budget::to_usize(rules.option_count(n), "a heap's moves")?;
        // The mex of `count` values is at most `count`: larger values cannot matter.
        let mut seen = vec![false; count + 1];
        rules.for_each_option(n, |left| {
            let v = left.iter().fold(0u64, |x, &h| x ^ values[h as usize]);
            if v <= count as u64 {
                seen[v as usize] = true;
            }
        });
        let mex = seen.iter().position(|&s| !s).unwrap_or(count) as u64;
        ensure!(
            values[n as usize] == mex,
            "heap {n}: the labelling says {} but the mex over its {count} moves under {} is \
                 {mex}",
            values[n as usize],
            rules.code()
        );
    }
    if let Some(p) = cert.period {
        if let Some(n) = (p.from..=bound - p.length)
            .find(|&n| values[n as usize] != values[(n + p.length) as usize])
        {
            fail!(
                "the values are not periodic with period {} from heap {}: heap {n} has {} and \
                 heap {} has {}",
                p.length,
                p.from,
                values[n as usize],
                n + p.length,
                values[(n + p.length) as usize]
            );
        }
    }
    let value_of = |n: u64| match cert.period {
        Some(p) if n > bound => values[(p.from + (n - p.from) % p.length) as usize],
        _ => values[n as usize],
    };
    let value = heaps.iter().fold(0u64, |x, &h| x ^ value_of(h));
    let report =
        LabellingReport { value, bound, moves, periodic: cert.period.is_some() && largest > bound };
    match (cert.claim.as_str(), &cert.winning_move) {
        (CLAIM_SECOND_PLAYER_WINS, None) if value == 0 => Ok(report),
        (CLAIM_SECOND_PLAYER_WINS, None) => {
            Err(format!("the position's value is {value}, not 0: the first player wins"))
        }
        (CLAIM_SECOND_PLAYER_WINS, Some(_)) => {
            Err("a second-player win has no winning move".into())
        }
        (CLAIM_FIRST_PLAYER_WINS, None) => Err("a first-player win needs a winning move".into()),
        (CLAIM_FIRST_PLAYER_WINS, Some(m)) => {
            let Some(&n) = heaps.get(m.heap) else {
                fail!(
                    "winning move: there is no heap {} (the position has {})",
                    m.heap,
                    heaps.len()
                );
            };
            ensure!(
                rules.is_legal(n, m.take, &m.leave),
                "winning move: taking {} from heap {} (of {n}) and leaving {:?} is not a \
                     legal move of {}",
                m.take,
                m.heap,
                m.leave,
                rules.code()
            );
            let after = m.leave.iter().fold(value ^ value_of(n), |x, &h| x ^ value_of(h));
            ensure!(after == 0, "winning move: it leaves a position of value {after}, not 0");
            Ok(report)
        }
        (other, _) => Err(format!(
            "unknown claim '{other}' (expected {CLAIM_FIRST_PLAYER_WINS} or \
             {CLAIM_SECOND_PLAYER_WINS})"
        )),
    }
}

impl Claim for HeapLabelling {
    fn claim(&self) -> String {
        self.claim.clone()
    }
}

/// The theorems a heap labelling rests on: Sprague-Grundy, and the periodicity theorem when a
/// heap beyond the checked labels took its value from the period.
pub fn theorems(report: &LabellingReport) -> Vec<Theorem> {
    let mut trusted = vec![Theorem::SpragueGrundy];
    if report.periodic {
        trusted.push(Theorem::OctalPeriodicity);
    }
    trusted
}

/// Registry entry for `heap-labelling`.
pub fn labelling_verdict(
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
        return Verdict::invalid(claim, why);
    }
    match check_labelling(game, labelling, budget) {
        Ok(report) => {
            let reason = format!(
                "every label up to heap {} is the mex over its moves under {} ({}); the \
                 position's value is {}{}",
                report.bound,
                game.game,
                crate::base::text::counted(report.moves, "move"),
                report.value,
                if report.value == 0 { "" } else { "; the winning move leaves value 0" }
            );
            let work = Work { positions: Some(report.bound + 1), ..Work::default() };
            Verdict::accept(claim, reason, work, &theorems(&report))
        }
        Err(why) => reject(claim, why, Work::default()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;

    /// Grundy values by the plain mex, from the rules' options (the reference for the tests).
    pub(crate) fn values(rules: &Rules, bound: u64) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::new();
        for n in 0..=bound {
            let mut seen = Vec::new();
            rules.for_each_option(n, |left| {
                seen.push(left.iter().fold(0, |x, &h| x ^ g[h as usize]))
            });
            g.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn parses_codes_and_rejects_malformed_ones() {
        assert_eq!(Rules::parse("0.77").unwrap(), Rules::Octal { digits: vec![0, 7, 7] });
        assert_eq!(Rules::parse(".07").unwrap(), Rules::parse("0.070").unwrap());
        assert_eq!(Rules::parse("kayles").unwrap().code(), "0.77");
        assert_eq!(Rules::parse("4.07").unwrap().code(), "4.07");
        assert_eq!(Rules::parse("grundy").unwrap(), Rules::Grundy);
        for bad in ["0.8", "0.", "abc", "1.07", "0.7x", "", "."] {
            let err = Rules::parse(bad).unwrap_err();
            assert!(err.contains("malformed octal code"), "{bad}: {err}");
        }
        assert!(Rules::parse("0.8").unwrap_err().contains("'8'"));
    }

    #[test]
    fn options_match_the_count_and_legality() {
        for code in ["0.77", "0.07", "0.137", "4.07", "0.6", "0.3", "grundy", "0.1234567"] {
            let rules = Rules::parse(code).unwrap();
            for n in 0..40 {
                let mut count = 0;
                rules.for_each_option(n, |left| {
                    count += 1;
                    let take = n - left.iter().sum::<u64>();
                    assert!(rules.is_legal(n, take, left), "{code} {n} {left:?}");
                });
                assert_eq!(count, rules.option_count(n), "{code} {n}");
            }
        }
        let kayles = Rules::parse("0.77").unwrap();
        assert!(!kayles.is_legal(5, 3, &[2]));
        assert!(!kayles.is_legal(5, 1, &[2, 3]));
        assert!(!kayles.is_legal(5, 1, &[0, 4]));
        assert!(!Rules::Grundy.is_legal(4, 0, &[2, 2]));
    }

    #[test]
    fn kayles_values_start_as_known() {
        let g = values(&Rules::parse("0.77").unwrap(), 12);
        assert_eq!(g, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
        let g = values(&Rules::Grundy, 12);
        assert_eq!(g, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]);
    }

    fn cert(claim: &str, values: Vec<u64>, m: Option<HeapMove>) -> HeapLabelling {
        HeapLabelling { claim: claim.into(), values, winning_move: m, period: None }
    }

    /// Kayles is periodic with period 12 from heap 71 on: the checker verifies the stretch the
    /// periodicity theorem needs and then decides heaps far beyond the labels.
    #[test]
    fn a_verified_period_decides_huge_heaps() {
        let kayles = Rules::parse("kayles").unwrap();
        let period = Period { from: 71, length: 12 };
        let mut c = cert(
            CLAIM_FIRST_PLAYER_WINS,
            values(&kayles, 167),
            Some(HeapMove { heap: 0, take: 2, leave: vec![499_999, 499_999] }),
        );
        c.period = Some(period);
        let report =
            check_labelling_of(&kayles, &[1_000_000], &c, &mut Budget::new(1_048_576_000)).unwrap();
        assert!(report.periodic && report.bound == 167);
        assert_eq!(report.value, values(&kayles, 83)[71 + (1_000_000 - 71) % 12]);
        // One label short of the stretch, a wrong period, a wrong label inside it.
        let mut short = c.clone();
        short.values.pop();
        assert!(check_labelling_of(&kayles, &[1_000_000], &short, &mut Budget::new(1_048_576_000))
            .unwrap_err()
            .contains("to verify the period"));
        let mut wrong = c.clone();
        wrong.period = Some(Period { from: 60, length: 12 });
        let err =
            check_labelling_of(&kayles, &[1_000_000], &wrong, &mut Budget::new(1_048_576_000))
                .unwrap_err();
        assert!(err.contains("not periodic"), "{err}");
        let mut bad = c.clone();
        bad.values[150] ^= 1;
        assert!(check_labelling_of(&kayles, &[1_000_000], &bad, &mut Budget::new(1_048_576_000))
            .unwrap_err()
            .contains("heap 150"));
        // Absurd periods are refused, not overflowed.
        for (from, length) in [(u64::MAX, 12), (71, u64::MAX), (u64::MAX / 2, u64::MAX / 4)] {
            let mut absurd = c.clone();
            absurd.period = Some(Period { from, length });
            assert!(check_labelling_of(
                &kayles,
                &[1_000_000],
                &absurd,
                &mut Budget::new(1_048_576_000)
            )
            .unwrap_err()
            .contains("beyond heap"));
        }
        // Without a period a heap beyond the limit is refused; Grundy's game has no period.
        let mut plain = c.clone();
        plain.period = None;
        assert!(check_labelling_of(&kayles, &[1_000_000], &plain, &mut Budget::new(1_048_576_000))
            .is_err());
        assert!(check_labelling_of(
            &Rules::Grundy,
            &[1_000_000],
            &c,
            &mut Budget::new(1_048_576_000)
        )
        .unwrap_err()
        .contains("octal game"));
    }

    #[test]
    fn accepts_right_labellings_and_rejects_wrong_ones() {
        let game = HeapGame { game: "0.77".into(), heaps: vec![3, 5, 8] };
        let g = values(&Rules::parse("0.77").unwrap(), 8);
        // Values 3, 4 and 1: the position is worth 6.
        let good = HeapMove { heap: 1, take: 1, leave: vec![1, 3] };
        // 3 ^ (1 ^ 3) ^ 1 = 0.
        let ok = check_labelling(
            &game,
            &cert(CLAIM_FIRST_PLAYER_WINS, g.clone(), Some(good.clone())),
            &mut Budget::new(1 << 30),
        )
        .unwrap();
        assert_eq!(ok.value, 3 ^ 4 ^ 1);
        // Every single mutated label is caught at its own heap.
        for n in 0..g.len() {
            let mut bad = g.clone();
            bad[n] += 1;
            let err = check_labelling(
                &game,
                &cert(CLAIM_FIRST_PLAYER_WINS, bad, Some(good.clone())),
                &mut Budget::new(1 << 30),
            )
            .unwrap_err();
            assert!(err.starts_with(&format!("heap {n}:")), "{err}");
        }
        for (m, why) in [
            ((1, 1, vec![2, 2]), "leaves a position of value"),
            ((1, 3, vec![2]), "not a legal move"),
            ((7, 1, vec![1, 3]), "there is no heap 7"),
            ((1, 1, vec![0, 4]), "not a legal move"),
        ] {
            let mv = HeapMove { heap: m.0, take: m.1, leave: m.2 };
            let err = check_labelling(
                &game,
                &cert(CLAIM_FIRST_PLAYER_WINS, g.clone(), Some(mv)),
                &mut Budget::new(1 << 30),
            )
            .unwrap_err();
            assert!(err.contains(why), "{err}");
        }
        let err = check_labelling(
            &game,
            &cert(CLAIM_SECOND_PLAYER_WINS, g.clone(), None),
            &mut Budget::new(1 << 30),
        )
        .unwrap_err();
        assert!(err.contains("not 0"), "{err}");
        let err = check_labelling(
            &game,
            &cert(CLAIM_FIRST_PLAYER_WINS, g[..8].to_vec(), None),
            &mut Budget::new(1 << 30),
        )
        .unwrap_err();
        assert!(err.contains("covers heaps 0..=7"), "{err}");
        let err = check_labelling(
            &game,
            &cert(CLAIM_FIRST_PLAYER_WINS, g.clone(), Some(good)),
            &mut Budget::new(10),
        )
        .unwrap_err();
        assert!(err.contains("work limit"), "{err}");
        // A second-player win: Grundy's game with heaps 4 and 7 (values 0 and 0).
        let grundy = HeapGame { game: "grundy".into(), heaps: vec![4, 7] };
        let g = values(&Rules::Grundy, 7);
        check_labelling(
            &grundy,
            &cert(CLAIM_SECOND_PLAYER_WINS, g, None),
            &mut Budget::new(1_048_576_000),
        )
        .unwrap();
    }
}
