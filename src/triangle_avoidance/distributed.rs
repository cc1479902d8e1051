//! The game digraph of triangle avoidance (and its relatives) on timely dataflow: the same
//! level-by-level computation as [`crate::triangle_avoidance::external`], sharded over timely
//! workers, which may be threads of one process or processes on several hosts (timely's own
//! configuration: `-w` threads per process, `-n` processes, `-p` this process, `-h` a host
//! file of `host:port` lines).
//!
//! Each worker owns the positions whose code hashes to it ([`owner_hash`] modulo the number of
//! workers, which is how timely's exchange routes). One dataflow round per level:
//!
//! - forward: every worker expands its shard of level t (one canonical form per orbit of
//!   moves, [`Rules::distinct_children`]; for triangle and odd-cycle avoidance only the
//!   children that pass the invariant filter, [`Rules::augmented_children`], as out of core)
//!   and sends each child to its owner; at the end of the round each owner sorts and
//!   deduplicates what it received: its shard of level t + 1;
//! - backward for triangle and odd-cycle avoidance ([`Rules::is_hereditary`]), from the last
//!   level down: each worker sends the parents of its lost positions of level t + 1 (the
//!   position minus an edge, canonicalised) to their owners, on the forward dataflow, each
//!   with the edge back to the lost position in the parent's own labelling (in the code's
//!   spare top byte); what an owner receives is won, by that move, and the rest of its shard
//!   loses. One 16-byte word per arc out of a lost position crosses the network, one way;
//! - backward for the other games: for each position of its shard of level t a worker
//!   sends (child, its index, the position's index) to each child's owner, and every owner
//!   sends its labels of level t + 1 as data in the same round; a join at the owner answers
//!   each request with whether the child is lost for its player to move (so no worker answers
//!   from a table it has not finished: timely may deliver a round's data while the previous
//!   round is still being drained), routed back to the asking worker; a position is won if it
//!   wins at once or some answer says so.
//!
//! All workers run the same rounds (levels 0 to floor(n^2/4), Mantel's bound on the edges of a
//! triangle-free graph, which bounds every game here), so no round needs a global "done".
//! For triangle avoidance with a shard folder, the Winner (the start's label) is then
//! broadcast and every worker writes its shard of the Winner's strategy
//! ([`crate::triangle_avoidance::stream_certificate::Shard`]: the positions of its shard that
//! the Winner wins from, with their moves), which process 0 merges and checks.
//! Finally every worker sends its counts to worker 0, which sums them. Shards live in memory:
//! this engine spreads the work and the memory over machines; the out-of-core engine is the
//! one for a single machine's disk.

use crate::triangle_avoidance::canon::{
    automorphisms, canonical, pair_orbit_representatives, SmallGraph,
};
use crate::triangle_avoidance::rules::Rules;
use crate::triangle_avoidance::solver::LevelCounts;
use crate::triangle_avoidance::stream_certificate::{Shard, NO_MOVE};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use timely::dataflow::channels::pact::Exchange as ExchangePact;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

/// The input of codes routed to their owners (children forward, parents backward).
type CodeInput = InputHandle<usize, timely::container::CapacityContainerBuilder<Vec<u128>>>;

/// The forward dataflow, reused by the backward pass of hereditary games: its input, its
/// probe, and what arrived by round.
struct CodeRound<'a> {
    input: &'a mut CodeInput,
    probe: &'a ProbeHandle<usize>,
    received: &'a Rc<RefCell<HashMap<usize, Received>>>,
}

/// Records that arrived at this worker, by the round (timestamp) they were sent in.
type ByRound<D> = Rc<RefCell<HashMap<usize, Vec<D>>>>;

/// Positions expanded (or labelled) between two steps of the worker while it sends.
const STEP_EVERY: usize = 1024;

/// The codes received for one round, deduplicated whenever they have doubled since the last
/// time, so that a level costs about its positions, not its arcs. A word is a code (bits
/// 0..120) with, backward, the move that wins from it in its top byte ([`word`]); one word is
/// kept per code (the one with the smallest move). Held rotated, code above move, so that
/// sorting groups a code's words.
#[derive(Default)]
struct Received {
    keyed: Vec<u128>,
    settled: usize,
}

