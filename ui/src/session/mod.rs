//! One solo game as the UI runs it: the engine, the mapping from the front end's clock to game
//! time (a countdown first, paused spans left out), held keys, and the visual effects.
//!
//! Game time is the front end's milliseconds since the countdown ended, minus the time spent
//! paused: `game = base + now - origin`, where `origin` moves forward by each pause's length
//! and `base` is 0, or a snapshot's time for a game resumed from one.

mod clock;
mod damage;
pub use clock::clock_step_ms;
mod effects;
mod finesse;
mod ghost;
mod keyup;
mod pausing;
mod pilot;
mod retry;
mod setup;
mod undo;
pub use setup::GameSetup;
pub use undo::{BLINDFOLD_OFF, BLINDFOLD_ON, LOADED, TAKEN_BACK};
#[cfg(test)]
use undo::{NoRewind, UNDO_DEPTH};

pub use effects::{Effects, clear_name};
pub use ghost::{GhostRun, GhostSource, lines_text, refusal as ghost_refusal, time_text};
#[cfg(test)]
pub use pilot::{TAP_MS, THINK_MS};

use minotty_engine::{
    Button, Event, EventKind, Game, GameConfig, Input, Mode, ModeKind, Phase, Time,
};

use crate::damage::Damage;
use crate::keymap::{Keymap, normalize};
use crate::keys::{Key, KeyKind};
use crate::release::{ReleaseSynth, initial_timeout};
use crate::settings::Settings;

/// One step of the 3-2-1 countdown.
pub const COUNT_STEP_MS: u64 = 1000;
pub const COUNTDOWN_MS: u64 = 3 * COUNT_STEP_MS;
/// How long the final board shows before the results.
pub const OVER_MS: u64 = 1500;

/// Where the session is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Countdown { until: u64 },
    Running,
    Paused { since: u64, in_countdown: bool },
    Over { at: u64 },
}

/// What is visible of the session's time-driven state; a change means a redraw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    state: RunState,
    count: u64,
    clock: u64,
    fx: effects::FxStamp,
}

#[derive(Debug)]
pub struct GameSession {
    pub setup: GameSetup,
    game: Game,
    state: RunState,
    origin: u64,
    /// The game time the game started at: 0, or a snapshot's time for a custom game resumed
    /// from one (its clock goes on from there).
    base: Time,
    now: u64,
    /// Binding slots held, per button (bit `slot`).
    held: [u8; Button::ALL.len()],
    synth: ReleaseSynth,
    fx: Effects,
    /// Set for a versus game: its clock never stops, and what happened is collected for the
    /// room (see [`GameSession::take_versus_events`]).
    versus: Option<VersusLog>,
    /// "Pausing ends ranking. Pause?" is open (timed modes; the game keeps running).
    pause_prompt: bool,
    /// The combo bot's seat (combo mode only): it can take the game over.
    pilot: Option<pilot::Pilot>,
    /// The finished game's finesse faults, judged once (see `finesse.rs`).
    finesse: std::sync::OnceLock<Option<u32>>,
    /// The ghost of a ghost race (see `ghost.rs`).
    race: Option<Box<GhostRun>>,
    /// Checkpoints for undo and the savepoint (see `undo.rs`).
    rewinds: undo::Rewinds,
    /// Ctrl+B: the stack is hidden.
    blindfold: bool,
}

/// What a versus game collects between two reports to the room.
#[derive(Debug, Default)]
struct VersusLog {
    /// Events the room may need: attacks, locks, clears, garbage, the end.
    events: Vec<Event>,
    /// The falling piece moved, spawned or went to hold (the board snapshot changed).
    moved: bool,
    /// Garbage that arrived during the countdown, queued when the game starts.
    early_garbage: Vec<u8>,
}

