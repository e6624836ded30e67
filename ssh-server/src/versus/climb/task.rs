//! One climb's task: its climbers in fixed slots (a slot is the seat the others' boards and
//! attacks name), each playing runs; the engine's climb rules say where attacks go and what
//! a run's reports are worth. It wakes for a message, a finished verification, or its tick
//! ([`VIEW_EVERY`]: boards and views out, fatigue, grace ending, idle climbers let go).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use minotty_domain::RoomCode;
use minotty_engine::versus::climb::{self, Climb, Climber as Standing};
use minotty_engine::versus::{MatchKind, RoomSettings};
use minotty_protocol::{
    BoardSnapshot, ClimbRun, ClimbView, MatchStart, Progress, Report, RoomCommand, RoomLimit,
};
use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep_until};

mod boards;

use super::record::{self, Finished, NotKept};
use super::{BOT_LEVEL, BOT_REST, CLIMB_CODE, IDLE_AFTER_RUN, MIN_CLIMBERS};
use super::{CLIMBERS_MAX, VIEW_EVERY};
use crate::versus::bot::{self, pool::Builtin};
use crate::versus::{COUNTDOWN, Hub, Member, MemberId, REPLAY_GRACE, ROOM_INBOX, RoomLink};
use crate::versus::{RoomMsg, unix_now};

/// The most height a climber's live reports may claim (what the others see; the board stores
/// only what a verified replay reached).
const CLAIM_MAX: u32 = 100_000;

/// Opens a climb with `first` in it and starts its task: its address and climber count.
pub(super) fn spawn(hub: Arc<Hub>, first: Member) -> Option<(RoomLink, Arc<AtomicUsize>)> {
    let (tx, rx) = mpsc::channel(ROOM_INBOX);
    let named = RoomCode::parse(CLIMB_CODE).filter(|c| hub.register_as(c, &tx));
    let code = match named {
        Some(code) => code,
        None => hub.register(&tx)?,
    };
    let link = RoomLink {
        code: code.clone(),
        tx,
        tasks: hub.tasks.clone(),
    };
    let count = Arc::new(AtomicUsize::new(0));
    let seed = hub.seed();
    let mut task = ClimbTask {
        hub: Arc::clone(&hub),
        code,
        link: link.clone(),
        count: Arc::clone(&count),
        rules: Climb::new(seed),
        slots: (0..CLIMBERS_MAX).map(|_| None).collect(),
        bot_tasks: JoinSet::new(),
        records: JoinSet::new(),
        dirty: false,
    };
    tracing::info!(climb = %task.code, "climb opened");
    task.join(first, Instant::now());
    hub.spawn_room(task.run(rx));
    Some((link, count))
}

/// A climber's run in play (or just ended).
#[derive(Debug)]
struct Run {
    seed: u32,
    /// When its countdown ends.
    go: Instant,
    fatigue_sent: u32,
    /// When it ended (topped out or forfeited).
    ended: Option<Instant>,
    /// Its replay is awaited until then (a registered climber's run, to store).
    replay_due: Option<Instant>,
}

#[derive(Debug)]
struct Climber {
    member: Member,
    bot: bool,
    run: Option<Run>,
    board: BoardSnapshot,
    progress: Progress,
    target: Option<usize>,
    /// The last run's result, once it ended.
    last: Option<ClimbRun>,
    /// A climber between runs is let go then (a bot climbs again then).
    idle_until: Option<Instant>,
    /// The view last sent.
    sent: Option<ClimbView>,
    /// A run of theirs is being verified for the board.
    recording: bool,
}

impl Climber {
    fn alive(&self) -> bool {
        self.run.as_ref().is_some_and(|r| r.ended.is_none())
    }

    fn height(&self) -> u32 {
        climb::height(self.progress.lines, self.progress.attack_sent).min(CLAIM_MAX)
    }

    fn standing(&self, now: Instant) -> Standing {
        let run_ms = self.run.as_ref().map_or(0, |r| millis(now, r.go));
        Standing {
            alive: self.alive() && self.run.as_ref().is_some_and(|r| now >= r.go),
            height: self.height(),
            run_ms,
        }
    }
}

fn millis(now: Instant, since: Instant) -> u64 {
    u64::try_from(now.saturating_duration_since(since).as_millis()).unwrap_or(u64::MAX)
}

fn empty_board() -> BoardSnapshot {
    BoardSnapshot {
        rows: vec![[0; 10]; 20],
    }
}

