//! Server bots in versus rooms.
//!
//! A bot seat is a room member like a session: the room sends it what it sends players
//! (`MatchStart`, `Garbage`, `MatchOver`...) through a [`SessionTx`], and it answers with the
//! same reports a player's App sends (attacks, boards, progress, the end, the replay). Behind
//! it is a task of its own that runs the bot's [`Game`] on the match's clock, exactly as a
//! player's session runs theirs, so a bot's game is real: it replays and verifies.
//!
//! What presses the buttons is a [`BotDriver`]: the seam for other kinds of bots. The built-in
//! one (`bot/pool.rs`) thinks on a fixed pool of threads; an external "Tetris Bot Protocol"
//! process would be another driver (it would send the game state to the process in `poll` and
//! complete `ready` when the process answers). The room knows only the seat's name and level.
//!
//! Bounds: at most [`BotLimits::max_total`] bots at once in all rooms (a [`BotGuard`] each),
//! at most [`BotLimits::per_address`] of them for the rooms of one client address and at most
//! [`BotLimits::tbp_per_address`] TBP bots (`shares.rs`: one address never seats every bot
//! while others wait), at most a room's empty seats (a room keeps its host, a person), and
//! their searches never use more than [`BotLimits::threads`] cores.

pub mod pool;
pub mod tbp;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use minotty_engine::{Event, Game, GameConfig, Input, Time};
use minotty_protocol::{MatchStart, Report};
use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep_until};

use super::{Member, MemberId, RESPONSE_QUEUE, RoomLink, SessionTx};
use crate::shares::{Full, Share, Shares};
use minotty_domain::AddressKey;

/// What to do next, as a driver sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotStep {
    /// Apply this input now (then the driver is asked again at once).
    Input(Input),
    /// Nothing before this game time.
    At(Time),
    /// Nothing until the game changes (garbage arrives) or [`BotDriver::ready`] completes.
    Idle,
}

/// What plays a bot seat's game: given the game, it says what to press and when. Its calls
/// never block: slow work (a search, a question to another process) runs elsewhere and
/// [`BotDriver::ready`] completes when it is done.
pub trait BotDriver: Send + std::fmt::Debug + 'static {
    /// The name the room and the match show ("Bot level 3"), never a person's.
    fn name(&self) -> String;
    /// Which bot, as the match record stores it ("level 3").
    fn kind(&self) -> String;
    /// The built-in bot's level, shown in the room.
    fn level(&self) -> Option<u8>;
    /// A match was announced (its countdown runs): a driver with a process starts it now, if
    /// it is not running yet. Nothing runs for a bot before its first match.
    fn prepare(&mut self) {}
    /// A match starts and the bot's new game with it; `seed` is the bot's own for this match.
    fn start(&mut self, game: &Game, seed: u32);
    /// The game at game time `now`: what to do.
    fn poll(&mut self, game: &Game, now: Time) -> BotStep;
    /// Completes when work started by `poll` is done (pending forever when there is none).
    fn ready(&mut self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
    /// The bot's game is over, or the match was decided while it played (a TBP bot is told to
    /// stop calculating).
    fn end(&mut self) {}
    /// Why the bot can play no more, once it cannot (a TBP bot that forfeited: its process was
    /// ended). Its seat is given up after the match.
    fn retired(&self) -> Option<String> {
        None
    }
}

/// How many bots the server runs, and how it thinks for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotLimits {
    /// Bots at once in all rooms (0: no bots).
    pub max_total: usize,
    /// Bots at once in the rooms of one client address (`--bots-per-address`), counted
    /// against the address of the player who asked for each.
    pub per_address: usize,
    /// TBP bots at once in the rooms of one client address (`--tbp-bots-per-address`), of the
    /// `--tbp-max-bots` processes.
    pub tbp_per_address: usize,
    /// Threads for the built-in bots' searches.
    pub threads: usize,
    /// Decisions waiting for a thread before bots wait.
    pub queue: usize,
    /// Waiting in the quick-match queue this long brings the offer of a bot match.
    pub offer_after: Duration,
    /// The quick-match queue may pair two accounts from one client address for a ranked match
    /// (`--ranked-same-address`; off by default). A queue setting carried here, with
    /// `offer_after`, because these are the settings the hub is built with.
    pub ranked_same_address: bool,
}

