//! Nimstring by Nimstring values of strips (certificate kind `nimstring-strips`), for
//! triangulations whose dual is a path (fans, and every serpentine triangulation).
//!
//! Nimstring is Strings-and-Coins (seed 000, Section 5.4): a coin on each triangle, a string
//! for each edge, tied to the coins of its triangles and, for a hull edge, to the ground.
//! When the dual is a path, every position is a row of independent *strips*: maximal runs of
//! uncaptured coins joined by uncut strings between neighbours, each coin with its count of
//! ground strings (at most 3). A strip is written as its ground counts in order, e.g. `2112`
//! for the fan of four triangles, with a `*` before or after when that end coin hangs on a
//! *long chain* (three or more coins of two strings each, see below).
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "nimstring-strips",
//!  "winner": "first", "strips": [{"strip": "2112", "value": 1}, {"strip": "22", "value": 0},
//!  ...]}
//! ```
//!
//! The checker builds the instance's strip from the triangulation (it must be Nimstring, normal
//! play, on a triangulation whose dual is a path), and verifies every listed label: the strip
//! must be canonical (every coin on at least two strings, no long chain left in it, written in
//! the smaller of its two orientations) and its value the mex, over its cuts that are not
//! loony, of the nim sum of the labels of the strips left after the captures. Every strip such
//! an option leaves must be listed. The start's value is the nim sum of its strips' labels, and
//! the first player wins iff it is not 0.
//!
//! The rules of a cut (Berlekamp's theory, taken on faith as [`crate::TRUSTED_THEOREMS`]'s
//! Nimstring entry and tested against the exact compound-move solver on every position of
//! every fan with at most 10 triangles and of sums of two fans): a coin on one string is
//! *capturable*. A position is *loony* when a capturable coin's string leads to a coin of two
//! strings whose other string goes to the ground, to a long chain, or to a coin of at least two
//! strings: the player to move then wins, whatever is added, so a cut that leaves one is never
//! an option. Otherwise capturable coins are captured (this changes no outcome). A run of three
//! or more two-string coins (a long chain) can only be cut loonily, so it is never cut: the
//! strip splits there into pieces whose end coins keep a `*` string, which is never cut and is
//! loony once it is the coin's last.

use crate::base::budget::Budget;
use crate::triangulations::marking::{MarkingGame, MarkingSpec};
use crate::verdict::{reject, Claim, Theorem, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The most coins a strip may have.
pub const MAX_STRIP_COINS: usize = 100_000;

/// A strip: ground-string counts of its coins in order, and whether each end coin hangs on a
/// long chain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Strip {
    pub left_chain: bool,
    pub grounds: Vec<u8>,
    pub right_chain: bool,
}

/// What a cut leaves of one strip: the canonical strips after the captures, or a loony
/// position (`None`).
pub type Resolved = Option<Vec<Strip>>;

impl Strip {
    /// Reads `*2110*`-style text.
    pub fn parse(text: &str) -> Result<Strip, String> {
        let left_chain = text.starts_with('*');
        let rest = text.strip_prefix('*').unwrap_or(text);
        let right_chain = rest.ends_with('*');
        let body = rest.strip_suffix('*').unwrap_or(rest);
        ensure!(!body.is_empty(), "strip '{}': no coins", crate::base::text::printable(text));
        ensure!(
            body.len() <= MAX_STRIP_COINS,
            "a strip of {} coins: at most {MAX_STRIP_COINS}",
            body.len()
        );
        let mut grounds = Vec::with_capacity(body.len());
        for c in body.chars() {
            match c {
                '0'..='3' => grounds.push(c as u8 - b'0'),
                _ => fail!(
                    "strip '{}': a coin's ground count is a digit 0 to 3",
                    crate::base::text::printable(text)
                ),
            }
        }
        Ok(Strip { left_chain, grounds, right_chain })
    }

    /// The coin's number of strings.
    pub fn degree(&self, i: usize) -> usize {
        let last = self.grounds.len() - 1;
        usize::from(self.grounds[i])
            + usize::from(i > 0)
            + usize::from(i < last)
            + usize::from(i == 0 && self.left_chain)
            + usize::from(i == last && self.right_chain)
    }

    /// The same strip read from the other end.
    pub fn reversed(&self) -> Strip {
        let mut grounds = self.grounds.clone();
        grounds.reverse();
        Strip { left_chain: self.right_chain, grounds, right_chain: self.left_chain }
    }

