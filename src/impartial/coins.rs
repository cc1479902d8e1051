//! Coin-turning games (seed 003): Grundy values of single heads, by closed forms where the
//! theory gives one and by mex over the flip sets otherwise; two-dimensional games by the tartan
//! theorem (`g(x, y) = g1(x) (x) g2(y)`, nim product) or, for Acrostic Twins, the nim sum; the
//! winning move of the slides (a Turning Corners move, then one move in each component); and
//! the `coin-labelling` certificate that the checker verifies label by label.
//!
//! The rules themselves (and their JSON form) are the checker's: see
//! [`gamecert_certificates::impartial::coins`]. Everything here works on 0-based coin indices.
//!
//! Size limits (see [`crate::base::limits`]): `solve` keeps one label per coin, so it refuses boards
//! of more than [`MAX_SOLVED_COINS`] coins (50 million labels, 0.4 GB) before computing any;
//! labels by mex are refused when the moves they enumerate, counted first (and the count
//! stopped as soon as it passes), exceed [`MAX_MEX_WORK`] coins turned.

use crate::impartial::nim;
use gamecert_certificates::impartial::coins::{
    count_moves, for_each_move, strip_mex, CoinGame, CoinLabelling, Labels, Rule, Strip,
    CLAIM_FIRST_WINS, CLAIM_SECOND_WINS,
};

/// Moves listed per head are refused beyond this many coins turned in total (a generic rule
/// such as `subsets` without a size bound has exponentially many moves).
pub const MAX_MEX_WORK: u128 = 500_000_000;

/// The odious number of index `i`: `2i` or `2i + 1`, the one with an odd number of ones.
pub fn odious(i: u64) -> u64 {
    2 * i + u64::from(i.count_ones() & 1 == 0)
}

/// The ruler function of a 1-based position: the largest power of 2 dividing `x`.
pub fn ruler(x: u64) -> u64 {
    x & x.wrapping_neg()
}

/// Grundy values of single heads at indices `0..n` by mex over the flip sets (the definition).
pub fn strip_values_mex(strip: &Strip, n: u64) -> Result<Vec<u64>, String> {
    // Counted before any label, stopping as soon as the sum passes the limit (the count of
    // one index is cheap, but a board may have tens of millions of them).
    let mut work: u128 = 0;
    for i in 0..n {
        work = work.saturating_add(count_moves(strip, i).1);
        if work > MAX_MEX_WORK {
            return Err(format!(
                "too large to solve: the mex over all moves of heads 0 to {i} alone takes {} \
                 steps (coins turned), over the limit of {}; the board is too large for \
                 labels by mex (the named games with closed forms take any board up to {} \
                 coins)",
                crate::base::limits::grouped(work),
                crate::base::limits::grouped(MAX_MEX_WORK),
                crate::base::limits::grouped(u128::from(MAX_SOLVED_COINS))
            ));
        }
    }
    let mut values: Vec<u64> = Vec::with_capacity(n as usize);
    let mut seen = Vec::new();
    for i in 0..n {
        let (m, _) = strip_mex(strip, i, &values, &mut seen);
        values.push(m);
    }
    Ok(values)
}

/// Grundy values of single heads at indices `0..n`: closed forms for the named games with one
/// (Turning Turtles `i + 1`, Mock Turtles the odious numbers, Twins `i`, Ruler `ruler(i + 1)`),
/// the mex otherwise.
pub fn strip_values(strip: &Strip, n: u64) -> Result<Vec<u64>, String> {
    Ok(match strip {
        Strip::TurningTurtles => (0..n).map(|i| i + 1).collect(),
        Strip::MockTurtles => (0..n).map(odious).collect(),
        Strip::Twins => (0..n).collect(),
        Strip::Ruler => (0..n).map(|i| ruler(i + 1)).collect(),
        _ => return strip_values_mex(strip, n),
    })
}

/// Largest board `solve` labels (one label per coin is kept in memory; the checker's own work
/// limit is larger and counted separately).
pub const MAX_SOLVED_COINS: u64 = 50_000_000;

