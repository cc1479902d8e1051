//! Theorem 4 of seed 001 (positive-DNF game to the multi-round Voronoi game), tested against the
//! exact solvers: every positive DNF over at most 4 variables with at most 3 terms, and a few
//! random ones with 5 or 6 variables. Each Voronoi value is certified and checked.

use gamecert::voronoi::check_dnf_reduction::run;

#[test]
fn theorem4_against_exact_solvers() {
    let report = run(4, 3, 7, &mut |_, _| {});
    assert!(report.failures.is_empty(), "{:#?}", report.failures);
    assert_eq!(report.agreed, report.formulas);
    assert_eq!(report.certified, report.formulas);
    assert!(report.formulas > 600);
    // Both players win some DNF games, or the comparison proves little.
    assert!(report.first_player_wins > 100 && report.second_player_wins > 100, "{report:?}");
}
