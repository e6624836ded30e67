//! A bot as a child process, with every resource bounded:
//!
//! - memory, CPU, priority and environment ([`Confinement`], `confine.rs`): the command runs
//!   through `sh -c 'ulimit ... && exec nice -n N COMMAND'` with an empty environment, so the
//!   bot replaces the shell (it stays the server's direct child) with `RLIMIT_AS` and
//!   `RLIMIT_CPU` set before its first instruction, no core dumps, a lower priority and none of
//!   the server's variables but those the operator lists;
//! - output: lines are read into a buffer that never grows past the longest line allowed (an
//!   endless line is an error, not a growing buffer); stderr goes to `/dev/null`;
//! - input: every write has a deadline (a bot that stops reading cannot block the server);
//! - lifetime: the server's child is the bot's keeper (`keeper.rs`), the subreaper of all the
//!   bot starts, which holds it to a number of processes and, when the bot exits or on
//!   `SIGTERM`, kills and reaps every descendant before it exits itself.
//!   [`BotProcess::shutdown`] closes the bot's input, gives it a moment, then sends the keeper
//!   `SIGTERM` (and `SIGKILL` to its group only if it does not end); dropping a `BotProcess`
//!   does the same in a task of its own. The keeper is reaped by the server.
//! - pauses: the keeper stops and continues the whole tree on `SIGUSR1` / `SIGUSR2` (it is
//!   never stopped itself, so it keeps counting).
//!
//! Unkept (a [`Confinement`] without a keeper: this library's own process tests), the bot is
//! the server's child and leads a process group of its own, which is what is signalled.

use std::io;
use std::process::ExitStatus;
use std::time::Duration;

use std::sync::OnceLock;

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, timeout, timeout_at};

use super::confine::Confinement;
use super::keeper::oldest_child;

/// How long a killed bot has to be reaped before it is left to the runtime's reaper.
const REAP_WAIT: Duration = Duration::from_secs(2);

/// Why reading or writing a bot failed.
#[derive(Debug, PartialEq, Eq)]
pub enum IoFailure {
    /// Nothing came (or could be written) before the deadline.
    Timeout,
    /// The bot closed its output or its input: it exited.
    Closed,
    /// A line longer than the limit.
    TooLong,
    /// Any other error of the pipe.
    Other(io::ErrorKind),
}

/// Reads lines of at most `max` bytes from `inner`. The buffer holds at most `max` bytes plus
/// one read's worth. Cancel-safe: a read interrupted by a deadline loses nothing.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Bytes at the start of `buf` already known to hold no line break.
    scanned: usize,
    max: usize,
}

