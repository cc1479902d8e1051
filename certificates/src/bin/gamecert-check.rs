//! `gamecert-check INSTANCE CERT`: the stand-alone checker.
//!
//! Exit codes: 0 accepted, 1 rejected (including a certificate that does not parse), 2 bad
//! usage or an instance that cannot be read.

use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::{check, Limits};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let files: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    if files.len() != 2 || args.iter().any(|a| a == "--help" || a == "-h") {
        eprintln!("usage: gamecert-check INSTANCE CERT [--json]");
        eprintln!("exit code: 0 accepted, 1 rejected, 2 bad input");
        return ExitCode::from(2);
    }
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let instance = match read(files[0])
        .and_then(|text| Instance::from_json(&text).map_err(|e| format!("{}:{e}", files[0])))
    {
        Ok(instance) => instance,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let text = match read(files[1]) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    let verdict = match Certificate::from_json(&text) {
        Ok(cert) => check(&instance, &cert, &Limits::default()),
        Err(e) => gamecert_certificates::Verdict {
            accepted: false,
            claim: "unknown".into(),
            reason: format!("{}:{e}: the certificate does not parse", files[1]),
            work: Default::default(),
            trusted: Vec::new(),
        },
    };
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&verdict).unwrap_or_default()
        );
    } else {
        let word = if verdict.accepted {
            "ACCEPTED"
        } else {
            "REJECTED"
        };
        println!("{word}: {}", verdict.claim);
        println!("{}", verdict.reason);
        for theorem in &verdict.trusted {
            println!("trusted: {theorem}");
        }
    }
    if verdict.accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
