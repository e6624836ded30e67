//! Command line and environment configuration (clap), turned into the library's settings.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

mod fairness;
mod file;
mod tbp;
pub use file::{ConfigError, Loaded, parse_with_config};
pub use tbp::TbpArgs;
// The cluster's flags (NATS, its credentials and TLS, the cluster key) and secret redaction.
mod cluster;
pub mod connections;
pub mod proxies;
pub mod secrets;
pub use cluster::ClusterArgs;
pub use connections::{ConnectionLimits, Startups};
pub use proxies::TrustedProxies;

/// The serve command line alone, `minotty [serve] FLAGS`: the server's flags at the top level
/// or under `serve`. The binary's own command line (`minotty/src/cli.rs`) has this shape with
/// its other subcommands beside `serve` (play, arena, host-key); [`parse_with_config`] reads
/// either.
#[derive(Debug, Parser)]
#[command(name = "minotty", version, args_conflicts_with_subcommands = true)]
pub struct ServeCli {
    #[command(subcommand)]
    pub command: Option<ServeCommand>,

    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
pub enum ServeCommand {
    /// Serve the game over SSH (the default).
    Serve(Box<ServeArgs>),
}

impl ServeCli {
    /// The serve flags, wherever they were given.
    pub fn into_serve(self) -> ServeArgs {
        match self.command {
            Some(ServeCommand::Serve(args)) => *args,
            None => self.serve,
        }
    }
}

#[derive(Clone, Debug, Args)]
pub struct ServeArgs {
    /// A TOML file of settings: each key is a flag's name without the dashes
    /// (`max-per-ip = 8`). Flags and MINOTTY_* variables override it; see
    /// `deploy/minotty.toml`.
    #[arg(long, env = "MINOTTY_CONFIG", value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Print the settings in effect as a config file, each with where it came from (flag,
    /// environment, config file, default), and exit.
    #[arg(long)]
    pub print_config: bool,

    /// Serve Prometheus metrics (`/metrics`) and a health check (`/health`) over HTTP on this
    /// address. Off unless given; keep it on loopback or a private network.
    #[arg(long, env = "MINOTTY_METRICS_LISTEN", value_name = "ADDR:PORT")]
    pub metrics_listen: Option<SocketAddr>,

    /// Serve the web pages (leaderboards, profiles) over HTTP on this address, or `off`. A
    /// port already taken is reported and the game is served over SSH without them.
    #[arg(
        long,
        env = "MINOTTY_HTTP_LISTEN",
        value_name = "ADDR:PORT|off",
        default_value = "127.0.0.1:8080"
    )]
    pub http_listen: HttpListen,

    /// Where players open the web pages (`https://minotty.example`), for the links the
    /// terminal shows (a game's, a profile's). Without it the links use the pages' own
    /// address when the player reached the server there.
    #[arg(long, env = "MINOTTY_WEB_URL", value_name = "URL", value_parser = crate::address::WebAddress::url)]
    pub web_url: Option<crate::address::WebAddress>,

    /// Most connections to the web pages at once (a browser holds a few, a game in a browser
    /// one more)...
    #[arg(long, env = "MINOTTY_HTTP_MAX_CONNECTIONS", default_value_t = 1024)]
    pub http_max_connections: usize,

    /// ...and from one IPv4 address or IPv6 /64.
    #[arg(long, env = "MINOTTY_HTTP_MAX_PER_IP", default_value_t = 16)]
    pub http_max_per_ip: usize,

    /// Requests a second to the web pages from one address (IPv6: /64), after a burst of four
    /// times as many.
    #[arg(long, env = "MINOTTY_HTTP_REQUESTS_PER_SEC", default_value_t = 10)]
    pub http_requests_per_sec: u32,

    /// Log lines as `text` (for people) or `json` (one object a line, for log collectors).
    #[arg(long, env = "MINOTTY_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Address and port to listen on.
    #[arg(long, env = "MINOTTY_LISTEN", default_value = "127.0.0.1:2222")]
    pub listen: SocketAddr,

    /// Database URL: `sqlite://FILE` (created if missing) or `postgres://USER:PASS@HOST/DB`
    /// (an existing database that several instances may share); migrated on start.
    #[arg(long, env = "MINOTTY_DB", default_value = "sqlite://minotty.db")]
    pub db: String,

    /// Host key file (OpenSSH ed25519 private key); generated with mode 0600 if missing.
    #[arg(long, env = "MINOTTY_HOST_KEY", default_value = "minotty_host_ed25519")]
    pub host_key: PathBuf,

    /// Directory where finished games and versus matches that the database does not take are
    /// kept (fsynced, bounded) until it does: at the next start, or sooner. Default: the host
    /// key's path with `.spool` added (`minotty_host_ed25519.spool`); one per instance.
    #[arg(long, env = "MINOTTY_SPOOL_DIR", value_name = "DIR")]
    pub spool_dir: Option<PathBuf>,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub tbp: TbpArgs,

    #[command(flatten)]
    pub cluster: ClusterArgs,
}

