//! The flags of `minotty play`. The server's command line (`minotty_server::config::Cli`)
//! flattens them into its `play` subcommand, so `minotty play --help` reads as it always did
//! (pinned by `minotty/tests/help_pinned.rs`).

use clap::Args;
use minotty_engine::ModeKind;

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Start this mode directly: 40l, marathon, ultra, master, cheese, combo, custom, endless,
    /// descent.
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<ModeKind>,
    /// Keep nothing: no settings, scoreboard or replays are read or written (by default they
    /// are kept in the save file).
    #[arg(long)]
    pub no_save: bool,
    /// The save file (default: `minotty/save.json` under the user's data directory,
    /// `$XDG_DATA_HOME` or `~/.local/share`).
    #[arg(long, value_name = "PATH", env = "MINOTTY_SAVE_FILE")]
    pub save_file: Option<std::path::PathBuf>,
    /// Frames per second to draw at most (15-120; the setting of the same name is used
    /// otherwise).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub fps: Option<u16>,

    /// Start Descent directly, unlocked for this run (it is otherwise unlocked by finishing
    /// Puzzle). `--mode descent` does the same.
    #[arg(long, alias = "descent-mode", conflicts_with = "mode")]
    pub descent: bool,
}

impl PlayArgs {
    /// The mode to start at once, and whether Descent is unlocked for the run.
    pub fn start(&self) -> (Option<ModeKind>, bool) {
        let descent = self.descent || self.mode == Some(ModeKind::Descent);
        let mode = if descent {
            Some(ModeKind::Descent)
        } else {
            self.mode
        };
        (mode, descent)
    }
}

fn parse_mode(s: &str) -> Result<ModeKind, String> {
    ModeKind::parse(s).ok_or_else(|| {
        let ids: Vec<&str> = ModeKind::ALL.iter().map(|m| m.id()).collect();
        format!("unknown mode {s:?}; one of: {}", ids.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `minotty play` alone, as the server's `play` subcommand wraps it.
    #[derive(Debug, Parser)]
    struct Play {
        #[command(flatten)]
        args: PlayArgs,
    }

    fn parse(args: &[&str]) -> Result<PlayArgs, clap::Error> {
        Play::try_parse_from(std::iter::once("play").chain(args.iter().copied())).map(|p| p.args)
    }

    #[test]
    fn modes_parse_by_id_and_unknown_ones_are_named() {
        for kind in ModeKind::ALL {
            let args = parse(&["--mode", kind.id()]).expect("every mode's id parses");
            assert_eq!(args.mode, Some(kind));
        }
        let err = parse(&["--mode", "nope"]).expect_err("an unknown mode");
        let text = err.to_string();
        assert!(
            text.contains("unknown mode \"nope\"; one of: 40l, marathon"),
            "{text}"
        );
    }

    #[test]
    fn descent_is_unlocked_by_either_flag() {
        let args = parse(&["--descent"]).expect("parses");
        assert_eq!(args.start(), (Some(ModeKind::Descent), true));
        let args = parse(&["--mode", "40l"]).expect("parses");
        assert_eq!(args.start(), (Some(ModeKind::Sprint), false));
        assert!(parse(&["--descent", "--mode", "40l"]).is_err());
    }
}
