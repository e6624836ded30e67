//! `minotty-bot`: a Tetris Bot Protocol bot. It reads TBP messages on stdin, one JSON object a
//! line, and answers on stdout (see `minotty_tbp::bot`).

use std::io::{self, BufWriter};
use std::process::ExitCode;

use minotty_tbp::bot::{Fault, FaultKind, run};

const USAGE: &str = "\
minotty-bot: a Tetris Bot Protocol (TBP) bot on stdin and stdout.

Usage: minotty-bot

A TBP frontend starts it and talks to it; e.g. minotty's server:
  minotty --tbp-bot minotty=minotty-bot

Testing the frontend (not for play):
  --fault KIND[@N]   misbehave after N correct suggestions; KIND is one of
                     garbage, wrong-type, impossible, hang, exit, endless-line, alloc, flood
";

fn main() -> ExitCode {
    let mut fault = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-V" | "--version" => {
                println!("minotty-bot {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            "--fault" => match args.next().as_deref().and_then(Fault::parse) {
                Some(f) => fault = Some(f),
                None => {
                    let kinds: Vec<&str> = FaultKind::ALL.iter().map(|(n, _)| *n).collect();
                    eprintln!(
                        "minotty-bot: --fault takes KIND[@N], KIND one of {}",
                        kinds.join(", ")
                    );
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("minotty-bot: unknown argument {other:?}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match run(stdin, stdout, fault) {
        Ok(()) => ExitCode::SUCCESS,
        // The frontend closed our output: nothing more to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minotty-bot: {e}");
            ExitCode::FAILURE
        }
    }
}