struct ClimbTask {
    hub: Arc<Hub>,
    code: RoomCode,
    link: RoomLink,
    count: Arc<AtomicUsize>,
    rules: Climb,
    slots: Vec<Option<Climber>>,
    bot_tasks: JoinSet<()>,
    /// Runs being verified and stored: the climber and the outcome.
    records: JoinSet<(MemberId, Result<u32, NotKept>)>,
    /// A board or a number changed since the last flush.
    dirty: bool,
}

impl ClimbTask {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomMsg>) {
        let mut tick = Instant::now() + VIEW_EVERY;
        loop {
            let busy = !self.records.is_empty();
            tokio::select! {
                msg = rx.recv() => {
                    let Some(msg) = msg else { break };
                    let now = Instant::now();
                    let handled = catch_unwind(AssertUnwindSafe(|| self.handle(msg, now)));
                    match handled {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(_) => {
                            tracing::error!(climb = %self.code, "the climb's task panicked: it closes");
                            break;
                        }
                    }
                }
                Some(done) = self.records.join_next(), if busy => {
                    if let Ok((id, outcome)) = done {
                        self.recorded(id, outcome);
                    }
                }
                () = sleep_until(tick) => {
                    let now = Instant::now();
                    tick = now + VIEW_EVERY;
                    if catch_unwind(AssertUnwindSafe(|| self.tick(now))).is_err() {
                        tracing::error!(climb = %self.code, "the climb's task panicked: it closes");
                        break;
                    }
                }
            }
            if !self.has_people() {
                break;
            }
        }
        self.close();
        // Runs being stored finish before the task ends (each is bounded by the store).
        while self.records.join_next().await.is_some() {}
    }

    fn has_people(&self) -> bool {
        self.slots.iter().flatten().any(|c| !c.bot)
    }

    fn occupied(&self) -> usize {
        self.slots.iter().flatten().count()
    }

    fn slot_of(&self, id: MemberId) -> Option<usize> {
        self.slots
            .iter()
            .position(|c| c.as_ref().is_some_and(|c| c.member.id == id))
    }

    /// `false`: the climb closes.
    fn handle(&mut self, msg: RoomMsg, now: Instant) -> bool {
        match msg {
            RoomMsg::Join { member, spectate } => {
                if spectate {
                    member.send(Response::RoomFailed {
                        message: "A climb is played, not watched: choose Climb to join it.".into(),
                    });
                } else {
                    self.join(member, now);
                }
            }
            RoomMsg::WatchLive { member } | RoomMsg::Rejoin { member } => {
                member.send(Response::RoomFailed {
                    message: "That climb is not there any more.".into(),
                });
            }
            RoomMsg::Leave { id, .. }
            | RoomMsg::LostContact { id, .. }
            | RoomMsg::DrainedAway { id }
            | RoomMsg::BotRetired { id, .. } => self.leave(id, None, now),
            RoomMsg::Command { id, command } => self.command(id, command, now),
            RoomMsg::Shutdown => return false,
            #[cfg(test)]
            RoomMsg::Panic => panic!("a test asked the climb to panic"),
            #[cfg(test)]
            RoomMsg::SeatDriver(_) => {}
        }
        true
    }

    fn join(&mut self, member: Member, now: Instant) {
        if self.slot_of(member.id).is_some() {
            return;
        }
        let Some(slot) = self.slots.iter().position(Option::is_none) else {
            member.send(Response::RoomFailed {
                message: format!("The climb is full ({CLIMBERS_MAX} climbers): try again."),
            });
            return;
        };
        member.set_room(self.link.clone());
        tracing::info!(climb = %self.code, player = %member.name, "joins the climb");
        self.seat(slot, member, false);
        self.start_run(slot, now);
        self.balance_bots(now);
    }

    fn seat(&mut self, slot: usize, member: Member, bot: bool) {
        self.slots[slot] = Some(Climber {
            member,
            bot,
            run: None,
            board: empty_board(),
            progress: Progress::default(),
            target: None,
            last: None,
            idle_until: None,
            sent: None,
            recording: false,
        });
        self.count.store(self.occupied(), Ordering::Relaxed);
        self.dirty = true;
    }

    /// Out of the climb (`message`: the climber is told why).
    fn leave(&mut self, id: MemberId, message: Option<String>, now: Instant) {
        let Some(slot) = self.slot_of(id) else {
            return;
        };
        if let Some(c) = self.slots[slot].take() {
            c.member.clear_room(&self.code);
            if let Some(message) = message {
                c.member.send(Response::RoomClosed { message });
            }
        }
        for c in self.slots.iter_mut().flatten() {
            if c.target == Some(slot) {
                c.target = None;
            }
        }
        self.count.store(self.occupied(), Ordering::Relaxed);
        self.dirty = true;
        self.balance_bots(now);
    }

    /// Bots up to [`MIN_CLIMBERS`] while people climb, and none beyond: a bot between runs
    /// gives its place up first.
    fn balance_bots(&mut self, now: Instant) {
        if !self.has_people() {
            return;
        }
        while self.occupied() < MIN_CLIMBERS {
            let Ok(guard) = self.hub.bots.claim(None) else {
                break;
            };
            let Some(level) = minotty_bots::versus::Level::new(BOT_LEVEL) else {
                break;
            };
            let Some(slot) = self.slots.iter().position(Option::is_none) else {
                break;
            };
            let driver = Box::new(Builtin::new(level, self.hub.bots.pool()));
            let id = self.hub.next_member();
            let (member, _) = bot::spawn(&mut self.bot_tasks, id, self.link.clone(), driver, guard);
            self.seat(slot, member, true);
            self.start_run(slot, now);
        }
        while self.occupied() > MIN_CLIMBERS {
            let bots = self.slots.iter().enumerate().filter_map(|(i, c)| {
                c.as_ref()
                    .filter(|c| c.bot)
                    .map(|c| (i, c.alive(), c.height()))
            });
            // The lowest bot between runs, else the lowest climbing.
            let Some((slot, ..)) = bots.min_by_key(|&(_, alive, height)| (alive, height)) else {
                break;
            };
            if let Some(c) = self.slots[slot].take() {
                c.member.clear_room(&self.code);
            }
            self.count.store(self.occupied(), Ordering::Relaxed);
            self.dirty = true;
        }
    }

    fn names(&self) -> Vec<String> {
        let last = self
            .slots
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        self.slots[..last]
            .iter()
            .map(|c| {
                c.as_ref()
                    .map_or_else(String::new, |c| c.member.name.clone())
            })
            .collect()
    }

    /// A new run for the climber in `slot`: a fresh game on a seed of its own.
    fn start_run(&mut self, slot: usize, now: Instant) {
        let seed = self.hub.seed();
        let players = self.names();
        let Some(c) = self.slots[slot].as_mut() else {
            return;
        };
        c.run = Some(Run {
            seed,
            go: now + COUNTDOWN,
            fatigue_sent: 0,
            ended: None,
            replay_due: None,
        });
        c.board = empty_board();
        c.progress = Progress::default();
        c.target = None;
        c.idle_until = None;
        let options = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None);
        let start = MatchStart {
            kind: MatchKind::Battle,
            mode: options.mode(),
            seed,
            players,
            you: Some(slot),
            countdown_ms: u64::try_from(COUNTDOWN.as_millis()).unwrap_or(3000),
            ranked: false,
            teams: Vec::new(),
            game: *options.game(),
        };
        // The view first: the App knows the match is a climb's run when it starts.
        if !c.bot {
            let view = self.view(slot, now);
            if let Some(c) = self.slots[slot].as_mut() {
                c.member.send(Response::Climb(view.clone()));
                c.sent = Some(view);
            }
        }
        if let Some(c) = self.slots[slot].as_ref() {
            c.member.send(Response::MatchStart(start));
        }
        self.dirty = true;
        self.flush_boards();
    }

    fn command(&mut self, id: MemberId, command: RoomCommand, now: Instant) {
        let Some(slot) = self.slot_of(id) else {
            return;
        };
        match command {
            RoomCommand::Report { reports } => self.reports(slot, reports, now),
            RoomCommand::Rematch | RoomCommand::Ready { .. } | RoomCommand::Start => {
                let between = self.slots[slot].as_ref().is_some_and(|c| !c.alive());
                if between {
                    self.start_run(slot, now);
                }
            }
            // Nothing else means anything in a climb.
            _ => {}
        }
    }

    fn reports(&mut self, slot: usize, reports: Vec<Report>, now: Instant) {
        for report in reports {
            let Some(c) = self.slots[slot].as_mut() else {
                return;
            };
            match report {
                Report::Replay(replay) => self.replay_came(slot, *replay),
                _ if !c.alive() => {}
                Report::Attack { lines } => self.attack(slot, lines, now),
                Report::Board(mut board) => {
                    board.rows.truncate(20);
                    c.board = board;
                    self.dirty = true;
                }
                Report::Progress(progress) => {
                    c.progress = progress;
                    self.dirty = true;
                }
                Report::Finished { progress, .. } | Report::Forfeited { progress } => {
                    c.progress = progress;
                    self.run_ended(slot, now);
                }
            }
        }
    }

    fn attack(&mut self, from: usize, lines: u8, now: Instant) {
        let standings: Vec<Standing> = self
            .slots
            .iter()
            .map(|c| {
                c.as_ref().map_or(
                    Standing {
                        alive: false,
                        height: 0,
                        run_ms: 0,
                    },
                    |c| c.standing(now),
                )
            })
            .collect();
        let to = self.rules.target(from, &standings);
        if let Some(c) = self.slots[from].as_mut() {
            c.target = to;
        }
        if let Some(to) = to
            && let Some(target) = self.slots[to].as_ref()
        {
            target.member.send(Response::Garbage { lines, from });
        }
        self.dirty = true;
    }

    fn run_ended(&mut self, slot: usize, now: Instant) {
        let Some(c) = self.slots[slot].as_mut() else {
            return;
        };
        let height = c.height();
        c.last = Some(ClimbRun {
            height,
            floor: climb::floor_of(height),
            time_ms: c.progress.time_ms,
            stored: false,
        });
        let keeps = !c.bot && c.member.account.is_some() && !c.recording && height > 0;
        if let Some(run) = c.run.as_mut() {
            run.ended = Some(now);
            run.replay_due = keeps.then_some(now + REPLAY_GRACE);
        }
        c.idle_until = Some(now + if c.bot { BOT_REST } else { IDLE_AFTER_RUN });
        c.target = None;
        self.dirty = true;
        tracing::debug!(climb = %self.code, player = %c.member.name, height, "a run ended");
        self.send_view(slot, now);
    }

    fn replay_came(&mut self, slot: usize, replay: minotty_engine::Replay) {
        let store = self.hub.store.clone();
        let Some(c) = self.slots[slot].as_mut() else {
            return;
        };
        let Some(run) = c.run.as_mut() else {
            return;
        };
        if run.replay_due.take().is_none() {
            return;
        }
        let Some(account) = c.member.account.as_ref() else {
            return;
        };
        c.recording = true;
        let finished = Finished {
            player: account.id,
            seed: run.seed,
            replay,
            ended_at: unix_now(),
        };
        let id = c.member.id;
        self.records
            .spawn(async move { (id, record::keep(store, finished).await) });
    }

    fn recorded(&mut self, id: MemberId, outcome: Result<u32, NotKept>) {
        let Some(slot) = self.slot_of(id) else {
            return;
        };
        let Some(c) = self.slots[slot].as_mut() else {
            return;
        };
        c.recording = false;
        match outcome {
            Ok(height) => {
                if let Some(last) = c.last.as_mut() {
                    last.height = height;
                    last.floor = climb::floor_of(height);
                    last.stored = true;
                }
            }
            Err(why) => {
                tracing::info!(climb = %self.code, player = %c.member.name, %why, "a run is not kept");
            }
        }
        self.send_view(slot, Instant::now());
    }

    fn tick(&mut self, now: Instant) {
        for slot in 0..self.slots.len() {
            let Some(c) = self.slots[slot].as_mut() else {
                continue;
            };
            // Fatigue: garbage of the run's own, from its eighth minute.
            if let Some(run) = c.run.as_mut().filter(|r| r.ended.is_none() && now >= r.go) {
                let due = climb::fatigue_lines(millis(now, run.go));
                while run.fatigue_sent < due {
                    let lines = (due - run.fatigue_sent).min(8);
                    run.fatigue_sent += lines;
                    c.member.send(Response::Garbage {
                        lines: u8::try_from(lines).unwrap_or(8),
                        from: slot,
                    });
                }
            }
            if let Some(run) = c.run.as_mut()
                && run.replay_due.is_some_and(|due| now >= due)
            {
                run.replay_due = None;
                tracing::info!(climb = %self.code, player = %c.member.name, "a run's replay never came: not kept");
            }
            if c.idle_until.is_some_and(|t| now >= t) && !c.alive() {
                if c.bot {
                    self.start_run(slot, now);
                } else {
                    let id = c.member.id;
                    let message = format!(
                        "You left the climb: {} s without climbing again.",
                        IDLE_AFTER_RUN.as_secs()
                    );
                    self.leave(id, Some(message), now);
                }
            }
        }
        self.flush_boards();
        for slot in 0..self.slots.len() {
            self.send_view(slot, now);
        }
    }

    fn close(&mut self) {
        self.hub.unregister(&self.code, &self.link.tx);
        for c in self.slots.iter_mut().filter_map(Option::take) {
            c.member.clear_room(&self.code);
            if !c.bot {
                c.member.send(Response::RoomClosed {
                    message: "The climb closed.".into(),
                });
            }
        }
        self.count.store(0, Ordering::Relaxed);
        tracing::info!(climb = %self.code, "climb closed");
    }
}