/// All labels of the board: per index (1-D) or per (x, y) (2-D).
pub fn labels(game: &CoinGame) -> Result<Labels, String> {
    Ok(match &game.rule {
        Rule::Strip(s) => Labels::Strip(strip_values(s, game.board[0])?),
        Rule::Product(sx, sy) => {
            let gx = strip_values(sx, game.board[0])?;
            let gy = strip_values(sy, game.board[1])?;
            Labels::Plane(
                gx.iter().map(|&a| gy.iter().map(|&b| nim::mul(a, b)).collect()).collect(),
            )
        }
        Rule::AcrosticTwins => Labels::Plane(
            (0..game.board[0]).map(|x| (0..game.board[1]).map(|y| x ^ y).collect()).collect(),
        ),
    })
}

fn label(labels: &Labels, c: &[u64]) -> u64 {
    match (labels, c) {
        (Labels::Strip(l), [i]) => l[*i as usize],
        (Labels::Plane(l), [x, y]) => l[*x as usize][*y as usize],
        _ => unreachable!("labels fit the board"),
    }
}

/// A move from the head at `i` whose other coins' values sum to `target`.
pub fn strip_move(strip: &Strip, values: &[u64], i: u64, target: u64) -> Option<Vec<u64>> {
    let mut found = None;
    for_each_move(strip, i, &mut |others| {
        if found.is_none() && others.iter().fold(0, |a, &j| a ^ values[j as usize]) == target {
            found = Some(others.to_vec());
        }
    });
    found
}

/// The slides' Turning Corners step: `(u1, u2)` with `u1 < v1`, `u2 < v2` and
/// `u1 u2 + u1 v2 + v1 u2 = u` (nim), i.e. `(u1 + v1)(u2 + v2) = u + v1 v2`: for each `u1`,
/// `u2` follows by one nim division.
pub fn turning_corners_move(v1: u64, v2: u64, u: u64) -> Option<(u64, u64)> {
    let w = u ^ nim::mul(v1, v2);
    (0..v1).find_map(|u1| {
        let u2 = nim::mul(w, nim::inverse(u1 ^ v1)?) ^ v2;
        (u2 < v2).then_some((u1, u2))
    })
}

/// A winning move (coins by index, in any order) of a position of value `value != 0`, by the
/// slides' algorithm: a head whose value `g` drops to `g + value` (nim) below it, then a move
/// from it of that value (in a product game: a Turning Corners move on the components' values,
/// then a move of each component).
pub fn winning_move(game: &CoinGame, labels: &Labels, value: u64) -> Option<Vec<Vec<u64>>> {
    let axes = match &game.rule {
        Rule::Product(sx, sy) => {
            Some((strip_values(sx, game.board[0]).ok()?, strip_values(sy, game.board[1]).ok()?))
        }
        _ => None,
    };
    for head in &game.heads {
        let g = label(labels, head);
        let target = g ^ value;
        if target >= g {
            continue;
        }
        match &game.rule {
            Rule::Strip(s) => {
                let Labels::Strip(values) = labels else {
                    return None;
                };
                let Some(mut coins) = strip_move(s, values, head[0], target) else {
                    continue;
                };
                coins.push(head[0]);
                return Some(coins.into_iter().map(|c| vec![c]).collect());
            }
            Rule::Product(sx, sy) => {
                let (values_x, values_y) = axes.as_ref()?;
                let (x, y) = (head[0], head[1]);
                let (v1, v2) = (values_x[x as usize], values_y[y as usize]);
                let Some((u1, u2)) = turning_corners_move(v1, v2, target) else {
                    continue;
                };
                let (Some(mut m1), Some(mut m2)) =
                    (strip_move(sx, values_x, x, u1), strip_move(sy, values_y, y, u2))
                else {
                    continue;
                };
                m1.push(x);
                m2.push(y);
                return Some(
                    m1.iter().flat_map(|&a| m2.iter().map(move |&b| vec![a, b])).collect(),
                );
            }
            Rule::AcrosticTwins => {
                let (x, y) = (head[0], head[1]);
                // Values are x ^ y: move to a coin of value target in the row or column.
                let other = if (target ^ y) < x {
                    vec![target ^ y, y]
                } else if (target ^ x) < y {
                    vec![x, target ^ x]
                } else {
                    continue;
                };
                return Some(vec![other, head.clone()]);
            }
        }
    }
    None
}

