//! The keeper: a small process of our own between the server and each bot, so that every
//! process a bot starts ends with it, whatever it does (a child that calls `setsid` leaves the
//! bot's process group, a child whose parent exits is adopted by whoever reaps orphans).
//!
//! The server starts `PROGRAM __tbp-keeper MAX_PROCS SERVER_PID COMMAND...` (PROGRAM is the server's own
//! binary, `minotty`, or `minotty-bot` in tests: any binary whose `main` calls [`run_if_asked`]
//! first). The keeper
//!
//! - makes itself a child subreaper (`PR_SET_CHILD_SUBREAPER`): every orphan among the bot's
//!   descendants, in whatever session or group, is re-parented to the keeper, never to PID 1
//!   or the server, so "the keeper's descendants" is exactly "what the bot started";
//! - starts COMMAND (the confined shell that becomes the bot) on its own stdin and stdout;
//! - watches: every [`WATCH`] it counts its descendants in `/proc`; more than MAX_PROCS is a
//!   fork bomb: it kills them all and exits [`EXIT_TOO_MANY`] (the server reads the end of the
//!   output: the bot forfeits, the match goes on);
//! - pauses and resumes the whole tree on `SIGUSR1` and `SIGUSR2` (`SIGSTOP`/`SIGCONT` to each
//!   descendant, those outside the bot's group too); the keeper itself is never stopped, so it
//!   keeps watching;
//! - ends when the bot exits, on `SIGTERM`, `SIGINT` or `SIGHUP`, or when the server is gone
//!   (the keeper's parent is not SERVER_PID: it was re-parented): it sends `SIGKILL` to every
//!   descendant, reaps each (nothing stays a zombie), and exits with the bot's status (128 +
//!   the signal when killed).
//!
//! No `unsafe`: signals are blocked and read from a `signalfd` (no handler). A signal mask is
//! inherited through `fork` and `exec` (the standard library leaves it), so the keeper starts
//! its own binary as `__tbp-unmask COMMAND...`, which unblocks every signal and `exec`s the
//! bot's command in place: the bot starts with an empty mask, as it would anywhere.
//!
//! What it does not stop: a bot running as the keeper's user can signal the keeper itself
//! (`SIGKILL` or `SIGSTOP`); then its descendants are adopted further up. Bots run as a user of
//! their own (deploy/README.md, "TBP bots") are out of reach of that, and the cgroup of the
//! server's unit or container (`TasksMax=`, `--pids-limit`) is the hard ceiling over all.

use std::ffi::OsString;
use std::os::fd::AsFd;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{SigSet, Signal, kill};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;

mod tree;

pub use tree::{descendants, descendants_of, oldest_child};

/// The first argument that makes a binary the keeper.
pub const KEEPER_ARG: &str = "__tbp-keeper";
/// The first argument of the keeper's child, which unblocks signals and becomes the bot.
pub const UNMASK_ARG: &str = "__tbp-unmask";
/// How often the keeper counts the bot's processes.
pub const WATCH: Duration = Duration::from_millis(20);
/// The keeper's status when the bot started more processes than allowed.
pub const EXIT_TOO_MANY: u8 = 125;
/// The keeper's status when it could not start the bot or watch it.
pub const EXIT_FAILED: u8 = 127;
/// Rounds of killing and reaping before the keeper gives up (each reaps one process or finds
/// none left; a fork bomb killed at its limit needs about as many rounds as it had processes).
const MAX_ROUNDS: usize = 1 << 16;
/// How long the keeper waits between two rounds while a killed process is not yet gone.
const REAP_PAUSE: Duration = Duration::from_millis(1);

/// When `args` (the process's own, program name first) ask for the keeper, runs it and returns
/// its exit status (for `std::process::exit`); `None` otherwise. The first thing a binary's
/// `main` does.
pub fn run_if_asked(args: impl IntoIterator<Item = OsString>) -> Option<u8> {
    let mut args = args.into_iter().skip(1);
    let first = args.next();
    if first.as_deref() == Some(UNMASK_ARG.as_ref()) {
        return Some(unmask_and_exec(args.collect()));
    }
    if first.as_deref() != Some(KEEPER_ARG.as_ref()) {
        return None;
    }
    let mut number = || {
        args.next()
            .and_then(|m| m.to_str().and_then(|m| m.parse::<i32>().ok()))
    };
    let max = number().and_then(|m| usize::try_from(m).ok());
    let server = number().map(Pid::from_raw);
    let command: Vec<OsString> = args.collect();
    let (Some(max), Some(server), false) = (max, server, command.is_empty()) else {
        eprintln!("{KEEPER_ARG}: expected MAX_PROCS SERVER_PID COMMAND...");
        return Some(2);
    };
    Some(keep(max, server, &command))
}

/// The keeper's child: unblocks every signal (the keeper blocked them for itself, and a mask
/// is inherited through `exec`), then becomes `command` (same process id). Returns only when
/// that fails.
fn unmask_and_exec(command: Vec<OsString>) -> u8 {
    let Some((program, args)) = command.split_first() else {
        return 2;
    };
    if SigSet::all().thread_unblock().is_err() {
        eprintln!("{UNMASK_ARG}: cannot unblock signals");
        return EXIT_FAILED;
    }
    let e = Command::new(program).args(args).exec();
    eprintln!("{UNMASK_ARG}: cannot start the bot: {e}");
    EXIT_FAILED
}

