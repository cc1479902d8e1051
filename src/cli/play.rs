//! `gamecert play INSTANCE CERTIFICATE [--as first|second]`: a person plays against the
//! certified strategy, reading moves line by line from standard input (a terminal or a pipe).
//! Each position is drawn in a few lines whatever the board's size (the families' `draw` and
//! `summary`), so that a game reads as a short transcript.

use clap::ValueEnum;
use gamecert::play::{render_text, Side, Strategy};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Play against the certified strategy in the terminal: moves in the game's notation, one a
/// line; `moves`, `help`, `quit`.
#[derive(clap::Args)]
pub struct Args {
    /// The instance (as for `verify`).
    instance: PathBuf,
    /// A strategy certificate (JSON): checked by the checker before it is used.
    certificate: PathBuf,
    /// The side you play (default: the one the certificate proves cannot win; in the Voronoi
    /// game W is first, B second).
    #[arg(long = "as", value_enum)]
    side: Option<SideArg>,
    /// The checker's work budget, 1 to 10^15 units (as for `verify`).
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
}

#[derive(Clone, Copy, ValueEnum)]
enum SideArg {
    /// The player who moves first (W in the Voronoi game, A in triangle avoidance).
    First,
    /// The other player.
    Second,
}

/// Runs the command.
pub fn run(args: Args, _quiet: bool) -> anyhow::Result<ExitCode> {
    let strategy = match crate::cli::hint::load(&args.instance, &args.certificate, args.max_work)? {
        Ok(strategy) => strategy,
        Err(code) => return Ok(code),
    };
    let human = match args.side {
        Some(SideArg::First) => Side::First,
        Some(SideArg::Second) => Side::Second,
        None => strategy.default_human(),
    };
    let stdin = std::io::stdin();
    play(&strategy, human, &mut stdin.lock(), &mut std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// The game loop: after every move, the move (`You played b.`, `W (the certified strategy)
/// replied c.`), the position drawn compactly, its one-line summary (who owns what, the score so
/// far) and its notation; reads the person's moves from `input`, answers with the strategy's,
/// and ends with the result beside the certified claim.
fn play(
    strategy: &Strategy,
    human: Side,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let (you, it) = (strategy.side_name(human), strategy.side_name(human.other()));
    writeln!(
        out,
        "The checker accepted the certificate ({}): {}.",
        strategy.kind(),
        strategy.stated_claim()
    )?;
    writeln!(out, "You play {you}; the certified strategy plays {it}.")?;
    writeln!(out, "Type a move, `moves` (the legal moves), `help` or `quit`.")?;
    let mut position = strategy.start();
    // The move that led here, said above the drawing.
    let mut last: Option<String> = None;
    loop {
        writeln!(out)?;
        if let Some(last) = &last {
            writeln!(out, "{last}")?;
        }
        write!(out, "{}", render_text(&position))?;
        let summary = position.summary();
        if !summary.is_empty() {
            writeln!(out, "{summary}")?;
        }
        writeln!(out, "position: {}", position.notation())?;
        if let Some(outcome) = position.outcome() {
            writeln!(out, "Result: {}.", outcome.result)?;
            let claim = match strategy.claim_met(&position, human.other()) {
                Some(true) => format!("{it} achieved it"),
                Some(false) => {
                    format!("{it} did not achieve it (it was not following the certificate)")
                }
                None => format!("it is a claim for {you}, whom you played"),
            };
            writeln!(out, "Certified claim: {}; {claim}.", strategy.stated_claim())?;
            return Ok(());
        }
        let mover = position.to_move();
        if mover != human {
            let (mv, note) = match strategy.reply(&position) {
                Some(mv) => (mv, String::new()),
                None => {
                    let first = position.legal_moves().into_iter().next();
                    let mv = first.expect("a game that is not over has a legal move");
                    (mv, " (the certificate gives no move here: the first legal move)".to_string())
                }
            };
            let verb = if last.is_some() { "replied" } else { "opened with" };
            last = Some(format!("{it} (the certified strategy) {verb} {mv}{note}."));
            position = position.apply(&mv);
            continue;
        }
        loop {
            write!(out, "{you} to move> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out, "\nInput ended: the game is left unfinished.")?;
                return Ok(());
            }
            match line.trim() {
                "" => continue,
                "quit" | "exit" => {
                    writeln!(out, "You quit: the game is left unfinished.")?;
                    return Ok(());
                }
                "help" => writeln!(
                    out,
                    "{}.\n`moves` lists the legal moves, `quit` ends the game.",
                    strategy.move_syntax()
                )?,
                "moves" => {
                    let moves: Vec<String> =
                        position.legal_moves().iter().map(|m| m.to_string()).collect();
                    writeln!(out, "{}", moves_listing(&moves))?;
                }
                text => match position.parse_move(text) {
                    Ok(mv) => {
                        last = Some(format!("You played {mv}."));
                        position = position.apply(&mv);
                        break;
                    }
                    // The family says why; where to find the legal moves is the terminal's own.
                    Err(why) => writeln!(
                        out,
                        "illegal move '{text}': {why} (`moves` lists the legal moves)"
                    )?,
                },
            }
        }
    }
}

/// At most this many characters of moves in one `moves` answer: a coin game can have tens of
/// thousands of legal moves, megabytes in all, and a person reads the first screen.
const LISTED_CHARACTERS: usize = 1500;

/// The `moves` answer, one line with the count first: every legal move when they fit in
/// [`LISTED_CHARACTERS`] (`3 legal moves: a b c`), otherwise the first ones that fit and how
/// many more there are.
fn moves_listing(moves: &[String]) -> String {
    let mut shown = 0;
    let mut length = 0;
    for m in moves {
        if length + m.len() + 1 > LISTED_CHARACTERS {
            break;
        }
        length += m.len() + 1;
        shown += 1;
    }
    let listed = moves[..shown].join(" ");
    let count = match moves.len() {
        1 => "1 legal move".to_string(),
        n => format!("{} legal moves", gamecert::base::limits::grouped(n as u128)),
    };
    if moves.is_empty() {
        "no legal moves".into()
    } else if shown == moves.len() {
        format!("{count}: {listed}")
    } else {
        format!("{count}: {listed} ... ({CUT_MARK} {shown} shown; type any legal move)")
    }
}

/// Where a cut listing's note begins (after the moves shown).
const CUT_MARK: &str = "the first";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_move_lists_are_cut_with_a_count() {
        let few: Vec<String> = ["a", "b"].map(String::from).to_vec();
        assert_eq!(moves_listing(&few), "2 legal moves: a b");
        assert_eq!(moves_listing(&few[..1]), "1 legal move: a");
        assert_eq!(moves_listing(&[]), "no legal moves");
        let many: Vec<String> = (0..100_000).map(|i| format!("({i},{i})+({i},1)")).collect();
        let listing = moves_listing(&many);
        assert!(listing.len() < LISTED_CHARACTERS + 100, "{}", listing.len());
        assert!(!listing.contains('\n'), "{listing}");
        assert!(listing.starts_with("100,000 legal moves: (0,0)+(0,1) (1,1)+(1,1) "), "{listing}");
        assert!(listing.contains(" ... (the first "), "{listing}");
        assert!(listing.ends_with(" shown; type any legal move)"), "{listing}");
    }
}
