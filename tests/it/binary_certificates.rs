//! Issue 47, item 2: the binary form of certificates (`GCVALUE1`). Every certificate of the
//! demo and of the checker's fixtures turns into the binary form and back into the same JSON
//! (byte for byte where the JSON is laid out as gamecert writes it), and the checker gives the
//! same verdict on both forms, accepted, rejected and bad input alike; `solve --format`,
//! `convert`, the readers of `hint` and `render`, malformed binary files refused with their
//! byte, and the default budget on the binary form of the largest certificate the tests make.

use crate::common::{gamecert, stderr, stdout, write};
use gamecert::base::binary::{from_binary, from_json, BinaryWriter, PrettyJson};
use gamecert_certificates::base::budget::Budget;
use std::path::{Path, PathBuf};

/// `text` (a gamecert JSON file) in the binary form.
fn to_binary(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let open = || Ok(text.as_bytes());
    from_json(open, &mut BinaryWriter::new(&mut out).unwrap()).unwrap();
    out
}

/// `bytes` (the binary form) as JSON, laid out as gamecert writes it.
fn to_json(bytes: &[u8]) -> String {
    let mut out = Vec::new();
    from_binary(bytes, &mut Budget::unlimited(), &mut PrettyJson::new(&mut out)).unwrap();
    String::from_utf8(out).unwrap()
}

/// `gamecert verify --json` on the two files: the exit code, the verdict, the reason or the
/// error (the message of bad input names the place, which differs between the forms).
fn verdict(instance: &Path, certificate: &Path) -> (Option<i32>, String, String) {
    let out = gamecert(&["verify", "--json", path(instance), path(certificate)]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    let token = json["verdict"].as_str().unwrap_or_default().to_string();
    let reason = json["reason"].as_str().unwrap_or_default().replace(path(certificate), "CERT");
    (out.status.code(), token, reason)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Converts `certificate` (checked against `instance`) both ways and compares: the JSON back,
/// and the verdict on both forms. Returns the binary file's path.
fn round_trip(dir: &Path, instance: &Path, certificate: &Path) -> PathBuf {
    let text = std::fs::read_to_string(certificate).unwrap();
    let binary = to_binary(&text);
    assert!(binary.starts_with(b"GCVALUE1"));
    let back = to_json(&binary);
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&text).unwrap(), serde_json::from_str(&back).unwrap());
    assert_eq!(a, b, "{}: the JSON read back differs", certificate.display());
    // A file laid out as gamecert writes it comes back byte for byte.
    let laid_out = gamecert_certificates::format::Certificate::from_json(&text)
        .map(|c| c.to_json() == text)
        .unwrap_or(false);
    if laid_out {
        assert_eq!(back, text, "{}", certificate.display());
    }
    let name = certificate.file_name().unwrap().to_str().unwrap();
    let binary_path = dir.join(format!("{name}.gcv"));
    std::fs::write(&binary_path, &binary).unwrap();
    let (json_verdict, binary_verdict) =
        (verdict(instance, certificate), verdict(instance, &binary_path));
    if json_verdict.1 == "bad-input" {
        // Bad input either way (the message names a line and column, or a byte).
        assert_eq!(binary_verdict.1, "bad-input", "{}", certificate.display());
    } else {
        assert_eq!(json_verdict, binary_verdict, "{}", certificate.display());
    }
    binary_path
}

#[test]
fn every_fixture_round_trips_with_the_same_verdict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/tests/fixtures");
    let dir = tempfile::tempdir().unwrap();
    let mut kinds = 0;
    for folder in std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()) {
        if !folder.is_dir() {
            continue;
        }
        let instance = ["instance.json", "instance.txt"]
            .iter()
            .map(|n| folder.join(n))
            .find(|p| p.exists())
            .unwrap();
        let expect = std::fs::read_to_string(folder.join("expect.txt")).unwrap();
        for line in expect.lines() {
            let (file, _) = line.split_once('\t').unwrap();
            if file.starts_with("bad-instance-") {
                continue;
            }
            let sub = dir.path().join(folder.file_name().unwrap());
            std::fs::create_dir_all(&sub).unwrap();
            round_trip(&sub, &instance, &folder.join(file));
        }
        kinds += 1;
    }
    assert!(kinds >= 20, "{kinds} fixture folders");
}

