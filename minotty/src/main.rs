//! The `minotty` binary: its command line (`cli.rs`) and the config file, then `serve` (the SSH
//! game server, the default), `play` (the local game), `arena` or `host-key`; the libraries do
//! the rest.

mod cli;
mod logging;
mod serve;
mod side_tasks;
mod signal;

use anyhow::Context;
use minotty_server::HostKey;
use minotty_server::config::ConfigError;

use cli::{Cli, Command};

/// The target of the binary's own log lines: `minotty`, as when they were all in `main.rs`, so
/// that a log filter or collector naming it keeps working.
const LOG_TARGET: &str = "minotty";

fn main() -> anyhow::Result<()> {
    // The keeper of a TBP bot the server starts (`minotty __tbp-keeper ...`), before anything.
    if let Some(code) = minotty_tbp::frontend::keeper::run_if_asked(std::env::args_os()) {
        std::process::exit(code.into());
    }
    let loaded = match minotty_server::config::parse_with_config::<Cli, _, _>(std::env::args_os()) {
        Ok(loaded) => loaded,
        Err(ConfigError::Cli(e)) => e.exit(),
        Err(ConfigError::File(e)) => {
            eprintln!("minotty: {e}");
            std::process::exit(2);
        }
    };
    let cli = loaded.cli;
    let serve_args = match cli.command {
        Some(Command::Play(args)) => return minotty_local::run(args),
        Some(Command::Arena(args)) if !args.tbp.is_empty() => {
            let report = minotty_tbp::arena::tbp::run(&args).context("the arena")?;
            print!("{}", report.render());
            return Ok(());
        }
        Some(Command::Arena(args)) => {
            print!("{}", minotty_tbp::arena::run(&args).render());
            return Ok(());
        }
        Some(Command::HostKey(args)) => {
            let (key, generated) = HostKey::load_or_generate(&args.host_key)?;
            let what = if generated { "created" } else { "exists" };
            println!(
                "{} {what}, fingerprint {}",
                args.host_key.display(),
                key.fingerprint()
            );
            return Ok(());
        }
        Some(Command::Serve(args)) => *args,
        None => cli.serve,
    };
    if serve_args.print_config {
        print!("{}", loaded.effective);
        return Ok(());
    }
    serve::serve(serve_args)
}
