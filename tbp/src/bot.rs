//! minotty-bot's side of the conversation: reads TBP messages a line at a time, answers on its
//! output. Generic over the streams so tests can run it in memory; the binary gives it stdin and
//! stdout.
//!
//! For the frontend's tests the bot can misbehave on purpose ([`Fault`]): after answering a
//! number of `suggest` messages correctly it answers garbage, a message of the wrong type or an
//! impossible move, hangs, exits, writes an endless line, floods unknown messages, allocates
//! memory until it is stopped, answers late, or leaves processes behind (a child in a session
//! of its own, many children).

use std::io::{self, BufRead, Read, Write};

use minotty_bots::versus::Level;

use crate::brain::{self, VersusBrain};
use crate::msg::{
    BotMessage, FEATURE_GARBAGE, FrontendMessage, Location, Move, Orientation, TbpPiece, TbpSpin,
};
use crate::state::TbpState;

/// The longest line the bot reads; a longer one is skipped whole.
pub const MAX_INPUT_LINE: usize = 1 << 20;

/// A way to misbehave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A line that is not JSON.
    Garbage,
    /// `ready` where a `suggestion` is due.
    WrongType,
    /// A suggestion whose only move is below the floor.
    Impossible,
    /// Never answers again.
    Hang,
    /// Exits (status 3).
    Exit,
    /// Writes without ever ending the line.
    EndlessLine,
    /// Allocates and touches memory, 16 MiB at a time up to 2 GiB, then answers as usual.
    Alloc,
    /// 100,000 messages of an unknown type before the answer.
    Flood,
    /// Answers 600 ms late.
    Slow,
    /// Answers an empty suggestion while less than [`COLD_START`] has passed since the last
    /// `start` (as Cold Clear 2 answers before its search found a move), then as usual.
    ColdStart,
    /// Keeps a core busy from the first `start` on, answered or not (as Cold Clear 2 keeps
    /// searching while it waits), and answers as usual.
    Spin,
    /// Once: starts a child that calls `setsid` (a session and process group of its own) and
    /// sleeps an hour, then answers as usual.
    Orphan,
    /// Once: starts [`MANY_CHILDREN`] children that sleep an hour, then answers as usual.
    ForkMany,
}

/// How many children a `fork-many` bot starts.
pub const MANY_CHILDREN: usize = 200;

/// How long a `cold-start` bot answers empty suggestions after a `start`.
pub const COLD_START: std::time::Duration = std::time::Duration::from_millis(50);

impl FaultKind {
    pub const ALL: [(&'static str, FaultKind); 13] = [
        ("garbage", FaultKind::Garbage),
        ("wrong-type", FaultKind::WrongType),
        ("impossible", FaultKind::Impossible),
        ("hang", FaultKind::Hang),
        ("exit", FaultKind::Exit),
        ("endless-line", FaultKind::EndlessLine),
        ("alloc", FaultKind::Alloc),
        ("flood", FaultKind::Flood),
        ("slow", FaultKind::Slow),
        ("cold-start", FaultKind::ColdStart),
        ("spin", FaultKind::Spin),
        ("orphan", FaultKind::Orphan),
        ("fork-many", FaultKind::ForkMany),
    ];
}

/// Misbehave after answering `after` suggestions correctly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub after: u32,
}

impl Fault {
    /// Parses `KIND` or `KIND@N` (e.g. `exit@20`).
    pub fn parse(s: &str) -> Option<Fault> {
        let (name, after) = match s.split_once('@') {
            Some((name, n)) => (name, n.parse().ok()?),
            None => (s, 0),
        };
        let kind = FaultKind::ALL.iter().find(|(n, _)| *n == name)?.1;
        Some(Fault { kind, after })
    }
}

/// The bot's `info`: it takes `garbage` messages, unless it plays Cold Clear 2's part
/// (`cold-start`), which lists no feature.
pub fn info(options: &Options) -> BotMessage {
    let cold = options
        .fault
        .is_some_and(|f| f.kind == FaultKind::ColdStart);
    BotMessage::Info {
        name: String::from("minotty-bot"),
        version: String::from(env!("CARGO_PKG_VERSION")),
        author: String::from("minotty"),
        features: if cold {
            Vec::new()
        } else {
            vec![String::from(FEATURE_GARBAGE)]
        },
    }
}

/// How the bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Choose with the engine's versus brain at this level (`None`: minotty-bot's own search).
    pub level: Option<Level>,
    /// Misbehave (tests of frontends).
    pub fault: Option<Fault>,
}

