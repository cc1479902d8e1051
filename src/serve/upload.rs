//! Uploaded files: an instance and a certificate sent by the page (as text, or base64 for a
//! compressed file), named by the names the browser gave. [`verify`] runs exactly the pipeline
//! `gamecert verify` runs ([`gamecert_certificates::verify::run`]) with readers that hand it
//! the uploaded bytes instead of opening files: a request never names a file on the server's
//! disk. [`strategy`] reads a strategy from an upload as `hint` and `play` load theirs.

use crate::play::{PlayError, Strategy};
use gamecert_certificates::verify::{shown, Content, Stream};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// The body of `POST /api/verify` (and of a game started from files): each file's name and its
/// content, as text or as base64.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Files {
    #[serde(default)]
    pub instance_name: String,
    pub instance: Option<String>,
    pub instance_base64: Option<String>,
    #[serde(default)]
    pub certificate_name: String,
    pub certificate: Option<String>,
    pub certificate_base64: Option<String>,
}

/// Two uploaded files, named and decoded.
pub struct Uploaded {
    pub instance: (PathBuf, Vec<u8>),
    pub certificate: (PathBuf, Vec<u8>),
}

impl Uploaded {
    /// The work budget a check of these files has: `max_work`, or verify's default for files
    /// of their sizes as sent (what the pipeline gives them).
    pub fn work(&self, max_work: Option<u64>) -> u64 {
        let (certificate, sent) = (&self.certificate.1, self.certificate.1.len() as u64);
        // A binary certificate's bytes weigh more (gamecert_certificates::base::binary).
        let weighed = gamecert_certificates::base::binary::weighed(certificate, sent);
        let stored = (self.instance.1.len() as u64).saturating_add(weighed);
        max_work.unwrap_or_else(|| gamecert_certificates::Limits::for_input(stored).max_work)
    }

    /// The bytes the two files hold (their buffers, as the allocator counts them).
    fn held(&self) -> usize {
        [&self.instance, &self.certificate]
            .iter()
            .map(|(name, bytes)| {
                let chunk = |n: usize| {
                    std::alloc::Layout::array::<u8>(n).map_or(n, crate::base::held::chunk)
                };
                chunk(bytes.capacity()) + chunk(name.as_os_str().len())
            })
            .sum()
    }
}

impl Files {
    /// The two files' names (made safe to show) and bytes; the error is for a 400.
    pub fn decode(self) -> Result<Uploaded, String> {
        let instance = content("instance", self.instance, self.instance_base64)?;
        let certificate = content("certificate", self.certificate, self.certificate_base64)?;
        Ok(Uploaded {
            instance: (display_name(&self.instance_name, "instance"), instance),
            certificate: (display_name(&self.certificate_name, "certificate"), certificate),
        })
    }
}

/// A file's bytes from its text or its base64.
fn content(what: &str, text: Option<String>, base64: Option<String>) -> Result<Vec<u8>, String> {
    match (text, base64) {
        (Some(text), None) => Ok(text.into_bytes()),
        (None, Some(encoded)) => {
            decode_base64(&encoded).ok_or_else(|| format!("`{what}_base64` is not valid base64"))
        }
        (None, None) => Err(format!("the {what} is missing (`{what}` or `{what}_base64`)")),
        (Some(_), Some(_)) => Err(format!("give `{what}` or `{what}_base64`, not both")),
    }
}

/// The name a browser sent, as messages show it: its last path component, printable, at most
/// 100 characters; `fallback` when nothing is left (or it is `-`, standard input's name).
fn display_name(sent: &str, fallback: &str) -> PathBuf {
    let last = sent.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = last.chars().filter(|c| !c.is_control()).take(100).collect();
    let clean = clean.trim();
    if clean.is_empty() || clean == "-" || clean == "." || clean == ".." {
        PathBuf::from(fallback)
    } else {
        PathBuf::from(clean)
    }
}