impl GameSession {
    /// A new game whose countdown starts at `now`.
    pub fn new(
        setup: GameSetup,
        seed: u32,
        settings: &Settings,
        synthesize: bool,
        now: u64,
    ) -> GameSession {
        let config = GameConfig {
            ruleset: setup.ruleset,
            mode: setup.mode.clone(),
            handling: setup.handling.unwrap_or(settings.handling),
            tuning: setup.tuning,
        };
        let game = match &setup.from {
            // A replay taken over goes on from where it was taken.
            Some(from) => (*from.game).clone(),
            None => {
                let mut game = Game::new(config, setup.seed.unwrap_or(seed));
                // The first piece and the queue show during the countdown.
                game.update(0, None);
                game
            }
        };
        let base = game.now();
        let mut synth = ReleaseSynth::new(synthesize, 0);
        synth.set_timeout(timeout(settings, &game));
        let pilot = (setup.mode.kind == ModeKind::Combo).then(|| {
            let mut p = pilot::Pilot::new(pilot::preview(&setup, settings));
            p.observe(&game);
            p
        });
        let mut fx = Effects::default();
        fx.set_trail(settings.drop_trail);
        fx.set_flashes(settings.flashes);
        let race = setup.ghost.as_ref().and_then(GhostRun::new).map(Box::new);
        let mut session = GameSession {
            setup,
            game,
            state: RunState::Countdown {
                until: now + COUNTDOWN_MS,
            },
            origin: now + COUNTDOWN_MS,
            base,
            now,
            held: [0; Button::ALL.len()],
            synth,
            fx,
            versus: None,
            pause_prompt: false,
            pilot,
            finesse: std::sync::OnceLock::new(),
            race,
            rewinds: undo::Rewinds::default(),
            blindfold: false,
        };
        // The first piece is in play: the first checkpoint.
        session.note_checkpoint(true);
        session
    }

    /// A versus game: the mode and seed come from the room, the countdown lasts
    /// `countdown_ms`, and the clock is never frozen ([`GameSession::pause`] does nothing).
    pub fn new_versus(
        mode: Mode,
        game: &minotty_engine::versus::GameSettings,
        seed: u32,
        settings: &Settings,
        synthesize: bool,
        now: u64,
        countdown_ms: u64,
    ) -> GameSession {
        // The room's rules: its ruleset, entry delay (the tuning), and the handling and
        // preview it fixes (else the player's own).
        let setup = GameSetup {
            seed: Some(seed),
            tuning: game.tuning(),
            handling: game.handling(),
            preview: game.preview(),
            ..GameSetup::of_mode(mode, game.ruleset())
        };
        let mut s = GameSession::new(setup, seed, settings, synthesize, now);
        s.state = RunState::Countdown {
            until: now + countdown_ms,
        };
        s.origin = now + countdown_ms;
        s.versus = Some(VersusLog::default());
        s.pilot = None;
        s.race = None;
        s.rewinds = undo::Rewinds::default();
        s
    }

    /// Whether this is a versus game.
    pub fn is_versus(&self) -> bool {
        self.versus.is_some()
    }

    /// Garbage sent by an opponent arrives at front-end time `now`: it joins the engine's queue
    /// at the current game time (during the countdown: when the game starts). Returns whether
    /// anything visible changed.
    pub fn garbage(&mut self, lines: u8, now: u64, keys: &Keymap) -> bool {
        let changed = self.tick(now, keys);
        match self.state {
            RunState::Running => {
                let t = self.game_time();
                self.feed(t, Some(Input::Garbage(lines))) || changed
            }
            RunState::Countdown { .. } => {
                if let Some(log) = &mut self.versus {
                    log.early_garbage.push(lines);
                }
                changed
            }
            _ => changed,
        }
    }

    /// The events collected since the last call (versus games only), and whether the falling
    /// piece moved meanwhile.
    pub fn take_versus_events(&mut self) -> (Vec<Event>, bool) {
        match &mut self.versus {
            Some(log) => (
                std::mem::take(&mut log.events),
                std::mem::take(&mut log.moved),
            ),
            None => (Vec::new(), false),
        }
    }

    /// The engine itself, for tests that set up a board.
    #[cfg(test)]
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn state(&self) -> RunState {
        self.state
    }

    pub fn effects(&self) -> &Effects {
        &self.fx
    }

    /// The last front-end time the session saw.
    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn is_paused(&self) -> bool {
        matches!(self.state, RunState::Paused { .. })
    }

    pub fn is_over(&self) -> bool {
        matches!(self.state, RunState::Over { .. })
    }

    /// The game time at front-end time `at`.
    pub fn game_time_at(&self, at: u64) -> Time {
        match self.state {
            RunState::Countdown { .. }
            | RunState::Paused {
                in_countdown: true, ..
            } => self.base,
            RunState::Running => self.base + at.saturating_sub(self.origin),
            RunState::Paused { since, .. } => self.base + since.saturating_sub(self.origin),
            RunState::Over { .. } => self.game.now(),
        }
    }

    /// The game time now.
    pub fn game_time(&self) -> Time {
        self.game_time_at(self.now)
    }

    /// The countdown digit showing (3, 2, 1), if counting down.
    pub fn countdown(&self) -> Option<u64> {
        match self.state {
            RunState::Countdown { until } => Some(
                until
                    .saturating_sub(self.now)
                    .div_ceil(COUNT_STEP_MS)
                    .max(1),
            ),
            _ => None,
        }
    }

    /// Whether the final board has shown long enough to move on to the results.
    pub fn results_due(&self) -> bool {
        matches!(self.state, RunState::Over { at } if self.now >= at + OVER_MS)
    }