    /// The smaller of the two orientations (the form labels are listed and looked up in).
    pub fn oriented(self) -> Strip {
        let r = self.reversed();
        if r < self {
            r
        } else {
            self
        }
    }
}

impl std::fmt::Display for Strip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits: String = self.grounds.iter().map(|&g| char::from(b'0' + g)).collect();
        let star = |b: bool| if b { "*" } else { "" };
        write!(f, "{}{digits}{}", star(self.left_chain), star(self.right_chain))
    }
}

/// Captures the capturable coins of `strip` (any shape, an empty one included), or finds it
/// loony; the rest split at long chains into canonical strips.
pub fn resolve(mut strip: Strip, budget: &mut Budget) -> Result<Resolved, String> {
    loop {
        budget.charge(1 + strip.grounds.len() as u64, "capturing coins")?;
        let m = strip.grounds.len();
        if m == 0 {
            return Ok(Some(Vec::new()));
        }
        if strip.degree(m - 1) == 1 && strip.degree(0) != 1 {
            strip = strip.reversed();
        }
        if m == 1 && strip.degree(0) == 0 {
            return Ok(Some(Vec::new())); // a coin already captured
        }
        if strip.degree(0) != 1 {
            return normalize(strip, budget).map(Some);
        }
        // The capturable coin is the first; its one string:
        if strip.left_chain {
            return Ok(None); // its last string is a long chain
        }
        if m == 1 {
            return Ok(Some(Vec::new())); // tied to the ground: captured
        }
        match strip.degree(1) {
            0 => return Err("a coin without strings next to another".into()),
            1 => return Ok(Some(Vec::new())), // a pair: one cut captures both
            2 if m == 2 => return Ok(None),   // the neighbour's other string: ground or chain
            2 if m == 3 && strip.degree(2) == 1 => return Ok(Some(Vec::new())), // closed three
            2 => return Ok(None),
            _ => {
                strip.grounds.remove(0);
            }
        }
    }
}

