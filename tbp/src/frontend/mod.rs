//! The Tetris Bot Protocol frontend: runs any TBP bot the operator configures
//! (`--tbp-bot NAME=COMMAND`) as a versus opponent.
//!
//! - [`TbpBots`]: the configured bots by name, their settings and the server-wide cap on bot
//!   processes running at once; [`TbpBots::launch`] starts one and does the handshake.
//! - `confine.rs`: what a bot process may use, set before its first instruction: memory
//!   (`RLIMIT_AS`), CPU time (`RLIMIT_CPU`), priority (`nice`) and environment (empty but for
//!   what the operator lists).
//! - `process.rs`: the child process, confined, bounded in output (the longest line), in input
//!   (every write has a deadline) and in lifetime (it and everything it started ended and
//!   reaped when it ends or is dropped).
//! - `keeper.rs`: the keeper between the server and each bot (the server's own binary run as
//!   `__tbp-keeper`): the subreaper of everything the bot starts, at most
//!   [`TbpSettings::max_procs`] processes, all killed and reaped when the bot ends.
//! - `driver.rs`: the conversation ([`TbpBot`]): each suggestion within the move time, each
//!   suggested move checked against the real game and turned into the buttons that play it, so
//!   the bot's game is an ordinary engine game whose inputs replay and verify. Anything out of
//!   the ordinary is a [`Forfeit`].
//! - `poller.rs`: [`TbpPoller`], the bot behind calls that never wait (what to press now, when
//!   to ask again, a future for the bot's answer): the shape of a room's bot seat driver.
//! - `live.rs`: [`play_live`], a polled bot's game in real time as a room runs it (the clock
//!   runs while the bot thinks, garbage arrives on a channel, events go to a callback).
//!
//! Bot commands come from the operator, never from players: players only pick a configured
//! bot by name, and a host seats at most [`TbpSettings::max_per_host`] of them in their room.
//! A seated bot holds one of the server's slots; its process starts with the first match it
//! plays, never in a lobby.
//!
//! What the server gives it comes in as parameters: the bots and their limits
//! ([`BotSpec`], [`TbpSettings`], from its configuration), the room's clock, garbage and
//! events through [`play_live`] and [`TbpPoller`]. It imports nothing of the server.

// A bot is a process the operator configured but whose output nobody vouches for: nothing it
// says may panic the server (as in minotty-server, `unwrap` only in tests).
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod confine;
mod driver;
pub mod keeper;
mod live;
mod poller;
pub mod process;

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

pub use confine::Confinement;
pub use driver::{ASK_AGAIN, BotInfo, Forfeit, MAX_IGNORED, MAX_MOVES_CHECKED, TbpBot, choose};
pub use live::{Live, LiveEnd, play_live};
pub use poller::{Step, TbpPoller};
pub use process::BotProcess;

/// The most processes one TBP bot may have at once by default, itself included.
pub const MAX_PROCS: usize = 32;

/// The longest bot name (it appears in room views).
pub const MAX_NAME_CHARS: usize = 16;

/// A configured bot: the name players see and the command that starts it.
#[derive(Clone, PartialEq, Eq)]
pub struct BotSpec {
    pub name: String,
    /// A program and its arguments, as `sh` splits them.
    pub command: String,
}

impl fmt::Debug for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.command)
    }
}

impl FromStr for BotSpec {
    type Err = String;

    /// `NAME=COMMAND`: NAME is 1-16 letters, digits, `-` or `_`; COMMAND is not empty.
    fn from_str(s: &str) -> Result<BotSpec, String> {
        let Some((name, command)) = s.split_once('=') else {
            return Err(format!("expected NAME=COMMAND, got {s:?}"));
        };
        let name = name.trim();
        let command = command.trim();
        let name_ok = (1..=MAX_NAME_CHARS).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !name_ok {
            return Err(format!(
                "a bot name is 1-{MAX_NAME_CHARS} letters, digits, '-' or '_', got {name:?}"
            ));
        }
        if command.is_empty() {
            return Err(format!("the command of bot {name} is empty"));
        }
        Ok(BotSpec {
            name: name.to_owned(),
            command: command.to_owned(),
        })
    }
}

/// How every TBP bot is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbpSettings {
    /// The most time a bot has for each suggestion (and for each write to it).
    pub move_time: Duration,
    /// The most time a bot has to send `info`, and then `ready`.
    pub startup_time: Duration,
    /// The bot's address space (`RLIMIT_AS`), MiB.
    pub memory_mib: u64,
    /// The longest line read from a bot, bytes.
    pub max_line: usize,
    /// Next pieces the bot is told of besides the piece in play (what a player sees).
    pub preview: usize,
    /// The shortest time per piece of a bot seated in a room (its pace; it may think faster).
    pub min_piece: Duration,
    /// CPU seconds a bot process may use (`RLIMIT_CPU`); past them the kernel ends it.
    pub cpu_secs: u64,
    /// The niceness bot processes run at (0 to 19).
    pub nice: u8,
    /// Names of the server's environment variables bots get (none by default).
    pub env: Vec<String>,
    /// TBP bots one host may seat in their room at once.
    pub max_per_host: usize,
    /// The program that keeps each bot (`keeper.rs`): by default the running binary, which must
    /// call [`keeper::run_if_asked`] first thing in `main` (`minotty` and `minotty-bot` do).
    /// `None`: bots run unkept (their descendants can outlive them).
    pub keeper: Option<PathBuf>,
    /// The most processes one bot may have at once, itself included; more ends it (a forfeit).
    pub max_procs: usize,
}

