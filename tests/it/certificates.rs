//! Certificates of every kind are accepted when right and rejected, with a reason, when broken.
//!
//! Each test solves an instance, checks that the checker accepts the certificate, then mutates
//! it many ways. Every mutation here changes the certificate's meaning, so every one must be
//! rejected; the reason must name what failed.

use gamecert::voronoi::one_round::{solve, Method};
use gamecert_certificates::format::{
    Certificate, Instance, Refutation, RefutationMethod, Witness, CLAIM_BLACK_CANNOT_WIN,
};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::edgelist::parse_edge_list;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Limits, Verdict};
use gamecert_reductions::sat_voronoi::{forward, reduce};

fn figure3() -> Cnf {
    Cnf { num_vars: 4, clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]] }
}

fn contradiction() -> Cnf {
    Cnf { num_vars: 2, clauses: vec![vec![1], vec![-1, 2], vec![-2]] }
}

fn all_eight() -> Cnf {
    let mut cnf = Cnf::new(3);
    for bits in 0..8 {
        cnf.add_clause((1..=3).map(|v| if bits >> (v - 1) & 1 == 1 { v } else { -v }).collect());
    }
    cnf
}

fn instance(formula: &Cnf, problem: SatVoronoi) -> Instance {
    Instance::VoronoiOneRound(reduce(formula, problem).unwrap().instance)
}

fn verdict(instance: &Instance, certificate: &Certificate) -> Verdict {
    check(instance, certificate, &Limits::default())
}

fn assert_rejected(instance: &Instance, certificate: &Certificate, reason: &str, what: &str) {
    let v = verdict(instance, certificate);
    assert!(!v.accepted(), "{what}: accepted, but should not be");
    assert!(v.reason.contains(reason), "{what}: reason {:?} does not mention {reason:?}", v.reason);
}

fn witness_of(certificate: &Certificate) -> Witness {
    match certificate {
        Certificate::Witness(w) => w.clone(),
        other => panic!("expected a witness, got {}", other.kind()),
    }
}

fn refutation_of(certificate: &Certificate) -> Refutation {
    match certificate {
        Certificate::Refutation(r) => r.clone(),
        other => panic!("expected a refutation, got {}", other.kind()),
    }
}

#[test]
fn theorem3_arithmetic_on_figure3() {
    // Every one-literal-per-variable placement: B wins (5n + m against 5n + m - 1) iff the
    // assignment satisfies the formula, in both problems.
    let f = figure3();
    for problem in [SatVoronoi::Problem1, SatVoronoi::Problem2] {
        let inst = instance(&f, problem);
        let mut satisfying = 0;
        for bits in 0u32..16 {
            let a: Vec<bool> = (0..4).map(|i| bits >> i & 1 == 1).collect();
            let cert = Certificate::Witness(Witness {
                claim: "black-wins".into(),
                placement: forward(&f, &a),
            });
            let v = verdict(&inst, &cert);
            assert_eq!(v.accepted(), f.is_satisfied_by(&a), "{a:?}: {}", v.reason);
            if v.accepted() {
                satisfying += 1;
                assert_eq!(v.work.black_score, Some(5 * 4 + 2));
                assert_eq!(v.work.white_score, Some(5 * 4 + 2 - 1));
            } else {
                // An unsatisfied clause vertex goes to W: W wins.
                assert!(v.work.white_score > v.work.black_score, "{}", v.reason);
            }
        }
        assert_eq!(satisfying, 12);
    }
}

#[test]
fn witness_mutations_are_rejected() {
    for problem in [SatVoronoi::Problem1, SatVoronoi::Problem2] {
        let inst = instance(&figure3(), problem);
        let solved = solve(&inst, Method::Auto).unwrap();
        assert!(solved.verdict.accepted());
        let good = witness_of(&solved.certificate);
        let spec = inst.one_round().unwrap();
        let mutate = |f: &dyn Fn(&mut Witness)| {
            let mut w = good.clone();
            f(&mut w);
            Certificate::Witness(w)
        };
        for k in 0..good.placement.len() {
            for white in &spec.white {
                let c = mutate(&|w| w.placement[k] = white.clone());
                assert_rejected(&inst, &c, "in W's set S", "a vertex of S");
            }
            let c = mutate(&|w| w.placement[k] = "nowhere".into());
            assert_rejected(&inst, &c, "unknown vertex 'nowhere'", "an unknown vertex");
            let c = mutate(&|w| {
                let other = (k + 1) % w.placement.len();
                w.placement[k] = w.placement[other].clone();
            });
            assert_rejected(&inst, &c, "placed twice", "a repeated vertex");
            let c = mutate(&|w| {
                w.placement.remove(k);
            });
            assert_rejected(&inst, &c, "must place exactly 4", "one vertex too few");
        }
        let c = mutate(&|w| w.placement.push("c1".into()));
        assert_rejected(&inst, &c, "must place exactly 4", "one vertex too many");
        // A placement of the right size that does not win: all negative literals but x1+.
        let c =
            mutate(&|w| w.placement = vec!["x1+".into(), "x2-".into(), "x3-".into(), "x4-".into()]);
        assert_rejected(&inst, &c, "does not win", "a losing placement");
        let c = mutate(&|w| w.claim = CLAIM_BLACK_CANNOT_WIN.into());
        assert_rejected(&inst, &c, "can only claim", "a wrong claim");
        // A witness for an instance it does not belong to.
        let star = Instance::VoronoiOneRound(
            parse_edge_list("white c\nblack 4\nc l1\nc l2\nc l3\nc l4\nc l5\n").unwrap(),
        );
        assert_rejected(&star, &solved.certificate, "unknown vertex", "another instance");
    }
}

