//! `gamecert hint INSTANCE CERTIFICATE [--position POS]`: the certified strategy's move at a
//! position written in the game's notation. Also the loading shared with `play`: the files read
//! as `verify` reads them and the certificate checked before it is used.

use gamecert::base::io::{open_stream, parse_sized_instance, read_certificate_within, BadInput};
use gamecert::play::{PlayError, Strategy};
use gamecert_certificates::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Print the certified strategy's move at a position (exit 0; 1 if the checker rejects the
/// certificate; 2 bad input, or no move to give there).
#[derive(clap::Args)]
pub struct Args {
    /// The instance (as for `verify`).
    instance: PathBuf,
    /// A strategy certificate (JSON or binary): checked by the checker before it is used.
    certificate: PathBuf,
    /// The position, in the game's notation (`W: a, c  B: b`, heap sizes `5 7 9`, ...);
    /// default: the start.
    #[arg(long)]
    position: Option<String>,
    /// Print the move and the position as JSON.
    #[arg(long)]
    json: bool,
    /// The checker's work budget, 1 to 10^15 units (as for `verify`).
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
}

/// Reads the two files as `verify` does and reads the strategy from the certificate once the
/// checker has accepted it with the budget `verify` would give. `Err(code)` when the checker
/// rejected the certificate (its verdict printed, exit 1).
pub fn load(
    instance_path: &Path,
    certificate_path: &Path,
    max_work: Option<u64>,
) -> anyhow::Result<Result<Strategy, ExitCode>> {
    let (instance, sizes) = parse_sized_instance(instance_path)?;
    refuse_stream(certificate_path)?;
    // Either form; a binary certificate is decoded charging the budget `verify` gives.
    let (certificate, limits) = read_certificate_within(certificate_path, |weighed| {
        max_work.map_or_else(|| sizes.verify_limits(weighed), Limits::work)
    })?;
    let shown = gamecert_certificates::verify::shown;
    match Strategy::checked(&instance, &certificate, &limits) {
        Ok(strategy) => Ok(Ok(strategy)),
        Err(rejected @ PlayError::Rejected { decision, .. }) => {
            println!("{rejected}");
            Ok(Err(ExitCode::from(decision.exit_code())))
        }
        Err(PlayError::NoStrategy(why)) => {
            Err(BadInput(format!("{}: {why}", shown(certificate_path))).into())
        }
        Err(PlayError::BadInput(why)) => {
            Err(BadInput(format!("{}: {why}", shown(instance_path))).into())
        }
    }
}

/// Refuses a `triangle-stream` certificate, looking at its first bytes only: its strategy
/// would have to be checked whole and a reply looked up level by level through a file too big
/// to hold, which is not a bounded read.
fn refuse_stream(certificate_path: &Path) -> anyhow::Result<()> {
    use std::io::Read;
    let mut head = Vec::new();
    open_stream(certificate_path)?.take(8).read_to_end(&mut head)?;
    if head == gamecert_certificates::triangle_avoidance::stream::MAGIC {
        return Err(BadInput(format!(
            "{}: a triangle-stream certificate cannot be played: `hint` and `play` would have \
             to check it whole and then look each reply up through levels read from a file \
             too big to hold, more than a bounded read; `gamecert verify` checks it, and a \
             triangle-strategy (JSON) of the same game can be played",
            gamecert_certificates::verify::shown(certificate_path)
        ))
        .into());
    }
    Ok(())
}

/// Runs the command.
pub fn run(args: Args, _quiet: bool) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let strategy = match load(&args.instance, &args.certificate, args.max_work)? {
        Ok(strategy) => strategy,
        Err(code) => return Ok(code),
    };
    let position = match &args.position {
        Some(text) => strategy
            .parse_position(text)
            .map_err(|why| BadInput(format!("--position '{text}': {why}")))?,
        None => strategy.start(),
    };
    let notation = position.notation();
    if let Some(outcome) = position.outcome() {
        return Err(BadInput(format!(
            "the game is over at '{notation}' ({}): there is no move to give",
            outcome.result
        ))
        .into());
    }
    let mover = strategy.side_name(position.to_move());
    let Some(mv) = strategy.reply(&position) else {
        if !strategy.certifies(position.to_move()) {
            // The side to move is the one the certificate proves cannot win: it has no moves.
            let certified = strategy.side_name(position.to_move().other());
            return Err(BadInput(format!(
                "this certificate holds a strategy for {certified} only (it proves that {}); it \
                 cannot advise {mover}, who is to move here. Hints come at positions where \
                 {certified} is to move (--position); `gamecert play` with `--as {}` plays \
                 {mover} against the strategy",
                strategy.claim(),
                match position.to_move() {
                    gamecert::play::Side::First => "first",
                    gamecert::play::Side::Second => "second",
                }
            ))
            .into());
        }
        return Err(BadInput(format!(
            "the certificate gives {mover} no move at '{notation}': it proves its claim ({}) \
             for the plays where the certified side follows it, and this position is not one \
             of them where that side is to move",
            strategy.claim()
        ))
        .into());
    };
    if args.json {
        let summary = format!("{mover} plays {mv}");
        let fields = serde_json::json!({
            "kind": strategy.kind(), "claim": strategy.claim(), "position": notation,
            "to_move": mover, "move": mv.notation(),
        });
        crate::cli::print_json("hint", "accepted", &summary, started, fields)?;
    } else {
        println!("position: {notation}");
        println!("{mover} to move; the certified strategy ({}) plays: {mv}", strategy.claim());
    }
    Ok(ExitCode::SUCCESS)
}
