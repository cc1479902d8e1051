//! Octal (take-and-break) games and Grundy's game: nim-sequences, periodicity, certificates.
//!
//! The games and the code notation are those of the checker ([`gamecert_certificates::impartial::heaps`]):
//! `d0.d1d2...dt`, bit 1 of `dk` lets a player remove k tokens leaving nothing, bit 2 leaving one
//! heap, bit 4 leaving two non-empty heaps; `d0` is 0 or 4; `.07` is `0.07`. Kayles is `0.77`,
//! Dawson's Kayles `0.07`, Dawson's chess `0.137`. Grundy's game splits a heap into two
//! non-empty unequal heaps.
//!
//! # Nim-sequences
//!
//! [`plain`] is the reference: G(n) is the mex over every move, O(n^2) for games with splits.
//! [`Sparse`] is the rare/common ("sparse space") method of Gangolli, Plambeck and
//! Flammenkamp: for a mask m, call a value v *rare* when `v & m` has an even number of bits,
//! *common* otherwise. The rare values form a subgroup under XOR, so a common XOR needs exactly
//! one rare heap: every common value reachable by a split is found by running over the (few)
//! rare positions only. G(n) is then the least common value not found, unless some smaller rare
//! value is missing too; the rare values below it are looked for by scanning splits in order,
//! and that scan stops as soon as all are found (the common-common pairs are plentiful, so it
//! stops early unless G(n) is itself rare). The mask is chosen from the values computed so far
//! (the one leaving fewest rare positions) and reconsidered at each power of two; any mask
//! gives the right values, only the speed depends on it.
//!
//! # Periodicity
//!
//! [`periodicity`] finds the least period p, with the least preperiod e and a saltus s
//! (G(n + p) = G(n) + s for n >= e), seen over at least three periods of the computed values.
//! For an octal game (saltus 0, `d0` = 0) the Guy-Smith theorem makes it certain: if
//! G(n + p) = G(n) for e <= n < 2e + p + t, with t the largest number of tokens a move removes,
//! then for every n >= e. [`Periodicity::proven`] says whether the values computed reach that far;
//! otherwise the period is only observed. Grundy's game is not known to be periodic (it has been
//! computed very far without a period being found), and nothing here claims it is.
//! [`nim_sequence`] extends a proven period instead of computing further.
//!
//! # Size limits
//!
//! `solve` labels heaps up to the largest of the instance (at most 2^16, the checker's limit on
//! heaps), so its memory is small; what can grow is the checker's enumeration of every
//! single-heap move (quadratic for games with splits). [`check_labelling_size`] counts those
//! moves first ([`labelling_moves`]) and refuses an instance over the checker's limit instead
//! of writing a certificate the checker would refuse (`0.7777` with a heap of 65,536: 4.3 *
//! 10^9 moves).

use crate::base::io::BadInput;
use crate::base::oeis::Oeis;
use gamecert_certificates::format::Certificate;
pub use gamecert_certificates::impartial::heaps::Rules;
use gamecert_certificates::impartial::heaps::{
    HeapGame, HeapLabelling, HeapMove, CLAIM_FIRST_PLAYER_WINS, CLAIM_SECOND_PLAYER_WINS,
};
use serde::Serialize;

/// The moves of a game from one heap, grouped by what they leave.
#[derive(Clone, Debug)]
struct Moves {
    /// k such that a heap of exactly k may be removed.
    none: Vec<usize>,
    /// k such that k tokens may be removed leaving one heap.
    one: Vec<usize>,
    /// k such that k tokens may be removed leaving two heaps.
    two: Vec<usize>,
    /// The two heaps must differ (Grundy's game).
    unequal: bool,
}

impl Moves {
    fn new(rules: &Rules) -> Moves {
        match rules {
            Rules::Grundy => Moves { none: vec![], one: vec![], two: vec![0], unequal: true },
            Rules::Octal { digits } => {
                let with = |bit: u8| (0..digits.len()).filter(|&k| digits[k] & bit != 0).collect();
                Moves { none: with(1), one: with(2), two: with(4), unequal: false }
            }
        }
    }
}

/// Values marked for the heap being computed: `stamp[v] == tag` means v is reachable.
struct Marks {
    stamp: Vec<u32>,
    tag: u32,
}

impl Marks {
    fn new() -> Marks {
        Marks { stamp: vec![0; 64], tag: 0 }
    }
    fn next(&mut self) {
        self.tag = self.tag.wrapping_add(1);
        if self.tag == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.tag = 1;
        }
    }
    #[inline]
    fn mark(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.stamp.len() {
            self.stamp.resize(2 * v + 2, 0);
        }
        self.stamp[v] = self.tag;
    }
    #[inline]
    fn has(&self, v: u32) -> bool {
        self.stamp.get(v as usize) == Some(&self.tag)
    }
}