/// The `coin-labelling` certificate of a validated game (labels by the closed forms, the
/// tartan theorem or mex; a winning move when the first player wins).
pub fn certificate(game: &CoinGame) -> Result<CoinLabelling, String> {
    let cells = game
        .board
        .iter()
        .try_fold(1u64, |acc, &side| acc.checked_mul(side))
        .filter(|&c| c <= MAX_SOLVED_COINS)
        .ok_or_else(|| {
            format!(
                "a board of {} coins: `solve` labels at most {MAX_SOLVED_COINS} coins",
                game.board.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ")
            )
        });
    cells?;
    let labels = labels(game)?;
    let value = game.heads.iter().fold(0, |acc, h| acc ^ label(&labels, h));
    let winning_move = if value == 0 {
        None
    } else {
        let coins = winning_move(game, &labels, value)
            .ok_or("no winning move found (a bug: the position's value is not 0)")?;
        Some(
            coins
                .iter()
                .map(|c| {
                    c.iter()
                        .zip(&game.base)
                        .map(|(&i, &b)| {
                            b.checked_add(i as i64).ok_or_else(|| {
                                format!("coin {i} from base {b} is beyond the i64 coordinates")
                            })
                        })
                        .collect::<Result<Vec<i64>, String>>()
                })
                .collect::<Result<Vec<Vec<i64>>, String>>()?,
        )
    };
    Ok(CoinLabelling {
        claim: if value == 0 { CLAIM_SECOND_WINS } else { CLAIM_FIRST_WINS }.into(),
        value,
        values: labels,
        winning_move,
    })
}

