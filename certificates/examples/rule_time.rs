use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::voronoi_paths::path_rule::{check_path_rule, PathRuleName, Side};
fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (n, rounds, side) = (args[0], args[1], if args[2] == 0 { Side::W } else { Side::B });
    let t = std::time::Instant::now();
    let mut b = Budget::unlimited();
    let r = check_path_rule(n, rounds, PathRuleName::U, side, &mut b);
    println!(
        "N {n} n {rounds} {side:?}: {:?} {:.2}s work {}",
        r.as_ref().map(|r| (r.states, r.leaves, r.extreme_margin)),
        t.elapsed().as_secs_f64(),
        b.used()
    );
}