/// G(0..=n) by the plain mex over every move (the reference; quadratic with splits).
pub fn plain(rules: &Rules, n: usize) -> Vec<u32> {
    let moves = Moves::new(rules);
    let mut g: Vec<u32> = Vec::with_capacity(n + 1);
    let mut marks = Marks::new();
    for h in 0..=n {
        marks.next();
        mark_single(&moves, &g, h, &mut marks);
        for &k in &moves.two {
            if h >= k + 2 {
                let m = h - k;
                for a in 1..=m / 2 {
                    if !(moves.unequal && 2 * a == m) {
                        marks.mark(g[a] ^ g[m - a]);
                    }
                }
            }
        }
        g.push((0..).find(|&v| !marks.has(v)).unwrap_or(0));
    }
    g
}

/// Marks the values of the moves leaving zero or one heap.
fn mark_single(moves: &Moves, g: &[u32], h: usize, marks: &mut Marks) {
    for &k in &moves.none {
        if h == k {
            marks.mark(0);
        }
    }
    for &k in &moves.one {
        if h > k {
            marks.mark(g[h - k]);
        }
    }
}

/// The parity of the bits of `v` under `mask`.
#[inline]
fn parity(mask: u32, v: u32) -> u32 {
    (v & mask).count_ones() & 1
}

/// Counters of the sparse method, for the benchmark.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SparseStats {
    /// The mask in use at the end.
    pub mask: u32,
    /// Whether the classes also depend on the parity of the position (see [`Sparse`]).
    pub position_parity: bool,
    /// Positions n >= 1 in the rare class at the end.
    pub rare_positions: usize,
    /// Splits scanned to find missing rare values.
    pub pairs_scanned: u64,
    /// Heaps whose value was not in the cheap class (the scan then runs over every split).
    pub rare_heaps: u64,
}

/// The rare/common method, one heap at a time.
///
/// A position a is *rare* when `parity(G(a) & mask) ^ (flip ? a mod 2 : 0)` equals `r0`
/// (`r0` = 0 without flip; with flip, the split digits k must all have the same parity). Without flip these are the rare values of Winning Ways; with flip
/// it is the variant Flammenkamp found for games like 0.07, where the class also depends on
/// the position's parity. Either way, for heap n and a + b = n - k, a split of two positions of
/// the same class gives a value x with `parity(x & mask) = (flip ? (n - k) mod 2 : 0)`, so the
/// values of the other parity (the *cheap* class) come only from splits with a rare heap.
pub struct Sparse {
    moves: Moves,
    g: Vec<u32>,
    mask: u32,
    flip: bool,
    /// The class that is rare (0 without flip).
    r0: u32,
    flip_allowed: bool,
    rare: Vec<usize>,
    /// Histograms of the values at even and at odd positions >= 1.
    hist: [Vec<u64>; 2],
    marks: Marks,
    next_review: usize,
    pub stats: SparseStats,
}

/// Heaps computed by the plain method before a mask is chosen.
const SPARSE_START: usize = 256;

impl Sparse {
    pub fn new(rules: &Rules) -> Sparse {
        let moves = Moves::new(rules);
        let flip_allowed =
            !moves.two.is_empty() && moves.two.iter().all(|k| k % 2 == moves.two[0] % 2);
        Sparse {
            moves,
            g: Vec::new(),
            mask: 0,
            flip: false,
            r0: 0,
            flip_allowed,
            rare: Vec::new(),
            hist: [Vec::new(), Vec::new()],
            marks: Marks::new(),
            next_review: SPARSE_START,
            stats: SparseStats::default(),
        }
    }

    /// The values computed so far.
    pub fn values(&self) -> &[u32] {
        &self.g
    }

    pub fn into_values(self) -> Vec<u32> {
        self.g
    }

    #[inline]
    fn is_rare_position(&self, a: usize, v: u32) -> bool {
        parity(self.mask, v) ^ (u32::from(self.flip) & a as u32 & 1) == self.r0
    }

    /// The parity (under the mask) of the cheap values for heap `h`.
    fn cheap_parity(&self, h: usize) -> u32 {
        if self.flip {
            1 ^ ((h - self.moves.two[0]) as u32 & 1)
        } else {
            1
        }
    }

    /// Computes G(h) for the next heap h.
    pub fn step(&mut self) {
        let h = self.g.len();
        if h == self.next_review {
            self.review_mask();
            self.next_review *= 2;
        }
        self.marks.next();
        mark_single(&self.moves, &self.g, h, &mut self.marks);
        let value = if self.mask == 0 || h < self.moves.two[0] + 2 {
            self.plain_splits(h);
            (0..).find(|&v| !self.marks.has(v)).unwrap_or(0)
        } else {
            self.sparse_value(h)
        };
        self.push(value);
    }

    fn push(&mut self, value: u32) {
        let h = self.g.len();
        self.g.push(value);
        if h >= 1 {
            let hist = &mut self.hist[h & 1];
            if value as usize >= hist.len() {
                hist.resize(value as usize + 1, 0);
            }
            hist[value as usize] += 1;
            if self.mask != 0 && self.is_rare_position(h, value) {
                self.rare.push(h);
            }
        }
    }

    fn plain_splits(&mut self, h: usize) {
        let g = &self.g;
        for &k in &self.moves.two {
            if h >= k + 2 {
                let m = h - k;
                for a in 1..=m / 2 {
                    if !(self.moves.unequal && 2 * a == m) {
                        self.marks.mark(g[a] ^ g[m - a]);
                    }
                }
            }
        }
    }