impl Default for BotLimits {
    fn default() -> BotLimits {
        BotLimits {
            max_total: 64,
            per_address: 8,
            tbp_per_address: 2,
            threads: 1,
            queue: 256,
            offer_after: Duration::from_secs(20),
            ranked_same_address: false,
        }
    }
}

/// The server's bots: the count, the limits and the thinking threads (started with the first
/// bot).
#[derive(Debug)]
pub struct Bots {
    pub limits: BotLimits,
    /// Every bot's place, with a share per address.
    seats: Shares,
    /// TBP bots' places per address (their total is `--tbp-max-bots`, the frontend's).
    tbp: Shares,
    pool: OnceLock<Arc<pool::Pool>>,
}

impl Default for Bots {
    fn default() -> Bots {
        Bots::new(BotLimits::default())
    }
}

impl Bots {
    pub fn new(limits: BotLimits) -> Bots {
        Bots {
            limits,
            seats: Shares::new(limits.max_total, limits.per_address),
            tbp: Shares::new(usize::MAX, limits.tbp_per_address),
            pool: OnceLock::new(),
        }
    }

    /// A place for one more bot asked for from `address` (`None`: counted in the total only),
    /// or why not.
    pub fn claim(&self, address: Option<AddressKey>) -> Result<BotGuard, Full> {
        Ok(BotGuard {
            _seat: self.seats.take(address)?,
            _tbp: None,
        })
    }

    /// The same for a TBP bot, which also takes one of the address's TBP places.
    pub fn claim_tbp(&self, address: Option<AddressKey>) -> Result<BotGuard, Full> {
        let tbp = self.tbp.take(address)?;
        Ok(BotGuard {
            _seat: self.seats.take(address)?,
            _tbp: Some(tbp),
        })
    }

    /// Bots playing or seated now.
    pub fn active(&self) -> usize {
        self.seats.held(None).0
    }

    /// The shares of one address (bots, TBP bots), and what `address` holds of each.
    pub fn shares_of(&self, address: Option<AddressKey>) -> [(usize, usize); 2] {
        [
            (self.seats.per_address(), self.seats.held(address).1),
            (self.tbp.per_address(), self.tbp.held(address).1),
        ]
    }

    pub fn pool(&self) -> Arc<pool::Pool> {
        Arc::clone(
            self.pool
                .get_or_init(|| Arc::new(pool::Pool::new(self.limits.threads, self.limits.queue))),
        )
    }

    /// The thinking threads' numbers, if they started.
    pub fn stats(&self) -> Option<Arc<pool::PoolStats>> {
        self.pool.get().map(|p| Arc::clone(&p.stats))
    }
}

/// One bot's place in the count (and its address's), given back when its task ends.
#[derive(Debug)]
pub struct BotGuard {
    _seat: Share,
    _tbp: Option<Share>,
}

/// A bot's seat in a room, as the room knows it.
#[derive(Clone, Debug)]
pub struct BotSeat {
    pub level: Option<u8>,
    /// For the match record.
    pub kind: String,
}