impl ServeArgs {
    /// `--spool-dir`, or its default beside the host key.
    pub fn spool_dir(&self) -> PathBuf {
        self.spool_dir.clone().unwrap_or_else(|| {
            let mut dir = self.host_key.clone().into_os_string();
            dir.push(".spool");
            PathBuf::from(dir)
        })
    }
}

/// Where the web pages are served (`--http-listen`): an address, or nowhere (`off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HttpListen(pub Option<SocketAddr>);

impl std::str::FromStr for HttpListen {
    type Err = String;

    fn from_str(s: &str) -> Result<HttpListen, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("off") {
            return Ok(HttpListen(None));
        }
        s.parse()
            .map(|addr| HttpListen(Some(addr)))
            .map_err(|_| format!("\"{s}\" is neither ADDR:PORT (e.g. 127.0.0.1:8080) nor off"))
    }
}

impl std::fmt::Display for HttpListen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(addr) => write!(f, "{addr}"),
            None => f.write_str("off"),
        }
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

#[derive(Clone, Debug, Args)]
pub struct LimitArgs {
    /// Most connections at once; more are turned away with a message.
    #[arg(long, env = "MINOTTY_MAX_CONNECTIONS", default_value_t = 4096)]
    pub max_connections: usize,

    /// Most connections at once from one IPv4 address or IPv6 /64.
    #[arg(long, env = "MINOTTY_MAX_PER_IP", default_value_t = 16)]
    pub max_per_ip: usize,

    /// Most connections at once from one IPv4 /24 or IPv6 /56.
    #[arg(long, env = "MINOTTY_MAX_PER_SUBNET", default_value_t = 64)]
    pub max_per_subnet: usize,

    /// Most connections at once from one IPv6 /48.
    #[arg(long, env = "MINOTTY_MAX_PER_SITE", default_value_t = 256)]
    pub max_per_site: usize,