    fn sparse_value(&mut self, h: usize) -> u32 {
        let cheap = self.cheap_parity(h);
        let (g, mask) = (&self.g, self.mask);
        // Every split with a rare heap: all cheap values splits can reach, and some others.
        for &k in &self.moves.two {
            if h < k + 2 {
                continue;
            }
            let m = h - k;
            for &r in &self.rare {
                if r >= m {
                    break;
                }
                if !(self.moves.unequal && 2 * r == m) {
                    self.marks.mark(g[r] ^ g[m - r]);
                }
            }
        }
        let mut candidate = 0u32;
        while parity(mask, candidate) != cheap || self.marks.has(candidate) {
            candidate += 1;
        }
        let mut missing = (0..candidate).filter(|&v| !self.marks.has(v)).count();
        if missing > 0 {
            // Only values of the other class below the candidate are missing: scan splits
            // until all are found.
            // Small heaps first, for every split digit at once (a value may come only from
            // one of them).
            let longest = h - self.moves.two[0];
            'scan: for a in 1..=longest / 2 {
                for &k in &self.moves.two {
                    if h < k + 2 * a {
                        break;
                    }
                    let m = h - k;
                    self.stats.pairs_scanned += 1;
                    let x = g[a] ^ g[m - a];
                    if x < candidate && !self.marks.has(x) && !(self.moves.unequal && 2 * a == m) {
                        self.marks.mark(x);
                        missing -= 1;
                        if missing == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        let value = (0..candidate).find(|&v| !self.marks.has(v)).unwrap_or(candidate);
        if parity(mask, value) != cheap {
            self.stats.rare_heaps += 1;
        }
        value
    }

    /// Chooses the mask (and flip) leaving the fewest rare positions among those computed
    /// (ties keep the current choice, then the smallest mask, no flip first), and rebuilds the
    /// rare list if it changed.
    fn review_mask(&mut self) {
        if self.moves.two.is_empty() {
            return;
        }
        let values = |hist: &Vec<u64>| -> Vec<(u32, u64)> {
            (0..hist.len()).filter(|&v| hist[v] > 0).map(|v| (v as u32, hist[v])).collect()
        };
        let (even, odd) = (values(&self.hist[0]), values(&self.hist[1]));
        if even.len() + odd.len() > 4096 {
            return;
        }
        let top = self.hist[0].len().max(self.hist[1].len()).max(2) as u32 - 1;
        let bits = (32 - top.leading_zeros()).min(12);
        let count = |mask: u32, flip: bool, r0: u32| -> u64 {
            let side = |list: &[(u32, u64)], odd: u32| -> u64 {
                list.iter()
                    .filter(|&&(v, _)| parity(mask, v) ^ (u32::from(flip) & odd) == r0)
                    .map(|&(_, c)| c)
                    .sum()
            };
            side(&even, 0) + side(&odd, 1)
        };
        let mut best = (
            (self.mask, self.flip, self.r0),
            if self.mask == 0 { u64::MAX } else { count(self.mask, self.flip, self.r0) },
        );
        for (flip, r0) in [(false, 0), (true, 0), (true, 1)] {
            if flip && !self.flip_allowed {
                continue;
            }
            for mask in 1..(1u32 << bits) {
                let c = count(mask, flip, r0);
                if c < best.1 {
                    best = ((mask, flip, r0), c);
                }
            }
        }
        if best.0 != (self.mask, self.flip, self.r0) {
            (self.mask, self.flip, self.r0) = best.0;
            self.rare =
                (1..self.g.len()).filter(|&n| self.is_rare_position(n, self.g[n])).collect();
        }
        self.stats.mask = self.mask;
        self.stats.position_parity = self.flip;
    }

    fn finish_stats(&mut self) {
        self.stats.mask = self.mask;
        self.stats.position_parity = self.flip;
        self.stats.rare_positions = self.rare.len();
    }
}

/// G(0..=n) by the rare/common method alone.
pub fn sparse(rules: &Rules, n: usize) -> (Vec<u32>, SparseStats) {
    let mut s = Sparse::new(rules);
    s.g.reserve(n + 1);
    while s.g.len() <= n {
        s.step();
    }
    s.finish_stats();
    let stats = s.stats.clone();
    (s.into_values(), stats)
}

/// How [`nim_sequence`] got its values.
#[derive(Clone, Debug, Serialize)]
pub struct SequenceReport {
    /// Values computed by the rare/common method (G(0..computed)).
    pub computed: usize,
    /// The proven period the rest was extended by, if any.
    pub extended: Option<Periodicity>,
    pub stats: SparseStats,
}

/// G(0..=n): the rare/common method, and for an octal game, once the Guy-Smith theorem proves
/// the period (looked for at each power of two from 1024), the period extends the rest.
pub fn nim_sequence(rules: &Rules, n: usize) -> (Vec<u32>, SequenceReport) {
    let mut s = Sparse::new(rules);
    s.g.reserve(n + 1);
    let mut next_look = 1024usize;
    let mut extended = None;
    while s.g.len() <= n {
        s.step();
        if s.g.len() == next_look && matches!(rules, Rules::Octal { .. }) {
            next_look *= 2;
            if let Some(p) = periodicity(rules, s.values()).filter(|p| p.proven) {
                extended = Some(p);
                break;
            }
        }
    }
    s.finish_stats();
    let computed = s.g.len();
    let stats = s.stats.clone();
    let mut g = s.into_values();
    if let Some(p) = &extended {
        while g.len() <= n {
            let v = g[g.len() - p.period];
            g.push(v);
        }
    }
    (g, SequenceReport { computed, extended, stats })
}

/// A period of a nim-sequence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Periodicity {
    pub preperiod: usize,
    pub period: usize,
    pub saltus: i64,
    /// The values the period was seen over: G(0..observed).
    pub observed: usize,
    /// For an octal game with saltus 0: the length 2e + 2p + t the Guy-Smith theorem needs.
    pub theorem_needs: Option<usize>,
    /// The Guy-Smith theorem applies (`observed >= theorem_needs`): periodic for ever.
    pub proven: bool,
}

/// The least period (with its least preperiod and saltus) seen over at least three periods of
/// `g`, if any.
pub fn periodicity(rules: &Rules, g: &[u32]) -> Option<Periodicity> {
    let len = g.len();
    for p in 1..=len / 3 {
        let s = g[len - 1] as i64 - g[len - 1 - p] as i64;
        let mut i = len - 1 - p;
        let mut e = 0;
        loop {
            if g[i + p] as i64 - g[i] as i64 != s {
                e = i + 1;
                break;
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        if e + 3 * p > len {
            continue;
        }
        let theorem_needs = match rules {
            Rules::Octal { digits } if s == 0 && digits[0] == 0 => {
                Some(2 * e + 2 * p + digits.len() - 1)
            }
            _ => None,
        };
        return Some(Periodicity {
            preperiod: e,
            period: p,
            saltus: s,
            observed: len,
            theorem_needs,
            proven: theorem_needs.is_some_and(|t| len >= t),
        });
    }
    None
}

impl Periodicity {
    /// The periodic value for heap n (any n, using the values in `g` from the preperiod on).
    pub fn periodic_value(&self, g: &[u32], n: usize) -> i64 {
        let (e, p) = (self.preperiod, self.period);
        if n >= e {
            let base = e + (n - e) % p;
            g[base] as i64 + ((n - e) / p) as i64 * self.saltus
        } else {
            let up = (e - n).div_ceil(p);
            g[n + up * p] as i64 - up as i64 * self.saltus
        }
    }

    /// The periodic part as in the paper's tables: K[i] for n = i (mod p), from the first full
    /// period at or after the preperiod that starts at a multiple of p.
    pub fn table(&self, g: &[u32]) -> Vec<i64> {
        (0..self.period)
            .map(|i| {
                let first = self.preperiod.div_ceil(self.period) * self.period + i;
                self.periodic_value(g, first)
            })
            .collect()
    }

    /// The heaps below the preperiod whose value is not the periodic one: (n, G(n)).
    pub fn exceptions(&self, g: &[u32]) -> Vec<(usize, u32)> {
        (0..self.preperiod.min(g.len()))
            .filter(|&n| g[n] as i64 != self.periodic_value(g, n))
            .map(|n| (n, g[n]))
            .collect()
    }
}

/// For each power of two up to the largest value: the first heap with exactly that value.
pub fn powers_of_two_first(g: &[u32]) -> Vec<(u32, usize)> {
    let top = g.iter().copied().max().unwrap_or(0);
    (0..32)
        .map(|b| 1u32 << b)
        .take_while(|&v| v <= top)
        .filter_map(|v| g.iter().position(|&x| x == v).map(|n| (v, n)))
        .collect()
}

/// Solves a `heap-game` instance: the labelling up to its largest heap and, for a first-player
/// win, a winning move. The caller has the checker check it.
pub fn solve(game: &HeapGame) -> anyhow::Result<Certificate> {
    let rules = Rules::parse(&game.game).map_err(BadInput)?;
    check_labelling_size(&rules, game)?;
    let largest = game.heaps.iter().copied().max().unwrap_or(0) as usize;
    let (g, _) = sparse(&rules, largest);
    let values: Vec<u64> = g.iter().map(|&v| u64::from(v)).collect();
    let value = game.heaps.iter().fold(0, |x, &h| x ^ values[h as usize]);
    let winning_move = if value == 0 {
        None
    } else {
        Some(winning_move(&rules, &game.heaps, &values, value).ok_or_else(|| {
            anyhow::anyhow!("internal error: no move to value 0 from a position of value {value}")
        })?)
    };
    Ok(Certificate::HeapLabelling(HeapLabelling {
        claim: if value == 0 { CLAIM_SECOND_PLAYER_WINS } else { CLAIM_FIRST_PLAYER_WINS }.into(),
        values,
        winning_move,
        period: None,
    }))
}

/// The single-heap moves the checker enumerates to verify a labelling up to the largest heap
/// of `game` (its own count, [`Rules::option_count`], summed before it checks anything).
pub fn labelling_moves(rules: &Rules, game: &HeapGame) -> u128 {
    let largest = game.heaps.iter().copied().max().unwrap_or(0);
    (0..=largest).map(|n| u128::from(rules.option_count(n))).sum()
}

/// Refuses a heap game whose labelling the checker would refuse for its size under its default
/// budget: it charges two work units a single-heap move ([`gamecert_certificates::Limits`]),
/// so at most about 10^9 moves.
/// The labels themselves are small (one per heap, at most 2^16 + 1 of them).
pub fn check_labelling_size(rules: &Rules, game: &HeapGame) -> Result<(), BadInput> {
    let moves = labelling_moves(rules, game);
    let limit = u128::from(gamecert_certificates::Limits::default().max_work / 2);
    if moves <= limit {
        return Ok(());
    }
    Err(BadInput::from(crate::base::limits::TooLarge {
        what: "checking the heap labelling".into(),
        estimate: format!(
            "{} single-heap moves up to heap {}",
            crate::base::limits::grouped(moves),
            game.heaps.iter().copied().max().unwrap_or(0)
        ),
        limit: format!("{} moves, the checker's limit", crate::base::limits::grouped(limit)),
        suggestion: "use smaller heaps (the labelling must cover the largest)".into(),
    }))
}

/// A move from `heaps` (of nim-sum `value` != 0 under the labels `values`) to value 0.
fn winning_move(rules: &Rules, heaps: &[u64], values: &[u64], value: u64) -> Option<HeapMove> {
    for (i, &h) in heaps.iter().enumerate() {
        let target = value ^ values[h as usize];
        if target >= values[h as usize] {
            continue;
        }
        let mut found = None;
        rules.for_each_option(h, |left| {
            if found.is_none() && left.iter().fold(0, |x, &l| x ^ values[l as usize]) == target {
                found = Some(left.to_vec());
            }
        });
        if let Some(leave) = found {
            return Some(HeapMove { heap: i, take: h - leave.iter().sum::<u64>(), leave });
        }
    }
    None
}

/// `gamecert table kayles|dawson-kayles|grundy|octal`: the nim-sequence and its analysis.
///
/// Only G(0..analysed) is computed and held. When the Guy-Smith theorem has proven the period
/// within them (checked at 4096 values and at every power of two after), the values past them
/// are the period's ([`SequenceTable::value`]), given as they are printed and never held: a
/// table to n = 2^26 holds a few thousand values. Without a proven period every value up to n
/// is computed.
#[derive(Clone, Debug, Serialize)]
pub struct SequenceTable {
    /// The game's name (`Kayles`, ...) or its code.
    pub name: String,
    pub code: String,
    /// G(0..=n) is printed.
    #[serde(rename = "max_heap")]
    pub n: usize,
    /// G(0..analysed), as computed (the JSON output gives them as `rows`, up to n).
    #[serde(skip)]
    pub values: Vec<u32>,
    /// G(0..analysed) was computed: at least 4096 values, for the periodicity analysis, and at
    /// most n + 1 or until the period was proven.
    pub analysed: usize,
    /// The first heap whose printed value is the proven period's rather than computed: `analysed`
    /// when n >= analysed (then the period is proven), else none.
    pub extended_from: Option<usize>,
    pub periodicity: Option<Periodicity>,
    /// K[i], the periodic value for n = i (mod p).
    pub periodic_part: Option<Vec<i64>>,
    /// (n, G(n)) below the preperiod that differ from the periodic value.
    pub exceptions: Vec<(usize, u32)>,
    /// (2^j, the first heap with that value).
    pub powers_of_two: Vec<(u32, usize)>,
    pub seconds: f64,
}

impl SequenceTable {
    /// G(h) for any h <= n: computed below `analysed`, the proven period's from there.
    pub fn value(&self, h: usize) -> u32 {
        match (self.values.get(h), &self.periodicity) {
            (Some(&v), _) => v,
            // Past the computed values only with a proven period (see `sequence_table`), whose
            // saltus is 0: the value is one of the computed period's.
            (None, Some(p)) if p.proven => p.periodic_value(&self.values, h) as u32,
            (None, _) => unreachable!("G({h}) past the {} values computed", self.values.len()),
        }
    }
}
/// The OEIS sequence that G(0), G(1), ... is term by term, where we checked one: Kayles (0.77)
/// is A002186, Dawson's chess (0.137) A002187 and Grundy's game A002188. Dawson's Kayles (0.07)
/// is A002187 shifted by one, G(n) = a(n - 1), so it is not named here
/// (docs/commands/impartial.md says so).
pub fn oeis(rules: &Rules) -> &'static [Oeis] {
    match rules.code().as_str() {
        "0.77" => &[Oeis {
            field: "g",
            column: "G(n)",
            id: "A002186",
            name: "Sprague-Grundy values of Kayles",
        }],
        "0.137" => &[Oeis {
            field: "g",
            column: "G(n)",
            id: "A002187",
            name: "Sprague-Grundy values of Dawson's chess",
        }],
        "grundy" => &[Oeis {
            field: "g",
            column: "G(n)",
            id: "A002188",
            name: "Sprague-Grundy values of Grundy's game",
        }],
        _ => &[],
    }
}

/// The fewest values a table computes, for the periodicity analysis.
pub const ANALYSED_AT_LEAST: usize = 4096;

/// Seconds Grundy's game takes to G(0..2^20) by the rare/common method, and the exponent its
/// time grows by: measured on the 2-core machine (2026-12-07): 2^20 in 15 s, 2^22 in 58 s, 2^23
/// in 130 s (beside other work: 17, 110 and 272 s), 2^24 in GRUNDY_2_24.
pub const GRUNDY_SECONDS_2_20: f64 = 15.0;
pub const GRUNDY_GROWTH: f64 = 1.3;

/// What computing G(0..=n) of a game with splits takes when no period ends it: Grundy's
/// measured time ([`GRUNDY_SECONDS_2_20`]) for every split a move allows (0.007 and 0.77 have
/// one, 0.7777 three), and 4 bytes a value.
pub fn unperiodic_cost(rules: &Rules, n: usize) -> crate::base::limits::Cost {
    let splits = Moves::new(rules).two.len().max(1) as f64;
    let scale = (n.max(1) as f64 / (1u64 << 20) as f64).powf(GRUNDY_GROWTH);
    crate::base::limits::Cost {
        seconds: GRUNDY_SECONDS_2_20 * splits * scale,
        bytes: 20_000_000 + 8 * n as u128,
    }
}

/// Computes the table for `rules` (named `name`) with G(0..=n): G(0..max(n + 1, 4096)) by the
/// rare/common method, stopping early for an octal game once the Guy-Smith theorem proves its
/// period (looked for at 4096 values and at each power of two after); the rest is the period's.
///
/// Without a period to extend by, every value is computed: for a game with splits that grows
/// faster than n, so the time it would take is checked against `allowance` (`what` names the
/// request): for Grundy's game before any work ([`unperiodic_cost`]); for an octal game, whose
/// time cannot be known before its values are (Treblecross, 0.007, takes 0.9 s to 2^14 and
/// grows 3.5 times a doubling: 2^20 about half an hour), at each power of two from 2^14 the
/// time so far is projected to n by the growth of the last doubling, and a projection past the
/// allowance is refused then (after a second or so of work, not the hours asked for).
pub fn sequence_table(
    name: &str,
    rules: &Rules,
    n: usize,
    allowance: crate::base::limits::TimeAllowance,
    what: &str,
) -> Result<SequenceTable, BadInput> {
    let started = std::time::Instant::now();
    let target = n.saturating_add(1).max(ANALYSED_AT_LEAST);
    let splits = !Moves::new(rules).two.is_empty();
    if matches!(rules, Rules::Grundy) {
        allowance.admit(what, unperiodic_cost(rules, target))?;
    }
    let mut s = Sparse::new(rules);
    let mut next_look = ANALYSED_AT_LEAST;
    let mut proven = None;
    let mut last_look = 0.0f64;
    while s.g.len() < target {
        s.step();
        if s.g.len() == next_look && matches!(rules, Rules::Octal { .. }) {
            next_look = next_look.saturating_mul(2);
            if let Some(p) = periodicity(rules, s.values()).filter(|p| p.proven && p.saltus == 0) {
                proven = Some(p);
                break;
            }
            let so_far = started.elapsed().as_secs_f64();
            if splits && s.g.len() >= 1 << 14 && last_look > 0.0 {
                let growth = (so_far / last_look).log2().clamp(1.0, 2.2);
                let projected = so_far * (target as f64 / s.g.len() as f64).powf(growth);
                let cost = crate::base::limits::Cost {
                    seconds: projected,
                    bytes: 20_000_000 + 8 * target as u128,
                };
                allowance.admit(what, cost).map_err(|refused| {
                    BadInput(format!(
                        "{} (projected from the {} values computed in {so_far:.1} s, no period \
                         proven)",
                        refused.0,
                        s.g.len()
                    ))
                })?;
            }
            last_look = so_far;
        }
    }
    let g = s.into_values();
    let seconds = started.elapsed().as_secs_f64();
    let periodicity = proven.or_else(|| periodicity(rules, &g));
    let analysed = g.len();
    let shown = &g[..=n.min(analysed - 1)];
    Ok(SequenceTable {
        name: name.to_string(),
        code: rules.code(),
        n,
        analysed,
        extended_from: (n >= analysed).then_some(analysed),
        periodic_part: periodicity.as_ref().map(|p| p.table(&g)),
        exceptions: periodicity.as_ref().map(|p| p.exceptions(&g)).unwrap_or_default(),
        // Past the computed values the period repeats values it holds: no power of two first
        // appears there.
        powers_of_two: powers_of_two_first(shown),
        periodicity,
        seconds,
        values: g,
    })
}

/// The first line of the table's text: the game, n, the row width.
pub fn sequence_head(t: &SequenceTable) -> String {
    format!(
        "{} ({}): nim-sequence G(0..={}), rows of {}\n",
        t.name,
        if t.code == "grundy" {
            "split a heap into two unequal heaps".to_string()
        } else {
            format!("octal code {}", t.code)
        },
        t.n,
        row_width(t)
    )
}

/// Values a text row holds: the period when at most 40, else 12.
fn row_width(t: &SequenceTable) -> usize {
    match &t.periodicity {
        Some(p) if p.period <= 40 => p.period,
        _ => 12,
    }
}

/// Writes the text's rows, `row: G(row) G(row + 1) ...`, for G(0..=n), one value at a time
/// (never held: n may be 2^26).
pub fn write_sequence_rows(t: &SequenceTable, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let width = row_width(t);
    // The widest value is among the computed ones: the period repeats them.
    let digits =
        t.values[..=t.n.min(t.analysed - 1)].iter().max().map_or(1, |v| v.to_string().len());
    let label = t.n.to_string().len();
    let mut row = String::new();
    for start in (0..=t.n).step_by(width) {
        row.clear();
        use std::fmt::Write as _;
        let _ = write!(row, "{start:>label$}:");
        for h in start..=t.n.min(start + width - 1) {
            let _ = write!(row, " {:>digits$}", t.value(h));
        }
        row.push('\n');
        out.write_all(row.as_bytes())?;
    }
    Ok(())
}

/// Writes the JSON output's rows, `{"g": G, "n": h}` for h in 0..=n, as the pretty JSON of
/// `"rows"` at the top level of the output (two spaces a level), one value at a time.
pub fn write_sequence_json_rows(
    t: &SequenceTable,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut row = String::new();
    out.write_all(b"[")?;
    for h in 0..=t.n {
        row.clear();
        use std::fmt::Write as _;
        let comma = if h == 0 { "" } else { "," };
        let _ =
            write!(row, "{comma}\n    {{\n      \"g\": {},\n      \"n\": {h}\n    }}", t.value(h));
        out.write_all(row.as_bytes())?;
    }
    out.write_all(b"\n  ]")
}

/// The lines after the rows: the period, the exceptional values, where powers of two first
/// appear, the values given by the period, and last a line with the time.
pub fn sequence_tail(t: &SequenceTable) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    match &t.periodicity {
        None => {
            let _ = writeln!(
                out,
                "no period seen in G(0..{}){}",
                t.analysed,
                if t.code == "grundy" {
                    " (Grundy's game is not known to be ultimately periodic)"
                } else {
                    ""
                }
            );
        }
        Some(p) => {
            let _ = writeln!(
                out,
                "period {}, preperiod {}, saltus {}: {}",
                p.period,
                p.preperiod,
                p.saltus,
                match (p.proven, p.theorem_needs) {
                    (true, Some(need)) => format!(
                        "periodic for ever by the Guy-Smith theorem (G(n + p) = G(n) holds for \
                         e <= n < 2e + p + t = {}, within the {} values computed)",
                        need - p.period,
                        p.observed
                    ),
                    (false, Some(need)) => format!(
                        "observed over {} values; the Guy-Smith theorem would need {need}",
                        p.observed
                    ),
                    (_, None) => format!("observed over {} values", p.observed),
                }
            );
            if let Some(k) = &t.periodic_part {
                let cells: Vec<String> = k.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(
                    out,
                    "G(n) = K[n mod {}] for n >= {}, K = ({})",
                    p.period,
                    p.preperiod,
                    cells.join(", ")
                );
            }
            let cells: Vec<String> =
                t.exceptions.iter().map(|(n, v)| format!("G({n}) = {v}")).collect();
            let _ = writeln!(
                out,
                "{} exceptional values{}: {}",
                t.exceptions.len(),
                t.exceptions
                    .last()
                    .map_or(String::new(), |(n, _)| format!(" (the last at n = {n})")),
                cells.join(", ")
            );
        }
    }
    if let Some(from) = t.extended_from {
        let _ = writeln!(
            out,
            "G({from}..={}) printed above are the proven period's K[n mod p], not computed one by one",
            t.n
        );
    }
    let cells: Vec<String> =
        t.powers_of_two.iter().map(|(v, n)| format!("{v} at n = {n}")).collect();
    let _ = writeln!(out, "powers of two first appear (in G(0..={})): {}", t.n, cells.join(", "));
    let _ = writeln!(out, "time: {:.3} s for G(0..{})", t.seconds, t.analysed);
    out
}

/// The table as text: [`sequence_head`], the rows, [`sequence_tail`] (all held: for a small n).
pub fn sequence_table_text(t: &SequenceTable) -> String {
    let mut rows = Vec::new();
    write_sequence_rows(t, &mut rows).expect("writing to memory");
    format!("{}{}{}", sequence_head(t), String::from_utf8_lossy(&rows), sequence_tail(t))
}

/// The registry's solve method for a `heap-game` instance ([`crate::registry`]).
pub fn solve_instance(
    instance: &gamecert_certificates::format::Instance,
    _: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    let gamecert_certificates::format::Instance::HeapGame(game) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "a heap game"));
    };
    Ok(Some(crate::base::solved::SolvedGame::new(
        solve(game)?,
        game.heaps.iter().copied().max().unwrap_or(0) + 1,
        "the rare/common nim-sequence",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sequences [`oeis`] names, and Dawson's Kayles's shift: G(0..=39 or 40) against the
    /// terms OEIS lists (A002186, A002187, A002188; A002187 again for Dawson's Kayles's
    /// G(1..=40)).
    #[test]
    fn nim_sequences_are_the_named_oeis_sequences() {
        let a002186 = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5,
            4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1,
        ];
        let a002188 = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1,
            2, 3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1,
        ];
        let a002187 = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
            4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3,
        ];
        for (code, id, terms) in [
            ("0.77", "A002186", &a002186[..]),
            ("0.137", "A002187", &a002187),
            ("grundy", "A002188", &a002188),
        ] {
            let rules = Rules::parse(code).unwrap();
            assert_eq!(oeis(&rules)[0].id, id);
            assert_eq!(nim_sequence(&rules, terms.len() - 1).0, terms, "{code}");
        }
        let dawson = Rules::parse("0.07").unwrap();
        assert!(oeis(&dawson).is_empty());
        assert_eq!(nim_sequence(&dawson, 40).0[1..], a002187);
    }

    /// The move count is the checker's own, and an instance over its limit is refused.
    #[test]
    fn labelling_moves_match_the_count_and_refuse_large_games() {
        let game = |code: &str, heaps: Vec<u64>| HeapGame { game: code.into(), heaps };
        let kayles = game("0.77", vec![3, 10]);
        let rules = Rules::parse(&kayles.game).unwrap();
        let mut listed = 0u128;
        for n in 0..=10 {
            rules.for_each_option(n, |_| listed += 1);
        }
        assert_eq!(labelling_moves(&rules, &kayles), listed);
        assert!(check_labelling_size(&rules, &kayles).is_ok());
        let big = game("0.7777", vec![65_536]);
        let rules = Rules::parse(&big.game).unwrap();
        let err = check_labelling_size(&rules, &big).unwrap_err().0;
        assert!(err.contains("4,294,901,761"), "{err}");
        assert!(check_labelling_size(&rules, &game("0.7777", vec![1, 0])).is_ok());
        assert!(check_labelling_size(&rules, &game("0.7777", vec![])).is_ok());
    }

    #[test]
    fn plain_matches_the_checkers_rules() {
        for code in ["0.77", "0.07", "0.137", "4.07", "grundy", "0.6", "0.1234567"] {
            let rules = Rules::parse(code).unwrap();
            let g = plain(&rules, 60);
            for n in 0..=60u64 {
                let mut seen = Vec::new();
                rules.for_each_option(n, |left| {
                    seen.push(left.iter().fold(0, |x, &h| x ^ g[h as usize]))
                });
                let mex = (0..).find(|v| !seen.contains(v)).unwrap();
                assert_eq!(g[n as usize], mex, "{code} at {n}");
            }
        }
    }

    #[test]
    fn sparse_agrees_with_plain_on_many_codes() {
        let mut codes: Vec<String> = [
            "0.77", "0.07", "0.137", "grundy", "4.07", "0.4", "0.04", "0.74", "0.16", "0.106",
            "0.007", "0.165", "0.356", "0.644", "0.7777", "4.4", "0.54", "0.26",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every two-digit code with a split.
        for a in 0..8 {
            for b in 0..8 {
                if (a | b) & 4 != 0 {
                    codes.push(format!("0.{a}{b}"));
                }
            }
        }
        for code in &codes {
            let rules = Rules::parse(code).unwrap();
            let n = if code.len() <= 4 { 1500 } else { 2500 };
            let reference = plain(&rules, n);
            let (fast, _) = sparse(&rules, n);
            assert_eq!(fast, reference, "{code}");
            let (auto, _) = nim_sequence(&rules, n);
            assert_eq!(auto, reference, "{code} (with periodic extension)");
        }
    }

    #[test]
    fn periodicity_of_kayles_and_the_theorem() {
        let rules = Rules::parse("0.77").unwrap();
        let g = plain(&rules, 400);
        let p = periodicity(&rules, &g).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (71, 12, 0));
        assert_eq!(p.theorem_needs, Some(2 * 71 + 2 * 12 + 2));
        assert!(p.proven);
        let short = periodicity(&rules, &g[..150]).unwrap();
        assert!(!short.proven);
        // Nim (0.333... is not finite; 0.3 is "take one"): period 2.
        let nim_like = Rules::parse("0.3").unwrap();
        let p = periodicity(&nim_like, &plain(&nim_like, 50)).unwrap();
        assert_eq!((p.preperiod, p.period), (0, 2));
        // Grundy's game: no period in the first thousands.
        assert!(periodicity(&Rules::Grundy, &plain(&Rules::Grundy, 3000)).is_none());
    }

    #[test]
    fn solve_finds_winning_moves() {
        for (code, heaps) in [
            ("0.77", vec![3, 5, 8]),
            ("0.07", vec![5, 9]),
            ("grundy", vec![10, 20, 30]),
            ("0.137", vec![40]),
        ] {
            let game = HeapGame { game: code.into(), heaps };
            let cert = solve(&game).unwrap();
            let v = gamecert_certificates::check(
                &gamecert_certificates::format::Instance::HeapGame(game),
                &cert,
                &gamecert_certificates::Limits::default(),
            );
            assert!(v.accepted(), "{code}: {}", v.reason);
        }
    }
}