/// Starts a bot's task for `room` among the room's own `tasks` (ended with the room) and
/// returns it as a member to seat.
pub fn spawn(
    tasks: &mut JoinSet<()>,
    id: MemberId,
    room: RoomLink,
    driver: Box<dyn BotDriver>,
    guard: BotGuard,
) -> (Member, BotSeat) {
    let (tx, rx) = mpsc::channel(RESPONSE_QUEUE);
    let seat = BotSeat {
        level: driver.level(),
        kind: driver.kind(),
    };
    let member = Member {
        id,
        name: driver.name(),
        account: None,
        owner: None,
        address: None,
        tx: SessionTx::new(tx),
        link: Arc::new(Mutex::new(Some(room.clone()))),
    };
    // The bots that left already are reaped first: the set holds the seated ones.
    while tasks.try_join_next().is_some() {}
    tasks.spawn(run(id, room, driver, rx, guard));
    (member, seat)
}

/// Board snapshots that only show the falling piece moving go out at most this often (as a
/// player's App sends them).
const BOARD_EVERY: Duration = Duration::from_millis(100);
/// Inputs applied in one turn of the task at most (a driver that never says "later" cannot
/// hold it).
const INPUTS_PER_TURN: usize = 32;

/// One match of the bot.
struct Play {
    game: Game,
    /// When game time 0 is.
    go: Instant,
    started: bool,
    /// Events not reported yet.
    events: Vec<Event>,
    finished: bool,
    driver_at: Option<Time>,
    board_due: bool,
    last_board: Option<Instant>,
}

impl Play {
    fn new(start: &MatchStart, now: Instant) -> Play {
        // The room's game settings: its ruleset, entry delay and fixed handling (a bot plays
        // the ruleset's own handling when the room leaves it free).
        let config = GameConfig {
            mode: start.mode.clone(),
            ruleset: start.game.ruleset(),
            tuning: start.game.tuning(),
            handling: start
                .game
                .handling()
                .unwrap_or(minotty_engine::Ruleset::get(start.game.ruleset()).handling),
        };
        Play {
            game: Game::new(config, start.seed),
            go: now + Duration::from_millis(start.countdown_ms),
            started: false,
            events: Vec::new(),
            finished: false,
            driver_at: None,
            board_due: true,
            last_board: None,
        }
    }

    fn game_ms(&self, now: Instant) -> Time {
        u64::try_from(now.saturating_duration_since(self.go).as_millis()).unwrap_or(u64::MAX)
    }

    fn at(&self, t: Time) -> Instant {
        self.go + Duration::from_millis(t)
    }

    /// When the task should wake for this match.
    fn wake(&self) -> Option<Instant> {
        if self.finished {
            return None;
        }
        if !self.started {
            return Some(self.go);
        }
        let game = [self.game.next_deadline(), self.driver_at]
            .into_iter()
            .flatten()
            .min()
            .map(|t| self.at(t));
        let board = self
            .board_due
            .then(|| self.last_board.map_or(Instant::now(), |b| b + BOARD_EVERY));
        game.into_iter().chain(board).min()
    }

    /// Garbage from the room.
    fn garbage(&mut self, lines: u8, now: Instant) {
        if !self.started || self.finished {
            return;
        }
        let t = self.game_ms(now);
        let events = self.game.update(t, Some(Input::Garbage(lines)));
        self.events.extend_from_slice(events);
    }

    /// Advances the game to `now`, lets the driver play, and returns the reports for the room.
    fn step(&mut self, driver: &mut dyn BotDriver, now: Instant, seed: u32) -> Vec<Report> {
        if self.finished || now < self.go {
            return Vec::new();
        }
        let t = self.game_ms(now);
        if !self.started {
            self.started = true;
            let events = self.game.update(0, None);
            self.events.extend_from_slice(events);
            driver.start(&self.game, seed);
        }
        let events = self.game.update(t, None);
        self.events.extend_from_slice(events);
        self.driver_at = None;
        for _ in 0..INPUTS_PER_TURN {
            if self.game.is_over() {
                break;
            }
            match driver.poll(&self.game, t) {
                BotStep::Input(input) => {
                    let events = self.game.update(t, Some(input));
                    self.events.extend_from_slice(events);
                }
                BotStep::At(at) if at > t => {
                    self.driver_at = Some(at);
                    break;
                }
                BotStep::At(_) => {}
                BotStep::Idle => break,
            }
        }
        let reports = self.reports(now);
        if self.finished {
            driver.end();
        }
        reports
    }