impl Received {
    fn add(&mut self, words: &[u128]) {
        self.keyed.extend(words.iter().map(|w| w.rotate_left(8)));
        if self.keyed.len() >= 2 * self.settled + (1 << 16) {
            self.settle();
        }
    }

    fn settle(&mut self) {
        self.keyed.sort_unstable();
        self.keyed.dedup_by_key(|k| *k >> 8);
        self.settled = self.keyed.len();
    }

    /// The words, one per code, in increasing order of code.
    fn into_words(mut self) -> Vec<u128> {
        self.settle();
        self.keyed.iter_mut().for_each(|k| *k = k.rotate_right(8));
        self.keyed
    }
}

/// The bits of a word that hold a code (a graph on n <= 16 nodes has at most 120 pairs).
const CODE_BITS: u128 = (1 << 120) - 1;

/// A position's move (a, b), a < b, packed as `a << 4 | b`; [`NO_MOVE`] for a lost position.
type Move = u8;

/// A code with a move in its top byte.
fn word(code: u128, mv: Move) -> u128 {
    code | u128::from(mv) << 120
}

/// The progress callback of [`solve`]: (n, steps done, estimated over all workers).
pub type Report = dyn Fn(usize, u64) + Send + Sync;

/// Worker 0's count of the positions it has expanded (forward) and labelled (backward),
/// reported times the number of workers: the hash spreads positions about evenly, so this
/// estimates the steps of all workers (about 2 t_n in all). Other workers report nothing, so
/// the display lives in the process that prints the table.
struct Steps<'a> {
    n: usize,
    report: Option<&'a Report>,
    peers: u64,
    done: u64,
}

impl Steps<'_> {
    fn add(&mut self, positions: usize) {
        self.done = self.done.saturating_add(positions as u64);
        if let Some(report) = self.report {
            report(self.n, self.done.saturating_mul(self.peers));
        }
    }

    /// Called after each position of a level's loop, with its index: reports every
    /// STEP_EVERY positions, and says when, which is also when the worker should step (let
    /// what it sent flow to its owners rather than pile up in timely's buffers).
    fn at(&mut self, i: usize) -> bool {
        let every = i % STEP_EVERY == STEP_EVERY - 1;
        if every {
            self.add(STEP_EVERY);
        }
        every
    }

    /// Called after a level's loop over `len` positions: the ones [`Steps::at`] left over.
    fn level_done(&mut self, len: usize) {
        self.add(len % STEP_EVERY);
    }
}

/// One backward round's join at a child's owner: the labels received, and the requests that
/// arrived before their child's label.
#[derive(Default)]
struct JoinTables {
    lost: HashMap<u128, bool>,
    waiting: HashMap<u128, Vec<(u32, u32)>>,
}

/// The hash that decides a code's owner (timely routes by it modulo the number of workers).
pub fn owner_hash(code: u128) -> u64 {
    let folded = (code as u64) ^ ((code >> 64) as u64).rotate_left(23);
    folded.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 11
}