    /// Connections still logging in, as OpenSSH's MaxStartups START:RATE:FULL: from START on,
    /// a new one is refused with a chance rising from RATE % to 100 % at FULL.
    #[arg(long, env = "MINOTTY_MAX_STARTUPS", default_value = "20:30:100",
          value_parser = Startups::parse)]
    pub max_startups: Startups,

    /// New connections one address (IPv6: /64) may open in a burst...
    #[arg(long, env = "MINOTTY_CONNECT_BURST", default_value_t = 20)]
    pub connect_burst: u32,

    /// ...and then per minute.
    #[arg(long, env = "MINOTTY_CONNECTS_PER_MINUTE", default_value_t = 30)]
    pub connects_per_minute: u32,

    /// Seconds a client has to finish the handshake and log in.
    #[arg(long, env = "MINOTTY_AUTH_TIMEOUT", default_value_t = 30)]
    pub auth_timeout_secs: u64,

    /// Seconds without input before an idle player (not in a game, or in a paused one) is
    /// disconnected, and before a running solo game pauses itself.
    #[arg(long, env = "MINOTTY_IDLE_TIMEOUT", default_value_t = 600)]
    pub idle_timeout_secs: u64,

    /// Most frames per second sent to one player.
    #[arg(long, env = "MINOTTY_MAX_FPS", default_value_t = 60,
          value_parser = clap::value_parser!(u32).range(1..=240))]
    pub max_fps: u32,

    /// Deal every versus match this seed (load tests and trials; random when not given).
    #[arg(long, env = "MINOTTY_VERSUS_SEED", hide = true)]
    pub versus_seed: Option<u32>,

    /// Most server bots playing at once, in all rooms (0: no bots).
    #[arg(long, env = "MINOTTY_MAX_BOTS", default_value_t = 64)]
    pub max_bots: usize,

    /// Threads that think for the bots: their searches never use more cores than this.
    #[arg(long, env = "MINOTTY_BOT_THREADS", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub bot_threads: u16,

    /// Seconds in the quick-match queue before a bot match is offered.
    #[arg(long, env = "MINOTTY_BOT_OFFER_SECS", default_value_t = 20)]
    pub bot_offer_secs: u64,

    /// Seconds a solo game is kept, paused, after its player's connection dropped (the same
    /// key reconnecting is offered to resume it), and a room's lobby seat is kept (0: never).
    #[arg(long, env = "MINOTTY_RECONNECT_SECS", default_value_t = crate::reconnect::DEFAULT_SECS,
          value_parser = clap::value_parser!(u64).range(0..=3_600))]
    pub reconnect_secs: u64,

    /// Most solo games kept for reconnecting players at once, server-wide (the oldest goes).
    #[arg(long, env = "MINOTTY_MAX_PARKED", default_value_t = crate::reconnect::DEFAULT_MAX)]
    pub max_parked: usize,

    /// Budgets of exec commands and fair ranked play (`config/fairness.rs`).
    #[command(flatten)]
    pub fairness: fairness::FairnessArgs,

    /// Seconds without a byte from a client before the server sends an SSH keepalive (well
    /// under the 60 s after which some load balancers drop an idle TCP connection).
    #[arg(long, env = "MINOTTY_KEEPALIVE_SECS", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub keepalive_secs: u64,

    /// Keepalives in a row without an answer after which the connection is dropped.
    #[arg(long, env = "MINOTTY_KEEPALIVE_MAX", default_value_t = 3,
          value_parser = clap::value_parser!(u64).range(1..=100))]
    pub keepalive_max: u64,

    /// Addresses of load balancers whose connections start with a PROXY protocol v2 header
    /// (`send-proxy-v2`), as CIDR[,CIDR...]: the address in the header is the one limited and
    /// logged. None by default; a header from any other address is refused.
    #[arg(
        long,
        env = "MINOTTY_PROXY_PROTOCOL_FROM",
        value_name = "CIDR",
        value_delimiter = ','
    )]
    pub proxy_protocol_from: Vec<proxies::Cidr>,
}

/// Limits that keep one client, or many, from exhausting the server.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_connections: usize,
    /// Per IPv4 address and IPv6 /64.
    pub max_per_ip: usize,
    /// Per IPv4 /24 and IPv6 /56.
    pub max_per_subnet: usize,
    /// Per IPv6 /48.
    pub max_per_site: usize,
    pub max_startups: Startups,
    pub connect_burst: u32,
    pub connects_per_minute: u32,
    pub auth_timeout: Duration,
    pub idle_timeout: Duration,
    /// The shortest time between two frames sent to one player.
    pub min_frame_interval: Duration,
    /// How long shutdown waits for sessions to restore their terminals before closing them.
    pub shutdown_grace: Duration,
    /// Deal every versus match this seed (tests); random when `None`.
    pub versus_seed: Option<u32>,
    /// Server bots: how many, their threads, the quick-match offer.
    pub bots: crate::versus::bot::BotLimits,
    /// How long a dropped player's solo game (and lobby seat) is kept for them.
    pub reconnect: Duration,
    /// Most solo games kept for reconnecting players at once.
    pub max_parked: usize,
    /// Exec commands and cast exports per connection and per address.
    pub commands: crate::command_budget::CommandLimits,
    /// SSH keepalive: sent after this long without a byte from the client...
    pub keepalive_interval: Duration,
    /// ...and the connection dropped after this many unanswered in a row.
    pub keepalive_max: usize,
    /// Load balancers whose connections start with a PROXY protocol v2 header.
    pub proxy_from: TrustedProxies,
    /// How long a trusted proxy has to send the whole header.
    pub proxy_header_timeout: Duration,
}