    /// What happened since the last report, as a player's App reports it.
    fn reports(&mut self, now: Instant) -> Vec<Report> {
        let digest = minotty_protocol::EventDigest::of(&self.events);
        self.events.clear();
        let (board, progress, finished) = (digest.board, digest.progress, digest.finished);
        self.board_due |= digest.moved;
        let mut reports = digest.attacks;
        let throttled = self.last_board.is_some_and(|b| now < b + BOARD_EVERY);
        if board || (self.board_due && !throttled) {
            reports.push(Report::Board(minotty_protocol::snapshot(&self.game)));
            self.last_board = Some(now);
            self.board_due = false;
        }
        if progress {
            reports.push(Report::Progress(minotty_protocol::progress_of(&self.game)));
        }
        if let Some((won, forfeit)) = finished {
            self.finished = true;
            reports.extend(minotty_protocol::end_reports(&self.game, won, forfeit));
        }
        reports
    }
}

/// What woke the task.
enum Wake {
    Message(Option<Response>),
    Timer,
    Ready,
}

/// The bot's task: until the room lets it go (closes, or the host removed it).
async fn run(
    id: MemberId,
    room: RoomLink,
    mut driver: Box<dyn BotDriver>,
    mut rx: mpsc::Receiver<Response>,
    _guard: BotGuard,
) {
    let mut play: Option<Play> = None;
    let mut seed = 0u32;
    loop {
        let wake = play.as_ref().and_then(Play::wake);
        let woke = tokio::select! {
            msg = rx.recv() => Wake::Message(msg),
            () = sleep_until(wake.unwrap_or_else(far_future)), if wake.is_some() => Wake::Timer,
            () = driver.ready() => Wake::Ready,
        };
        let now = Instant::now();
        let mut reports = Vec::new();
        match woke {
            Wake::Message(None | Some(Response::RoomClosed { .. })) => break,
            Wake::Message(Some(Response::MatchStart(start))) => {
                if let Some(seat) = start.you {
                    driver.prepare();
                    // The bot's own seed for this match: the match's, mixed with its seat.
                    seed = start.seed ^ (seat as u32 + 1).wrapping_mul(0x9E37_79B9);
                    play = Some(Play::new(&start, now));
                }
            }
            Wake::Message(Some(Response::Garbage { lines, .. })) => {
                if let Some(p) = play.as_mut() {
                    p.garbage(lines, now);
                }
            }
            Wake::Message(Some(Response::MatchOver(_))) => {
                // A game still running when the match is decided: its record goes now.
                if let Some(p) = play.take()
                    && !p.finished
                {
                    driver.end();
                    reports.push(Report::Replay(Box::new(p.game.replay())));
                }
            }
            Wake::Message(Some(_)) | Wake::Timer | Wake::Ready => {}
        }
        let mut crashed = false;
        if let Some(p) = play.as_mut() {
            // A panic in the bot's turn (its driver or its game) costs its match only: the bot
            // leaves (below), which forfeits, so the match still ends.
            match catch_unwind(AssertUnwindSafe(|| p.step(driver.as_mut(), now, seed))) {
                Ok(r) => reports.extend(r),
                Err(_) => {
                    tracing::error!(room = %room.code, "a bot panicked: it leaves its room");
                    crashed = true;
                }
            }
        }
        if !reports.is_empty() && !room.report(id, reports).await {
            break;
        }
        if crashed {
            break;
        }
        if play.is_none()
            && let Some(reason) = driver.retired()
        {
            room.retire_bot(id, reason);
            break;
        }
    }
    // However the task ends, the bot leaves like a player who disconnected: a forfeit in a
    // match, its seat freed otherwise (nothing when the room is gone or already let it go).
    room.leave(id, true);
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400)
}
