//! `minotty-bot`: a Tetris Bot Protocol bot. It reads TBP messages on stdin, one JSON object a
//! line, and answers on stdout (see `minotty_tbp::bot`).

use std::io::{self, BufWriter};
use std::process::ExitCode;

use minotty_bots::versus::Level;
use minotty_tbp::bot::{Fault, FaultKind, Options, run};

const USAGE: &str = "\
minotty-bot: a Tetris Bot Protocol (TBP) bot on stdin and stdout.

Usage: minotty-bot [--level N]

  --level N          choose with the engine's versus brain at level N (1 gentle .. 7
                     relentless; lower levels make mistakes on purpose) instead of
                     minotty-bot's own search

A TBP frontend starts it and talks to it; e.g. minotty's server:
  minotty --tbp-bot minotty=minotty-bot --tbp-bot relentless=\"minotty-bot --level 7\"

Testing the frontend (not for play):
  --fault KIND[@N]   misbehave after N correct suggestions; KIND is one of
                     garbage, wrong-type, impossible, hang, exit, endless-line, alloc, flood,
                     slow; or cold-start (empty suggestions for 50 ms after each start, as
                     Cold Clear 2), spin (a core kept busy from the first start on),
                     orphan (once, a child that calls setsid and sleeps), fork-many (once,
                     200 children that sleep)
";

fn main() -> ExitCode {
    // The keeper of a bot (the frontend's, `minotty_tbp::frontend::keeper`): in tests of the
    // frontend this binary keeps the bots the test server starts.
    #[cfg(feature = "frontend")]
    if let Some(code) = minotty_tbp::frontend::keeper::run_if_asked(std::env::args_os()) {
        return ExitCode::from(code);
    }
    let mut options = Options::default();
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
                Some(f) => options.fault = Some(f),
                None => {
                    let kinds: Vec<&str> = FaultKind::ALL.iter().map(|(n, _)| *n).collect();
                    eprintln!(
                        "minotty-bot: --fault takes KIND[@N], KIND one of {}",
                        kinds.join(", ")
                    );
                    return ExitCode::from(2);
                }
            },
            "--level" => match args
                .next()
                .and_then(|n| n.parse().ok())
                .and_then(Level::new)
            {
                Some(level) => options.level = Some(level),
                None => {
                    eprintln!("minotty-bot: --level takes a number from 1 to 7");
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
    match run(stdin, stdout, options) {
        Ok(()) => ExitCode::SUCCESS,
        // The frontend closed our output: nothing more to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("minotty-bot: {e}");
            ExitCode::FAILURE
        }
    }
}
