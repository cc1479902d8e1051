//! The command line of `gamecert-check` (its arguments after the program name): the usage text,
//! and the parsing into a verify or an `lrat` request, or the text of `--help`, `--version` or a
//! usage error.
//!
//! Also the rule both binaries read a numeric flag by (issue 40): [`whole_number`] takes a
//! whole number within a range and refuses any other text (a sign, a fraction, a number past
//! the range however many digits it has, a word) with one message naming the range,
//! `expected a whole number from 1 to 10^15`; `gamecert`'s value parser (`src/cli/args.rs`)
//! uses it for every integer flag, so that the two binaries answer alike.

/// The usage text of `gamecert-check`, as printed (a plain literal: a `\` at a line's end
/// would drop the next line's indentation, which aligns the text).
pub const USAGE: &str = "\
usage: gamecert-check [verify] [-q] [--json] [--max-work N] INSTANCE CERTIFICATE
       gamecert-check lrat [-q] [--json] [--max-work N] FORMULA.cnf PROOF.lrat

Checks CERTIFICATE against INSTANCE with the trusted checker of gamecert; with `lrat`, checks
that PROOF is an LRAT refutation (RUP and RAT steps) of the DIMACS CNF FORMULA.
INSTANCE is JSON, a positive DNF text (*.dnf, or starting with `p dnf`), or the edge-list
text of a one-round Voronoi instance. CERTIFICATE is JSON, or for triangle avoidance a binary
triangle-stream, read as it is checked. A file named - is standard input.

  -q, --quiet     accepted as `gamecert verify` takes it: no status lines (this program
                  prints none; the verdict is always printed)
  --json          print the verdict as JSON
  --max-work N    the work budget, a whole number from 1 to 10^15 (default: 2*10^9 units
                  plus 64 per input byte; about one unit per step or byte held)
  -h, --help      print this help
  -V, --version   print the version

exit code: 0 accepted, 1 rejected, 2 bad input, 3 not checked (the budget ran out)
";

/// The largest `--max-work` either binary takes: 10^15 work units. The budget only bounds the
/// work a check may do, so any budget ends; this one at the slowest rate measured (about 1.3 ns
/// a unit, docs/checker-limits.md) within about 15 days, and it is over 100 times the default
/// of the largest file `gamecert verify` reads (8 GiB: about 5.5 * 10^11 units).
pub const MAX_WORK: u64 = 1_000_000_000_000_000;

/// `text` as a whole number from `lo` to `hi`: ASCII digits, with `_` allowed between them
/// (`1_000_000`). Anything else, a sign (`-1`), a fraction, a number past `hi` however many
/// digits it has (`18446744073709551616`), a word, is refused with the message
/// `expected a whole number from LO to HI`, the bounds as [`shown_bound`] writes them.
pub fn whole_number(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    let number = match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        true => digits.parse::<u64>().ok(),
        false => None,
    };
    number.filter(|n| (lo..=hi).contains(n)).ok_or_else(|| expected_whole(lo, hi))
}

/// The message of a whole number refused by [`whole_number`]: `expected a whole number from LO
/// to HI`.
pub fn expected_whole(lo: u64, hi: u64) -> String {
    format!("expected a whole number from {} to {}", shown_bound(lo), shown_bound(hi))
}

/// A range's bound as people write it: a power of ten from 10^4 as `10^k`, a power of two from
/// 2^20 as `2^k`, one less as `2^k - 1` (`2^64 - 1` for `u64::MAX`), any other number in
/// decimal digits.
pub fn shown_bound(n: u64) -> String {
    let power_of_ten = (4..20).find(|&k| 10u64.checked_pow(k) == Some(n));
    let power_of_two = |m: u64| (m >= 1 << 20 && m.is_power_of_two()).then(|| m.trailing_zeros());
    if let Some(k) = power_of_ten {
        format!("10^{k}")
    } else if let Some(k) = power_of_two(n) {
        format!("2^{k}")
    } else if n == u64::MAX {
        "2^64 - 1".into()
    } else if let Some(k) = power_of_two(n + 1) {
        format!("2^{k} - 1")
    } else {
        n.to_string()
    }
}

/// The command line of `gamecert-check` (arguments after the program name): the exit code and
/// text of a `--help`, `--version` or usage error, or the request's pieces.
pub enum Args {
    /// Print this text on standard output and exit 0.
    Info(String),
    /// Print this text on standard error and exit 2.
    Usage(String),
    /// Verify: instance, certificate, JSON output, work budget.
    Verify { instance: String, certificate: String, json: bool, max_work: Option<u64> },
    /// `lrat`: formula, proof, JSON output, work budget.
    Lrat { cnf: String, proof: String, json: bool, max_work: Option<u64> },
}

