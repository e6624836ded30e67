//! The binary's command line: `serve` (the default; its flags are the server's
//! [`ServeArgs`], read with the config file by `minotty_server::config::parse_with_config`),
//! `play` (the local game's [`PlayArgs`]), `arena` and `host-key`. The server crate knows only
//! its own flags: the other subcommands, and the crates behind them, are the binary's.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use minotty_local::PlayArgs;
use minotty_server::config::ServeArgs;

/// minotty: a falling-block puzzle game served over SSH.
///
/// Without a subcommand, `minotty` runs `serve` with the flags given.
#[derive(Debug, Parser)]
#[command(name = "minotty", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the game over SSH (the default).
    Serve(Box<ServeArgs>),
    /// Play in this terminal, offline (no server, no database).
    Play(PlayArgs),
    /// Play bot-vs-bot matches on every core and print matches per second and win rates by
    /// level (to tune the bot levels and the garbage rules).
    Arena(minotty_tbp::arena::ArenaArgs),
    /// Create the host key if it is missing (ed25519, mode 0600), print its fingerprint and
    /// exit: run once before several instances that share one key start, so that they never
    /// race to create it.
    HostKey(HostKeyArgs),
}

#[derive(Debug, Args)]
pub struct HostKeyArgs {
    /// Host key file, as `minotty serve --host-key`.
    #[arg(long, env = "MINOTTY_HOST_KEY", default_value = "minotty_host_ed25519")]
    pub host_key: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use minotty_engine::ModeKind;
    use minotty_server::config::parse_with_config;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn subcommands_parse() {
        let cli = Cli::parse_from(["minotty", "play", "--mode", "40l"]);
        assert!(matches!(
            cli.command,
            Some(Command::Play(PlayArgs {
                mode: Some(ModeKind::Sprint),
                no_save: false,
                fps: None,
                descent: false,
                ..
            }))
        ));
        let cli = Cli::parse_from(["minotty", "play", "--no-save", "--fps", "30"]);
        assert!(matches!(
            cli.command,
            Some(Command::Play(PlayArgs {
                mode: None,
                no_save: true,
                fps: Some(30),
                ..
            }))
        ));
        assert!(Cli::try_parse_from(["minotty", "play", "--fps", "0"]).is_err());
        assert!(Cli::try_parse_from(["minotty", "play", "--fps", "fast"]).is_err());
        for args in [
            &["minotty", "play", "--descent"][..],
            &["minotty", "play", "--descent-mode"],
            &["minotty", "play", "--mode", "descent"],
        ] {
            let Some(Command::Play(play)) = Cli::parse_from(args).command else {
                panic!("play expected");
            };
            assert_eq!(play.start(), (Some(ModeKind::Descent), true), "{args:?}");
        }
        let Some(Command::Play(play)) = Cli::parse_from(["minotty", "play"]).command else {
            panic!("play expected");
        };
        assert_eq!(play.start(), (None, false), "locked without the flag");
        assert!(
            Cli::try_parse_from(["minotty", "play", "--descent", "--mode", "40l"]).is_err(),
            "one mode at a time"
        );
        assert!(Cli::try_parse_from(["minotty", "play", "--mode", "nope"]).is_err());
        let cli = Cli::parse_from(["minotty", "serve", "--listen", "0.0.0.0:22"]);
        let Some(Command::Serve(args)) = cli.command else {
            panic!("serve expected");
        };
        assert_eq!(args.listen.port(), 22);
        let cli = Cli::parse_from(["minotty", "host-key", "--host-key", "/k/a"]);
        let Some(Command::HostKey(args)) = cli.command else {
            panic!("host-key expected");
        };
        assert_eq!(args.host_key, PathBuf::from("/k/a"));
    }

    #[test]
    fn the_other_subcommands_ignore_config_files() {
        let loaded =
            parse_with_config::<Cli, _, _>(["minotty", "play", "--no-save"]).expect("parses");
        assert!(matches!(loaded.cli.command, Some(Command::Play(_))));
        assert!(loaded.effective.is_empty());
        // The serve flags at the top level read the file as `minotty serve` does.
        let loaded =
            parse_with_config::<Cli, _, _>(["minotty", "--max-fps", "50"]).expect("parses");
        assert!(
            loaded.effective.contains("max-fps = \"50\"  # flag"),
            "{}",
            loaded.effective
        );
    }
}