/// One worker's part of the game on `n` nodes; worker 0 returns the summed outcome, the others
/// `None`. With `shards` (triangle avoidance only), each worker also writes its shard of the
/// Winner's strategy there ([`Shard`]) before the counts are summed, so that when worker 0
/// returns every shard is whole.
pub fn solve_on_worker(
    worker: &mut timely::worker::Worker,
    n: usize,
    rules: Rules,
    shards: Option<&Path>,
    report: &Report,
) -> Result<Option<LevelCounts>, String> {
    let (index, peers) = (worker.index(), worker.peers() as u64);
    let mut steps = Steps { n, report: (index == 0).then_some(report), peers, done: 0 };
    let owns = |code: u128| owner_hash(code) % peers == index as u64;
    let last_level = n * n / 4;

    // Forward: children to their owners, one round per level.
    // What arrived, by round: timely may deliver a faster worker's next round while this one
    // still drains the current one.
    let received: Rc<RefCell<HashMap<usize, Received>>> = Rc::default();
    let mut children = InputHandle::new();
    let forward_probe = ProbeHandle::new();
    {
        let sink = received.clone();
        worker.dataflow::<usize, _, _>(|scope| {
            scope
                .input_from(&mut children)
                .container::<Vec<_>>()
                .exchange(|word: &u128| owner_hash(*word & CODE_BITS))
                .inspect_core(move |event| {
                    if let Ok((stamp, codes)) = event {
                        let round = stamp.elements()[0];
                        sink.borrow_mut().entry(round).or_default().add(codes);
                    }
                })
                .probe_with(&forward_probe);
        });
    }
    let start = canonical(&SmallGraph::empty(n)).code;
    let mut levels: Vec<Vec<u128>> = vec![if owns(start) { vec![start] } else { Vec::new() }];
    let mut arcs = 0u64;
    // Triangle and odd-cycle avoidance: the forward filter and labels from losses, as out of
    // core (see external.rs); arcs are then not counted.
    let hereditary = rules.is_hereditary();
    for t in 0..=last_level {
        for (i, &code) in levels[t].iter().enumerate() {
            let g = SmallGraph::from_code(n, code);
            let kids =
                if hereditary { rules.augmented_children(&g) } else { rules.distinct_children(&g) };
            arcs += kids.len() as u64;
            for kid in kids {
                children.send(kid);
            }
            if steps.at(i) {
                worker.step();
            }
        }
        steps.level_done(levels[t].len());
        children.advance_to(t + 1);
        while forward_probe.less_than(children.time()) {
            worker.step();
        }
        levels.push(received.borrow_mut().remove(&t).unwrap_or_default().into_words());
    }
    let mut failed = None;
    let (root_wins, terminal) = if hereditary {
        let codes = CodeRound { input: &mut children, probe: &forward_probe, received: &received };
        let (moves, terminal) = backward_from_losses(worker, n, rules, &levels, codes, &mut steps);
        children.close();
        let root_wins = owns(start).then(|| moves[0][0] != NO_MOVE);
        if let Some(dir) = shards.filter(|_| rules == Rules::TriangleAvoidance) {
            // Every worker needs the Winner to know which levels list wins.
            let first_wins = broadcast_from_owner(worker, root_wins);
            let shard = Shard { dir, n, first_wins, worker: index, workers: peers as usize };
            // An error waits for the counts' round: the other workers must not hang.
            failed = levels
                .iter()
                .zip(&moves)
                .enumerate()
                .try_for_each(|(t, (codes, moves))| shard.write_level(t, codes, moves))
                .err();
        }
        (root_wins, terminal)
    } else {
        let (labels, terminal) = backward_by_join(worker, n, rules, &levels, &mut steps);
        children.close();
        (owns(start).then(|| labels[0][0]), terminal)
    };

    // Counts to worker 0: (slot, value) with slot 0 the root's label (1: A wins, 2: B wins),
    // 1 the arcs, then per level its size and its terminal count.
    let sums: Rc<RefCell<Vec<u64>>> = Rc::default();
    let mut counts = InputHandle::new();
    let count_probe = ProbeHandle::new();
    {
        let sink = sums.clone();
        worker.dataflow::<usize, _, _>(|scope| {
            scope
                .input_from(&mut counts)
                .container::<Vec<_>>()
                .exchange(|_: &(usize, u64)| 0)
                .inspect(move |&(slot, value)| {
                    let mut sums = sink.borrow_mut();
                    if sums.len() <= slot {
                        sums.resize(slot + 1, 0);
                    }
                    sums[slot] += value;
                })
                .probe_with(&count_probe);
        });
    }
    if let Some(wins) = root_wins {
        counts.send((0, if wins { 1 } else { 2 }));
    }
    counts.send((1, if hereditary { 0 } else { arcs }));
    for t in 0..=last_level {
        counts.send((2 + 2 * t, levels[t].len() as u64));
        counts.send((3 + 2 * t, terminal[t]));
    }
    counts.advance_to(1);
    while count_probe.less_than(counts.time()) {
        worker.step();
    }
    counts.close();
    if let Some(why) = failed {
        return Err(why);
    }
    if index != 0 {
        return Ok(None);
    }
    let sums = sums.borrow();
    let at = |slot: usize| sums.get(slot).copied().unwrap_or(0);
    let mut level_sizes: Vec<u64> = (0..=last_level).map(|t| at(2 + 2 * t)).collect();
    let mut terminal: Vec<u64> = (0..=last_level).map(|t| at(3 + 2 * t)).collect();
    while level_sizes.last() == Some(&0) {
        level_sizes.pop();
        terminal.pop();
    }
    let arcs = (!hereditary).then(|| at(1));
    Ok(Some(LevelCounts { first_wins: at(0) == 1, level_sizes, terminal, arcs }))
}

