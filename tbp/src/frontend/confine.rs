//! What a bot process may use, set before its first instruction without `unsafe` (no
//! `pre_exec`): the command runs as
//!
//! ```text
//! sh -c 'ulimit -v KIB && ulimit -t SECS && ulimit -c 0 && exec nice -n N COMMAND'
//! ```
//!
//! so the shell sets the limits on itself, then becomes `nice`, which lowers its priority and
//! becomes the bot: one process id from start to end (the server's direct child, the leader of
//! its process group), with
//!
//! - an address space of at most `memory_mib` MiB (`RLIMIT_AS`) and no core dumps;
//! - at most `cpu_secs` seconds of CPU (`RLIMIT_CPU`, soft and hard: the kernel ends a bot
//!   that used them with `SIGXCPU`, then `SIGKILL`; the bot forfeits);
//! - the niceness `nice` (0 leaves it at the server's and runs no `nice`);
//! - an empty environment but for the variables the operator lists (`--tbp-env`), with the
//!   server's values, read when the bot starts (never kept, never logged): the database URL
//!   with its password, NATS credentials and the like never reach a bot. The shell adds only
//!   `PWD` (and looks programs up in its default `PATH` unless `PATH` is listed).
//!
//! `nice` is coreutils' (in every Debian image, `debian:bookworm-slim` included).
//!
//! With a keeper (`keeper.rs`; the server's own binary) the server's direct child is the
//! keeper, which runs that shell as its child, is the subreaper of everything the bot starts,
//! holds it to `max_procs` processes and kills and reaps all of them when the bot ends:
//!
//! ```text
//! KEEPER __tbp-keeper MAX_PROCS SERVER_PID /bin/sh -c 'ulimit ... && exec nice -n N COMMAND'
//! ```
//!
//! Without one (only the process tests of this crate's own library) the shell is the direct
//! child and only the bot's process group is killed.

use std::path::PathBuf;
use std::process::Stdio;

use tokio::process::Command;

use super::keeper::KEEPER_ARG;

/// The limits every bot process starts under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confinement {
    pub memory_mib: u64,
    pub cpu_secs: u64,
    /// 0 to 19 (more is 19).
    pub nice: u8,
    /// Names of the server's environment variables a bot gets.
    pub env: Vec<String>,
    /// The program that keeps the bot (`KEEPER __tbp-keeper ...`; `None`: none, the bot is the
    /// server's direct child).
    pub keeper: Option<PathBuf>,
    /// The most processes a kept bot may have at once, itself included.
    pub max_procs: usize,
}

/// The most a niceness can be.
pub const MAX_NICE: u8 = 19;

/// Whether `name` can be an environment variable's name the operator lists: a letter or `_`,
/// then letters, digits or `_`, at most 64.
pub fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

impl Confinement {
    /// The shell script that confines `command` and then becomes it.
    pub fn script(&self, command: &str) -> String {
        let kib = self.memory_mib.saturating_mul(1024).max(1024);
        let secs = self.cpu_secs.max(1);
        let nice = match self.nice.min(MAX_NICE) {
            0 => String::new(),
            n => format!("nice -n {n} "),
        };
        format!("ulimit -v {kib} && ulimit -t {secs} && ulimit -c 0 && exec {nice}{command}")
    }

    /// The command that starts `command` confined: stdin and stdout piped, stderr discarded,
    /// the leader of a process group of its own. Kept, it is the keeper (which ends the bot and
    /// all its descendants on `SIGTERM`: never `SIGKILL`ed on drop); unkept, it is the shell
    /// that becomes the bot, killed if dropped.
    pub fn command(&self, command: &str) -> Command {
        let script = self.script(command);
        let mut cmd = match &self.keeper {
            Some(keeper) => {
                let mut cmd = Command::new(keeper);
                cmd.arg(KEEPER_ARG)
                    .arg(self.max_procs.clamp(1, i32::MAX as usize).to_string())
                    .arg(std::process::id().to_string())
                    .args(["/bin/sh", "-c"])
                    .arg(script);
                cmd
            }
            None => {
                let mut cmd = Command::new("/bin/sh");
                cmd.arg("-c").arg(script);
                cmd
            }
        };
        cmd.env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(self.keeper.is_none());
        for name in self.env.iter().filter(|n| is_env_name(n)) {
            if let Some(value) = std::env::var_os(name) {
                cmd.env(name, value);
            }
        }
        cmd
    }
}

#[cfg(test)]
mod tests;