/// Bytes read from the pipe at a time.
const CHUNK: usize = 8 << 10;

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            inner,
            buf: Vec::with_capacity(CHUNK),
            scanned: 0,
            max,
        }
    }

    /// The next line, without its line break (and without a `\r` before it).
    pub async fn next_line(&mut self) -> Result<Vec<u8>, IoFailure> {
        let mut chunk = [0u8; CHUNK];
        loop {
            if let Some(i) = self.buf[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + i;
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.scanned = 0;
                if line.len() > self.max {
                    return Err(IoFailure::TooLong);
                }
                return Ok(line);
            }
            self.scanned = self.buf.len();
            if self.buf.len() > self.max {
                return Err(IoFailure::TooLong);
            }
            let n = self
                .inner
                .read(&mut chunk)
                .await
                .map_err(|e| IoFailure::Other(e.kind()))?;
            if n == 0 {
                return Err(IoFailure::Closed);
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }

    /// Bytes held for lines not yet returned.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }
}

/// A running bot.
#[derive(Debug)]
pub struct BotProcess {
    child: Option<Child>,
    /// The server's child: the keeper, or the bot when unkept.
    pid: Option<u32>,
    /// The server's child is a keeper.
    kept: bool,
    /// The bot's own process id, once known (kept: the keeper's first child).
    bot: OnceLock<u32>,
    stdin: Option<ChildStdin>,
    stdout: LineReader<ChildStdout>,
    /// The server-wide slot this process holds, given back when it is dropped.
    _slot: OwnedSemaphorePermit,
}

impl BotProcess {
    /// Starts `command` (a program and its arguments, as the shell splits them) confined by
    /// `confinement`, reading lines of at most `max_line` bytes.
    pub fn spawn(
        command: &str,
        confinement: &Confinement,
        max_line: usize,
        slot: OwnedSemaphorePermit,
    ) -> io::Result<BotProcess> {
        let mut child = confinement.command(command).spawn()?;
        let pid = child.id();
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io::Error::other("the bot's pipes are missing"));
        };
        Ok(BotProcess {
            child: Some(child),
            pid,
            kept: confinement.keeper.is_some(),
            bot: OnceLock::new(),
            stdin: Some(stdin),
            stdout: LineReader::new(stdout, max_line),
            _slot: slot,
        })
    }

    /// The bot's own process id (kept: the keeper's first child, `None` until it started).
    pub fn pid(&self) -> Option<u32> {
        if !self.kept {
            return self.pid;
        }
        if let Some(&pid) = self.bot.get() {
            return Some(pid);
        }
        let keeper = Pid::from_raw(i32::try_from(self.pid?).ok()?);
        let pid = u32::try_from(oldest_child(keeper)?.as_raw()).ok()?;
        Some(*self.bot.get_or_init(|| pid))
    }

    /// The process id of the server's child: the bot's keeper (the bot itself when unkept),
    /// the leader of its process group.
    pub fn child_pid(&self) -> Option<u32> {
        self.pid
    }

    /// Writes `line` and a line break, within `limit`.
    pub async fn send(&mut self, line: &str, limit: Duration) -> Result<(), IoFailure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(IoFailure::Closed);
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let write = async {
            stdin.write_all(&bytes).await?;
            stdin.flush().await
        };
        match timeout(limit, write).await {
            Err(_) => Err(IoFailure::Timeout),
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Err(IoFailure::Closed),
            Ok(Err(e)) => Err(IoFailure::Other(e.kind())),
        }
    }

    /// The next line the bot writes, before `deadline`.
    pub async fn recv(&mut self, deadline: Instant) -> Result<Vec<u8>, IoFailure> {
        match timeout_at(deadline, self.stdout.next_line()).await {
            Err(_) => Err(IoFailure::Timeout),
            Ok(r) => r,
        }
    }

    /// Stops the bot's process group (SIGSTOP) while it has nothing to answer: a bot that keeps
    /// searching while it waits (Cold Clear 2) uses no CPU then.
    pub fn pause(&self) {
        if self.kept {
            signal_one(self.pid, Signal::SIGUSR1);
        } else {
            signal_group(self.pid, Signal::SIGSTOP);
        }
    }

    /// Lets the bot's process group run again (SIGCONT).
    pub fn resume(&self) {
        if self.kept {
            signal_one(self.pid, Signal::SIGUSR2);
        } else {
            signal_group(self.pid, Signal::SIGCONT);
        }
    }

    /// Bytes of the bot's output held but not yet read as lines.
    pub fn buffered(&self) -> usize {
        self.stdout.buffered()
    }

    /// Ends the bot: closes its input, gives it `grace` to exit on its own, then ends it (kept:
    /// `SIGTERM` to the keeper, which kills and reaps every descendant; `SIGKILL` to the group
    /// if the keeper does not end; unkept: `SIGKILL` to its process group) and reaps it.
    /// Returns the exit status of the server's child when it was reaped.
    pub async fn shutdown(mut self, grace: Duration) -> Option<ExitStatus> {
        drop(self.stdin.take());
        let mut child = self.child.take()?;
        let exited = timeout(grace, child.wait()).await.ok().and_then(Result::ok);
        if self.kept {
            return match exited {
                Some(status) => Some(status),
                None => end_kept(child, self.pid).await,
            };
        }
        // Whatever the bot left in its group goes too.
        kill_group(self.pid);
        match exited {
            Some(status) => Some(status),
            None => {
                let _ = child.start_kill();
                timeout(REAP_WAIT, child.wait())
                    .await
                    .ok()
                    .and_then(Result::ok)
            }
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let runtime = tokio::runtime::Handle::try_current().ok();
        if self.kept {
            let pid = self.pid;
            match runtime {
                Some(runtime) => {
                    runtime.spawn(end_kept(child, pid));
                }
                // The keeper ends everything on its own; the runtime's reaper takes it.
                None => tell_keeper_to_end(pid),
            }
            return;
        }
        kill_group(self.pid);
        let _ = child.start_kill();
        // Reap it rather than leave a zombie to the runtime's best effort.
        if let Some(runtime) = runtime {
            runtime.spawn(async move {
                let _ = timeout(REAP_WAIT, child.wait()).await;
            });
        }
    }
}

/// Tells a keeper to end its bot (it kills and reaps every descendant, then exits), waits for
/// it, and kills its group and it only if it does not end in time.
async fn end_kept(mut keeper: Child, pid: Option<u32>) -> Option<ExitStatus> {
    tell_keeper_to_end(pid);
    if let Ok(Ok(status)) = timeout(REAP_WAIT, keeper.wait()).await {
        return Some(status);
    }
    kill_group(pid);
    let _ = keeper.start_kill();
    timeout(REAP_WAIT, keeper.wait())
        .await
        .ok()
        .and_then(Result::ok)
}

/// `SIGTERM` to the keeper, then `SIGCONT` (a keeper stopped by someone else reads it).
fn tell_keeper_to_end(pid: Option<u32>) {
    signal_one(pid, Signal::SIGTERM);
    signal_one(pid, Signal::SIGCONT);
}

