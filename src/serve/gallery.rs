//! The gallery: the cases `gamecert serve` offers by name (the demo's, from the command line),
//! each checked once when the server starts. Only a certificate the checker accepted is
//! offered; a strategy certificate is also read for play.
//!
//! The server listens at once and prepares the gallery beside it ([`Preparing`]): until it is
//! ready, the routes that need it answer 503 with Retry-After and how far the preparation has
//! got, and the page says so (issue 42, item 5: solving the demo's 28 cases took 35 s under
//! load, with the port closed all that time).

use crate::play::{PlayError, Strategy};
use axum::body::Bytes;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::Limits;
use serde::Serialize;
use std::sync::{Mutex, OnceLock};

/// A picture larger than this is not sent (a 20,000-point triangulation drawn as text would be
/// megabytes): a short note stands in for it.
pub const MAX_PICTURE_BYTES: usize = 1 << 20;

/// An instance whose certificate has no picture is drawn alone only up to this size of its
/// JSON text: the layout of a 20,000-point triangulation (a megabyte) takes minutes.
pub const MAX_DRAWN_INSTANCE_BYTES: usize = 100_000;

/// A case as given: its name (how requests address it), its description and its two files'
/// texts.
#[derive(Clone, Debug)]
pub struct CaseFiles {
    pub name: String,
    pub description: String,
    pub instance: String,
    pub certificate: String,
}

/// A case the checker accepted.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub description: String,
    pub kind: String,
    pub claim: String,
    /// The start position (a strategy) or the certificate's picture, as SVG.
    pub picture: String,
    /// The strategy, when the certificate holds one that can be played.
    pub strategy: Option<Strategy>,
}

/// The cases offered, in order.
#[derive(Clone, Debug, Default)]
pub struct Gallery {
    pub cases: Vec<Case>,
}

impl Gallery {
    /// Checks every case (with verify's budget for its texts, or `max_work`) and keeps those
    /// the checker accepted; the others are returned with why, for the command line to say.
    /// `done(k)` is told each time `k` cases are checked and drawn.
    pub fn load(
        files: Vec<CaseFiles>,
        max_work: Option<u64>,
        done: &dyn Fn(u64),
    ) -> (Gallery, Vec<String>) {
        let mut cases = Vec::new();
        let mut dropped = Vec::new();
        for (k, file) in files.into_iter().enumerate() {
            done(k as u64);
            match load_case(&file, max_work) {
                Ok(case) => cases.push(case),
                Err(why) => dropped.push(format!("{}: {why}", file.name)),
            }
        }
        (Gallery { cases }, dropped)
    }

    /// The case named `name`.
    pub fn case(&self, name: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.name == name)
    }
}

/// How far the gallery's preparation has got: its stage in words, and the cases done of the
/// stage's total.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Progress {
    pub stage: String,
    pub done: u64,
    pub total: u64,
}

/// A gallery ready to offer, with `GET /api/gallery`'s answer made once.
pub struct Ready {
    pub gallery: Gallery,
    pub answer: Bytes,
}

/// Where the gallery stands.
pub enum State<'a> {
    /// Still being prepared, so far.
    Preparing(Progress),
    Ready(&'a Ready),
    /// The preparation failed, for this reason (the server still verifies and plays uploads).
    Failed(&'a str),
}

/// The gallery being prepared while the server already answers: the preparation reports its
/// progress here and hands over the gallery once, then every request sees it ready.
pub struct Preparing {
    progress: Mutex<Progress>,
    outcome: OnceLock<Result<Ready, String>>,
}

impl Default for Preparing {
    fn default() -> Preparing {
        Preparing::new()
    }
}

impl Preparing {
    /// Nothing prepared yet.
    pub fn new() -> Preparing {
        let progress = Progress { stage: "starting".into(), done: 0, total: 0 };
        Preparing { progress: Mutex::new(progress), outcome: OnceLock::new() }
    }

    /// A gallery ready from the start (for tests and embedders with their cases at hand).
    pub fn ready(gallery: Gallery) -> Preparing {
        let preparing = Preparing::new();
        preparing.finish(Ok(gallery));
        preparing
    }

    /// The preparation is at `done` of `total` in `stage` ("solving the demo's cases").
    pub fn report(&self, stage: &str, done: u64, total: u64) {
        let mut progress = self.progress.lock().unwrap_or_else(|p| p.into_inner());
        *progress = Progress { stage: stage.to_string(), done, total };
    }

    /// The preparation's end: the gallery, or why there is none. Only the first call counts.
    pub fn finish(&self, outcome: Result<Gallery, String>) {
        let ready = outcome.map(|gallery| {
            let answer = Bytes::from(gallery_json(&gallery));
            Ready { gallery, answer }
        });
        let _ = self.outcome.set(ready);
    }

    /// Where the gallery stands now.
    pub fn state(&self) -> State<'_> {
        match self.outcome.get() {
            Some(Ok(ready)) => State::Ready(ready),
            Some(Err(why)) => State::Failed(why),
            None => {
                State::Preparing(self.progress.lock().unwrap_or_else(|p| p.into_inner()).clone())
            }
        }
    }
}