/// What ended the watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The bot exited with this status (as a shell reports it).
    Bot(u8),
    /// Told to end.
    Told,
    /// Too many processes.
    TooMany,
}

fn keep(max: usize, server: Pid, command: &[OsString]) -> u8 {
    if nix::sys::prctl::set_child_subreaper(true).is_err() {
        eprintln!("{KEEPER_ARG}: cannot become a child subreaper");
        return EXIT_FAILED;
    }
    let mut mask = SigSet::empty();
    for s in [
        Signal::SIGCHLD,
        Signal::SIGTERM,
        Signal::SIGINT,
        Signal::SIGHUP,
        Signal::SIGUSR1,
        Signal::SIGUSR2,
    ] {
        mask.add(s);
    }
    // Blocked before the bot exists, so no signal meant for the keeper is lost; the bot starts
    // through `__tbp-unmask`, which unblocks them again before it becomes the bot.
    let signals = mask
        .thread_block()
        .and_then(|()| SignalFd::with_flags(&mask, SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC));
    let Ok(signals) = signals else {
        eprintln!("{KEEPER_ARG}: cannot read signals");
        return EXIT_FAILED;
    };
    let me = nix::unistd::getpid();
    let Ok(me_exe) = std::env::current_exe() else {
        eprintln!("{KEEPER_ARG}: cannot find its own program");
        return EXIT_FAILED;
    };
    let bot = match Command::new(me_exe).arg(UNMASK_ARG).args(command).spawn() {
        Ok(child) => Pid::from_raw(i32::try_from(child.id()).unwrap_or(0)),
        Err(e) => {
            eprintln!("{KEEPER_ARG}: cannot start the bot: {e}");
            return EXIT_FAILED;
        }
    };
    let end = watch(me, server, bot, max, &signals);
    end_all(me, bot, end)
}

/// Waits for the bot to exit, a signal to end, the server to end (the keeper's parent changes)
/// or too many processes; pauses and resumes the tree meanwhile.
fn watch(me: Pid, server: Pid, bot: Pid, max: usize, signals: &SignalFd) -> End {
    let timeout = PollTimeout::try_from(WATCH).unwrap_or(PollTimeout::MAX);
    loop {
        let mut fds = [PollFd::new(signals.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, timeout) {
            Ok(_) | Err(Errno::EINTR) => {}
            Err(_) => return End::Told,
        }
        while let Ok(Some(info)) = signals.read_signal() {
            match Signal::try_from(i32::try_from(info.ssi_signo).unwrap_or(0)) {
                Ok(Signal::SIGTERM | Signal::SIGINT | Signal::SIGHUP) => return End::Told,
                Ok(Signal::SIGUSR1) => signal_tree(me, Signal::SIGSTOP),
                Ok(Signal::SIGUSR2) => signal_tree(me, Signal::SIGCONT),
                _ => {}
            }
        }
        if let Some(status) = reap_ready(bot) {
            return End::Bot(status);
        }
        if descendants(me).len() > max {
            return End::TooMany;
        }
        // The server is gone (killed, or ended before it could tell us; even before the
        // keeper started): so is the match.
        if nix::unistd::getppid() != server {
            return End::Told;
        }
    }
}

/// Reaps every child that ended; the bot's status when the bot is one of them.
fn reap_ready(bot: Pid) -> Option<u8> {
    let mut bot_status = None;
    loop {
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) | Err(_) => return bot_status,
            Ok(status) if status.pid() == Some(bot) => bot_status = Some(shell_status(status)),
            Ok(_) => {}
        }
    }
}

/// A status as a shell reports it: the exit code, or 128 + the signal.
fn shell_status(status: WaitStatus) -> u8 {
    match status {
        WaitStatus::Exited(_, code) => u8::try_from(code & 0xff).unwrap_or(u8::MAX),
        WaitStatus::Signaled(_, signal, _) => 128u8.saturating_add(signal as u8),
        _ => EXIT_FAILED,
    }
}

/// Kills every descendant and reaps each until the keeper has no child left; returns the
/// keeper's status.
fn end_all(me: Pid, bot: Pid, end: End) -> u8 {
    let mut status = match end {
        End::Bot(status) => Some(status),
        End::Told | End::TooMany => None,
    };
    for _ in 0..MAX_ROUNDS {
        // Killed before each reap: what a dying process forked meanwhile is re-parented to us
        // and found on the next round.
        signal_tree(me, Signal::SIGKILL);
        let mut left = false;
        loop {
            match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => {
                    left = true;
                    break;
                }
                Ok(s) if s.pid() == Some(bot) => status = status.or(Some(shell_status(s))),
                Ok(_) | Err(Errno::EINTR) => {}
                // No child left: no descendant left (an orphan would have been re-parented
                // to us).
                Err(_) => break,
            }
        }
        if !left {
            break;
        }
        std::thread::sleep(REAP_PAUSE);
    }
    match end {
        End::TooMany => EXIT_TOO_MANY,
        End::Bot(_) | End::Told => status.unwrap_or(EXIT_FAILED),
    }
}

/// `signal` to every descendant of `me` (those it finds now).
fn signal_tree(me: Pid, signal: Signal) {
    // A process forked while the first pass ran is found by the second.
    let passes = if signal == Signal::SIGCONT { 1 } else { 2 };
    for _ in 0..passes {
        for pid in descendants(me) {
            let _ = kill(pid, signal);
        }
    }
}
