//! Compression buys nothing (issue 24, item 5): a compressed file is checked under the budget of
//! its stored bytes, the bytes decompression adds are charged, and decompression stops at a cap
//! while it runs (src/base/io.rs), even under a memory limit that the whole output would break.

use crate::common::{compressed, gamecert, stderr, stdout};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A path instance solved: its path and its certificate's text.
fn solved(dir: &Path) -> (String, Vec<u8>) {
    let instance = dir.join("p.json").display().to_string();
    let cert = dir.join("c.json").display().to_string();
    let out = gamecert(&["gen", "path", "--vertices", "7", "--rounds", "1", "-o", &instance]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gamecert(&["solve", &instance, "-o", &cert, "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (instance, std::fs::read(&cert).unwrap())
}

/// The certificate's JSON with `spaces` blanks before its closing brace.
fn padded(certificate: &[u8], spaces: usize) -> Vec<u8> {
    let end = certificate.iter().rposition(|&b| b == b'}').unwrap();
    let mut out = certificate[..end].to_vec();
    out.resize(end + spaces, b' ');
    out.extend_from_slice(&certificate[end..]);
    out
}

/// `work.work_units` of a `--json` verdict.
fn work_units(json: &str) -> u64 {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    value["work"]["work_units"].as_u64().unwrap()
}

#[test]
fn a_compressed_certificate_is_checked_under_the_budget_of_its_stored_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, certificate) = solved(dir.path());
    // A megabyte of padding: under the cap, checked, and the bytes decompression added (64
    // units each) are in the work spent.
    let text = padded(&certificate, 1_000_000);
    for (format, bytes) in compressed(&text) {
        let path = dir.path().join(format!("small.{format}"));
        std::fs::write(&path, &bytes).unwrap();
        let out = gamecert(&["verify", &instance, path.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        let added = (text.len() - bytes.len()) as u64;
        assert!(work_units(&stdout(&out)) >= 64 * added, "{format}: {}", stdout(&out));
    }
    // 40 MB of padding in a few kilobytes: the default budget of the stored bytes cannot pay
    // for it, so decompression stops at the cap (bad input naming it and the ways out); with a
    // budget that pays, it is checked.
    let text = padded(&certificate, 40_000_000);
    for (format, bytes) in compressed(&text) {
        let path = dir.path().join(format!("large.{format}"));
        std::fs::write(&path, &bytes).unwrap();
        let started = Instant::now();
        let out = gamecert(&["verify", &instance, path.to_str().unwrap()]);
        assert!(started.elapsed() < Duration::from_secs(5), "{format}: {:?}", started.elapsed());
        assert_eq!(out.status.code(), Some(2), "{format}: {}", stderr(&out));
        let cap = format!(
            "the {format} file of {} bytes decompresses to more than {} bytes, what the work \
             budget can pay for",
            bytes.len(),
            bytes.len() as u64 + (2_000_000_000 + 64 * bytes.len() as u64) / 64
        );
        for expected in [cap.as_str(), "decompress it first", "raise --max-work"] {
            assert!(stderr(&out).contains(expected), "{format}: {}", stderr(&out));
        }
        let args = ["verify", &instance, path.to_str().unwrap(), "--max-work", "3000000000"];
        let out = gamecert(&[&args[..], &["--json"]].concat());
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        let added = (text.len() - bytes.len()) as u64;
        assert!(work_units(&stdout(&out)) >= 64 * added, "{format}: {}", stdout(&out));
    }
}

/// 640 MiB of zeros in 40 concatenated members (a few kilobytes for bzip2 and xz, 650 KB for
/// gzip, whose ratio is at most about 1,000) under a 512 MiB address-space limit: the 8 GiB cap of before held it whole and died;
/// now both the solver's cap (64 MiB here, 200 times the size for gzip) and the checker's stop
/// it while decompressing, with bad input naming the cap.
#[test]
fn a_bomb_stops_at_the_cap_within_a_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, certificate) = solved(dir.path());
    let cert = dir.path().join("c.json");
    std::fs::write(&cert, certificate).unwrap();
    for (format, member) in compressed(&vec![0u8; 16 << 20]) {
        let bomb = dir.path().join(format!("bomb.{format}"));
        std::fs::write(&bomb, member.repeat(40)).unwrap();
        let bomb = bomb.to_str().unwrap();
        let out_file = dir.path().join("out.json");
        let reduce = ["reduce", "sat-voronoi1", bomb, "-o", out_file.to_str().unwrap()];
        let verify = ["verify", &instance, bomb];
        for (args, rule) in [(&reduce[..], "the most gamecert reads"), (&verify[..], "work budget")]
        {
            let started = Instant::now();
            let out = Command::new("sh")
                .args(["-c", "ulimit -v 524288; exec \"$0\" \"$@\""])
                .arg(env!("CARGO_BIN_EXE_gamecert"))
                .args(args)
                .output()
                .unwrap();
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{format} {args:?}: {err}");
            assert!(err.contains("decompresses to more than"), "{format} {args:?}: {err}");
            assert!(err.contains(rule), "{format} {args:?}: {err}");
            assert!(started.elapsed() < Duration::from_secs(20), "{format} {args:?}");
        }
    }
}

/// A compressed stream on standard input has no stored size: past the cap it is refused as a
/// stream, not as "a file of 0 bytes".
#[test]
fn a_compressed_stream_past_the_cap_is_named_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let (_, certificate) = solved(dir.path());
    let cert = dir.path().join("c.json").display().to_string();
    assert_eq!(std::fs::read(&cert).unwrap(), certificate);
    // --max-work 6,400,000: a whole stream may hold 100,000 bytes; this one unpacks to 300,000.
    for (name, packed) in compressed(&vec![b' '; 300_000]) {
        let out = crate::common::gamecert_with_stdin(
            &["verify", "--max-work", "6400000", "-", &cert],
            packed,
        );
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("<stdin>: the {name} stream decompresses to more than")),
            "{err}"
        );
    }
}