/// Standard base64 (RFC 4648, padding optional, whitespace ignored); `None` if invalid.
/// Decoded as it is read: an upload of 64 MiB is not copied once more to drop its whitespace.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    // At most two `=` of padding at the end (whitespace around them ignored).
    let digits = text.trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '=');
    if text[digits.len()..].matches('=').count() > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() / 4 * 3 + 2);
    let (mut bits, mut count) = (0u32, 0);
    for c in digits.bytes().filter(|c| !c.is_ascii_whitespace()) {
        bits = bits << 6 | value(c)?;
        count += 1;
        if count == 4 {
            out.extend_from_slice(&bits.to_be_bytes()[1..]);
            (bits, count) = (0, 0);
        }
    }
    match count {
        0 => {}
        2 => out.push((bits >> 4) as u8),
        3 => out.extend_from_slice(&((bits >> 2) as u16).to_be_bytes()),
        _ => return None,
    }
    Some(out)
}

thread_local! {
    /// The uploaded files of the check running on this thread, by name, in the order the
    /// pipeline reads them (the instance first): two files of the same name are told apart so.
    static UPLOADS: RefCell<Vec<(PathBuf, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    /// The `kind` of the JSON file the pipeline read last (the certificate, read after the
    /// instance), to tell the page whether it can be played.
    static LAST_KIND: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The top-level `kind` of a JSON object (`None` for anything else: a DNF text, an edge list,
/// a binary `triangle-stream`). Read as the whole text is skipped, nothing of it kept.
fn json_kind(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Kind {
        kind: String,
    }
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return None;
    }
    serde_json::from_slice::<Kind>(bytes).ok().map(|k| k.kind)
}

/// The certificate kinds `hint`, `play` and the page follow, as the registry lists them.
fn playable_kinds() -> Vec<&'static str> {
    crate::registry::KINDS.iter().flat_map(|k| k.strategies.iter().copied()).collect()
}

/// The uploaded file named `path`, taken (each is read once).
fn take(path: &Path) -> Result<Vec<u8>, String> {
    UPLOADS.with(|uploads| {
        let mut uploads = uploads.borrow_mut();
        let at = uploads.iter().position(|(name, _)| name == path);
        at.map(|i| uploads.remove(i).1).ok_or_else(|| format!("{}: not uploaded", shown(path)))
    })
}

/// The pipeline's [`gamecert_certificates::verify::Reader`] over the uploads: decompressed as
/// `verify` decompresses a file, stored in as many bytes as were sent.
fn read(path: &Path, max_work: Option<u64>) -> Result<Content, String> {
    let content = crate::base::io::reader_of_bytes(path, take(path)?, max_work)?;
    let kind = json_kind(&content.bytes);
    LAST_KIND.with(|last| *last.borrow_mut() = kind);
    Ok(content)
}

/// The pipeline's [`gamecert_certificates::verify::Opener`] over the uploads.
fn open(path: &Path, max_work: Option<u64>) -> Result<Stream, String> {
    let content = read(path, max_work)?;
    Ok(Stream {
        unpacked: (content.bytes.len() as u64).saturating_sub(content.stored),
        stored: Some(content.stored),
        read: Box::new(std::io::Cursor::new(content.bytes)),
    })
}

/// `gamecert verify`'s answer on two uploaded files.
#[derive(Serialize, Debug)]
pub struct Answer {
    /// What `gamecert verify` prints (its standard output, then its standard error).
    pub text: String,
    pub accepted: bool,
    /// The exit code `verify` would give: 0 accepted, 1 rejected, 2 bad input, 3 not checked
    /// (the budget ran out before the check could decide).
    pub exit: u8,
    /// `accepted`, `rejected`, `not-checked` or `bad-input`, as `verify --json` says it.
    pub verdict: &'static str,
    /// Whether a game can be played from the two files: accepted, and a certificate that holds
    /// a strategy (the page offers "Play against it" only then).
    pub playable: bool,
    /// Why an accepted certificate cannot be played, for the page to say.
    pub unplayable: Option<String>,
}

/// Runs `gamecert verify`'s pipeline on the uploads with `max_work` (verify's `--max-work`).
/// Blocking: call it on the blocking pool.
pub fn verify(files: Uploaded, max_work: Option<u64>) -> Answer {
    let Uploaded { instance, certificate } = files;
    let names = (instance.0.clone(), certificate.0.clone());
    UPLOADS.with(|uploads| *uploads.borrow_mut() = vec![instance, certificate]);
    LAST_KIND.with(|last| *last.borrow_mut() = None);
    let outcome = gamecert_certificates::verify::run(&gamecert_certificates::verify::Request {
        instance: &names.0,
        certificate: &names.1,
        json: false,
        max_work,
        read,
        open,
        command: "verify",
        started: Some(std::time::Instant::now()),
    });
    // Nothing of one request stays on the pool's thread for the next.
    UPLOADS.with(|uploads| uploads.borrow_mut().clear());
    let kind = LAST_KIND.with(|last| last.borrow_mut().take());
    let accepted = outcome.code == 0;
    let playable_kinds = playable_kinds();
    let playable = accepted && kind.as_deref().is_some_and(|k| playable_kinds.contains(&k));
    let unplayable = (accepted && !playable).then(|| {
        let what = match &kind {
            Some(kind) => format!("a {kind} certificate"),
            None => "this certificate".to_string(),
        };
        format!(
            "{what} holds no strategy to play against: the kinds that can be played are {}",
            playable_kinds.join(", ")
        )
    });
    let verdict = outcome.verdict.as_ref().map_or("bad-input", |v| v.outcome.token());
    Answer {
        text: format!("{}{}", outcome.stdout, outcome.stderr),
        accepted,
        exit: outcome.code,
        verdict,
        playable,
        unplayable,
    }
}

/// Why no game can be started from an upload: bad input (400) or a rejected certificate.
pub enum Unplayable {
    BadInput(String),
    Rejected(String),
}

/// The strategy of two uploaded files, read as `hint` and `play` read theirs: the instance
/// parsed as `verify` parses it, the certificate checked with verify's budget (or
/// `max_work`) before it is used; with the bytes it holds, measured ([`crate::base::held`]:
/// what reading it allocated and kept, the files it consumed added back). Blocking.
pub fn strategy(files: Uploaded, max_work: Option<u64>) -> Result<(Strategy, usize), Unplayable> {
    let given = files.held();
    let (made, kept) = crate::base::held::measure_change(move || read_strategy(files, max_work));
    let held = usize::try_from(kept.saturating_add(given as isize)).unwrap_or(0);
    made.map(|strategy| (strategy, held))
}

/// [`strategy`], unmeasured.
fn read_strategy(files: Uploaded, max_work: Option<u64>) -> Result<Strategy, Unplayable> {
    let Uploaded { instance: (instance_name, instance), certificate: (certificate_name, cert) } =
        files;
    let bad = Unplayable::BadInput;
    if cert.starts_with(gamecert_certificates::triangle_avoidance::stream::MAGIC) {
        return Err(bad(format!(
            "{}: a triangle-stream certificate cannot be played (it would have to be read whole \
             for every reply); verify checks it, and a triangle-strategy (JSON) can be played",
            shown(&certificate_name)
        )));
    }
    let instance =
        crate::base::io::reader_of_bytes(&instance_name, instance, max_work).map_err(bad)?;
    let sizes =
        crate::base::io::Sizes { stored: instance.stored, content: instance.bytes.len() as u64 };
    let text = gamecert_certificates::verify::utf8(&instance_name, instance.bytes).map_err(bad)?;
    let parsed =
        gamecert_certificates::verify::parse_instance(&instance_name, &text).map_err(bad)?;
    drop(text);
    let cert = crate::base::io::reader_of_bytes(&certificate_name, cert, max_work).map_err(bad)?;
    // Either form; a binary certificate is decoded charging the budget `verify` gives.
    let weighed = gamecert_certificates::base::binary::weighed(&cert.bytes, cert.stored);
    let full = match max_work {
        Some(max_work) => gamecert_certificates::Limits::work(max_work),
        None => sizes.verify_limits(weighed),
    };
    let mut budget = full.budget();
    let certificate = gamecert_certificates::verify::read_certificate_bytes(
        &certificate_name,
        cert.bytes,
        &mut budget,
    )
    .map_err(bad)?;
    let limits = full.less(budget.used());
    match Strategy::checked(&parsed, &certificate, &limits) {
        Ok(strategy) => Ok(strategy),
        Err(rejected @ PlayError::Rejected { .. }) => {
            Err(Unplayable::Rejected(rejected.to_string()))
        }
        Err(PlayError::NoStrategy(why)) => Err(bad(format!("{}: {why}", shown(&certificate_name)))),
        Err(PlayError::BadInput(why)) => Err(bad(format!("{}: {why}", shown(&instance_name)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_and_refuses_garbage() {
        assert_eq!(decode_base64("aGVsbG8=").as_deref(), Some(&b"hello"[..]));
        assert_eq!(decode_base64("aGVsbG8").as_deref(), Some(&b"hello"[..]));
        assert_eq!(decode_base64("aGVs\nbG8h").as_deref(), Some(&b"hello!"[..]));
        assert_eq!(decode_base64("").as_deref(), Some(&b""[..]));
        assert!(decode_base64("a").is_none());
        assert!(decode_base64("a*==").is_none());
        assert!(decode_base64("aGVsbG8===").is_none());
        assert!(decode_base64("aG=VsbG8=").is_none());
        assert_eq!(decode_base64("aGk=\n").as_deref(), Some(&b"hi"[..]));
        assert_eq!(decode_base64("aGVsbG8h  \n").as_deref(), Some(&b"hello!"[..]));
        let all: Vec<u8> = (0..=255).collect();
        let encoded =
            "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4\
                       OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3Bx\
                       cnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmq\
                       q6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj\
                       5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==";
        assert_eq!(decode_base64(encoded), Some(all));
    }

    /// The page is told whether a certificate can be played by its top-level `kind` alone.
    #[test]
    fn a_json_kind_is_read_and_nothing_else_is() {
        let kind = |text: &str| json_kind(text.as_bytes());
        assert_eq!(
            kind(r#" {"a": {"kind": "inner"}, "kind": "witness"}"#).as_deref(),
            Some("witness")
        );
        assert_eq!(kind(r#"{"a": {"kind": "inner"}}"#), None);
        assert_eq!(kind("p dnf 3 1\n1 2\n"), None);
        assert_eq!(kind("\u{0}GCTS"), None);
        assert!(playable_kinds().contains(&"heap-labelling"));
        assert!(!playable_kinds().contains(&"witness"));
    }

    #[test]
    fn names_are_shown_never_paths() {
        assert_eq!(display_name("/etc/passwd", "x"), PathBuf::from("passwd"));
        assert_eq!(display_name("C:\\a\\b.json", "x"), PathBuf::from("b.json"));
        assert_eq!(display_name("-", "instance"), PathBuf::from("instance"));
        assert_eq!(display_name("a\u{1b}b", "x"), PathBuf::from("ab"));
    }

    /// The same verdict as `gamecert verify` gives on files of these names.
    #[test]
    fn an_upload_is_verified_by_the_pipeline() {
        let instance = r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles", "heaps": [1]}"#;
        let files = Files {
            instance_name: "k.json".into(),
            instance: Some(instance.into()),
            certificate_name: "c.json".into(),
            certificate: Some("not json".into()),
            ..Files::default()
        };
        let answer = verify(files.decode().unwrap(), None);
        assert_eq!(answer.exit, 2, "{answer:?}");
        assert!(answer.text.starts_with("error: c.json:"), "{answer:?}");
    }
}
