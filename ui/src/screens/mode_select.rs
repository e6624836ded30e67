//! Mode select: every engine mode with its description, the ruleset of the modes that take
//! one (40 lines, marathon, ultra, custom: Left/Right), and the options of a custom game
//! (`custom.rs`), and the number of garbage rows of a cheese game (Left/Right; the preset's 20
//! ranks, any other count is played unranked), the start stage of a puzzle game (Left/Right,
//! any stage up to the one after the last cleared; puzzle always plays `tetrs`), and a classic
//! game's start level (Left/Right, 0-19, every one ranks) and lock delay (L, off by default; on
//! is unranked). The panes of those options are `mode_select/panes.rs`.

use minotty_engine::puzzle::STAGE_COUNT;
use minotty_engine::{
    CHEESE_DEFAULT, CHEESE_MIN, CLASSIC_MAX_START, Mode, ModeKind, RulesetId, StartBoard,
};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

pub use super::custom::{CustomOptions, Opt};
use super::ghost_prompt::{GhostPrompt, PromptKey};
use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::rules::{
    fixed_ruleset, preset_ruleset, ruleset_description, ruleset_name, takes_ruleset,
};
use crate::session::GameSetup;
use crate::settings::{Settings, cycle};
use crate::text::{sanitize, sfmt};
use crate::theme::Theme;
use minotty_protocol::SnapshotEntry;

mod panes;

/// What a locked Descent says.
pub const LOCKED_NOTE: &str = "Locked: Finish Puzzle to unlock";

/// The most garbage rows a player may choose for cheese here.
pub const CHEESE_CHOICE_MAX: u32 = 100;

/// The state of the mode select screen.
#[derive(Clone, Debug)]
pub struct ModeSelect {
    pub cursor: usize,
    /// The focused row of the custom options (an index into the rows shown), when they have
    /// focus.
    pub focus: Option<usize>,
    pub custom: CustomOptions,
    /// The ruleset of 40 lines, marathon, ultra and custom games (remembered in the settings).
    pub ruleset: RulesetId,
    /// The garbage rows a cheese game started here digs (`CHEESE_MIN..=CHEESE_CHOICE_MAX`).
    pub cheese_rows: u32,
    /// The stored snapshots a custom game can start from, newest first (as last listed).
    pub snapshots: Vec<SnapshotEntry>,
    /// The stage a puzzle game started here begins at (1-based, at most one past
    /// `puzzle_cleared`).
    pub puzzle_stage: u8,
    /// The highest puzzle stage the player has cleared (0: none), as the App knows it.
    pub puzzle_cleared: u8,
    /// The start level of a classic game started here (`0..=CLASSIC_MAX_START`).
    pub classic_level: u32,
    /// Whether a classic game started here has its lock delay (unranked).
    pub classic_lock_delay: bool,
    /// The player's all-time bests (the answer to `Request::Bests`), shown for the mode and
    /// ruleset chosen.
    pub bests: Vec<minotty_protocol::ModeBest>,
    /// Descent can be started (the App's [`crate::App::descent_unlocked`]).
    pub descent_unlocked: bool,
    /// What became of the ghost asked for (G): fetching it, or why there is none.
    pub ghost_note: Option<String>,
    /// The friend's-ghost prompt (F), while the player types whose best to race.
    pub ghost_prompt: Option<GhostPrompt>,
}

