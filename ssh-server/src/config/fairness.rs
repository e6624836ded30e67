//! Flags of `minotty serve` that keep one client's share fair: exec commands and cast exports
//! per address (`command_budget.rs`), ranked pairing across addresses (`versus/queue.rs`), and
//! the bots one address may have seated (`versus/bot.rs`, `shares.rs`).
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

    /// Server bots seated at once in the rooms of one address (IPv4 address, IPv6 /64), of
    /// --max-bots: one client never seats every bot while others wait.
    #[arg(long, env = "MINOTTY_BOTS_PER_ADDRESS", default_value_t = 8,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub bots_per_address: u32,

    /// TBP bots seated at once in the rooms of one address (IPv4 address, IPv6 /64), of
    /// --tbp-max-bots.
    #[arg(long, env = "MINOTTY_TBP_BOTS_PER_ADDRESS", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub tbp_bots_per_address: u32,
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
    use crate::config::{Limits, ServeCli as Cli};

    #[test]
    fn defaults_and_flags() {
        let limits = Limits::from(&Cli::parse_from(["minotty"]).serve.limits);
        assert!(!limits.bots.ranked_same_address, "off by default");
        assert_eq!(
            (limits.bots.per_address, limits.bots.tbp_per_address),
            (8, 2)
        );
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
            "--bots-per-address",
            "3",
            "--tbp-bots-per-address",
            "1",
        ]);
        let limits = Limits::from(&cli.serve.limits);
        assert!(limits.bots.ranked_same_address);
        assert_eq!(
            (limits.bots.per_address, limits.bots.tbp_per_address),
            (3, 1)
        );
        let c = limits.commands;
        assert_eq!(
            (c.burst, c.per_minute, c.export_burst, c.exports_per_minute),
            (5, 0, 1, 2)
        );
    }
}