impl TbpSettings {
    /// The limits a bot process starts under.
    pub fn confinement(&self) -> Confinement {
        Confinement {
            memory_mib: self.memory_mib,
            cpu_secs: self.cpu_secs,
            nice: self.nice,
            env: self.env.clone(),
            keeper: self.keeper.clone(),
            max_procs: self.max_procs,
        }
    }
}

impl Default for TbpSettings {
    fn default() -> TbpSettings {
        TbpSettings {
            move_time: Duration::from_millis(500),
            startup_time: Duration::from_secs(5),
            memory_mib: 512,
            max_line: 64 << 10,
            preview: 5,
            min_piece: Duration::from_millis(400),
            cpu_secs: 600,
            nice: 10,
            env: Vec::new(),
            max_per_host: 1,
            keeper: std::env::current_exe().ok(),
            max_procs: MAX_PROCS,
        }
    }
}

/// One of the server's bot slots, taken by [`TbpBots::reserve`].
#[derive(Debug)]
pub struct Slot(tokio::sync::OwnedSemaphorePermit);

/// The configured bots and the slots for running them.
#[derive(Clone, Debug)]
pub struct TbpBots {
    specs: Arc<[BotSpec]>,
    settings: TbpSettings,
    slots: Arc<Semaphore>,
    max_running: usize,
}

impl Default for TbpBots {
    /// No bots.
    fn default() -> TbpBots {
        TbpBots::new(Vec::new(), TbpSettings::default(), 0)
    }
}

impl TbpBots {
    /// `specs` run with `settings`, at most `max_running` processes at once server-wide. A name
    /// given twice keeps its first command.
    pub fn new(specs: Vec<BotSpec>, settings: TbpSettings, max_running: usize) -> TbpBots {
        let mut unique: Vec<BotSpec> = Vec::with_capacity(specs.len());
        for spec in specs {
            if !unique.iter().any(|u| u.name == spec.name) {
                unique.push(spec);
            }
        }
        TbpBots {
            specs: unique.into(),
            settings,
            slots: Arc::new(Semaphore::new(max_running)),
            max_running,
        }
    }

    /// The bots' names, in the order they were configured.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.specs.iter().map(|s| s.name.as_str())
    }

    pub fn settings(&self) -> &TbpSettings {
        &self.settings
    }

    /// Bot processes running now.
    pub fn running(&self) -> usize {
        self.max_running - self.slots.available_permits()
    }

    /// Whether a bot is called `name`.
    pub fn has(&self, name: &str) -> bool {
        self.specs.iter().any(|s| s.name == name)
    }

    /// Takes one of the server's bot slots ([`Forfeit::Busy`] when none is free); it is given
    /// back when the bot process it runs ends, or when it is dropped unused.
    pub fn reserve(&self) -> Result<Slot, Forfeit> {
        Arc::clone(&self.slots)
            .try_acquire_owned()
            .map(Slot)
            .map_err(|_| Forfeit::Busy)
    }

    /// Starts the bot called `name` and does the handshake. `None` when no bot has that name.
    pub async fn launch(&self, name: &str) -> Option<Result<TbpBot, Forfeit>> {
        let spec = self.specs.iter().find(|s| s.name == name)?;
        Some(match self.reserve() {
            Ok(slot) => self.launch_spec(spec, slot).await,
            Err(f) => Err(f),
        })
    }

    /// A bot seat's driver for the bot called `name`, at most a piece every `min_piece`: the
    /// slot is taken now (so a full server says so at once), the process starts in the
    /// poller's task when it is first told to (the match starts). `None` when no bot has that
    /// name.
    pub fn poller(&self, name: &str, min_piece: Duration) -> Option<Result<TbpPoller, Forfeit>> {
        let spec = self.specs.iter().find(|s| s.name == name)?.clone();
        let slot = match self.reserve() {
            Ok(slot) => slot,
            Err(f) => return Some(Err(f)),
        };
        let bots = self.clone();
        let launch = async move { bots.launch_spec(&spec, slot).await };
        let poller = TbpPoller::new(launch, min_piece, self.settings.preview);
        Some(Ok(poller.named(name, "")))
    }

    async fn launch_spec(&self, spec: &BotSpec, Slot(slot): Slot) -> Result<TbpBot, Forfeit> {
        let process = BotProcess::spawn(
            &spec.command,
            &self.settings.confinement(),
            self.settings.max_line,
            slot,
        )
        .map_err(|e| Forfeit::Spawn(e.to_string()))?;
        let pid = process.child_pid();
        let bot = TbpBot::handshake(process, self.settings.clone()).await;
        match &bot {
            Ok(b) => tracing::info!(bot = %spec.name, pid, name = %b.info().name,
                version = %b.info().version, "TBP bot ready"),
            Err(e) => tracing::warn!(bot = %spec.name, pid, error = %e, "TBP bot failed to start"),
        }
        bot
    }
}