/// The root's label, known to its owner (`Some`), sent to every worker: one small round on a
/// dataflow of its own.
fn broadcast_from_owner(worker: &mut timely::worker::Worker, root_wins: Option<bool>) -> bool {
    use timely::dataflow::operators::vec::Broadcast;
    let heard: Rc<RefCell<Option<bool>>> = Rc::default();
    let mut input = InputHandle::new();
    let probe = ProbeHandle::new();
    {
        let sink = heard.clone();
        worker.dataflow::<usize, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .container::<Vec<_>>()
                .broadcast()
                .inspect(move |&wins: &bool| *sink.borrow_mut() = Some(wins))
                .probe_with(&probe);
        });
    }
    if let Some(wins) = root_wins {
        input.send(wins);
    }
    input.advance_to(1);
    while probe.less_than(input.time()) {
        worker.step();
    }
    input.close();
    let wins = *heard.borrow();
    wins.expect("the root's owner sends its label to every worker")
}

/// Labels every level of a hereditary game (triangle or odd-cycle avoidance) from the last
/// level down, on the forward pass's dataflow: for each lost position of level t + 1 a
/// worker sends its parents (the position minus an edge, one per orbit, canonicalised) to
/// their owners, in round `last_level + 1 + (last_level - t)`, each with the edge in the
/// parent's own labelling ([`parents_with_moves`]); an owner marks every parent it receives
/// won, by that move, and the rest of its shard of level t loses. One 16-byte word per arc out
/// of a lost position crosses the network, and no answer comes back. Returns each level's
/// winning moves ([`NO_MOVE`]: lost) and terminal counts.
fn backward_from_losses(
    worker: &mut timely::worker::Worker,
    n: usize,
    rules: Rules,
    levels: &[Vec<u128>],
    codes: CodeRound,
    steps: &mut Steps,
) -> (Vec<Vec<Move>>, Vec<u64>) {
    let CodeRound { input: parents, probe, received } = codes;
    let last_level = levels.len() - 2;
    let mut moves: Vec<Vec<Move>> = vec![Vec::new(); levels.len()];
    moves[last_level + 1] = vec![NO_MOVE; levels[last_level + 1].len()];
    let mut terminal = vec![0u64; levels.len()];
    for t in (0..=last_level).rev() {
        for (i, (&code, &mv)) in levels[t + 1].iter().zip(&moves[t + 1]).enumerate() {
            if mv == NO_MOVE {
                for parent in parents_with_moves(&SmallGraph::from_code(n, code)) {
                    parents.send(parent);
                }
            }
            if steps.at(i) {
                worker.step();
            }
        }
        steps.level_done(levels[t + 1].len());
        let round = last_level + 1 + (last_level - t);
        parents.advance_to(round + 1);
        while probe.less_than(parents.time()) {
            worker.step();
        }
        let mut won_by = vec![NO_MOVE; levels[t].len()];
        for parent in received.borrow_mut().remove(&round).unwrap_or_default().into_words() {
            let i = levels[t]
                .binary_search(&(parent & CODE_BITS))
                .expect("a parent of a listed position is a listed position (hereditary game)");
            won_by[i] = (parent >> 120) as Move;
        }
        for (i, &code) in levels[t].iter().enumerate() {
            if won_by[i] == NO_MOVE && !rules.has_move(&SmallGraph::from_code(n, code)) {
                terminal[t] += 1;
            }
        }
        moves[t] = won_by;
    }
    (moves, terminal)
}

