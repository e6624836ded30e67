//! The TBP bots' flags: which bots, and the limits every bot process runs under.

use std::time::Duration;

use clap::Args;

use minotty_tbp::frontend::confine::is_env_name;
use minotty_tbp::frontend::{BotSpec, TbpBots, TbpSettings};

/// Tetris Bot Protocol bots: external programs players can face in versus.
#[derive(Clone, Debug, Args)]
pub struct TbpArgs {
    /// A TBP bot as NAME=COMMAND (repeatable): NAME is what players see, COMMAND a program
    /// and its arguments (as sh splits them) that speaks TBP on stdin/stdout. In
    /// MINOTTY_TBP_BOT, separate several with ';'.
    #[arg(
        long = "tbp-bot",
        env = "MINOTTY_TBP_BOT",
        value_name = "NAME=COMMAND",
        value_delimiter = ';'
    )]
    pub tbp_bots: Vec<BotSpec>,

    /// Milliseconds a TBP bot has for each move; a bot that takes longer forfeits.
    #[arg(long = "tbp-move-ms", env = "MINOTTY_TBP_MOVE_MS", default_value_t = 500,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub tbp_move_ms: u64,

    /// Address space of each TBP bot process (RLIMIT_AS), MiB; past it the bot's allocations
    /// fail.
    #[arg(long = "tbp-memory-mb", env = "MINOTTY_TBP_MEMORY_MB", default_value_t = 512,
          value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    pub tbp_memory_mb: u64,

    /// Milliseconds per piece at least for a TBP bot in a room (400: 2.5 pieces a second).
    #[arg(long = "tbp-piece-ms", env = "MINOTTY_TBP_PIECE_MS", default_value_t = 400,
          value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub tbp_piece_ms: u64,

    /// Most TBP bot processes running at once, server-wide.
    #[arg(
        long = "tbp-max-bots",
        env = "MINOTTY_TBP_MAX_BOTS",
        default_value_t = 8
    )]
    pub tbp_max_bots: usize,

    /// TBP bots one host may seat in their room at once (0: hosts seat none).
    #[arg(
        long = "tbp-bots-per-host",
        env = "MINOTTY_TBP_BOTS_PER_HOST",
        default_value_t = 1
    )]
    pub tbp_bots_per_host: usize,

    /// CPU seconds each TBP bot process may use (RLIMIT_CPU); past them the kernel ends it and
    /// it forfeits.
    #[arg(long = "tbp-cpu-secs", env = "MINOTTY_TBP_CPU_SECS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub tbp_cpu_secs: u64,

    /// The niceness TBP bot processes run at (0: the server's own, 19: the lowest priority).
    #[arg(long = "tbp-nice", env = "MINOTTY_TBP_NICE", default_value_t = 10,
          value_parser = clap::value_parser!(u8).range(0..=19))]
    pub tbp_nice: u8,

    /// An environment variable of the server that TBP bots get, by name (repeatable; in
    /// MINOTTY_TBP_ENV, separate several with ','). Bots start with an empty environment
    /// otherwise: the server's (the database URL, NATS credentials) never reaches them.
    #[arg(
        long = "tbp-env",
        env = "MINOTTY_TBP_ENV",
        value_name = "NAME",
        value_delimiter = ',',
        value_parser = parse_env_name
    )]
    pub tbp_env: Vec<String>,
}

impl TbpArgs {
    /// The configured bots, ready to launch.
    pub fn bots(&self) -> TbpBots {
        let settings = TbpSettings {
            move_time: Duration::from_millis(self.tbp_move_ms),
            memory_mib: self.tbp_memory_mb,
            min_piece: Duration::from_millis(self.tbp_piece_ms),
            cpu_secs: self.tbp_cpu_secs,
            nice: self.tbp_nice,
            env: self.tbp_env.clone(),
            max_per_host: self.tbp_bots_per_host,
            ..TbpSettings::default()
        };
        TbpBots::new(self.tbp_bots.clone(), settings, self.tbp_max_bots)
    }
}

fn parse_env_name(s: &str) -> Result<String, String> {
    let name = s.trim();
    if is_env_name(name) {
        Ok(name.to_owned())
    } else {
        Err(format!(
            "an environment variable's name is a letter or '_', then letters, digits or '_', got \
             {s:?}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::config::ServeCli as Cli;

    #[test]
    fn bot_processes_are_confined_by_default_and_as_configured() {
        let s = Cli::parse_from(["minotty"])
            .serve
            .tbp
            .bots()
            .settings()
            .clone();
        assert_eq!((s.max_per_host, s.cpu_secs, s.nice), (1, 600, 10));
        assert!(s.env.is_empty(), "no variable of the server by default");
        let cli = Cli::parse_from([
            "minotty",
            "--tbp-bots-per-host",
            "2",
            "--tbp-cpu-secs",
            "30",
            "--tbp-nice",
            "19",
            "--tbp-env",
            "PATH",
            "--tbp-env",
            "BOT_HOME,LANG",
        ]);
        let s = cli.serve.tbp.bots().settings().clone();
        assert_eq!((s.max_per_host, s.cpu_secs, s.nice), (2, 30, 19));
        assert_eq!(s.env, ["PATH", "BOT_HOME", "LANG"]);
        let c = s.confinement();
        assert_eq!((c.cpu_secs, c.nice, c.env.len()), (30, 19, 3));
        for bad in [
            ["--tbp-nice", "20"],
            ["--tbp-cpu-secs", "0"],
            ["--tbp-env", "A=B"],
            ["--tbp-env", "2X"],
        ] {
            assert!(
                Cli::try_parse_from(["minotty", bad[0], bad[1]]).is_err(),
                "{bad:?}"
            );
        }
    }
}