#[test]
fn every_demo_certificate_round_trips_byte_for_byte_and_is_accepted_in_both_forms() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    let out = gamecert(&["demo", "--out", path(&demo), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut kinds = std::collections::BTreeSet::new();
    let mut largest: Option<(u64, PathBuf, PathBuf)> = None;
    for entry in std::fs::read_dir(&demo).unwrap() {
        let certificate = entry.unwrap().path();
        let name = certificate.file_name().unwrap().to_str().unwrap().to_string();
        let Some(case) = name.strip_suffix(".cert.json") else { continue };
        let instance = ["instance.json", "dnf", "cnf"]
            .iter()
            .map(|ext| demo.join(format!("{case}.{ext}")))
            .find(|p| p.exists())
            .unwrap();
        let text = std::fs::read_to_string(&certificate).unwrap();
        let kind = serde_json::from_str::<serde_json::Value>(&text).unwrap()["kind"].clone();
        kinds.insert(kind.as_str().unwrap().to_string());
        let binary = round_trip(dir.path(), &instance, &certificate);
        assert_eq!(verdict(&instance, &binary).1, "accepted", "{name}");
        let size = std::fs::metadata(&certificate).unwrap().len();
        if largest.as_ref().is_none_or(|(s, ..)| size > *s) {
            largest = Some((size, instance, binary));
        }
    }
    assert!(kinds.len() >= 12, "{kinds:?}");
    // The largest: its binary form accepted by the default budget (no --max-work).
    let (_, instance, binary) = largest.unwrap();
    assert_eq!(verdict(&instance, &binary).1, "accepted");
}

#[test]
fn solve_writes_binary_for_large_answers_and_convert_turns_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let instance = write(
        d,
        "t.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 11}"#,
    );
    // 5.5 MB of JSON: auto writes the binary form, which the default budget accepts.
    let auto = d.join("t.cert");
    let out = gamecert(&["solve", path(&instance), "-o", path(&auto), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["certificate_form"], "binary", "{report}");
    let bytes = std::fs::read(&auto).unwrap();
    assert!(bytes.starts_with(b"GCVALUE1"));
    assert_eq!(verdict(&instance, &auto).1, "accepted");
    // convert: JSON back, the same as `--format json` writes; and binary again, the same bytes.
    let json = d.join("t.cert.json");
    let out = gamecert(&["solve", path(&instance), "-o", path(&json), "--format", "json", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let back = d.join("back.json");
    let out = gamecert(&["convert", path(&auto), "-o", path(&back)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("nothing was checked"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&json).unwrap());
    let again = d.join("again.gcv");
    let out = gamecert(&["convert", path(&json), "-o", path(&again), "--to", "binary", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    assert!(bytes.len() * 3 <= std::fs::metadata(&json).unwrap().len() as usize);
    // hint reads the binary form (and checks it first): B's strategy has no move for A.
    let out = gamecert(&["hint", path(&instance), path(&auto)]);
    assert!(stderr(&out).contains("it proves that B wins"), "{}", stderr(&out));
    // --format binary needs a file; a small answer stays JSON under auto.
    let out = gamecert(&["solve", path(&instance), "--format", "binary"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--format binary needs -o FILE"), "{}", stderr(&out));
    let small = write(
        d,
        "t5.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 5}"#,
    );
    let small_cert = d.join("t5.cert");
    let out = gamecert(&["solve", path(&small), "-o", path(&small_cert), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read(&small_cert).unwrap().starts_with(b"{"));
    let forced = d.join("t5.gcv");
    let out = gamecert(&["solve", path(&small), "-o", path(&forced), "--format", "binary", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read(&forced).unwrap().starts_with(b"GCVALUE1"));
    let out = gamecert(&[
        "render",
        path(&small),
        "--certificate",
        path(&forced),
        "-o",
        path(&d.join("p.svg")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A file that is not gamecert's is refused by convert, which says so.
    let other = write(d, "other.json", r#"{"a": 1}"#);
    let out = gamecert(&["convert", path(&other), "-o", path(&d.join("x"))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a gamecert file"), "{}", stderr(&out));
}

#[test]
fn a_malformed_binary_certificate_is_bad_input_naming_its_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let instance = write(
        d,
        "t.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 5}"#,
    );
    let json = d.join("t.cert.json");
    let out = gamecert(&["solve", path(&instance), "-o", path(&json), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let good = to_binary(&std::fs::read_to_string(&json).unwrap());
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (good[..good.len() / 2].to_vec(), "the file ends inside"),
        ([&good[..], b"x"].concat(), "bytes after the certificate's value"),
        ([&good[..9], &[0x3f], &good[10..]].concat(), "at byte 9: tag 0x3f where a string"),
    ];
    for (bytes, expected) in cases {
        let file = d.join("bad.gcv");
        std::fs::write(&file, &bytes).unwrap();
        let out = gamecert(&["verify", path(&instance), path(&file)]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let message = stderr(&out);
        assert!(message.contains("the certificate does not parse: at byte "), "{message}");
        assert!(message.contains(expected), "{expected}: {message}");
    }
    // Truncated at every 7th byte (inside tags, varints, strings, coded strings, arrays):
    // bad input naming a byte; bytes changed: any verdict but a crash.
    let file = d.join("cut.gcv");
    for len in (0..good.len()).step_by(7) {
        std::fs::write(&file, &good[..len]).unwrap();
        let out = gamecert(&["verify", path(&instance), path(&file)]);
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{len} bytes: {message}");
        assert!(message.contains("at byte ") || len < 8, "{len} bytes: {message}");
    }
    for at in (8..good.len()).step_by(11) {
        let mut bytes = good.clone();
        bytes[at] ^= 0x5a;
        std::fs::write(&file, &bytes).unwrap();
        let out = gamecert(&["verify", path(&instance), path(&file)]);
        let message = stderr(&out);
        assert!(matches!(out.status.code(), Some(0..=2)), "byte {at}: {:?} {message}", out.status);
        assert!(!message.contains("panicked"), "byte {at}: {message}");
        if out.status.code() == Some(2) {
            assert!(message.contains("at byte "), "byte {at}: {message}");
        }
    }
}

/// Solves the instance at `instance` and returns its certificate's JSON.
fn solved(instance: &Path) -> String {
    let certificate = instance.with_extension("cert.json");
    let out = gamecert(&["solve", path(instance), "-o", path(&certificate), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::read_to_string(&certificate).unwrap()
}

/// Every byte of two small binary certificates (a triangle-strategy, a vertexnim-strategy)
/// changed to every tag and edge value, deleted and doubled, and every truncation: the decoder
/// and the checker, in this process, never panic, stay within a small budget, and accept only
/// what the original claims (both games have one winner, so any other accepted claim would
/// be false). Every strict prefix is refused naming a byte within the prefix.
#[test]
fn every_truncation_and_byte_change_of_a_binary_certificate_is_refused_or_proves_the_truth() {
    use gamecert_certificates::format::{Certificate, Instance};
    use gamecert_certificates::{check, Limits};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let triangle =
        r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 5}"#;
    let triangle = write(d, "triangle.json", triangle);
    let nim = d.join("nim.json");
    let out = gamecert(&[
        "gen",
        "vertexnim",
        "--vertices",
        "4",
        "--max-weight",
        "2",
        "-o",
        path(&nim),
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let limits = Limits::work(20_000_000);
    let mut totals = (0u64, 0u64, 0u64);
    for (name, instance) in [("triangle", triangle), ("nim", nim)] {
        let json = solved(&instance);
        let instance = Instance::from_json(&std::fs::read_to_string(instance).unwrap()).unwrap();
        let good = to_binary(&json);
        let read = |bytes: &[u8]| {
            let mut budget = limits.budget();
            let certificate = Certificate::from_binary(bytes, &mut budget);
            (certificate, budget)
        };
        let (original, _) = read(&good);
        let original = check(&instance, &original.unwrap(), &limits);
        assert!(original.accepted(), "{name}: {}", original.reason);
        // Every strict prefix: refused, the byte named within it.
        for len in 0..good.len() {
            let message = read(&good[..len]).0.unwrap_err().message;
            let at: usize = message
                .strip_prefix("at byte ")
                .and_then(|m| m.split(':').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{name}, {len} bytes: {message}"));
            assert!(at <= len, "{name}, {len} bytes: {message}");
            totals.0 += 1;
        }
        // Every byte past the magic: replaced, deleted, doubled.
        let values: Vec<u8> =
            (0x00..=0x10).chain([0x1f, 0x20, 0x3f, 0x7f, 0x80, 0x81, 0xfe, 0xff]).collect();
        for at in 8..good.len() {
            let mut mutants: Vec<Vec<u8>> = values
                .iter()
                .chain(&[good[at] ^ 0x01, good[at] ^ 0x80])
                .filter(|&&v| v != good[at])
                .map(|&v| {
                    let mut m = good.clone();
                    m[at] = v;
                    m
                })
                .collect();
            mutants.push([&good[..at], &good[at + 1..]].concat());
            mutants.push([&good[..=at], &good[at..]].concat());
            for m in mutants {
                let (certificate, budget) = read(&m);
                assert!(budget.used() <= limits.max_work);
                totals.1 += 1;
                let Ok(certificate) = certificate else { continue };
                let left = limits.less(budget.used());
                let verdict = check(&instance, &certificate, &left);
                assert!(
                    !verdict.reason.starts_with("internal error"),
                    "{name}: {}",
                    verdict.reason
                );
                if verdict.accepted() {
                    totals.2 += 1;
                    assert_eq!(
                        verdict.claim, original.claim,
                        "{name}: byte {at} changed: {m:02x?}"
                    );
                }
            }
        }
    }
    // The mutants reach the checker, and some are still proofs (the test is not vacuous).
    assert!(totals.0 > 400 && totals.1 > 10_000 && totals.2 > 0, "{totals:?}");
}

/// The strategy of a multi-round Voronoi game on the binary tree of height 4, 6 rounds (2.3 MB
/// of JSON): its binary form is at most a third of the bytes, converts back to the same JSON
/// byte for byte, and is accepted by `verify` with the default budget.
#[test]
fn a_large_strategy_is_at_most_a_third_in_binary_and_converts_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let instance = d.join("tree.json");
    let out = gamecert(&[
        "gen",
        "kary-tree",
        "--k",
        "2",
        "--height",
        "4",
        "--rounds",
        "6",
        "-o",
        path(&instance),
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json = d.join("tree.cert.json");
    let out = gamecert(&[
        "solve",
        path(&instance),
        "--method",
        "prove",
        "--format",
        "json",
        "-o",
        path(&json),
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let binary = d.join("tree.cert.gcv");
    let out = gamecert(&["convert", path(&json), "--to", "binary", "-o", path(&binary), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (json_bytes, binary_bytes) =
        (std::fs::read(&json).unwrap(), std::fs::read(&binary).unwrap());
    assert!(json_bytes.len() > 1_000_000, "{} bytes of JSON", json_bytes.len());
    assert!(
        binary_bytes.len() * 3 <= json_bytes.len(),
        "{} bytes in binary, {} in JSON",
        binary_bytes.len(),
        json_bytes.len()
    );
    let back = d.join("back.json");
    let out = gamecert(&["convert", path(&binary), "-o", path(&back), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let back_bytes = std::fs::read(&back).unwrap();
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_slice(&json_bytes).unwrap(),
        serde_json::from_slice(&back_bytes).unwrap(),
    );
    assert_eq!(a, b);
    assert!(back_bytes == json_bytes, "the JSON converted back differs from what solve wrote");
    let (code, token, _) = verdict(&instance, &binary);
    assert_eq!((code, token.as_str()), (Some(0), "accepted"));
}