/// The words of [`Rules::parent_codes`]: for each orbit of `g`'s edges, the canonical code of
/// `g` minus that edge with the edge in the parent's canonical labelling, the move from the
/// parent to `g` (up to isomorphism).
fn parents_with_moves(g: &SmallGraph) -> Vec<u128> {
    let edges = g.edges();
    let generators = if edges.len() > 1 { automorphisms(g) } else { Vec::new() };
    pair_orbit_representatives(g.n, &edges, &generators)
        .into_iter()
        .map(|(a, b)| {
            let mut p = *g;
            p.remove_edge(a, b);
            let canon = canonical(&p);
            let (x, y) = (canon.label[a], canon.label[b]);
            word(canon.code, x.min(y) << 4 | x.max(y))
        })
        .collect()
}

/// Labels every level of any game from the last level down by a join (see the module docs).
fn backward_by_join(
    worker: &mut timely::worker::Worker,
    n: usize,
    rules: Rules,
    levels: &[Vec<u128>],
    steps: &mut Steps,
) -> (Vec<Vec<bool>>, Vec<u64>) {
    let (index, last_level) = (worker.index(), levels.len() - 2);
    // Backward: a join at each child's owner of the requests (child, (asking worker,
    // position)) with the owner's labels (code, lost), both sent as data in the same round, so
    // no worker answers from a table it has not finished; answers go back to the asker.
    let answers: ByRound<(u32, bool)> = Rc::default();
    let mut requests = InputHandle::new();
    let mut known = InputHandle::new();
    let backward_probe = ProbeHandle::new();
    {
        let sink = answers.clone();
        worker.dataflow::<usize, _, _>(|scope| {
            let asked = scope.input_from(&mut requests);
            let labelled = scope.input_from(&mut known);
            let by_child = ExchangePact::new(|r: &(u128, (u32, u32))| owner_hash(r.0));
            let by_code = ExchangePact::new(|l: &(u128, bool)| owner_hash(l.0));
            asked
                .binary(labelled, by_child, by_code, "Answer", |_, _| {
                    // Per round: the labels received and the requests that came first. A
                    // worker sends round r + 1 only after round r is complete everywhere (its
                    // probe), so data of round r retires every earlier round's tables.
                    let mut tables: HashMap<usize, JoinTables> = HashMap::new();
                    move |asked, labelled, output| {
                        labelled.for_each_stamp(|cap, data| {
                            let round = cap.least().copied().unwrap_or_default();
                            tables.retain(|&r, _| r >= round);
                            let table = tables.entry(round).or_default();
                            let mut session = output.session(&cap);
                            for (code, is_lost) in data.flat_map(|d| d.drain(..)) {
                                for (asker, position) in
                                    table.waiting.remove(&code).unwrap_or_default()
                                {
                                    session.give((asker, position, is_lost));
                                }
                                table.lost.insert(code, is_lost);
                            }
                        });
                        asked.for_each_stamp(|cap, data| {
                            let round = cap.least().copied().unwrap_or_default();
                            tables.retain(|&r, _| r >= round);
                            let table = tables.entry(round).or_default();
                            let mut session = output.session(&cap);
                            for (child, who) in data.flat_map(|d| d.drain(..)) {
                                match table.lost.get(&child) {
                                    Some(&is_lost) => session.give((who.0, who.1, is_lost)),
                                    None => table.waiting.entry(child).or_default().push(who),
                                }
                            }
                        });
                    }
                })
                .container::<Vec<_>>()
                .exchange(|a: &(u32, u32, bool)| a.0 as u64)
                .inspect_core(move |event| {
                    if let Ok((stamp, answers)) = event {
                        let round = stamp.elements()[0];
                        let mut sink = sink.borrow_mut();
                        sink.entry(round).or_default().extend(answers.iter().map(|a| (a.1, a.2)));
                    }
                })
                .probe_with(&backward_probe);
        });
    }
    let mut labels: Vec<Vec<bool>> = vec![Vec::new(); levels.len()];
    let mut terminal = vec![0u64; levels.len()];
    for t in (0..=last_level).rev() {
        for (&code, &wins) in levels[t + 1].iter().zip(&labels[t + 1]) {
            known.send((code, !wins));
        }
        let mut wins = vec![false; levels[t].len()];
        for (i, &code) in levels[t].iter().enumerate() {
            // Before the position (the ones below end early): the index's step and report.
            if steps.at(i) {
                worker.step();
            }
            let g = SmallGraph::from_code(n, code);
            if rules.immediate_win(&g) {
                wins[i] = true;
                continue;
            }
            let moves = rules.moves(&g);
            if moves.is_empty() {
                terminal[t] += 1;
                continue;
            }
            let generators = if moves.len() > 1 { automorphisms(&g) } else { Vec::new() };
            for (a, b) in pair_orbit_representatives(n, &moves, &generators) {
                let mut h = g;
                h.add_edge(a, b);
                requests.send((canonical(&h).code, (index as u32, i as u32)));
            }
        }
        steps.level_done(levels[t].len());
        let round = last_level - t;
        requests.advance_to(round + 1);
        known.advance_to(round + 1);
        while backward_probe.less_than(requests.time()) {
            worker.step();
        }
        for (i, lost) in answers.borrow_mut().remove(&round).unwrap_or_default() {
            wins[i as usize] |= lost;
        }
        labels[t] = wins;
    }
    requests.close();
    known.close();
    (labels, terminal)
}

