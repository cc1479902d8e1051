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
    /// Print the result as JSON (the numbers as decimal strings: they may pass 2^53).
    #[arg(long)]
    json: bool,
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

/// `gamecert nim OP A [B]`: the numbers read and the result.
fn nim_result(op: NimOp, a: &str, b: Option<&str>) -> anyhow::Result<(u128, Option<u128>, u128)> {
    let number = |name: &str, text: &str| {
        text.trim().parse::<u128>().map_err(|_| {
            BadInput(format!("{name}: '{text}' is not a decimal number from 0 to 2^128 - 1"))
        })
    };
    let a = number("A", a)?;
    let b = match (op, b) {
        (NimOp::Inv, Some(_)) => return Err(BadInput("nim inv takes one number, A".into()).into()),
        (NimOp::Inv, None) => {
            let inverse = gamecert::impartial::nim::inverse_128(a)
                .ok_or_else(|| BadInput("nim inv: 0 has no inverse".into()))?;
            return Ok((a, None, inverse));
        }
        (_, None) => {
            return Err(BadInput("nim sum and nim mul take two numbers, A and B".into()).into())
        }
        (_, Some(b)) => number("B", b)?,
    };
    let result = match (op, u64::try_from(a), u64::try_from(b)) {
        (NimOp::Sum, ..) => a ^ b,
        (_, Ok(a), Ok(b)) => gamecert::impartial::nim::mul(a, b) as u128,
        _ => gamecert::impartial::nim::mul_128(a, b),
    };
    Ok((a, Some(b), result))
}

/// Runs the command: the result on standard output, alone or as JSON.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { op, a, b, json } = args;
    let _ = quiet;
    let started = std::time::Instant::now();
    let (a, b, result) = nim_result(op, &a, b.as_deref())?;
    if json {
        let summary = match (op, b) {
            (NimOp::Sum, Some(b)) => format!("the nim sum of {a} and {b} is {result}"),
            (NimOp::Mul, Some(b)) => format!("the nim product of {a} and {b} is {result}"),
            _ => format!("the nim inverse of {a} is {result}"),
        };
        let mut fields = serde_json::json!({ "a": a.to_string(), "result": result.to_string() });
        if let Some(b) = b {
            fields["b"] = b.to_string().into();
        }
        let command = crate::cli::command_name(&["nim"], Some(&op));
        crate::cli::print_json(&command, "unchecked", &summary, started, fields)?;
    } else {
        println!("{result}");
    }
    Ok(ExitCode::SUCCESS)
}