/// The registry's solve method for a `coin-game` instance ([`crate::registry`]).
pub fn solve(
    instance: &gamecert_certificates::format::Instance,
    _: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    use crate::base::io::BadInput;
    let gamecert_certificates::format::Instance::CoinGame(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "a coin game"));
    };
    let game = spec.validate().map_err(BadInput)?;
    let labelling = certificate(&game).map_err(BadInput)?;
    Ok(Some(crate::base::solved::SolvedGame::new(
        gamecert_certificates::format::Certificate::CoinLabelling(labelling),
        0,
        "closed forms and the tartan theorem (labels checked by mex)",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::impartial::coins::CoinGameSpec;

    /// Grundy's game: split a heap into two unequal non-empty heaps (plain mex).
    fn grundys_game(n: usize) -> Vec<u64> {
        let mut g = vec![0u64; n];
        for h in 0..n {
            let mut seen = vec![false; h + 1];
            for a in 1..h {
                if a < h - a {
                    seen[(g[a] ^ g[h - a]) as usize] = true;
                }
            }
            g[h] = seen.iter().position(|&s| !s).unwrap() as u64;
        }
        g
    }

    #[test]
    fn closed_forms_match_the_mex() {
        let n = 200;
        for strip in [Strip::TurningTurtles, Strip::MockTurtles, Strip::Twins, Strip::Ruler] {
            assert_eq!(
                strip_values(&strip, n).unwrap(),
                strip_values_mex(&strip, n).unwrap(),
                "{strip:?}"
            );
        }
        // Mock Turtles: the odious numbers 1 2 4 7 8 11 13 14 16 19 21 (0-based).
        assert_eq!(
            &strip_values_mex(&Strip::MockTurtles, 11).unwrap(),
            &[1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21]
        );
        // Ruler (1-based): 1 2 1 4 1 2 1 8 1 2 1 4 1 2 1 16 1 2 1.
        assert_eq!(
            strip_values_mex(&Strip::Ruler, 19).unwrap(),
            [1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16, 1, 2, 1]
        );
        // Grunt at 0-based index i equals Grundy's game on a heap of i (no shift).
        let grunt = strip_values(&Strip::Grunt, 300).unwrap();
        assert_eq!(grunt, grundys_game(300));
        assert_eq!(&grunt[..21], &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]);
        // The worked example's G1: two coins at distance at most 4, 1-based: (x - 1) % 5.
        let g1 = Strip::Subsets { min: 1, max: 1, distance: Some(4) };
        let v = strip_values(&g1, 100).unwrap();
        assert!(v.iter().enumerate().all(|(i, &g)| g == i as u64 % 5));
        // With the slides' example set {9, 8, 7, 6, 5} for the head at 10 (distance 5) the
        // period would be 6, not 5.
        let g5 = Strip::Subsets { min: 1, max: 1, distance: Some(5) };
        let v5 = strip_values(&g5, 100).unwrap();
        assert!(v5.iter().enumerate().all(|(i, &g)| g == i as u64 % 6));
    }

    /// Brute-force Grundy values of the product game by mex over M1 x M2.
    fn product_mex(sx: &Strip, sy: &Strip, w: u64, h: u64) -> Vec<Vec<u64>> {
        let mut g = vec![vec![0u64; h as usize]; w as usize];
        for x in 0..w {
            for y in 0..h {
                let mut seen = std::collections::HashSet::new();
                for_each_move(sx, x, &mut |m1| {
                    let mut a: Vec<u64> = m1.to_vec();
                    a.push(x);
                    for_each_move(sy, y, &mut |m2| {
                        let mut v = 0;
                        for &p in &a {
                            for &q in m2.iter().chain([y].iter()) {
                                if (p, q) != (x, y) {
                                    v ^= g[p as usize][q as usize];
                                }
                            }
                        }
                        seen.insert(v);
                    });
                });
                g[x as usize][y as usize] = (0..).find(|v| !seen.contains(v)).unwrap();
            }
        }
        g
    }

    #[test]
    fn tartan_equals_the_product_game() {
        let strips = [
            Strip::Twins,
            Strip::Ruler,
            Strip::MockTurtles,
            Strip::TurningTurtles,
            Strip::Grunt,
            Strip::Subsets { min: 1, max: 1, distance: Some(4) },
            Strip::Offsets(vec![vec![1, 3], vec![2]]),
        ];
        for (k, sx) in strips.iter().enumerate() {
            let sy = &strips[(k + 2) % strips.len()];
            let n = 14;
            let brute = product_mex(sx, sy, n, n);
            let gx = strip_values(sx, n).unwrap();
            let gy = strip_values(sy, n).unwrap();
            for x in 0..n as usize {
                for y in 0..n as usize {
                    assert_eq!(brute[x][y], nim::mul(gx[x], gy[y]), "{sx:?} x {sy:?} ({x},{y})");
                }
            }
        }
        // Turning Corners = Twins x Twins: the nim product itself, and Rugs = Ruler x Ruler.
        let tc = product_mex(&Strip::Twins, &Strip::Twins, 20, 20);
        let rugs = product_mex(&Strip::Ruler, &Strip::Ruler, 16, 16);
        for x in 0..20u64 {
            for y in 0..20u64 {
                assert_eq!(tc[x as usize][y as usize], nim::mul(x, y));
                if x < 16 && y < 16 {
                    assert_eq!(rugs[x as usize][y as usize], nim::mul(ruler(x + 1), ruler(y + 1)));
                }
            }
        }
        // The slides' Rugs table (1-based, 8 x 8).
        let slides_rugs = [
            [1, 2, 1, 4, 1, 2, 1, 8],
            [2, 3, 2, 8, 2, 3, 2, 12],
            [1, 2, 1, 4, 1, 2, 1, 8],
            [4, 8, 4, 6, 4, 8, 4, 11],
            [1, 2, 1, 4, 1, 2, 1, 8],
            [2, 3, 2, 8, 2, 3, 2, 12],
            [1, 2, 1, 4, 1, 2, 1, 8],
            [8, 12, 8, 11, 8, 12, 8, 13],
        ];
        for (x, row) in slides_rugs.iter().enumerate() {
            assert_eq!(&rugs[x][..8], row);
        }
        // The slides' Mock Turtles x Mock Turtles table (5 x 6).
        let mt = product_mex(&Strip::MockTurtles, &Strip::MockTurtles, 5, 6);
        let slides_mt = [
            [1, 2, 4, 7, 8, 11],
            [2, 3, 8, 9, 12, 13],
            [4, 8, 6, 10, 11, 7],
            [7, 9, 10, 4, 15, 1],
            [8, 12, 11, 15, 13, 9],
        ];
        for (x, row) in slides_mt.iter().enumerate() {
            assert_eq!(&mt[x], row);
        }
    }

    #[test]
    fn acrostic_twins_is_the_nim_sum() {
        let n = 24usize;
        let mut g = vec![vec![0u64; n]; n];
        for x in 0..n {
            for y in 0..n {
                let mut seen = vec![false; x + y + 1];
                for a in 0..x {
                    seen[g[a][y] as usize] = true;
                }
                for b in 0..y {
                    seen[g[x][b] as usize] = true;
                }
                g[x][y] = seen.iter().position(|&s| !s).unwrap() as u64;
                assert_eq!(g[x][y], (x ^ y) as u64);
            }
        }
    }

    fn game(json: &str) -> CoinGame {
        serde_json::from_str::<CoinGameSpec>(json).unwrap().validate().unwrap()
    }

    #[test]
    fn the_worked_example() {
        let g = game(
            r#"{"rule": {"game": "product",
                 "x": {"game": "subsets", "min_others": 1, "max_others": 1, "max_distance": 4,
                       "base": 1},
                 "y": {"game": "ruler"}},
                "board": [100, 100], "heads": [[100, 100], [4, 1]]}"#,
        );
        let cert = certificate(&g).unwrap();
        let Labels::Plane(l) = &cert.values else { panic!() };
        assert_eq!(l[99][99], 6, "4 (x) 4");
        assert_eq!(l[3][0], 3, "3 (x) 1");
        assert_eq!(cert.value, 5);
        assert_eq!(turning_corners_move(4, 4, 3), Some((2, 2)));
        let mut mv = cert.winning_move.clone().unwrap();
        mv.sort();
        let mut slides: Vec<Vec<i64>> =
            [98, 100].iter().flat_map(|&x| (97..=100).map(move |y| vec![x, y])).collect();
        slides.sort();
        assert_eq!(mv, slides, "the slides' move {{98, 100}} x {{97, 98, 99, 100}}");
        let report = gamecert_certificates::impartial::coins::check_labelling(
            &g,
            &cert,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(report.coins, 10_000);
    }

    #[test]
    fn certificates_check_on_random_positions() {
        let mut rng = crate::base::rng::Rng::new(3);
        let rules = [
            r#"{"game": "mock-turtles"}"#,
            r#"{"game": "ruler"}"#,
            r#"{"game": "grunt"}"#,
            r#"{"game": "turning-turtles"}"#,
            r#"{"game": "offsets", "sets": [[1], [2, 5], [3, 4, 7]]}"#,
            r#"{"game": "turning-corners"}"#,
            r#"{"game": "rugs"}"#,
            r#"{"game": "acrostic-twins"}"#,
            r#"{"game": "product", "x": {"game": "grunt"}, "y": {"game": "mock-turtles"}}"#,
        ];
        for rule in rules {
            for _ in 0..8 {
                let two = rule.contains("corners")
                    || rule.contains("rugs")
                    || rule.contains("acrostic")
                    || rule.contains("product");
                let (w, h) = (rng.range(1, 24), rng.range(1, 24));
                let base = u64::from(
                    rule.contains("ruler") || rule.contains("rugs") || rule.contains("turning-t"),
                );
                let mut heads = std::collections::BTreeSet::new();
                for _ in 0..rng.below(5) {
                    heads.insert(if two {
                        format!("[{}, {}]", base + rng.below(w), base + rng.below(h))
                    } else {
                        format!("[{}]", base + rng.below(w))
                    });
                }
                let heads: Vec<String> = heads.into_iter().collect();
                let board = if two { format!("[{w}, {h}]") } else { format!("[{w}]") };
                let g = game(&format!(
                    r#"{{"rule": {rule}, "board": {board}, "heads": [{}]}}"#,
                    heads.join(", ")
                ));
                let cert = certificate(&g).unwrap();
                if let Err(why) = gamecert_certificates::impartial::coins::check_labelling(
                    &g,
                    &cert,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                ) {
                    panic!("{rule} {board} {heads:?}: {why}");
                }
            }
        }
    }
}
