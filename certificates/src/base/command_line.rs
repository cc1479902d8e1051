//! The command line of `gamecert-check` (its arguments after the program name): the usage text,
//! and the parsing into a verify or an `lrat` request, or the text of `--help`, `--version` or a
//! usage error.

/// The usage text of `gamecert-check`.
pub const USAGE: &str =
    "usage: gamecert-check [verify] [-q] [--json] [--max-work N] INSTANCE CERTIFICATE\n\
       gamecert-check lrat [-q] [--json] [--max-work N] FORMULA.cnf PROOF.lrat\n\
\n\
Checks CERTIFICATE against INSTANCE with the trusted checker of gamecert; with `lrat`, checks\n\
that PROOF is an LRAT refutation (RUP and RAT steps) of the DIMACS CNF FORMULA.\n\
INSTANCE is JSON, a positive DNF text (*.dnf, or starting with `p dnf`), or the edge-list\n\
text of a one-round Voronoi instance. CERTIFICATE is JSON, or for triangle avoidance a binary\n\
triangle-stream, read as it is checked. A file named - is standard input.\n\
\n\
  -q, --quiet     accepted as `gamecert verify` takes it: no status lines (this program\n\
                  prints none; the verdict is always printed)\n\
  --json          print the verdict as JSON\n\
  --max-work N    the work budget (default: 2*10^9 units plus 64 per input byte; about one\n\
                  unit per step or byte held)\n\
  -h, --help      print this help\n\
  -V, --version   print the version\n\
\n\
exit code: 0 accepted, 1 rejected, 2 bad input\n";

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
        let value = |v: Option<&String>| -> Result<u64, String> {
            let v = v.ok_or("--max-work needs a number")?;
            v.replace('_', "")
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(format!("--max-work: '{v}' is not a positive whole number"))
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
        assert!(matches!(
            parse_args(&args(&["--max-work", "x", "a", "b"])),
            Args::Usage(t) if t.contains("not a positive whole number")
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
}
