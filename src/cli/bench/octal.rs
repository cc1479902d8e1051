//! `gamecert bench octal`: how fast the nim-sequences of Kayles, Dawson's Kayles, Dawson's
//! chess and Grundy's game are computed ([`gamecert::impartial::octal`]).
//!
//! Each game to 2^20 (`--quick`: 2^14) by the rare/common method with the Guy-Smith shortcut
//! (a proven period extends the rest); each by the rare/common method alone (Dawson's Kayles
//! and Dawson's chess only to 2^16, because their value 0, which is always rare, recurs with
//! period 34, and a rare value costs a scan over every split); Grundy's game further (2^21,
//! 2^22); and the plain quadratic mex at 2^14 for contrast. Times are wall-clock seconds on one
//! thread.

use gamecert::impartial::octal::{nim_sequence, periodicity, plain, sparse, Rules};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Instant;

/// One measurement.
#[derive(Clone, Debug, Serialize)]
pub struct OctalRow {
    pub game: String,
    pub code: String,
    /// G(0..=n).
    #[serde(rename = "max_heap")]
    pub n: usize,
    pub method: String,
    pub seconds: f64,
    /// Values computed by the method itself (the rest by a proven period).
    pub computed: usize,
    pub mask: Option<u32>,
    pub rare_positions: Option<usize>,
    pub rare_heaps: Option<u64>,
    pub period: String,
}

const GAMES: [(&str, &str); 4] = [
    ("Kayles", "0.77"),
    ("Dawson's Kayles", "0.07"),
    ("Dawson's chess", "0.137"),
    ("Grundy's game", "grundy"),
];

fn period_text(rules: &Rules, g: &[u32]) -> String {
    match periodicity(rules, g) {
        Some(p) => {
            format!("p {} e {}{}", p.period, p.preperiod, if p.proven { " (proven)" } else { "" })
        }
        None => "none seen".into(),
    }
}

/// Runs the measurements (`quick`: smaller sizes). `note` gets a line per row as it is done.
pub fn octal(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<OctalRow>> {
    let big = if quick { 1 << 14 } else { 1 << 20 };
    let mut rows = Vec::new();
    let mut push = |row: OctalRow| {
        note(&format!("{} to {}: {} in {:.3} s", row.game, row.n, row.method, row.seconds));
        rows.push(row);
    };
    for (name, code) in GAMES {
        let rules = Rules::parse(code).map_err(anyhow::Error::msg)?;
        let started = Instant::now();
        let (g, report) = nim_sequence(&rules, big);
        let seconds = started.elapsed().as_secs_f64();
        push(OctalRow {
            game: name.into(),
            code: rules.code(),
            n: big,
            method: if report.extended.is_some() {
                "rare/common, then the proven period".into()
            } else {
                "rare/common".into()
            },
            seconds,
            computed: report.computed,
            mask: Some(report.stats.mask),
            rare_positions: Some(report.stats.rare_positions),
            rare_heaps: Some(report.stats.rare_heaps),
            period: period_text(&rules, &g),
        });
        let mut sizes = vec![];
        match code {
            "0.77" => sizes.push(big),
            "0.07" | "0.137" => sizes.push(if quick { 1 << 12 } else { 1 << 16 }),
            _ if !quick => sizes.extend([1 << 21, 1 << 22]),
            _ => {}
        }
        for n in sizes {
            let started = Instant::now();
            let (g, stats) = sparse(&rules, n);
            let seconds = started.elapsed().as_secs_f64();
            push(OctalRow {
                game: name.into(),
                code: rules.code(),
                n,
                method: "rare/common alone".into(),
                seconds,
                computed: n + 1,
                mask: Some(stats.mask),
                rare_positions: Some(stats.rare_positions),
                rare_heaps: Some(stats.rare_heaps),
                period: period_text(&rules, &g),
            });
        }
        let n = if quick { 1 << 12 } else { 1 << 14 };
        let started = Instant::now();
        let g = plain(&rules, n);
        let seconds = started.elapsed().as_secs_f64();
        push(OctalRow {
            game: name.into(),
            code: rules.code(),
            n,
            method: "plain mex".into(),
            seconds,
            computed: n + 1,
            mask: None,
            rare_positions: None,
            rare_heaps: None,
            period: period_text(&rules, &g),
        });
    }
    Ok(rows)
}

/// The rows as a Markdown table.
pub fn octal_table(rows: &[OctalRow]) -> String {
    let mut out = String::from(
        "| game | code | n | method | seconds | computed | mask | rare positions | rare heaps | period |\n\
         |---|---|---:|---|---:|---:|---:|---:|---:|---|\n",
    );
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.3} | {} | {} | {} | {} | {} |",
            r.game,
            r.code,
            r.n,
            r.method,
            r.seconds,
            r.computed,
            opt(r.mask.map(|m| format!("{m:#b}"))),
            opt(r.rare_positions.map(|v| v.to_string())),
            opt(r.rare_heaps.map(|v| v.to_string())),
            r.period
        );
    }
    out
}