/// One case read, checked, drawn.
fn load_case(files: &CaseFiles, max_work: Option<u64>) -> Result<Case, String> {
    let instance = Instance::from_json(&files.instance).map_err(|e| e.to_string())?;
    let certificate = Certificate::from_json(&files.certificate).map_err(|e| e.to_string())?;
    let stored = (files.instance.len() + files.certificate.len()) as u64;
    let limits = max_work.map_or_else(|| Limits::for_input(stored), Limits::work);
    let caption = format!("{}: {}", files.name, files.description);
    let (claim, picture, strategy) = match Strategy::checked(&instance, &certificate, &limits) {
        Ok(strategy) => {
            // The start as a player sees it: the page keeps the strategy secret.
            let picture = strategy.start().board(&caption);
            (strategy.stated_claim().to_string(), picture, Some(strategy))
        }
        Err(PlayError::Rejected { reason, .. }) => return Err(format!("rejected: {reason}")),
        Err(PlayError::BadInput(why)) => return Err(why),
        // Not a strategy: checked as verify checks it, and drawn by `render`'s code.
        Err(PlayError::NoStrategy(_)) => {
            let verdict = gamecert_certificates::check(&instance, &certificate, &limits);
            if !verdict.accepted() {
                return Err(format!("rejected: {}", verdict.reason));
            }
            let name = format!("{}.instance.json", files.name);
            // The certificate's play where it has one (a witness), else the instance alone
            // when it is small (laying out 20,000 points takes minutes).
            let small = files.instance.len() <= MAX_DRAWN_INSTANCE_BYTES;
            let picture = crate::api::Loaded::from_instance(instance, &name)
                .map_err(|e| e.to_string())
                .and_then(|loaded| {
                    crate::api::svg(&loaded, Some(&certificate), &caption)
                        .or_else(|e| {
                            if small {
                                crate::api::svg(&loaded, None, &caption)
                            } else {
                                Err(e)
                            }
                        })
                        .map_err(|e| e.to_string())
                })
                .unwrap_or_else(|why| crate::base::svg::text_picture(&why, None, &caption));
            (verdict.claim, picture, None)
        }
    };
    Ok(Case {
        name: files.name.clone(),
        description: files.description.clone(),
        kind: certificate.kind().to_string(),
        claim,
        picture: bounded_picture(picture, &caption),
        strategy,
    })
}

/// `svg`, or a note in its place when it is larger than [`MAX_PICTURE_BYTES`].
pub fn bounded_picture(svg: String, caption: &str) -> String {
    if svg.len() <= MAX_PICTURE_BYTES {
        return svg;
    }
    let note = format!(
        "The picture is too large to send ({} bytes); the moves are listed below.",
        crate::base::limits::grouped(svg.len() as u128)
    );
    crate::base::svg::text_picture(&note, None, caption)
}

/// `GET /api/gallery`'s answer: every case with its picture and claim.
pub fn gallery_json(gallery: &Gallery) -> Vec<u8> {
    let cases: Vec<_> = gallery
        .cases
        .iter()
        .map(|case| {
            serde_json::json!({
                "name": case.name, "description": case.description, "kind": case.kind,
                "claim": case.claim, "picture": case.picture, "playable": case.strategy.is_some(),
            })
        })
        .collect();
    // Strings and booleans only: serialising cannot fail.
    serde_json::to_vec(&serde_json::json!({ "cases": cases })).unwrap_or_default()
}