/// Runs the game on every n of `ns` in one timely execution with configuration `config`
/// (processes connect once); returns worker 0's outcomes with each n's wall time, `None` in a
/// process that does not host worker 0.
pub fn solve(
    config: timely::Config,
    ns: std::ops::RangeInclusive<usize>,
    rules: Rules,
    shards: Option<PathBuf>,
    report: std::sync::Arc<Report>,
) -> Result<Option<Vec<(LevelCounts, f64)>>, String> {
    let guards = timely::execute(config, move |worker| {
        let mut found = Vec::new();
        for n in ns.clone() {
            let started = std::time::Instant::now();
            if let Some(outcome) = solve_on_worker(worker, n, rules, shards.as_deref(), &*report)? {
                found.push((outcome, started.elapsed().as_secs_f64()));
            }
        }
        Ok::<_, String>((worker.index() == 0).then_some(found))
    })?;
    let mut found = None;
    for result in guards.join() {
        if let Some(outcomes) = result.map_err(|e| format!("a timely worker failed: {e}"))?? {
            found = Some(outcomes);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangle_avoidance::solver;
    use std::sync::{Arc, Mutex};

    /// With one worker the progress estimate is exact: every position is expanded once and,
    /// except the start for the games labelled from losses, labelled once; the last report
    /// of each n says so, and the reports never go down.
    #[test]
    fn one_worker_reports_every_step() {
        for rules in [Rules::TriangleAvoidance, Rules::ConnectedAvoidance] {
            let heard: Arc<Mutex<Vec<(usize, u64)>>> = Arc::default();
            let sink = heard.clone();
            let all = solve(
                timely::Config::process(1),
                2..=8,
                rules,
                None,
                Arc::new(move |n, done| sink.lock().unwrap().push((n, done))),
            )
            .unwrap()
            .unwrap();
            let heard = heard.lock().unwrap();
            for (n, (got, _)) in (2..=8).zip(all) {
                let reports: Vec<u64> =
                    heard.iter().filter(|&&(m, _)| m == n).map(|&(_, d)| d).collect();
                assert!(reports.windows(2).all(|w| w[0] <= w[1]), "{rules:?} n = {n}");
                let t: u64 = got.level_sizes.iter().sum();
                let want = 2 * t - u64::from(rules.is_hereditary());
                assert_eq!(reports.last().copied(), Some(want), "{rules:?} n = {n}");
            }
        }
    }

    /// Every game on n <= 9 nodes with three workers in one process: the in-memory solver's
    /// Winner and counts.
    #[test]
    fn three_workers_agree_with_the_in_memory_solver() {
        for rules in [
            Rules::TriangleAvoidance,
            Rules::TriangleAchievement,
            Rules::OddCycleAvoidance,
            Rules::ConnectedAvoidance,
        ] {
            let all = solve(timely::Config::process(3), 2..=9, rules, None, Arc::new(|_, _| {}))
                .unwrap()
                .unwrap();
            assert_eq!(all.len(), 8);
            for (n, (got, _)) in (2..=9).zip(all) {
                let want = solver::solve(n, rules, &mut |_, _| {});
                let row = got.outcome(n, rules, "timely", 0.0);
                let context = format!("{} n={n}", rules.name());
                assert_eq!(row.winner, want.winner, "{context}");
                assert_eq!(row.positions, want.positions, "{context}");
                assert_eq!(row.terminal, want.terminal, "{context}");
                assert_eq!(row.winners_terminal, want.winners_terminal, "{context}");
                let arcs = want.arcs.filter(|_| !rules.is_hereditary());
                assert_eq!(row.arcs, arcs, "{context}");
            }
        }
    }

    /// Three workers write their shards for every n <= 9; merged, each certificate is
    /// accepted by the checker with the in-memory solver's Winner, and lists exactly the
    /// positions the Winner wins from. A shard missing its level-1 position (which the start's
    /// moves reach) is rejected.
    #[test]
    fn merged_shards_check_and_a_missing_position_is_rejected() {
        use crate::triangle_avoidance::stream_certificate::{merge_shards, shard_folder};
        use gamecert_certificates::base::budget::Budget as Work;
        use gamecert_certificates::triangle_avoidance::stream::check_triangle_stream;
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::TriangleAvoidance;
        let all = solve(
            timely::Config::process(3),
            2..=9,
            rules,
            Some(dir.path().to_path_buf()),
            Arc::new(|_, _| {}),
        )
        .unwrap()
        .unwrap();
        for (n, (got, _)) in (2..=9).zip(all) {
            let out = dir.path().join(format!("n{n}.tastream"));
            let merged = merge_shards(dir.path(), n, &out).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            let (winner, report) =
                check_triangle_stream(n, &mut &bytes[..], &mut Work::unlimited())
                    .unwrap_or_else(|e| panic!("n = {n}: {e}"));
            assert_eq!(winner, solver::solve(n, rules, &mut |_, _| {}).winner, "n = {n}");
            assert_eq!(got.first_wins, winner == "A");
            assert_eq!(report.positions, merged.level_sizes.iter().sum::<u64>());
            assert_eq!(report.moves, merged.moves);
            if n < 4 {
                continue;
            }
            // The level-1 position (one edge) dropped from the shard that owns it.
            let folder = shard_folder(dir.path(), n);
            let owner = (0..3)
                .map(|w| folder.join(format!("shard-{w:04}-of-0003-level-001.tashard")))
                .find(|p| std::fs::metadata(p).unwrap().len() > 32)
                .unwrap();
            let mut shard = std::fs::read(&owner).unwrap();
            assert_eq!(shard[20..28], 1u64.to_le_bytes());
            shard[20..28].copy_from_slice(&0u64.to_le_bytes());
            shard.truncate(32);
            std::fs::write(&owner, shard).unwrap();
            merge_shards(dir.path(), n, &out).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            let err = check_triangle_stream(n, &mut &bytes[..], &mut Work::unlimited())
                .expect_err("a strategy without its level-1 position");
            assert!(err.contains("does not list"), "n = {n}: {err}");
        }
    }
}
