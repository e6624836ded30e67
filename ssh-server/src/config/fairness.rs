//! Flags of `minotty serve` that keep one client's share fair: exec commands and cast exports
//! per address (`command_budget.rs`), and ranked pairing across addresses (`versus/queue.rs`).
//! Flattened into `LimitArgs`: flags, `MINOTTY_*` variables and config file keys like the rest.

use clap::Args;

use crate::command_budget::CommandLimits;

#[derive(Clone, Debug, Args)]
pub struct FairnessArgs {
    /// Exec commands (`leaderboard`, `replay`, `help`...) one address (IPv6: /64) may run in
    /// a burst...
    #[arg(long, env = "MINOTTY_COMMAND_BURST", default_value_t = 20)]
    pub command_burst: u32,

    /// ...and then per minute (one connection: at most 10 in a burst and 20 a minute).
    #[arg(long, env = "MINOTTY_COMMANDS_PER_MINUTE", default_value_t = 30)]
    pub commands_per_minute: u32,

    /// Replay exports (`replay ID --cast`) one address may start in a burst...
    #[arg(long, env = "MINOTTY_CAST_EXPORT_BURST", default_value_t = 3)]
    pub cast_export_burst: u32,

    /// ...and then per minute (one at a time per connection).
    #[arg(long, env = "MINOTTY_CAST_EXPORTS_PER_MINUTE", default_value_t = 1)]
    pub cast_exports_per_minute: u32,

    /// Let the ranked quick-match queue pair two accounts from one address (IPv4 address,
    /// IPv6 /64). Off by default: a second account of one person must not feed the first wins.
    #[arg(long, env = "MINOTTY_RANKED_SAME_ADDRESS")]
    pub ranked_same_address: bool,
}

impl FairnessArgs {
    /// The command budgets (bursts of at least 1, as `--connect-burst`).
    pub fn command_limits(&self) -> CommandLimits {
        CommandLimits {
            burst: self.command_burst.max(1),
            per_minute: self.commands_per_minute,
            export_burst: self.cast_export_burst.max(1),
            exports_per_minute: self.cast_exports_per_minute,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::command_budget::CommandLimits;
    use crate::config::{Cli, Limits};

    #[test]
    fn defaults_and_flags() {
        let limits = Limits::from(&Cli::parse_from(["minotty"]).serve.limits);
        assert!(!limits.bots.ranked_same_address, "off by default");
        assert_eq!(limits.commands, CommandLimits::default());
        let cli = Cli::parse_from([
            "minotty",
            "--ranked-same-address",
            "--command-burst",
            "5",
            "--commands-per-minute",
            "0",
            "--cast-export-burst",
            "0",
            "--cast-exports-per-minute",
            "2",
        ]);
        let limits = Limits::from(&cli.serve.limits);
        assert!(limits.bots.ranked_same_address);
        let c = limits.commands;
        assert_eq!(
            (c.burst, c.per_minute, c.export_burst, c.exports_per_minute),
            (5, 0, 1, 2)
        );
    }
}