impl Default for ModeSelect {
    fn default() -> ModeSelect {
        ModeSelect {
            cursor: 0,
            focus: None,
            custom: CustomOptions::default(),
            ruleset: RulesetId::default(),
            cheese_rows: CHEESE_DEFAULT,
            snapshots: Vec::new(),
            puzzle_stage: 1,
            puzzle_cleared: 0,
            classic_level: 0,
            classic_lock_delay: false,
            bests: Vec::new(),
            descent_unlocked: false,
            ghost_note: None,
            ghost_prompt: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModeAction {
    None,
    Changed,
    Start(GameSetup),
    Back,
    AskQuit,
    /// Delete the stored snapshot with this id (Del on "Start from").
    DeleteSnapshot(i64),
    /// Race the ghost of the player's best in this mode (G on 40 lines or ultra).
    Ghost(ModeKind),
    /// Race the ghost of this player's best in this mode (F, then their name).
    GhostOf(ModeKind, String),
}

impl ModeSelect {
    pub fn kind(&self) -> ModeKind {
        ModeKind::ALL[self.cursor.min(ModeKind::ALL.len() - 1)]
    }

    /// The ruleset a game of `kind` started here plays.
    pub fn ruleset_for(&self, kind: ModeKind) -> RulesetId {
        preset_ruleset(kind, self.ruleset)
    }

    /// The last puzzle stage the player may start at: the one after the highest cleared.
    pub fn puzzle_reachable(&self) -> u8 {
        self.puzzle_cleared.saturating_add(1).min(STAGE_COUNT)
    }

    /// Records a cleared puzzle stage (progress only grows); the selected start stage moves
    /// along to the newly reached one.
    pub fn note_puzzle_cleared(&mut self, cleared: u8) {
        let cleared = cleared.min(STAGE_COUNT);
        if cleared > self.puzzle_cleared {
            self.puzzle_cleared = cleared;
            self.puzzle_stage = self.puzzle_reachable();
            // Finishing puzzle unlocks Descent.
            if cleared >= STAGE_COUNT {
                self.descent_unlocked = true;
            }
        }
    }

    /// The game a preset of `kind` started here plays (cheese with the chosen rows, puzzle
    /// from the chosen stage, classic from the chosen level with or without lock delay).
    pub fn preset_setup(&self, kind: ModeKind) -> GameSetup {
        let mut setup = GameSetup::preset(kind, self.ruleset_for(kind));
        if kind == ModeKind::Cheese {
            setup.mode = Mode::cheese(self.cheese_rows);
        }
        if kind == ModeKind::Puzzle {
            setup.mode = Mode::puzzle(self.puzzle_stage.clamp(1, self.puzzle_reachable()));
        }
        if kind == ModeKind::Classic {
            setup.mode = Mode::classic(self.classic_level, self.classic_lock_delay);
        }
        setup
    }

    /// The custom game the options describe. Started from a snapshot, it plays under the
    /// snapshot's ruleset and tuning (the game it came from), with this screen's handling,
    /// preview and limit; with no limit chosen, the goal of the mode it was taken in carries
    /// over (a 40 lines snapshot still ends at 40 lines, counting those it had cleared).
    pub fn custom_setup(&self, settings: &Settings) -> GameSetup {
        let c = &self.custom;
        let mut setup = GameSetup {
            mode: c.mode(),
            seed: c.seed,
            ruleset: self.ruleset,
            tuning: c.tuning(self.ruleset),
            handling: c.handling(settings.handling),
            preview: c.preview,
            ghost: None,
            from: None,
        };
        if let Some(entry) = self.start_from() {
            setup.ruleset = entry.snapshot.ruleset();
            setup.tuning = entry.snapshot.tuning();
            setup.mode.start_board = StartBoard::Snapshot(entry.snapshot.clone());
            if setup.mode.limits.is_empty() {
                setup.mode.limits = entry.snapshot.mode().mode().limits;
            }
        }
        setup
    }

    /// The snapshot chosen to start from, if it is still in the list.
    pub fn start_from(&self) -> Option<&SnapshotEntry> {
        let id = self.custom.start_from?;
        self.snapshots.iter().find(|e| e.id == id)
    }

    /// A new list of stored snapshots; a choice no longer in it goes back to the empty board.
    pub fn set_snapshots(&mut self, list: Vec<SnapshotEntry>) {
        self.snapshots = list;
        let had = self.custom.has_snapshots;
        self.custom.has_snapshots = !self.snapshots.is_empty();
        // The row above the others came or went: the focus stays on the same option.
        if let Some(f) = &mut self.focus {
            match (had, self.custom.has_snapshots) {
                (false, true) => *f += 1,
                (true, false) => *f = f.saturating_sub(1),
                _ => {}
            }
        }
        if self.start_from().is_none() {
            self.custom.start_from = None;
        }
    }

    /// Steps "Start from" through the empty board and the stored snapshots.
    fn step_start_from(&mut self, dir: i32) {
        let choices: Vec<Option<i64>> = std::iter::once(None)
            .chain(self.snapshots.iter().map(|e| Some(e.id)))
            .collect();
        let at = choices
            .iter()
            .position(|&c| c == self.custom.start_from)
            .unwrap_or(0);
        let n = choices.len() as i32;
        let next = (at as i32 + dir).rem_euclid(n) as usize;
        self.custom.start_from = choices[next];
    }

    /// Whether `kind` is shown but cannot be started (Descent until it is unlocked).
    pub fn locked(&self, kind: ModeKind) -> bool {
        kind == ModeKind::Descent && !self.descent_unlocked
    }

    pub fn handle(&mut self, ev: KeyEvent, settings: &Settings) -> ModeAction {
        if is_ctrl(ev, 'c') {
            return ModeAction::AskQuit;
        }
        let kind = self.kind();
        if let Some(prompt) = self.ghost_prompt.as_mut() {
            return match prompt.key(ev) {
                PromptKey::Typing => ModeAction::Changed,
                PromptKey::Cancel => {
                    self.ghost_prompt = None;
                    ModeAction::Changed
                }
                PromptKey::Race(name) => {
                    self.ghost_prompt = None;
                    self.ghost_note = Some(format!("Fetching {name}'s best to race..."));
                    ModeAction::GhostOf(kind, name)
                }
            };
        }
        let plain_press = ev.kind == KeyKind::Press && !ev.mods.ctrl && !ev.mods.alt;
        let pressed = |c: char| {
            plain_press && (ev.key == Key::Char(c) || ev.key == Key::Char(c.to_ascii_uppercase()))
        };
        if self.focus.is_none() && races_ghosts(kind) {
            if pressed('g') {
                self.ghost_note = Some("Fetching your best to race...".into());
                return ModeAction::Ghost(kind);
            }
            if pressed('f') {
                self.ghost_note = None;
                self.ghost_prompt = Some(GhostPrompt::default());
                return ModeAction::Changed;
            }
        }
        if ev.kind == KeyKind::Press {
            self.ghost_note = None;
        }
        if self.focus.is_none() && kind == ModeKind::Classic && pressed('l') {
            self.classic_lock_delay = !self.classic_lock_delay;
            return ModeAction::Changed;
        }
        let Some(row) = self.focus else {
            match nav(ev) {
                Some(Nav::Up) => self.cursor = wrap(self.cursor, ModeKind::ALL.len(), false),
                Some(Nav::Down) => self.cursor = wrap(self.cursor, ModeKind::ALL.len(), true),
                Some(Nav::Left | Nav::Right) if takes_ruleset(kind) => {
                    let dir = if nav(ev) == Some(Nav::Left) { -1 } else { 1 };
                    self.ruleset = cycle(&RulesetId::ALL, self.ruleset, dir);
                }
                Some(Nav::Left) if kind == ModeKind::Cheese => {
                    self.cheese_rows = self.cheese_rows.saturating_sub(1).max(CHEESE_MIN);
                }
                Some(Nav::Right) if kind == ModeKind::Cheese => {
                    self.cheese_rows = (self.cheese_rows + 1).min(CHEESE_CHOICE_MAX);
                }
                Some(Nav::Left) if kind == ModeKind::Puzzle => {
                    self.puzzle_stage = self.puzzle_stage.saturating_sub(1).max(1);
                }
                Some(Nav::Right) if kind == ModeKind::Puzzle => {
                    self.puzzle_stage = (self.puzzle_stage + 1).min(self.puzzle_reachable());
                }
                Some(Nav::Left) if kind == ModeKind::Classic => {
                    self.classic_level = self.classic_level.saturating_sub(1);
                }
                Some(Nav::Right) if kind == ModeKind::Classic => {
                    self.classic_level = (self.classic_level + 1).min(CLASSIC_MAX_START);
                }
                Some(Nav::Select) if kind == ModeKind::Custom => self.focus = Some(0),
                // Locked: nothing to start.
                Some(Nav::Select | Nav::Right) if self.locked(kind) => return ModeAction::None,
                Some(Nav::Select | Nav::Right) => {
                    return ModeAction::Start(self.preset_setup(kind));
                }
                Some(Nav::Back) => return ModeAction::Back,
                _ => return ModeAction::None,
            }
            return ModeAction::Changed;
        };
        let rows = self.custom.row_count(self.ruleset);
        let row = row.min(rows.saturating_sub(1));
        let opt = self.custom.row(row, self.ruleset).unwrap_or(Opt::Start);
        if ev.kind != KeyKind::Release && !ev.mods.ctrl && !ev.mods.alt {
            match (opt, ev.key) {
                (Opt::Seed, Key::Char(c @ '0'..='9')) => {
                    let digit = u64::from(c as u8 - b'0');
                    let next = u64::from(self.custom.seed.unwrap_or(0)) * 10 + digit;
                    if let Ok(seed) = u32::try_from(next) {
                        self.custom.seed = Some(seed);
                    }
                    return ModeAction::Changed;
                }
                (Opt::Seed, Key::Backspace) => {
                    self.custom.seed = self.custom.seed.map(|s| s / 10).filter(|&s| s != 0);
                    return ModeAction::Changed;
                }
                (Opt::StartFrom, Key::Delete) => {
                    return match self.custom.start_from.take() {
                        Some(id) => ModeAction::DeleteSnapshot(id),
                        None => ModeAction::None,
                    };
                }
                (_, Key::Delete) => {
                    self.custom.reset(opt);
                    return ModeAction::Changed;
                }
                _ => {}
            }
        }
        let toggles = matches!(opt, Opt::LevelIncrease | Opt::SoftDropLock);
        match nav(ev) {
            Some(Nav::Up) => self.focus = Some(wrap(row, rows, false)),
            Some(Nav::Down) => self.focus = Some(wrap(row, rows, true)),
            Some(Nav::Left | Nav::Right) if opt == Opt::StartFrom => {
                self.step_start_from(if nav(ev) == Some(Nav::Left) { -1 } else { 1 });
            }
            Some(Nav::Left) => self.custom.change(opt, -1, &mut self.ruleset, settings),
            Some(Nav::Right) => self.custom.change(opt, 1, &mut self.ruleset, settings),
            Some(Nav::Select) if toggles && ev.key == Key::Char(' ') => {
                self.custom.change(opt, 1, &mut self.ruleset, settings);
            }
            Some(Nav::Select) => return ModeAction::Start(self.custom_setup(settings)),
            Some(Nav::Back) => self.focus = None,
            None => return ModeAction::None,
        }
        ModeAction::Changed
    }
}

/// Draws the mode select screen.
#[derive(Debug)]
pub struct ModeSelectView<'a> {
    pub state: &'a ModeSelect,
    pub settings: &'a Settings,
    pub theme: Theme,
}

impl Widget for &ModeSelectView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let st = self.state;
        let r = draw::centered(area, 76, 22);
        let inner = draw::frame(buf, r, theme, "CHOOSE A MODE", theme.dim());
        // Above the hint line; a row between modes while they fit.
        let list = Rect::new(inner.x + 1, inner.y + 1, 18, inner.height.saturating_sub(3));
        let step: u16 = if ModeKind::ALL.len() * 2 <= usize::from(list.height) + 1 {
            2
        } else {
            1
        };
        for (i, kind) in ModeKind::ALL.iter().enumerate() {
            let style = if i == st.cursor {
                if st.focus.is_some() {
                    theme.accent()
                } else {
                    theme.selected()
                }
            } else if st.locked(*kind) {
                theme.dim()
            } else {
                theme.text()
            };
            let y = list.y + i as u16 * step;
            let x = draw::put(buf, list, list.x, y, " ", style);
            let x = draw::put(buf, list, x, y, kind.title(), style);
            draw::put(buf, list, x, y, " ", style);
        }
        let right = Rect::new(
            inner.x + 21,
            inner.y + 1,
            inner.width.saturating_sub(22),
            inner.height.saturating_sub(3),
        );
        let kind = st.kind();
        draw::put(buf, right, right.x, right.y, kind.title(), theme.accent());
        if kind == ModeKind::Custom {
            if st.focus.is_none() {
                let rows = draw::wrapped(buf, right, right.y + 1, kind.description(), theme.dim());
                let at = Rect::new(right.x, right.y + 2 + rows, right.width, right.height);
                self.custom(buf, at.intersection(right));
            } else {
                let at = Rect::new(right.x, right.y + 1, right.width, right.height);
                self.custom(buf, at.intersection(right));
            }
        } else {
            let rows = draw::wrapped(buf, right, right.y + 2, kind.description(), theme.text());
            if takes_ruleset(kind) {
                let y = right.y + 3 + rows;
                let name = sfmt!(32; "< {} >", ruleset_name(st.ruleset));
                draw::put(buf, right, right.x, y, "Ruleset", theme.text());
                draw::put_right(buf, right, y, name.as_str(), theme.selected());
                let at = Rect::new(right.x, y + 1, right.width, 3).intersection(right);
                draw::wrapped(buf, at, y + 1, ruleset_description(st.ruleset), theme.dim());
            } else {
                let y = right.y + 3 + rows;
                panes::draw(st, kind, buf, right, y, theme);
            }
        }
        // The personal best of the board this choice plays on, at the foot of the pane.
        let board_ruleset = if takes_ruleset(kind) {
            st.ruleset
        } else {
            fixed_ruleset(kind)
        };
        let best = st
            .bests
            .iter()
            .find(|b| b.mode == kind && b.ruleset == board_ruleset);
        let y = right.bottom().saturating_sub(1);
        if let (Some(prompt), None) = (&st.ghost_prompt, st.focus) {
            prompt.draw(buf, right, y, theme);
        } else if let (Some(note), None) = (&st.ghost_note, st.focus) {
            // Two rows: why there is no ghost may be long.
            let at = Rect::new(right.x, y.saturating_sub(1), right.width, 2).intersection(right);
            draw::wrapped(buf, at, at.y, note.as_str(), theme.accent());
        } else if let (Some(b), None) = (best, st.focus) {
            let race = if races_ghosts(kind) {
                "   G race it"
            } else {
                ""
            };
            let line = sfmt!(64; "Your best  {}{}", b.best.as_str(), race);
            draw::put(buf, right, right.x, y, line.as_str(), theme.accent());
        }
        let quiet = st.ghost_prompt.is_none() && st.ghost_note.is_none();
        if races_ghosts(kind) && st.focus.is_none() && quiet {
            // A friend's best can be raced whether or not the player has one.
            let row = y.saturating_sub(1);
            draw::put(
                buf,
                right,
                right.x,
                row,
                "F race a friend's best",
                theme.dim(),
            );
        }
        let opt = st.focus.and_then(|f| st.custom.row(f, st.ruleset));
        let hint = match (st.focus, opt) {
            (None, _) if takes_ruleset(kind) && kind != ModeKind::Custom => {
                "Up/Down mode   Left/Right ruleset   Enter start   Esc back"
            }
            (None, _) if kind == ModeKind::Cheese => {
                "Up/Down mode   Left/Right rows   Enter start   Esc back"
            }
            (None, _) if kind == ModeKind::Puzzle => {
                "Up/Down mode   Left/Right stage   Enter start   Esc back"
            }
            (None, _) if kind == ModeKind::Classic => {
                "Up/Down mode   Left/Right level   L lock delay   Enter start   Esc back"
            }
            (None, _) if kind == ModeKind::Custom => {
                "Up/Down mode   Left/Right ruleset   Enter options   Esc back"
            }
            (None, _) if st.locked(kind) => "Up/Down choose   Esc back",
            (None, _) => "Up/Down choose   Enter start   Esc back",
            (Some(_), Some(Opt::Seed)) => "type digits   Backspace erase   Enter start",
            (Some(_), Some(Opt::StartFrom)) => {
                "Left/Right choose   Del delete snapshot   Enter start   Esc back"
            }
            (Some(_), _) => "Left/Right change   Del default   Enter start   Esc back",
        };
        draw::hint(buf, inner, hint, theme);
    }
}