/// Parses `gamecert-check`'s arguments.
pub fn parse_args(args: &[String]) -> Args {
    // `verify` is the default; naming it, as `gamecert verify` does, changes nothing.
    let (lrat, args) = match args.first().map(String::as_str) {
        Some("lrat") => (true, &args[1..]),
        Some("verify") => (false, &args[1..]),
        _ => (false, args),
    };
    let mut files = Vec::new();
    let mut json = false;
    let mut max_work = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        // As clap words it for `gamecert verify --max-work`: the flag, the text, the range.
        let value = |v: Option<&String>| -> Result<u64, String> {
            let missing =
                || format!("'--max-work N' needs a value: {}", expected_whole(1, MAX_WORK));
            let v = v.ok_or_else(missing)?;
            whole_number(v, 1, MAX_WORK)
                .map_err(|why| format!("invalid value '{v}' for '--max-work N': {why}"))
        };
        match arg.as_str() {
            "-h" | "--help" => return Args::Info(USAGE.into()),
            "-V" | "--version" => {
                return Args::Info(format!("gamecert-check {}\n", env!("CARGO_PKG_VERSION")))
            }
            "--json" => json = true,
            // `gamecert verify`'s -q silences its status lines; there are none here.
            "-q" | "--quiet" => {}
            "--max-work" => match value(rest.next()) {
                Ok(n) => max_work = Some(n),
                Err(why) => return Args::Usage(format!("error: {why}\n{USAGE}")),
            },
            other if other.starts_with("--max-work=") => {
                match value(Some(&other["--max-work=".len()..].to_string())) {
                    Ok(n) => max_work = Some(n),
                    Err(why) => return Args::Usage(format!("error: {why}\n{USAGE}")),
                }
            }
            other if other.starts_with('-') && other.len() > 1 => {
                return Args::Usage(format!("error: unknown option '{other}'\n{USAGE}"))
            }
            file => files.push(file.to_string()),
        }
    }
    match <[String; 2]>::try_from(files) {
        Ok([cnf, proof]) if lrat => Args::Lrat { cnf, proof, json, max_work },
        Ok([instance, certificate]) => Args::Verify { instance, certificate, json, max_work },
        Err(files) => Args::Usage(format!(
            "error: expected {}, got {} file{}\n{USAGE}",
            if lrat { "a formula and a proof" } else { "an instance and a certificate" },
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arguments() {
        assert!(matches!(parse_args(&args(&["--help"])), Args::Info(t) if t.starts_with("usage")));
        // The text keeps its alignment: the second usage line under the first's program name.
        assert!(
            USAGE.contains("\n       gamecert-check lrat ") && USAGE.contains("\n  --json    ")
        );
        assert!(
            matches!(parse_args(&args(&["-V"])), Args::Info(t) if t.starts_with("gamecert-check"))
        );
        assert!(matches!(parse_args(&args(&["a"])), Args::Usage(t) if t.contains("got 1 file")));
        // `gamecert-check verify I C` is `gamecert verify I C` (issue 25).
        assert!(matches!(
            parse_args(&args(&["verify", "i", "c"])),
            Args::Verify { instance, certificate, .. } if instance == "i" && certificate == "c"
        ));
        assert!(matches!(parse_args(&args(&["--frob", "a", "b"])), Args::Usage(_)));
        // The flags `gamecert verify` takes, -q included (issue 31).
        assert!(matches!(parse_args(&args(&["-q", "a", "b"])), Args::Verify { .. }));
        assert!(matches!(parse_args(&args(&["lrat", "--quiet", "a", "b"])), Args::Lrat { .. }));
        for bad in ["x", "0", "-1", "4294967296000000", "18446744073709551616", "1.5", "+1", "_"] {
            let expected = format!(
                "error: invalid value '{bad}' for '--max-work N': expected a whole number from 1 \
                 to 10^15\n"
            );
            let parsed = parse_args(&args(&["--max-work", bad, "a", "b"]));
            assert!(matches!(&parsed, Args::Usage(t) if t.starts_with(&expected)), "{bad}");
            let parsed = parse_args(&args(&[&format!("--max-work={bad}"), "a", "b"]));
            assert!(matches!(&parsed, Args::Usage(t) if t.starts_with(&expected)), "{bad}");
        }
        assert!(matches!(
            parse_args(&args(&["a", "b", "--max-work"])),
            Args::Usage(t) if t.starts_with("error: '--max-work N' needs a value: expected a whole \
                                             number from 1 to 10^15")
        ));
        assert!(matches!(
            parse_args(&args(&["--max-work", "1_000_000_000_000_000", "a", "b"])),
            Args::Verify { max_work: Some(MAX_WORK), .. }
        ));
        match parse_args(&args(&["a", "--max-work=1_000", "b", "--json"])) {
            Args::Verify { instance, certificate, json, max_work } => {
                assert_eq!((instance.as_str(), certificate.as_str()), ("a", "b"));
                assert!(json);
                assert_eq!(max_work, Some(1000));
            }
            _ => panic!("not a verify request"),
        }
    }

    #[test]
    fn bounds_as_written() {
        let shown = |n| shown_bound(n);
        assert_eq!(shown(0), "0");
        assert_eq!(shown(64), "64");
        assert_eq!(shown(1000), "1000");
        assert_eq!(shown(10_000), "10^4");
        assert_eq!(shown(MAX_WORK), "10^15");
        assert_eq!(shown(1 << 26), "2^26");
        assert_eq!(shown((1 << 32) - 1), "2^32 - 1");
        assert_eq!(shown(i64::MAX as u64), "2^63 - 1");
        assert_eq!(shown(u64::MAX), "2^64 - 1");
        assert_eq!(shown(65_535), "65535");
        assert_eq!(whole_number("0", 0, 0), Ok(0));
        assert_eq!(whole_number("18_446_744_073_709_551_615", 0, u64::MAX), Ok(u64::MAX));
        assert_eq!(
            whole_number("18446744073709551616", 0, u64::MAX),
            Err("expected a whole number from 0 to 2^64 - 1".into())
        );
    }
}