/// `signal` to the process `pid` alone (nothing when it is gone).
fn signal_one(pid: Option<u32>, signal: Signal) {
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()).filter(|&p| p > 1) {
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

/// SIGKILL to the process group `pid` leads (nothing when it is gone).
fn kill_group(pid: Option<u32>) {
    signal_group(pid, Signal::SIGKILL);
}

/// `signal` to the process group `pid` leads (nothing when it is gone).
fn signal_group(pid: Option<u32>, signal: Signal) {
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()).filter(|&p| p > 1) {
        let _ = killpg(Pid::from_raw(pid), signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tokio::sync::Semaphore;

    fn spawn(command: &str, slots: &Arc<Semaphore>) -> BotProcess {
        let slot = Arc::clone(slots).try_acquire_owned().expect("a slot");
        let confinement = Confinement {
            memory_mib: 64,
            cpu_secs: 60,
            nice: 0,
            env: Vec::new(),
            keeper: None,
            max_procs: 32,
        };
        BotProcess::spawn(command, &confinement, 1024, slot).expect("spawns")
    }

    /// The state letter of a process in `/proc/PID/stat` (`None`: no such process).
    fn state(pid: u32) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        stat.rsplit_once(") ")?.1.chars().next()
    }

    async fn gone(pid: u32) -> bool {
        for _ in 0..100 {
            if state(pid).is_none() {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        false
    }

    #[tokio::test]
    async fn a_bot_that_stops_reading_cannot_block_a_write() {
        let slots = Arc::new(Semaphore::new(1));
        let mut bot = spawn("sleep 100", &slots);
        let pid = bot.pid().expect("a pid");
        // Far more than a pipe holds.
        let line = "x".repeat(4 << 20);
        // The write gives up by its own deadline (the generous bound only keeps a broken
        // build from hanging: it measures nothing).
        let write = bot.send(&line, Duration::from_millis(200));
        let result = timeout(Duration::from_secs(60), write)
            .await
            .expect("the write gives up by its own deadline");
        assert_eq!(result, Err(IoFailure::Timeout));
        assert!(bot.shutdown(Duration::from_millis(50)).await.is_some());
        assert!(gone(pid).await);
        assert_eq!(slots.available_permits(), 1, "the slot is back");
    }

    #[tokio::test]
    async fn a_dropped_bot_is_killed_and_reaped() {
        let slots = Arc::new(Semaphore::new(1));
        let bot = spawn("sleep 100", &slots);
        let pid = bot.pid().expect("a pid");
        assert_eq!(state(pid).map(|s| s != 'Z'), Some(true), "running");
        drop(bot);
        assert!(gone(pid).await, "no zombie left");
        assert_eq!(slots.available_permits(), 1);
    }

    #[tokio::test]
    async fn what_a_bot_started_is_killed_with_it() {
        let slots = Arc::new(Semaphore::new(1));
        // The bot starts a helper in the background and tells us its pid.
        let mut bot = spawn("sh -c 'sleep 100 & echo $!; wait'", &slots);
        let deadline = Instant::now() + Duration::from_secs(5);
        let line = bot.recv(deadline).await.expect("a pid");
        let helper: u32 = String::from_utf8_lossy(&line)
            .trim()
            .parse()
            .expect("a pid");
        assert_eq!(
            state(helper).map(|s| s != 'Z'),
            Some(true),
            "the helper runs"
        );
        assert!(bot.shutdown(Duration::from_millis(50)).await.is_some());
        // Killed with the group (then reaped by whoever adopted it, or left a zombie there).
        let mut dead = false;
        for _ in 0..100 {
            if state(helper).is_none_or(|s| s == 'Z') {
                dead = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(dead, "the helper is not running");
    }

    async fn lines_of(input: &'static [u8], max: usize) -> Vec<Result<Vec<u8>, IoFailure>> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        loop {
            let r = reader.next_line().await;
            let end = r.is_err();
            out.push(r);
            if end {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn lines_are_split_and_bounded() {
        let out = lines_of(b"one\r\ntwo\n\nthree", 8).await;
        assert_eq!(
            out,
            vec![
                Ok(b"one".to_vec()),
                Ok(b"two".to_vec()),
                Ok(Vec::new()),
                Err(IoFailure::Closed)
            ]
        );
        let out = lines_of(b"short\n0123456789\nnever", 8).await;
        assert_eq!(out, vec![Ok(b"short".to_vec()), Err(IoFailure::TooLong)]);
    }

    #[tokio::test]
    async fn an_endless_line_never_grows_the_buffer_past_the_bound() {
        // 100 MiB without a line break, made on the fly.
        let endless = tokio::io::repeat(b'x').take(100 << 20);
        let mut reader = LineReader::new(endless, 4096);
        assert_eq!(reader.next_line().await, Err(IoFailure::TooLong));
        assert!(reader.buffered() <= 4096 + CHUNK, "{}", reader.buffered());
    }
}
