//! `gamecert nim OP A [B]`: nim arithmetic on numbers below 2^128.

use clap::{Args as ClapArgs, ValueEnum};
use gamecert::base::io::BadInput;
use std::process::ExitCode;

/// Nim arithmetic (decimal numbers below 2^128): `nim sum A B`, `nim mul A B`, `nim inv A`.
#[derive(ClapArgs)]
pub struct Args {
    /// The operation.
    #[arg(value_enum)]
    op: NimOp,
    /// The first number (decimal).
    a: String,
    /// The second number (sum and mul).
    b: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum NimOp {
    /// Nim sum (XOR).
    Sum,
    /// Nim product.
    Mul,
    /// Nim inverse (of a non-zero number).
    Inv,
}

/// `gamecert nim OP A [B]`: the result on standard output.
fn nim_command(op: NimOp, a: &str, b: Option<&str>) -> anyhow::Result<ExitCode> {
    let number = |name: &str, text: &str| {
        text.trim().parse::<u128>().map_err(|_| {
            BadInput(format!("{name}: '{text}' is not a decimal number from 0 to 2^128 - 1"))
        })
    };
    let a = number("A", a)?;
    let result = match (op, b) {
        (NimOp::Inv, Some(_)) => return Err(BadInput("nim inv takes one number, A".into()).into()),
        (NimOp::Inv, None) => gamecert::impartial::nim::inverse_128(a)
            .ok_or_else(|| BadInput("nim inv: 0 has no inverse".into()))?,
        (_, None) => {
            return Err(BadInput("nim sum and nim mul take two numbers, A and B".into()).into())
        }
        (NimOp::Sum, Some(b)) => a ^ number("B", b)?,
        (NimOp::Mul, Some(b)) => {
            let b = number("B", b)?;
            match (u64::try_from(a), u64::try_from(b)) {
                (Ok(a), Ok(b)) => gamecert::impartial::nim::mul(a, b) as u128,
                _ => gamecert::impartial::nim::mul_128(a, b),
            }
        }
    };
    println!("{result}");
    Ok(ExitCode::SUCCESS)
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { op, a, b } = args;
    let _ = quiet;
    nim_command(op, &a, b.as_deref())
}
