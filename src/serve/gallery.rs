//! The gallery: the cases `gamecert serve` offers by name (the demo's, from the command line),
//! each checked once when the server starts. Only a certificate the checker accepted is
//! offered; a strategy certificate is also read for play.

use crate::play::{PlayError, Strategy};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::Limits;

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
    pub fn load(files: Vec<CaseFiles>, max_work: Option<u64>) -> (Gallery, Vec<String>) {
        let mut cases = Vec::new();
        let mut dropped = Vec::new();
        for file in files {
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

/// One case read, checked, drawn.
fn load_case(files: &CaseFiles, max_work: Option<u64>) -> Result<Case, String> {
    let instance = Instance::from_json(&files.instance).map_err(|e| e.to_string())?;
    let certificate = Certificate::from_json(&files.certificate).map_err(|e| e.to_string())?;
    let stored = (files.instance.len() + files.certificate.len()) as u64;
    let limits = max_work.map_or_else(|| Limits::for_input(stored), |max_work| Limits { max_work });
    let caption = format!("{}: {}", files.name, files.description);
    let (claim, picture, strategy) = match Strategy::checked(&instance, &certificate, &limits) {
        Ok(strategy) => {
            let picture = strategy.start().svg(None, &caption);
            (strategy.stated_claim().to_string(), picture, Some(strategy))
        }
        Err(PlayError::Rejected { reason, .. }) => return Err(format!("rejected: {reason}")),
        Err(PlayError::BadInput(why)) => return Err(why),
        // Not a strategy: checked as verify checks it, and drawn by `render`'s code.
        Err(PlayError::NoStrategy(_)) => {
            let verdict = gamecert_certificates::check(&instance, &certificate, &limits);
            if !verdict.accepted {
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