    /// Lets the session use changed settings (those that can change mid-game).
    pub fn apply_settings(&mut self, settings: &Settings) {
        self.synth.set_timeout(timeout(settings, &self.game));
        self.fx.set_trail(settings.drop_trail);
        self.fx.set_flashes(settings.flashes);
        let preview = pilot::preview(&self.setup, settings);
        if let Some(p) = &mut self.pilot
            && p.preview != preview
        {
            p.preview = preview;
            p.replan();
        }
    }

    pub fn set_synthesize(&mut self, on: bool) {
        self.synth.set_synthesize(on);
    }

    /// Advances to `now`: synthetic releases, the end of the countdown, the engine. Returns
    /// whether anything visible changed.
    pub fn tick(&mut self, now: u64, keys: &Keymap) -> bool {
        self.tick_damage(now, keys) != Damage::None
    }

    /// [`GameSession::tick`], saying what changed: [`Damage::Time`] when the clock's shown
    /// value is all (no engine event, no effect, the same run state).
    pub fn tick_damage(&mut self, now: u64, keys: &Keymap) -> Damage {
        let before = self.before();
        let changed = self.advance(now, keys);
        self.damage_since(before, changed)
    }

    /// Moves the session on to `now`: synthetic releases, the end of the countdown, the
    /// engine. Whether any of them changed something (what only the stamps show, the callers
    /// compare: [`GameSession::damage_since`]).
    fn advance(&mut self, now: u64, keys: &Keymap) -> bool {
        let now = now.max(self.now);
        self.now = now;
        let mut changed = false;
        loop {
            let release = self.synth.next_deadline().filter(|&d| d <= now);
            let start = match self.state {
                RunState::Countdown { until } if until <= now => Some(until),
                _ => None,
            };
            match (start, release) {
                (Some(s), r) if r.is_none_or(|r| s <= r) => changed |= self.start(s),
                (_, Some(_)) => {
                    if let Some((key, at, due)) = self.synth.pop_due(now) {
                        changed |= self.synthetic(key, at, due, keys);
                    }
                }
                _ => break,
            }
        }
        if self.state == RunState::Running {
            let t = self.game_time_at(now);
            changed |= self.fly(t);
            changed |= self.feed(t, None);
            if let Some(p) = &mut self.pilot {
                p.plan(&self.game, t);
            }
        }
        changed
    }

    /// A key event of a key that the keymap binds. Returns whether anything visible changed.
    pub fn key(&mut self, key: Key, kind: KeyKind, keys: &Keymap, now: u64) -> bool {
        self.key_damage(key, kind, keys, now) != Damage::None
    }

    /// [`GameSession::key`], saying what changed ([`Damage::Board`] when the piece moved,
    /// turned or fell and nothing around the board changed).
    pub fn key_damage(&mut self, key: Key, kind: KeyKind, keys: &Keymap, now: u64) -> Damage {
        let before = self.before();
        let moved_on = self.advance(now, keys);
        let pressed = self.press(key, kind, keys);
        self.damage_since(before, moved_on || pressed)
    }

    /// The key event at the session's time (moved on to it): whether the game's buttons
    /// changed anything.
    fn press(&mut self, key: Key, kind: KeyKind, keys: &Keymap) -> bool {
        if !matches!(self.state, RunState::Running | RunState::Countdown { .. }) {
            return false;
        }
        // The bot has the controls.
        if self.pilot.as_ref().is_some_and(|p| p.on) {
            return false;
        }
        let key = normalize(key);
        let Some((button, slot)) = keys.lookup(key) else {
            return false;
        };
        let now = self.now;
        match self.synth.on_event(key, kind, now) {
            crate::release::Forward::Press => self.button(button, slot, true, now),
            crate::release::Forward::Repress => {
                let a = self.button(button, slot, false, now);
                self.button(button, slot, true, now) || a
            }
            crate::release::Forward::Release => self.button(button, slot, false, now),
            crate::release::Forward::Nothing => false,
        }
    }

    /// When the session next needs a tick.
    pub fn next_wakeup(&self) -> Option<u64> {
        let release = self.synth.next_deadline();
        let own = match self.state {
            RunState::Countdown { until } => {
                let left = until.saturating_sub(self.now);
                Some(until - (left.saturating_sub(1) / COUNT_STEP_MS) * COUNT_STEP_MS)
            }
            RunState::Running => {
                let t = self.game_time();
                let clearing = matches!(self.game.phase(), Phase::Clearing { .. });
                let step = clock_step_ms(self.game.mode());
                let next_tick = (t / step + 1) * step;
                let tap = self.pilot.as_ref().and_then(|p| p.next_tap());
                let ghost = self.race.as_ref().and_then(|g| g.next_change(t));
                [
                    self.game.next_deadline(),
                    Some(next_tick),
                    self.fx.next_change(t, clearing),
                    tap,
                    ghost,
                ]
                .into_iter()
                .flatten()
                .min()
                .map(|g| self.origin + g.saturating_sub(self.base))
            }
            RunState::Paused { .. } => return None,
            RunState::Over { at } => (self.now < at + OVER_MS).then_some(at + OVER_MS),
        };
        [own, release].into_iter().flatten().min()
    }

