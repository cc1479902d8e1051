//! The checker built for WebAssembly (issue 48): the same crate as `gamecert-check`,
//! `gamecert-certificates`, compiled for `wasm32-unknown-unknown` by `scripts/build-wasm` into
//! `target/wasm/gamecert-checker.wasm`, behind a small bytes-in, verdict-out entry. It runs
//! the pipeline of `gamecert verify` and `gamecert-check` ([`gamecert_certificates::verify::run`])
//! on two byte arrays under the names the user gave them, so the verdict, its texts and its
//! exit code are those `gamecert-check` prints for the same files. `wasm/run.mjs` runs it under
//! node; docs/wasm.md says how to build it and what is measured.
//!
//! # The ABI
//!
//! The module imports nothing (`new WebAssembly.Instance(module, {})`); every number is an
//! `i32` (a `u32` here) but `max_work`, an `f64`. Pointers are offsets into the exported
//! `memory`.
//!
//! - `gc_alloc(len) -> ptr`: `len` fresh bytes (0 when they cannot be had); `gc_free(ptr, len)`
//!   gives them back. The caller allocates the two files and the two names with it, and frees
//!   its own buffers after `gc_check`.
//! - `gc_seed(a, b, c, d)`: four random 32-bit words (`crypto.getRandomValues`), once after
//!   instantiating. The checker's position fingerprints need secret keys and this target has no
//!   entropy of its own (its standard library would key them by memory addresses, which a
//!   file's author can predict): `gc_check` refuses (code 2) until a seed is installed.
//! - `gc_check(inst_name_ptr, inst_name_len, inst_ptr, inst_len, cert_name_ptr, cert_name_len,
//!   cert_ptr, cert_len, max_work, json) -> len`: checks the certificate against the instance
//!   and returns the length of its UTF-8 JSON result, `{"code": 0|1|2|3, "stdout": "..",
//!   "stderr": ".."}` (0 accepted, 1 rejected, 2 bad input, 3 not checked), whose bytes start at
//!   `gc_result_ptr()` and stay valid until the next `gc_check`. The names are the files' names
//!   (`path.json`, `proof.gcv`), used in messages and to tell formats apart (`*.dnf`); the
//!   bytes are read as a plain file of that size is (a compressed file is the native `gamecert
//!   verify`'s, not this checker's). `max_work` 0 is the default budget, as on the command
//!   line; otherwise a whole number from 1 to 10^15 (anything else: code 2). `json` nonzero
//!   asks for the `--json` output. The JSON output's `seconds` is 0 (no clock here).
//! - `gc_result_len() -> len`: the length of the result at `gc_result_ptr()`: what `gc_check`
//!   returned, or after a fault (below) the result of the check it stopped (0 if none).
//! - Faults. A panic cannot unwind here (the module is built with panic=abort), so it traps
//!   (a `RuntimeError` in JavaScript). A panic hook first writes the panic's message at
//!   `gc_fault_ptr()`, `gc_fault_len()` bytes (0 at the start of each `gc_check`): a trap with
//!   a message is a fault of the checker, which the native checker reports as a rejection
//!   (code 1) whose reason is [`gamecert_certificates::verdict::fault_reason`] of the message;
//!   when the fault stopped a check, the hook also writes that very result (the claim's
//!   rejection, as `gamecert-check` prints it; its JSON's `work` is not recorded) at
//!   `gc_result_ptr()`, `gc_result_len()` bytes. A trap with no message is the memory running
//!   out (an allocation failed; wasm32 has at most 4 GiB): not checked (code 3). After a trap
//!   make a new instance before the next check.
//!
//! The functions below the ABI ([`check_bytes`]) are plain Rust, so the native build tests the
//! same entry.

use gamecert_certificates::base::command_line::{expected_whole, MAX_WORK};
use gamecert_certificates::base::fingerprint;
use gamecert_certificates::check::{reject, Work};
use gamecert_certificates::verify::{error_json, finish, run, Content, Outcome, Request, Stream};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The two files of the check running now, each served once by name.
static FILES: Mutex<Vec<(PathBuf, Vec<u8>)>> = Mutex::new(Vec::new());

/// The file named `path`, taken (each is read once; the instance is read first).
fn take(path: &Path) -> Result<Vec<u8>, String> {
    let mut files = FILES.lock().map_err(|e| e.to_string())?;
    let at = files.iter().position(|(name, _)| name == path);
    at.map(|i| files.remove(i).1).ok_or_else(|| format!("{}: not given", path.display()))
}

