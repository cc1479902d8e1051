//! The one JSON shape of every `--json` output of `gamecert` and `gamecert-check`
//! (docs/formats.md, "Command output"), and its form for bad input.

/// The `format` of every `--json` output of `gamecert` and `gamecert-check`.
pub const OUTPUT_FORMAT: &str = "gamecert-output";
/// Its version.
pub const OUTPUT_VERSION: u64 = 1;

use crate::base::decision::Decision;

/// The one JSON shape of every `--json` output (docs/formats.md, "Command output"): `format`,
/// `version`, `command`, a `verdict` token (`accepted`, `rejected`, `not-checked` (the check's
/// budget ran out), `unchecked` (no checker ran), `measured` or `bad-input`),
/// a human `summary`, the wall time in `seconds`, then the command's own fields (an array is
/// put under `rows`).
pub fn output_json(
    command: &str,
    verdict: &str,
    summary: &str,
    seconds: f64,
    fields: serde_json::Value,
) -> String {
    let mut out = serde_json::json!({
        "format": OUTPUT_FORMAT, "version": OUTPUT_VERSION, "command": command,
        "verdict": verdict, "summary": summary, "seconds": seconds,
    });
    match fields {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                out[key] = value;
            }
        }
        serde_json::Value::Null => {}
        rows => out["rows"] = rows,
    }
    let mut text =
        serde_json::to_string_pretty(&out).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// The `--json` output of bad input (exit 2): verdict `bad-input`, the message (without its
/// `error: `) as `summary` and `error`; the message goes to standard error as well.
pub fn error_json(command: &str, message: &str, seconds: f64) -> String {
    let message = message.trim_end().trim_start_matches("error: ");
    output_json(command, "bad-input", message, seconds, serde_json::json!({ "error": message }))
}

/// The verdict apart from the claim, as every command prints it: `ACCEPTED (claim: C)`,
/// `REJECTED (claim: C)` or `NOT CHECKED (claim: C)`, so that a claim never reads as a
/// statement unless it was accepted.
pub fn verdict_heading(outcome: Decision, claim: &str) -> String {
    let claim = crate::base::text::printable(claim);
    format!("{} (claim: {claim})", outcome.word())
}

/// The first line of a text verdict, with its line end: the heading ([`verdict_heading`]), then
/// the reason.
/// Both are printed one line each, whatever they quote ([`crate::base::text::printable`]).
pub fn verdict_line(outcome: Decision, claim: &str, reason: &str) -> String {
    let reason = crate::base::text::printable(reason);
    format!("{}: {reason}\n", verdict_heading(outcome, claim))
}