/// Mutations of an LRAT proof that must each break it: every line-prefix that stops before the
/// empty clause, the first hint of each step replaced by a missing id, every step stripped of
/// its hints, a token of each line replaced by garbage, deletions of missing ids.
fn lrat_mutations(proof: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = proof.lines().collect();
    let end = lines
        .iter()
        .position(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() >= 2 && t[1] == "0"
        })
        .expect("the proof adds the empty clause");
    let mut out = Vec::new();
    let join = |ls: &[String]| ls.join("\n") + "\n";
    let owned: Vec<String> = lines[..=end].iter().map(|s| s.to_string()).collect();
    for cut in 0..=end {
        out.push((format!("truncated before line {}", cut + 1), join(&owned[..cut])));
    }
    let step = (end / 40).max(1);
    for k in (0..=end).step_by(step) {
        let tokens: Vec<&str> = owned[k].split_whitespace().collect();
        if tokens.get(1) == Some(&"d") {
            let mut t = tokens.clone();
            t[2] = "999999999";
            let mut ls = owned.clone();
            ls[k] = t.join(" ");
            out.push((format!("line {}: deletes a missing clause", k + 1), join(&ls)));
            continue;
        }
        let zero = tokens.iter().skip(1).position(|t| *t == "0").unwrap() + 1;
        if zero + 1 < tokens.len() - 1 {
            let mut t = tokens.clone();
            t[zero + 1] = "999999999";
            let mut ls = owned.clone();
            ls[k] = t.join(" ");
            out.push((format!("line {}: first hint missing", k + 1), join(&ls)));
            let mut t: Vec<&str> = tokens[..=zero].to_vec();
            t.push("0");
            let mut ls = owned.clone();
            ls[k] = t.join(" ");
            out.push((format!("line {}: no hints", k + 1), join(&ls)));
        }
        let mut t = tokens.clone();
        t[0] = "x";
        let mut ls = owned.clone();
        ls[k] = t.join(" ");
        out.push((format!("line {}: garbage id", k + 1), join(&ls)));
    }
    out
}

fn check_lrat_mutations(inst: &Instance, good: &Refutation) {
    let mutations = lrat_mutations(&good.lrat);
    assert!(mutations.len() >= 4, "only {} mutations", mutations.len());
    for (what, proof) in mutations {
        let mut r = good.clone();
        r.lrat = proof;
        let v = verdict(inst, &Certificate::Refutation(r));
        assert!(!v.accepted(), "{what}: accepted");
        assert!(v.reason.contains("LRAT"), "{what}: {}", v.reason);
    }
}

#[test]
fn direct_refutation_mutations_are_rejected() {
    let inst = instance(&contradiction(), SatVoronoi::Problem1);
    let solved = solve(&inst, Method::Direct).unwrap();
    let good = refutation_of(&solved.certificate);
    assert_eq!(good.method, RefutationMethod::Direct);
    assert!(verdict(&inst, &solved.certificate).accepted());
    check_lrat_mutations(&inst, &good);
    // The proof of a different CNF: the star's refutation presented for this instance.
    let star = Instance::VoronoiOneRound(
        parse_edge_list("white c\nblack 2\nc l1\nc l2\nc l3\nc l4\nc l5\n").unwrap(),
    );
    let other = solve(&star, Method::Direct).unwrap();
    assert!(other.verdict.accepted());
    assert_rejected(&inst, &other.certificate, "LRAT", "a proof of another CNF");
    assert_rejected(&star, &solved.certificate, "LRAT", "a proof of another CNF");
    let mut wrong = good.clone();
    wrong.claim = "black-wins".into();
    assert_rejected(&inst, &Certificate::Refutation(wrong), "can only claim", "a wrong claim");
}