    fn stamp(&self) -> Stamp {
        let t = self.game_time();
        let clearing = matches!(self.game.phase(), Phase::Clearing { .. });
        Stamp {
            state: self.state,
            count: self.countdown().unwrap_or(0),
            clock: t / clock_step_ms(self.game.mode()),
            fx: self.fx.stamp(t, clearing),
        }
    }

    /// The countdown ended at `at`: the game clock starts. Movement keys held through the
    /// countdown count as pressed at game time 0; other held keys must be pressed again.
    fn start(&mut self, at: u64) -> bool {
        self.state = RunState::Running;
        self.origin = at;
        if self.race.is_some() {
            // The pieces are the ghost's: the replay says so (never ranked).
            self.feed(0, Some(Input::Ghost));
        }
        if let Some(p) = &mut self.pilot
            && p.on
        {
            // The bot took over during the countdown: the player's keys do not count.
            self.held = [0; Button::ALL.len()];
            if std::mem::take(&mut p.announce) {
                self.feed(0, Some(Input::Bot));
            }
        }
        for b in Button::ALL {
            if self.held[b as usize] == 0 {
                continue;
            }
            if matches!(b, Button::Left | Button::Right | Button::SoftDrop) {
                self.feed(0, Some(Input::Press(b)));
            } else {
                self.held[b as usize] = 0;
            }
        }
        let early = self
            .versus
            .as_mut()
            .map(|log| std::mem::take(&mut log.early_garbage))
            .unwrap_or_default();
        for lines in early {
            self.feed(0, Some(Input::Garbage(lines)));
        }
        true
    }

    /// One binding slot of `button` goes down or up at front-end time `at`; the engine hears of
    /// it when the first slot goes down or the last goes up.
    fn button(&mut self, button: Button, slot: usize, down: bool, at: u64) -> bool {
        let bit = 1u8 << slot.min(7);
        let mask = &mut self.held[button as usize];
        let was = *mask;
        if down {
            *mask |= bit;
        } else {
            *mask &= !bit;
        }
        let input = match (was, *mask) {
            (0, m) if m != 0 => Input::Press(button),
            (w, 0) if w != 0 => Input::Release(button),
            _ => return false,
        };
        if self.state != RunState::Running {
            return false;
        }
        let t = self.game_time_at(at);
        self.feed(t, Some(input))
    }

    /// Updates the engine at game time `t`; returns whether it reported anything.
    fn feed(&mut self, t: Time, input: Option<Input>) -> bool {
        let events = self.game.update(t, input);
        self.fx.absorb(events);
        let spawned = events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Spawn { .. }));
        if let Some(log) = &mut self.versus {
            for e in events {
                match e.kind {
                    EventKind::Spawn { .. }
                    | EventKind::Move { .. }
                    | EventKind::Fall { .. }
                    | EventKind::Rotate { .. } => log.moved = true,
                    // Kept: the room hears the held piece (spectators see it).
                    EventKind::Hold { .. } => {
                        log.moved = true;
                        log.events.push(*e);
                    }
                    EventKind::LevelUp { .. } | EventKind::GarbageReady { .. } => {}
                    _ => log.events.push(*e),
                }
            }
        }
        let over = events.iter().find_map(|e| match e.kind {
            EventKind::GameOver { .. } => Some(e.time),
            _ => None,
        });
        let mut changed = !events.is_empty();
        let cleared = ghost::last_clear(events);
        if let Some(g) = &mut self.race {
            changed |= g.follow(cleared, self.game.stats().lines, self.game.now());
        }
        if let Some(p) = &mut self.pilot {
            p.observe(&self.game);
        }
        if let Some(time) = over {
            self.state = RunState::Over {
                at: self.origin + time.saturating_sub(self.base),
            };
        }
        self.note_checkpoint(spawned);
        changed
    }
}

/// The release timeout for this game's DAS.
fn timeout(settings: &Settings, game: &Game) -> u64 {
    initial_timeout(
        u64::from(settings.release_timeout_ms),
        u64::from(game.config().handling.das),
    )
}

#[cfg(test)]
mod taps;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod undo_tests;