impl ModeSelectView<'_> {
    /// The custom options, scrolled to keep the focused row in view; a changed value has a `*`.
    fn custom(&self, buf: &mut Buffer, area: Rect) {
        let theme = self.theme;
        let st = self.state;
        let c = &st.custom;
        let visible = usize::from(area.height);
        if visible == 0 {
            return;
        }
        // The last two columns hold the scroll marks.
        let marks = area;
        let area = Rect::new(area.x, area.y, area.width.saturating_sub(2), area.height);
        let focus = st.focus.unwrap_or(0);
        let first = (focus + 1).saturating_sub(visible);
        let total = c.row_count(st.ruleset);
        for (i, opt) in c.rows(st.ruleset).enumerate().skip(first).take(visible) {
            let y = area.y + (i - first) as u16;
            let focused = st.focus == Some(i);
            let style = if focused {
                theme.selected()
            } else {
                theme.text()
            };
            if opt == Opt::Start {
                let style = if focused { style } else { theme.accent() };
                draw::put_centered(buf, area, y, " Start ", style);
                continue;
            }
            let (mut value, changed) = c.shown(opt, st.ruleset, self.settings);
            if opt == Opt::StartFrom
                && let Some(entry) = st.start_from()
            {
                // A label as stored, cleaned of control characters and cut to the row.
                let label = sanitize(&entry.label);
                let room = usize::from(area.width).saturating_sub(opt.label().len() + 6);
                value = sfmt!(32; "{}", crate::text::fit_width(&label, room.min(30)));
            }
            draw::put(buf, area, area.x, y, opt.label(), style);
            let mark = if changed { "*" } else { " " };
            let shown = if focused && opt != Opt::Seed {
                sfmt!(48; "< {} >{}", value.as_str(), mark)
            } else {
                sfmt!(48; "{}{}", value.as_str(), mark)
            };
            draw::put_right(buf, area, y, shown.as_str(), style);
        }
        // More rows above or below: a dim arrow at the right edge.
        let x = marks.right().saturating_sub(1);
        if first > 0 {
            draw::put(buf, marks, x, marks.y, "^", theme.dim());
        }
        if first + visible < total {
            draw::put(
                buf,
                marks,
                x,
                marks.bottom().saturating_sub(1),
                "v",
                theme.dim(),
            );
        }
    }
}

/// Whether a ghost can be raced in `kind` (40 lines and ultra).
pub fn races_ghosts(kind: ModeKind) -> bool {
    minotty_domain::modes::rules(kind).flags.races_ghosts
}