#[test]
fn reduction_refutation_mutations_are_rejected() {
    for (formula, problem) in
        [(contradiction(), SatVoronoi::Problem1), (all_eight(), SatVoronoi::Problem2)]
    {
        let inst = instance(&formula, problem);
        let solved = solve(&inst, Method::Auto).unwrap();
        let good = refutation_of(&solved.certificate);
        assert_eq!(solved.verdict.trusted.len(), 1);
        check_lrat_mutations(&inst, &good);
        let RefutationMethod::Reduction { formula: carried, reduction } = &good.method else {
            panic!("expected a reduction refutation");
        };
        let with_formula = |f: Cnf, r: SatVoronoi| {
            let mut m = good.clone();
            m.method = RefutationMethod::Reduction { reduction: r, formula: f };
            Certificate::Refutation(m)
        };
        let mut dropped = carried.clone();
        dropped.clauses.pop();
        assert_rejected(&inst, &with_formula(dropped, *reduction), "not the", "a dropped clause");
        let mut flipped = carried.clone();
        flipped.clauses[0][0] = -flipped.clauses[0][0];
        assert_rejected(&inst, &with_formula(flipped, *reduction), "not the", "a flipped literal");
        let mut extra = carried.clone();
        extra.num_vars += 1;
        extra.clauses.push(vec![extra.num_vars as i32]);
        assert_rejected(&inst, &with_formula(extra, *reduction), "not the", "an extra variable");
        let other = match reduction {
            SatVoronoi::Problem1 => SatVoronoi::Problem2,
            SatVoronoi::Problem2 => SatVoronoi::Problem1,
        };
        assert_rejected(
            &inst,
            &with_formula(carried.clone(), other),
            "W's set",
            "the other problem",
        );
        let mut wide = carried.clone();
        wide.clauses[0] = vec![1, 2, 3, 4];
        assert_rejected(
            &inst,
            &with_formula(wide, *reduction),
            "restricted 3-SAT",
            "a wide clause",
        );
    }
    // A proof of a different CNF: the all-eight refutation for the contradiction's instance.
    let inst = instance(&contradiction(), SatVoronoi::Problem1);
    let mine = refutation_of(&solve(&inst, Method::Auto).unwrap().certificate);
    let theirs = refutation_of(
        &solve(&instance(&all_eight(), SatVoronoi::Problem1), Method::Auto).unwrap().certificate,
    );
    let mut swapped = mine.clone();
    swapped.lrat = theirs.lrat;
    assert_rejected(&inst, &Certificate::Refutation(swapped), "LRAT", "a proof of another CNF");
}

#[test]
fn truncated_and_garbage_files_do_not_parse() {
    let inst = instance(&contradiction(), SatVoronoi::Problem1);
    let text = solve(&inst, Method::Auto).unwrap().certificate.to_json();
    let last = text.rfind('}').unwrap();
    for cut in (0..last).step_by((last / 50).max(1)) {
        assert!(
            Certificate::from_json(&text[..cut]).is_err(),
            "a certificate cut at byte {cut} parsed"
        );
    }
    for garbage in ["", "null", "[]", "{}", "\u{feff}{", "{\"format\": \"gamecert-certificate\"}"] {
        assert!(Certificate::from_json(garbage).is_err(), "{garbage:?} parsed");
    }
    let wrong_kind = text.replace("\"refutation\"", "\"strategy\"");
    let err = Certificate::from_json(&wrong_kind).unwrap_err();
    assert!(err.message.contains("unknown certificate kind 'strategy'"), "{err}");
}

#[test]
fn oversized_claims_are_refused_before_any_work() {
    // A carried formula declaring four billion variables must not make the checker build a
    // forty-billion-vertex graph.
    let inst = instance(&contradiction(), SatVoronoi::Problem1);
    let huge = Certificate::Refutation(Refutation {
        claim: CLAIM_BLACK_CANNOT_WIN.into(),
        method: RefutationMethod::Reduction {
            reduction: SatVoronoi::Problem1,
            formula: Cnf { num_vars: u32::MAX, clauses: vec![vec![1], vec![-1]] },
        },
        lrat: "3 0 1 2 0\n".into(),
    });
    assert_rejected(&inst, &huge, "not the sat-voronoi1 image", "a huge formula");
    let empty = Certificate::Refutation(Refutation {
        claim: CLAIM_BLACK_CANNOT_WIN.into(),
        method: RefutationMethod::Reduction {
            reduction: SatVoronoi::Problem1,
            formula: Cnf::new(0),
        },
        lrat: "1 0 0\n".into(),
    });
    assert_rejected(&inst, &empty, "not the sat-voronoi1 image", "an empty formula");
    // A direct refutation of an instance whose encoding would pass the budget is refused
    // while the encoding is built, before the proof is read.
    let limits = Limits::work(40_000);
    let direct = Certificate::Refutation(Refutation {
        claim: CLAIM_BLACK_CANNOT_WIN.into(),
        method: RefutationMethod::Direct,
        lrat: String::new(),
    });
    let v = check(&inst, &direct, &limits);
    assert!(
        !v.accepted() && v.reason.contains("work limit reached while building the direct encoding"),
        "{}",
        v.reason
    );
}
