//! Property tests of the positive-DNF text parser (`gamecert_certificates::posdnf::dnf_text`): it never
//! panics, and what it accepts is a valid positive DNF that round-trips.

use gamecert_certificates::posdnf::dnf::PosDnf;
use gamecert_certificates::posdnf::dnf_text::{parse_posdnf, write_posdnf};
use proptest::prelude::*;

/// Valid positive DNFs: non-empty terms of distinct variables within range.
fn arb_dnf() -> impl Strategy<Value = PosDnf> {
    (0u32..10).prop_flat_map(|n| {
        let term = if n == 0 {
            Just(Vec::new()).boxed()
        } else {
            proptest::sample::subsequence((1..=n).collect::<Vec<_>>(), 1..=n as usize)
                .prop_shuffle()
                .boxed()
        };
        let max_terms = if n == 0 { 0 } else { 8 };
        proptest::collection::vec(term, 0..=max_terms)
            .prop_map(move |terms| PosDnf { num_vars: n, terms })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn never_panics_on_strings(text in any::<String>()) {
        let _ = parse_posdnf(&text, "f");
    }

    #[test]
    fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_posdnf(&text, "f");
    }

    #[test]
    fn never_panics_on_dnf_like_text(text in "[pdnfc0-9 \\-+\t\r\n]{0,120}") {
        if let Ok(parsed) = parse_posdnf(&text, "f") {
            prop_assert_eq!(parsed.dnf.violation(), None);
        }
        let with_header = format!("p dnf 5 3\n{text}");
        if let Ok(parsed) = parse_posdnf(&with_header, "f") {
            prop_assert_eq!(parsed.dnf.violation(), None);
        }
    }

    #[test]
    fn round_trips(dnf in arb_dnf()) {
        let parsed = parse_posdnf(&write_posdnf(&dnf), "f").unwrap();
        prop_assert_eq!(parsed.dnf, dnf);
        prop_assert!(parsed.warnings.is_empty());
    }
}