/// The pipeline's reader: the bytes as a plain file of their size.
fn read(path: &Path, _max_work: Option<u64>) -> Result<Content, String> {
    take(path).map(Content::plain)
}

/// The pipeline's opener over the same bytes.
fn open(path: &Path, _max_work: Option<u64>) -> Result<Stream, String> {
    let bytes = take(path)?;
    Ok(Stream {
        stored: Some(bytes.len() as u64),
        unpacked: 0,
        read: Box::new(std::io::Cursor::new(bytes)),
    })
}

/// What a fault needs to print the check's rejection: the request's names and form.
#[derive(Clone)]
struct Asked {
    instance: PathBuf,
    certificate: PathBuf,
    json: bool,
}

static ASKED: Mutex<Option<Asked>> = Mutex::new(None);

/// The request of `asked`.
fn request(asked: &Asked) -> Request<'_> {
    Request {
        instance: &asked.instance,
        certificate: &asked.certificate,
        json: asked.json,
        max_work: None,
        read,
        open,
        command: "verify",
        started: None,
    }
}

/// The result JSON of `outcome`, as `gamecert-check` would print it (`--json` bad input: the
/// error as JSON on standard output too).
fn result_json(outcome: &Outcome, json: bool) -> String {
    let stdout = match json && outcome.code == 2 {
        true => error_json("verify", &outcome.stderr, 0.0),
        false => outcome.stdout.clone(),
    };
    serde_json::json!({ "code": outcome.code, "stdout": stdout, "stderr": outcome.stderr })
        .to_string()
}

/// Usage error (code 2) with `message`.
fn usage(message: String) -> Outcome {
    Outcome { code: 2, stdout: String::new(), stderr: format!("error: {message}\n"), verdict: None }
}

/// The budget `max_work` asks for: 0 the default, otherwise a whole number from 1 to 10^15.
pub fn max_work(value: f64) -> Result<Option<u64>, String> {
    if value == 0.0 {
        return Ok(None);
    }
    let whole = value.is_finite() && value.fract() == 0.0 && (1.0..=1e15).contains(&value);
    match whole {
        // Lossless: a whole number from 1 to 10^15 (< 2^53).
        true => Ok(Some(value as u64)),
        false => Err(format!(
            "invalid value '{value}' for '--max-work N': {}",
            expected_whole(1, MAX_WORK)
        )),
    }
}

/// Checks `certificate` (named `certificate_name`) against `instance` (named `instance_name`)
/// as `gamecert-check [--json] [--max-work N]` does, returning the result JSON of the ABI.
pub fn check_bytes(
    (instance_name, instance): (&str, Vec<u8>),
    (certificate_name, certificate): (&str, Vec<u8>),
    max_work_value: f64,
    json: bool,
) -> String {
    let asked = Asked {
        instance: PathBuf::from(instance_name),
        certificate: PathBuf::from(certificate_name),
        json,
    };
    let outcome = if !fingerprint::seeded() && cfg!(target_family = "wasm") {
        usage(
            "no secret seed: call gc_seed with four random 32-bit words (crypto.getRandomValues) \
             before gc_check; the checker's position fingerprints need secret keys"
                .into(),
        )
    } else {
        match max_work(max_work_value) {
            Err(why) => usage(why),
            Ok(max_work) => {
                if let Ok(mut files) = FILES.lock() {
                    *files = vec![
                        (asked.instance.clone(), instance),
                        (asked.certificate.clone(), certificate),
                    ];
                }
                let request = Request { max_work, ..request(&asked) };
                if let Ok(mut current) = ASKED.lock() {
                    *current = Some(asked.clone());
                }
                let outcome = run(&request);
                if let Ok(mut files) = FILES.lock() {
                    files.clear();
                }
                outcome
            }
        }
    };
    result_json(&outcome, json)
}

/// The result of a check that stopped on a fault with `message` inside a check (its claim
/// known): the rejection the native checker prints. `None` outside a check.
pub fn fault_result(message: &str) -> Option<String> {
    let claim = gamecert_certificates::base::fault::running_claim()?;
    let asked = ASKED.try_lock().ok()?;
    let asked = asked.as_ref()?;
    let reason = gamecert_certificates::verdict::fault_reason(message);
    let verdict = reject(claim, reason, Work::default());
    Some(result_json(&finish(&request(asked), verdict), asked.json))
}

#[cfg(target_family = "wasm")]
mod abi;