/// Splits a strip whose coins all have at least two strings at its long chains (a run of at
/// least three two-string coins, or any run of two-string coins that reaches a `*`).
pub fn normalize(strip: Strip, budget: &mut Budget) -> Result<Vec<Strip>, String> {
    let m = strip.grounds.len() as u64;
    budget.charge(1 + 2 * m, "splitting at long chains")?;
    let degrees: Vec<usize> = (0..strip.grounds.len()).map(|i| strip.degree(i)).collect();
    ensure!(degrees.iter().all(|&d| d >= 2), "strip {strip}: a coin on fewer than two strings");
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut star = strip.left_chain;
    let mut i = 0;
    let n = degrees.len();
    while i < n {
        if degrees[i] != 2 {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < n && degrees[j] == 2 {
            j += 1;
        }
        let long = j - i >= 3 || (i == 0 && strip.left_chain) || (j == n && strip.right_chain);
        if long {
            if i > start {
                pieces.push(Strip {
                    left_chain: star,
                    grounds: strip.grounds[start..i].to_vec(),
                    right_chain: true,
                });
            }
            start = j;
            star = true;
        }
        i = j;
    }
    if start == 0 {
        return Ok(vec![strip]);
    }
    if start < n {
        pieces.push(Strip {
            left_chain: star,
            grounds: strip.grounds[start..].to_vec(),
            right_chain: strip.right_chain,
        });
    }
    // A piece's end coin traded its link for a `*`: its degree is unchanged, but a two-string
    // end coin next to a `*` belongs to the chain, so split again.
    let mut out = Vec::new();
    for piece in pieces {
        out.extend(normalize(piece, budget)?);
    }
    Ok(out)
}

/// The cuts of a canonical strip (ground strings, then links), each with what it leaves.
pub fn options(strip: &Strip, budget: &mut Budget) -> Result<Vec<Resolved>, String> {
    let m = strip.grounds.len();
    let mut out = Vec::new();
    for i in 0..m {
        if strip.grounds[i] > 0 {
            let mut cut = strip.clone();
            cut.grounds[i] -= 1;
            out.push(resolve(cut, budget)?);
        }
    }
    for i in 1..m {
        let left = Strip {
            left_chain: strip.left_chain,
            grounds: strip.grounds[..i].to_vec(),
            right_chain: false,
        };
        let right = Strip {
            left_chain: false,
            grounds: strip.grounds[i..].to_vec(),
            right_chain: strip.right_chain,
        };
        out.push(match (resolve(left, budget)?, resolve(right, budget)?) {
            (Some(mut a), Some(b)) => {
                a.extend(b);
                Some(a)
            }
            _ => None,
        });
    }
    Ok(out)
}

/// The strip of Strings-and-Coins on a triangulation whose dual is a path: its coins in path
/// order, each with its number of hull edges.
pub fn strip_of(spec: &MarkingSpec, budget: &mut Budget) -> Result<Strip, String> {
    let tri = spec.triangulation.validate(budget)?;
    let t = tri.triangles.len();
    budget.charge_each(t as u64, 8, "building the dual")?;
    let mut owners: HashMap<[usize; 2], Vec<usize>> = HashMap::new();
    for (k, tr) in tri.triangles.iter().enumerate() {
        for (a, b) in [(tr[0], tr[1]), (tr[1], tr[2]), (tr[2], tr[0])] {
            owners.entry([a.min(b), a.max(b)]).or_default().push(k);
        }
    }
    let mut neighbours = vec![Vec::new(); t];
    let mut grounds = vec![0u8; t];
    for tris in owners.values() {
        match tris[..] {
            [k] => grounds[k] += 1,
            [a, b] => {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
            _ => fail!("an edge of more than two triangles"),
        }
    }
    ensure!(
        neighbours.iter().all(|n| n.len() <= 2) && owners.len() == 2 * t + 1,
        "the dual of the triangulation is not a path (it has an inner point or an inner \
         triangle): strips need a serpentine triangulation, such as a fan"
    );
    // Walk the path from an end (the dual of a triangulation is connected).
    let mut order = vec![neighbours.iter().position(|n| n.len() <= 1).unwrap_or(0)];
    while order.len() < t {
        let last = order[order.len() - 1];
        let previous = if order.len() >= 2 { Some(order[order.len() - 2]) } else { None };
        match neighbours[last].iter().find(|&&k| Some(k) != previous) {
            Some(&next) => order.push(next),
            None => fail!("the dual of the triangulation is not connected"),
        }
    }
    Ok(Strip {
        left_chain: false,
        grounds: order.iter().map(|&k| grounds[k]).collect(),
        right_chain: false,
    })
}

/// One label of a `nimstring-strips` certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StripValue {
    pub strip: String,
    pub value: u64,
}

/// Certificate kind `nimstring-strips`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NimstringStrips {
    /// "first" or "second".
    pub winner: String,
    pub strips: Vec<StripValue>,
}

impl Claim for NimstringStrips {
    fn claim(&self) -> String {
        format!("the {} player wins Nimstring", self.winner)
    }
}

/// What the check found.
pub struct StripsReport {
    pub strips: u64,
    pub options: u64,
    /// The Nimstring value of the start.
    pub value: u64,
    pub coins: usize,
}

/// The nim sum of the labels of `pieces`, each listed.
fn sum_of(pieces: Vec<Strip>, labels: &HashMap<Strip, u64>, of: &Strip) -> Result<u64, String> {
    let mut x = 0;
    for p in pieces {
        let p = p.oriented();
        match labels.get(&p) {
            Some(v) => x ^= v,
            None => fail!("strip {p} (left by a cut of {of}) has no label"),
        }
    }
    Ok(x)
}