impl Limits {
    /// What the connection limiter enforces.
    pub fn connection_limits(&self) -> ConnectionLimits {
        ConnectionLimits {
            max_total: self.max_connections,
            max_per_address: self.max_per_ip,
            max_per_subnet: self.max_per_subnet,
            max_per_site: self.max_per_site,
            startups: self.max_startups,
            connects_burst: self.connect_burst,
            connects_per_minute: self.connects_per_minute,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        let c = ConnectionLimits::default();
        Limits {
            max_connections: c.max_total,
            max_per_ip: c.max_per_address,
            max_per_subnet: c.max_per_subnet,
            max_per_site: c.max_per_site,
            max_startups: c.startups,
            connect_burst: c.connects_burst,
            connects_per_minute: c.connects_per_minute,
            auth_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(600),
            min_frame_interval: Duration::from_micros(1_000_000 / 60),
            shutdown_grace: Duration::from_secs(3),
            versus_seed: None,
            bots: crate::versus::bot::BotLimits::default(),
            reconnect: Duration::from_secs(crate::reconnect::DEFAULT_SECS),
            max_parked: crate::reconnect::DEFAULT_MAX,
            commands: crate::command_budget::CommandLimits::default(),
            keepalive_interval: Duration::from_secs(15),
            keepalive_max: 3,
            proxy_from: TrustedProxies::default(),
            proxy_header_timeout: Duration::from_secs(5),
        }
    }
}

impl From<&LimitArgs> for Limits {
    fn from(args: &LimitArgs) -> Limits {
        Limits {
            max_connections: args.max_connections.max(1),
            max_per_ip: args.max_per_ip.max(1),
            max_per_subnet: args.max_per_subnet.max(1),
            max_per_site: args.max_per_site.max(1),
            max_startups: args.max_startups,
            connect_burst: args.connect_burst.max(1),
            connects_per_minute: args.connects_per_minute,
            auth_timeout: Duration::from_secs(args.auth_timeout_secs.max(1)),
            idle_timeout: Duration::from_secs(args.idle_timeout_secs.max(1)),
            min_frame_interval: Duration::from_micros(1_000_000 / u64::from(args.max_fps.max(1))),
            versus_seed: args.versus_seed,
            bots: crate::versus::bot::BotLimits {
                max_total: args.max_bots,
                threads: usize::from(args.bot_threads),
                offer_after: Duration::from_secs(args.bot_offer_secs),
                ranked_same_address: args.fairness.ranked_same_address,
                per_address: args.fairness.bots_per_address as usize,
                tbp_per_address: args.fairness.tbp_bots_per_address as usize,
                ..crate::versus::bot::BotLimits::default()
            },
            reconnect: Duration::from_secs(args.reconnect_secs),
            max_parked: args.max_parked,
            commands: args.fairness.command_limits(),
            keepalive_interval: Duration::from_secs(args.keepalive_secs.max(1)),
            keepalive_max: usize::try_from(args.keepalive_max.max(1)).unwrap_or(3),
            proxy_from: TrustedProxies(args.proxy_protocol_from.clone()),
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ServeCli as Cli;
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_subcommand_means_serve_with_defaults() {
        let cli = Cli::parse_from(["minotty"]);
        assert!(cli.command.is_none());
        assert_eq!(cli.serve.listen.to_string(), "127.0.0.1:2222");
        assert_eq!(cli.serve.db, "sqlite://minotty.db");
        assert_eq!(cli.serve.host_key, PathBuf::from("minotty_host_ed25519"));
        assert_eq!(
            cli.serve.spool_dir(),
            PathBuf::from("minotty_host_ed25519.spool")
        );
        let cli = Cli::parse_from(["minotty", "--host-key", "/k/a", "--spool-dir", "/s"]);
        assert_eq!(cli.serve.spool_dir(), PathBuf::from("/s"));
        let cli = Cli::parse_from(["minotty", "--host-key", "/var/lib/minotty/key"]);
        assert_eq!(
            cli.serve.spool_dir(),
            PathBuf::from("/var/lib/minotty/key.spool")
        );
        let cli = Cli::parse_from(["minotty"]);
        let limits = Limits::from(&cli.serve.limits);
        assert_eq!(limits.max_per_ip, 16);
        assert_eq!(limits.min_frame_interval, Duration::from_micros(16_666));
        assert_eq!(limits.bots.offer_after, Duration::from_secs(20));
        assert_eq!(limits.bots.max_total, 64);
        assert_eq!(limits.bots.threads, 1);
        assert_eq!(limits.reconnect, Duration::from_secs(60));
        assert_eq!(limits.max_parked, 1_000);

        let cli = Cli::parse_from(["minotty", "--ranked-same-address"]);
        assert!(Limits::from(&cli.serve.limits).bots.ranked_same_address);
        let cli = Cli::parse_from(["minotty", "--reconnect-secs", "0", "--max-parked", "5"]);
        let limits = Limits::from(&cli.serve.limits);
        assert_eq!((limits.reconnect, limits.max_parked), (Duration::ZERO, 5));
        assert!(Cli::try_parse_from(["minotty", "--reconnect-secs", "7200"]).is_err());
    }

    #[test]
    fn keepalive_and_proxy_protocol_flags() {
        let limits = Limits::from(&Cli::parse_from(["minotty"]).serve.limits);
        assert!(limits.keepalive_interval < Duration::from_secs(60));
        assert_eq!(limits.keepalive_interval, Duration::from_secs(15));
        assert_eq!(limits.keepalive_max, 3);
        assert_eq!(limits.proxy_from, TrustedProxies::default());
        let cli = Cli::parse_from([
            "minotty",
            "--keepalive-secs",
            "5",
            "--keepalive-max",
            "2",
            "--proxy-protocol-from",
            "10.0.0.0/8,fd00::/8",
            "--proxy-protocol-from",
            "192.0.2.1",
        ]);
        let limits = Limits::from(&cli.serve.limits);
        assert_eq!(limits.keepalive_interval, Duration::from_secs(5));
        assert_eq!(limits.keepalive_max, 2);
        let trusted: Vec<String> = limits.proxy_from.0.iter().map(|c| c.to_string()).collect();
        assert_eq!(trusted, ["10.0.0.0/8", "fd00::/8", "192.0.2.1/32"]);
        assert!(limits.proxy_from.trusts("10.9.9.9".parse().expect("ip")));
        assert!(!limits.proxy_from.trusts("127.0.0.1".parse().expect("ip")));
        for bad in [
            &["minotty", "--keepalive-secs", "0"][..],
            &["minotty", "--proxy-protocol-from", "10.0.0.0/40"],
            &["minotty", "--proxy-protocol-from", "proxy.example"],
        ] {
            assert!(Cli::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_serve_subcommand_parses() {
        let cli = Cli::parse_from([
            "minotty",
            "serve",
            "--listen",
            "0.0.0.0:22",
            "--max-per-ip",
            "3",
        ]);
        let Some(ServeCommand::Serve(args)) = cli.command else {
            panic!("serve expected");
        };
        assert_eq!(args.listen.port(), 22);
        assert_eq!(args.limits.max_per_ip, 3);
        assert!(
            Cli::try_parse_from(["minotty", "play"]).is_err(),
            "only serve here"
        );
    }

    #[test]
    fn tbp_bots_are_configured_by_name() {
        let cli = Cli::parse_from(["minotty"]);
        assert!(cli.serve.tbp.tbp_bots.is_empty());
        assert_eq!(cli.serve.tbp.bots().names().count(), 0);
        let cli = Cli::parse_from([
            "minotty",
            "--tbp-bot",
            "minotty=minotty-bot",
            "--tbp-bot",
            "cc = /opt/cc/cold-clear --think 100",
            "--tbp-move-ms",
            "250",
            "--tbp-memory-mb",
            "1024",
            "--tbp-max-bots",
            "3",
            "--tbp-piece-ms",
            "250",
        ]);
        let bots = cli.serve.tbp.bots();
        assert_eq!(bots.names().collect::<Vec<_>>(), ["minotty", "cc"]);
        assert_eq!(
            cli.serve.tbp.tbp_bots[1].command,
            "/opt/cc/cold-clear --think 100"
        );
        assert_eq!(bots.settings().move_time, Duration::from_millis(250));
        assert_eq!(bots.settings().memory_mib, 1024);
        assert_eq!(bots.settings().min_piece, Duration::from_millis(250));
        for bad in [
            "nameless",
            "=cmd",
            "a b=cmd",
            "x=",
            "waytoolongnameforabot=cmd",
        ] {
            assert!(
                Cli::try_parse_from(["minotty", "--tbp-bot", bad]).is_err(),
                "{bad}"
            );
        }
        assert!(Cli::try_parse_from(["minotty", "--tbp-move-ms", "5"]).is_err());
    }
}