/// Talks TBP on `input` and `output` until `quit` or the end of the input.
pub fn run(mut input: impl BufRead, mut output: impl Write, options: Options) -> io::Result<()> {
    let fault = options.fault;
    let mut versus = options.level.map(|l| VersusBrain::new(l, 1));
    send(&mut output, &info(&options))?;
    let mut state: Option<TbpState> = None;
    let mut answered = 0u32;
    let mut started_at: Option<std::time::Instant> = None;
    let mut spinning = false;
    let mut left_behind = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        if !read_line(&mut input, &mut line)? {
            return Ok(());
        }
        let message = match serde_json::from_slice::<FrontendMessage>(&line) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("minotty-bot: ignoring a message that does not parse: {e}");
                continue;
            }
        };
        match message {
            FrontendMessage::Rules => send(&mut output, &BotMessage::Ready)?,
            FrontendMessage::Start(start) => {
                state = Some(TbpState::from_start(&start));
                started_at = Some(std::time::Instant::now());
                if fault.is_some_and(|f| f.kind == FaultKind::Spin) && !spinning {
                    spinning = true;
                    std::thread::spawn(spin);
                }
            }
            FrontendMessage::Stop => state = None,
            FrontendMessage::Suggest => {
                let cold = fault.is_some_and(|f| f.kind == FaultKind::ColdStart)
                    && started_at.is_some_and(|t| t.elapsed() < COLD_START);
                if cold {
                    send(&mut output, &BotMessage::Suggestion { moves: Vec::new() })?;
                    continue;
                }
                if let Some(f) = fault.filter(|f| answered >= f.after) {
                    let once = matches!(f.kind, FaultKind::Orphan | FaultKind::ForkMany);
                    if !(once && left_behind) {
                        left_behind = true;
                        misbehave(f.kind, &mut output)?;
                    }
                }
                let moves = match (state.as_ref(), versus.as_mut()) {
                    (None, _) => Vec::new(),
                    (Some(s), Some(v)) => v.suggest(s),
                    (Some(s), None) => brain::suggest(s),
                };
                send(&mut output, &BotMessage::Suggestion { moves })?;
                answered = answered.saturating_add(1);
            }
            FrontendMessage::Play { mv } => {
                if let Some(s) = state.as_mut()
                    && let Err(e) = s.play(&mv)
                {
                    eprintln!("minotty-bot: cannot play {mv:?}: {e:?}");
                }
            }
            FrontendMessage::Garbage { rows } => {
                if let Some(s) = state.as_mut() {
                    s.add_garbage(&rows);
                }
            }
            FrontendMessage::NewPiece { piece } => {
                if let Some(s) = state.as_mut()
                    && s.new_piece(piece.into()).is_err()
                {
                    eprintln!("minotty-bot: the queue is full");
                }
            }
            FrontendMessage::Quit => return Ok(()),
            FrontendMessage::Unknown => {}
        }
    }
}

/// Reads one line (without its break) into `line`; a line longer than [`MAX_INPUT_LINE`] is
/// skipped whole. `false` at the end of the input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    loop {
        line.clear();
        let n = Read::take(&mut *input, MAX_INPUT_LINE as u64 + 1).read_until(b'\n', line)?;
        if n == 0 {
            return Ok(false);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            return Ok(true);
        }
        if line.len() <= MAX_INPUT_LINE {
            // The last line, without a break.
            return Ok(true);
        }
        eprintln!("minotty-bot: skipping a line longer than {MAX_INPUT_LINE} bytes");
        loop {
            line.clear();
            let n = Read::take(&mut *input, 64 << 10).read_until(b'\n', line)?;
            if n == 0 {
                return Ok(false);
            }
            if line.last() == Some(&b'\n') {
                break;
            }
        }
    }
}

fn send(output: &mut impl Write, message: &BotMessage) -> io::Result<()> {
    output.write_all(message.to_line().as_bytes())?;
    output.write_all(b"\n")?;
    output.flush()
}

/// Does what `kind` says, instead of (or before) the suggestion.
fn misbehave(kind: FaultKind, output: &mut impl Write) -> io::Result<()> {
    match kind {
        FaultKind::Garbage => {
            output.write_all(b"}{ this is not json\n")?;
            output.flush()?;
            hang()
        }
        FaultKind::WrongType => {
            send(output, &BotMessage::Ready)?;
            hang()
        }
        FaultKind::Impossible => {
            let below_the_floor = Move {
                location: Location {
                    kind: TbpPiece::T,
                    orientation: Orientation::North,
                    x: 4,
                    y: -3,
                },
                spin: TbpSpin::None,
            };
            send(
                output,
                &BotMessage::Suggestion {
                    moves: vec![below_the_floor],
                },
            )?;
            hang()
        }
        FaultKind::Hang => hang(),
        FaultKind::Exit => std::process::exit(3),
        FaultKind::EndlessLine => {
            let chunk = vec![b'x'; 64 << 10];
            loop {
                output.write_all(&chunk)?;
                output.flush()?;
            }
        }
        FaultKind::Alloc => {
            let mut held: Vec<Vec<u8>> = Vec::new();
            for _ in 0..128 {
                // Filled, so every page is really there.
                held.push(vec![1u8; 16 << 20]);
            }
            eprintln!("minotty-bot: holding {} MiB", held.len() * 16);
            std::mem::forget(held);
            Ok(())
        }
        FaultKind::Flood => {
            for _ in 0..100_000 {
                output.write_all(b"{\"type\":\"chatter\"}\n")?;
            }
            output.flush()
        }
        FaultKind::Slow => {
            std::thread::sleep(std::time::Duration::from_millis(600));
            Ok(())
        }
        FaultKind::Orphan => {
            // util-linux's `setsid` (in every Debian image): the child leaves the bot's
            // session and process group, as a daemonizing child does.
            let child = sleeper("setsid", &["sleep", "3600"])?;
            std::mem::forget(child);
            Ok(())
        }
        FaultKind::ForkMany => {
            for _ in 0..MANY_CHILDREN {
                // Stopped at the frontend's limit: the bot is ended while it starts them.
                match sleeper("sleep", &["3600"]) {
                    Ok(child) => std::mem::forget(child),
                    Err(_) => break,
                }
            }
            Ok(())
        }
        FaultKind::ColdStart | FaultKind::Spin => Ok(()),
    }
}

/// Starts `program args` with nothing of the bot's pipes (never waited for).
fn sleeper(program: &str, args: &[&str]) -> io::Result<std::process::Child> {
    std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
}

/// Keeps a core busy until the process ends.
fn spin() {
    let mut x = 0u64;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}

/// Never returns (until the process is killed).
fn hang() -> io::Result<()> {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}