/// Checks a `nimstring-strips` certificate against a `marking-game` instance.
pub fn check_nimstring_strips(
    spec: &MarkingSpec,
    cert: &NimstringStrips,
    budget: &mut Budget,
) -> Result<StripsReport, String> {
    ensure!(spec.game == MarkingGame::Nimstring, "strips decide Nimstring (normal play) only");
    let first = crate::base::winner_is_first(&cert.winner)?;
    let start = strip_of(spec, budget)?;
    let mut labels = HashMap::new();
    let mut listed = Vec::with_capacity(cert.strips.len().min(1 << 20));
    for (k, entry) in cert.strips.iter().enumerate() {
        budget.charge(4 + 2 * entry.strip.len() as u64, "reading the strip labels")?;
        let strip = Strip::parse(&entry.strip).map_err(|why| format!("strip {k}: {why}"))?;
        ensure!(entry.value <= 1 << 32, "strip {k}: value {} is too large", entry.value);
        ensure!(
            strip == strip.clone().oriented(),
            "strip {k} ({strip}): list it in its smaller orientation, {}",
            strip.clone().oriented()
        );
        ensure!(
            normalize(strip.clone(), budget).ok() == Some(vec![strip.clone()]),
            "strip {k} ({strip}) is not canonical (a coin on fewer than two strings, or a long \
             chain in it)"
        );
        ensure!(labels.insert(strip.clone(), entry.value).is_none(), "strip {k} is listed twice");
        listed.push((strip, entry.value));
    }
    // In the listed order, so that the first fault named does not depend on hashing.
    let mut moves = 0u64;
    for (strip, value) in &listed {
        let (strip, value) = (strip, *value);
        let mut seen = Vec::new();
        for option in options(strip, budget)?.into_iter().flatten() {
            moves += 1;
            let x = sum_of(option, &labels, strip)?;
            ensure!(x != value, "strip {strip}: a cut leaves value {x}, its own label");
            seen.push(x);
        }
        budget.charge_each(seen.len() as u64, 2, "taking the mex")?;
        seen.sort_unstable();
        seen.dedup();
        let mex = seen.iter().enumerate().take_while(|&(k, &v)| k as u64 == v).count() as u64;
        ensure!(
            mex == value,
            "strip {strip}: labelled {value}, but the mex of its options is {mex}"
        );
    }
    let value = match resolve(start.clone(), budget)? {
        Some(pieces) => sum_of(pieces, &labels, &start)?,
        None => fail!("the start is loony"),
    };
    ensure!(
        (value != 0) == first,
        "the start has Nimstring value {value}: the {} player wins",
        if value != 0 { "first" } else { "second" }
    );
    Ok(StripsReport {
        strips: labels.len() as u64,
        options: moves,
        value,
        coins: start.grounds.len(),
    })
}

/// Registry entry for `nimstring-strips`.
pub fn strips_verdict(spec: &MarkingSpec, cert: &NimstringStrips, budget: &mut Budget) -> Verdict {
    let claim = format!("the {} player wins {}", cert.winner, spec.game);
    match check_nimstring_strips(spec, cert, budget) {
        Ok(r) => {
            let reason = format!(
                "{} coins in a row; every one of the {} labels is the mex over its non-loony cuts \
                 ({}); the start's Nimstring value is {}",
                r.coins,
                r.strips,
                crate::base::text::counted(r.options, "option"),
                r.value
            );
            let work = Work { positions: Some(r.strips), ..Work::default() };
            Verdict::accept(claim, reason, work, &[Theorem::NimstringValues])
        }
        Err(why) => reject(claim, why, Work::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(text: &str) -> Option<Vec<String>> {
        resolve(Strip::parse(text).unwrap(), &mut Budget::unlimited())
            .unwrap()
            .map(|v| v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn captures_loony_positions_and_long_chains() {
        assert_eq!(resolved("1"), Some(vec![])); // a coin on the ground
        assert_eq!(resolved("00"), Some(vec![])); // a pair
        assert_eq!(resolved("000"), Some(vec![])); // closed three
        assert_eq!(resolved("01"), None); // half-hearted handout of a 2-chain
        assert_eq!(resolved("0001"), None);
        assert_eq!(resolved("012"), Some(vec!["12".into()])); // capture next to a joint
        assert_eq!(resolved("*0"), None);
        assert_eq!(resolved("21000112"), Some(vec!["21*".into(), "*112".into()]));
        assert_eq!(resolved("2101"), Some(vec!["2101".into()])); // 0 1 0-chains stay
        assert_eq!(resolved("2*"), Some(vec!["2*".into()]));
        assert_eq!(resolved("1*"), Some(vec![])); // a two-string coin joins the chain
        assert_eq!(resolved("2100*"), Some(vec!["21*".into()]));
        assert_eq!(resolved("21001*"), Some(vec!["21001*".into()]));
        assert_eq!(resolved("101"), Some(vec![])); // a long chain from ground to ground
    }

    #[test]
    fn text_round_trips_and_refuses_bad_digits() {
        for t in ["2112", "*101*", "3", "*2"] {
            assert_eq!(Strip::parse(t).unwrap().to_string(), t);
        }
        assert!(Strip::parse("24").is_err() && Strip::parse("**").is_err());
        assert!(Strip::parse("2a").is_err());
    }
}
