//! A room's settings screen: one table of rows (label, value shown, step), which everyone in
//! the room sees and the host changes. A new room setting is one more row in [`ROWS`].

use minotty_engine::versus::presets::{self, PRESETS};
use minotty_engine::versus::{
    BADGE_PERCENT, BackToBack, Blocking, ComboTable, GameDraft, GameSettings, GarbageDraft,
    GarbageSettings, MatchKind, RoomLimit, RoomSettings, SeriesSettings, SpinBonus, entry_text,
    stock_text,
};
use minotty_engine::{Handling, Ruleset, RulesetId};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::text::sfmt;
use crate::theme::Theme;

/// One setting on the screen: its label, its value as shown, and the settings one step
/// (`+1` right, `-1` left) from `s` (clamped by the settings' own constructors).
pub struct Row {
    pub label: &'static str,
    pub show: fn(&RoomSettings) -> String,
    pub step: fn(&RoomSettings, i8) -> RoomSettings,
}

fn series_with(s: &RoomSettings, f: impl Fn(SeriesSettings) -> (u8, u8, u8)) -> RoomSettings {
    let (first_to, win_by, stock) = f(*s.series());
    s.with_series(SeriesSettings::new(first_to, win_by, stock))
}

fn nudge(v: u8, d: i8) -> u8 {
    v.saturating_add_signed(d)
}

/// `v` moved `d` steps of `by` (clamped later by the settings' constructor).
fn nudge_by(v: u16, d: i8, by: u16) -> u16 {
    v.saturating_add_signed(i16::from(d) * by as i16)
}

/// The next (`d > 0`) or previous value of `all` from `v`.
fn cycle<T: Copy + PartialEq>(all: &[T], v: T, d: i8) -> T {
    let n = all.len();
    let i = all.iter().position(|x| *x == v).unwrap_or(0);
    all[if d < 0 { (i + n - 1) % n } else { (i + 1) % n }]
}

/// `s` with its garbage settings changed by `f` (clamped by [`GarbageSettings::new`]).
fn garbage_with(s: &RoomSettings, f: impl Fn(&mut GarbageDraft)) -> RoomSettings {
    let mut draft = *s.garbage().values();
    f(&mut draft);
    s.with_garbage(GarbageSettings::new(draft))
}

/// `s` with its game settings changed by `f` (clamped by [`GameSettings::new`]).
fn game_with(s: &RoomSettings, f: impl Fn(&mut GameDraft)) -> RoomSettings {
    let mut draft = s.game().values();
    f(&mut draft);
    s.with_game(GameSettings::new(draft))
}

fn gs(s: &RoomSettings) -> GameDraft {
    s.game().values()
}

/// `s` with its fixed handling changed by `f`, fixing it first (at the ruleset's own) when
/// it was free.
fn handling_with(s: &RoomSettings, f: impl Fn(&mut Handling)) -> RoomSettings {
    game_with(s, |x| {
        let mut h = x.handling.unwrap_or(Ruleset::get(x.ruleset).handling);
        f(&mut h);
        x.handling = Some(h);
    })
}

/// A fixed handling's value, or "each player's".
fn fixed(s: &RoomSettings, f: impl Fn(&Handling) -> u32, unit: &str) -> String {
    gs(s)
        .handling
        .map_or("each player's".to_owned(), |h| format!("{}{unit}", f(&h)))
}

/// `v` moved `d` steps of `by`, at least 0.
fn nudge32(v: u32, d: i8, by: u32) -> u32 {
    v.saturating_add_signed(i32::from(d) * by as i32)
}

fn g(s: &RoomSettings) -> GarbageDraft {
    *s.garbage().values()
}

/// "after N s", or "from the start".
fn after(secs: u16) -> String {
    match secs {
        0 => "from the start".to_owned(),
        s => format!("after {s} s"),
    }
}

/// Every row, top to bottom.
pub const ROWS: &[Row] = &[
    Row {
        label: "Preset",
        show: |s| presets::matching(s).map_or("Custom", |p| p.name).to_owned(),
        step: |s, d| {
            let n = PRESETS.len();
            let i = presets::matching(s).map_or(n - 1, |p| {
                PRESETS.iter().position(|q| q.name == p.name).unwrap_or(0)
            });
            let next = if d < 0 { (i + n - 1) % n } else { (i + 1) % n };
            PRESETS[next].settings()
        },
    },
    Row {
        label: "Kind",
        show: |s| match s.kind() {
            MatchKind::Battle => "Battle".to_owned(),
            MatchKind::Race => "Race to 40 lines".to_owned(),
        },
        step: |s, _| {
            let kind = match s.kind() {
                MatchKind::Battle => MatchKind::Race,
                MatchKind::Race => MatchKind::Battle,
            };
            s.with_shape(kind, s.max_players(), s.limit())
        },
    },
    Row {
        label: "Players",
        show: |s| s.max_players().to_string(),
        step: |s, d| s.with_shape(s.kind(), nudge(s.max_players(), d), s.limit()),
    },
    Row {
        label: "Limit",
        show: |s| match s.limit() {
            RoomLimit::None => "none".to_owned(),
            RoomLimit::Lines(n) => format!("first to {n} lines"),
            RoomLimit::Seconds(t) => format!("{}:{:02}", t / 60, t % 60),
        },
        step: |s, d| {
            let limit = match (s.limit(), d > 0) {
                (RoomLimit::None, true) => RoomLimit::Seconds(120),
                (RoomLimit::None, false) => RoomLimit::Lines(40),
                (RoomLimit::Seconds(t), true) if t < 600 => RoomLimit::Seconds(t + 60),
                (RoomLimit::Seconds(t), false) if t > 60 => RoomLimit::Seconds(t - 60),
                (RoomLimit::Lines(n), false) if n < 200 => RoomLimit::Lines(n + 20),
                (RoomLimit::Lines(n), true) if n > 20 => RoomLimit::Lines(n - 20),
                _ => RoomLimit::None,
            };
            s.with_shape(s.kind(), s.max_players(), limit)
        },
    },
    Row {
        label: "First to",
        show: |s| match s.series().first_to() {
            1 => "1 game".to_owned(),
            n => format!("{n} games"),
        },
        step: |s, d| series_with(s, |x| (nudge(x.first_to(), d), x.win_by(), x.stock())),
    },
    Row {
        label: "Win by",
        show: |s| match s.series().win_by() {
            1 => "no margin".to_owned(),
            n => format!("{n} games"),
        },
        step: |s, d| series_with(s, |x| (x.first_to(), nudge(x.win_by(), d), x.stock())),
    },
    Row {
        label: "Stock",
        show: |s| stock_text(s.series().stock()),
        step: |s, d| series_with(s, |x| (x.first_to(), x.win_by(), nudge(x.stock(), d))),
    },
    Row {
        label: "Teams",
        show: |s| match s.teams() {
            0 => "free-for-all".to_owned(),
            n => format!("{n} teams"),
        },
        // Free-for-all, 2, 3, 4 teams (never more than the seats), round again.
        step: |s, d| {
            let top = minotty_engine::versus::teams::MAX_TEAMS.min(s.max_players());
            let next = match (s.teams(), d > 0) {
                (0, true) => 2,
                (0, false) => top,
                (n, true) if n < top => n + 1,
                (n, false) if n > 2 => n - 1,
                _ => 0,
            };
            s.with_teams(next)
        },
    },
    Row {
        label: "Ruleset",
        show: |s| gs(s).ruleset.id().to_owned(),
        step: |s, d| game_with(s, |x| x.ruleset = cycle(&RulesetId::ALL, x.ruleset, d)),
    },
    Row {
        label: "Start level",
        show: |s| gs(s).start_level.to_string(),
        step: |s, d| game_with(s, |x| x.start_level = nudge(x.start_level, d)),
    },
    Row {
        label: " rises",
        show: |s| match (s.kind(), gs(s).level_increase) {
            (MatchKind::Race, _) => "never in a race".to_owned(),
            (_, true) => "every 10 lines".to_owned(),
            (_, false) => "never".to_owned(),
        },
        step: |s, _| game_with(s, |x| x.level_increase = !x.level_increase),
    },
    Row {
        label: "Entry",
        show: |s| entry_text(gs(s).entry_ms),
        step: |s, d| {
            game_with(s, |x| {
                x.entry_ms = match (x.entry_ms, d > 0) {
                    (None, true) => Some(0),
                    (None, false) => Some(*GameSettings::ENTRY_MS.end()),
                    (Some(0), false) => None,
                    (Some(ms), _) if ms >= *GameSettings::ENTRY_MS.end() && d > 0 => None,
                    (Some(ms), _) => Some(nudge_by(ms, d, 50)),
                };
            })
        },
    },
    Row {
        label: "Preview",
        show: |s| {
            gs(s)
                .preview
                .map_or("each player's".to_owned(), |p| p.to_string())
        },
        step: |s, d| {
            game_with(s, |x| {
                let top = *GameSettings::PREVIEW.end();
                x.preview = match (x.preview, d > 0) {
                    (None, true) => Some(0),
                    (None, false) => Some(top),
                    (Some(0), false) => None,
                    (Some(p), true) if p >= top => None,
                    (Some(p), _) => Some(nudge(p, d)),
                };
            })
        },
    },
    Row {
        label: "Handling",
        show: |s| match gs(s).handling {
            None => "free (each player's)".to_owned(),
            Some(_) => "fixed by the room".to_owned(),
        },
        step: |s, _| {
            if gs(s).handling.is_some() {
                game_with(s, |x| x.handling = None)
            } else {
                handling_with(s, |_| {})
            }
        },
    },
    Row {
        label: " DAS",
        show: |s| fixed(s, |h| h.das, " ms"),
        step: |s, d| handling_with(s, |h| h.das = nudge32(h.das, d, 10)),
    },
    Row {
        label: " ARR",
        show: |s| fixed(s, |h| h.arr, " ms"),
        step: |s, d| handling_with(s, |h| h.arr = nudge32(h.arr, d, 5)),
    },
    Row {
        label: " SDF",
        show: |s| fixed(s, |h| h.sdf, "x"),
        step: |s, d| handling_with(s, |h| h.sdf = nudge32(h.sdf, d, 5)),
    },
    Row {
        label: "KO badges",
        show: |s| match gs(s).ko_badges {
            true => format!("+{BADGE_PERCENT}% attack a KO, 3+ players"),
            false => "off".to_owned(),
        },
        step: |s, _| game_with(s, |x| x.ko_badges = !x.ko_badges),
    },
    Row {
        label: "Garbage x",
        show: |s| format!("{} %", g(s).multiplier),
        step: |s, d| garbage_with(s, |x| x.multiplier = nudge_by(x.multiplier, d, 10)),
    },
    Row {
        label: " grows",
        show: |s| match g(s).multiplier_increase {
            0 => "never".to_owned(),
            n => format!("+{n} % a minute"),
        },
        step: |s, d| {
            garbage_with(s, |x| {
                x.multiplier_increase = nudge_by(x.multiplier_increase, d, 5);
            })
        },
    },
    Row {
        label: " starting",
        show: |s| after(g(s).multiplier_margin),
        step: |s, d| {
            garbage_with(s, |x| {
                x.multiplier_margin = nudge_by(x.multiplier_margin, d, 30)
            })
        },
    },
    Row {
        label: "Cap",
        show: |s| format!("{} lines a piece", g(s).cap),
        step: |s, d| garbage_with(s, |x| x.cap = nudge(x.cap, d)),
    },
    Row {
        label: " grows",
        show: |s| match g(s).cap_increase {
            0 => "never".to_owned(),
            n => format!("+{n} a minute"),
        },
        step: |s, d| garbage_with(s, |x| x.cap_increase = nudge(x.cap_increase, d)),
    },
    Row {
        label: " starting",
        show: |s| after(g(s).cap_margin),
        step: |s, d| garbage_with(s, |x| x.cap_margin = nudge_by(x.cap_margin, d, 30)),
    },
    Row {
        label: "Messiness",
        show: |s| format!("{} %", g(s).messiness),
        step: |s, d| {
            garbage_with(s, |x| {
                x.messiness = nudge_by(u16::from(x.messiness), d, 10).min(100) as u8;
            })
        },
    },
    Row {
        label: "Hole",
        show: |s| match g(s).hole_size {
            1 => "1 column".to_owned(),
            n => format!("{n} columns"),
        },
        step: |s, d| garbage_with(s, |x| x.hole_size = nudge(x.hole_size, d)),
    },
    Row {
        label: "Blocking",
        show: |s| g(s).blocking.label().to_owned(),
        step: |s, d| garbage_with(s, |x| x.blocking = cycle(Blocking::ALL, x.blocking, d)),
    },
    Row {
        label: "B2B",
        show: |s| g(s).b2b.label().to_owned(),
        step: |s, d| garbage_with(s, |x| x.b2b = cycle(BackToBack::ALL, x.b2b, d)),
    },
    Row {
        label: "Combos",
        show: |s| g(s).combo.label().to_owned(),
        step: |s, d| garbage_with(s, |x| x.combo = cycle(ComboTable::ALL, x.combo, d)),
    },
    Row {
        label: "Spins",
        show: |s| g(s).spins.label().to_owned(),
        step: |s, d| garbage_with(s, |x| x.spins = cycle(SpinBonus::ALL, x.spins, d)),
    },
    Row {
        label: "All clear",
        show: |s| format!("{} lines", g(s).all_clear),
        step: |s, d| garbage_with(s, |x| x.all_clear = nudge(x.all_clear, d)),
    },
    Row {
        label: "Opener",
        show: |s| match g(s).opener {
            0 => "none".to_owned(),
            n => format!("{n} s without garbage"),
        },
        step: |s, d| {
            garbage_with(s, |x| {
                x.opener = nudge_by(u16::from(x.opener), d, 5).min(255) as u8;
            })
        },
    },
];

/// The screen's state: the row under the cursor and the host's draft (not yet sent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingsEdit {
    pub cursor: usize,
    pub draft: RoomSettings,
}

impl SettingsEdit {
    pub fn new(settings: RoomSettings) -> SettingsEdit {
        SettingsEdit {
            cursor: 0,
            draft: settings,
        }
    }

    pub fn up(&mut self) {
        self.cursor = (self.cursor + ROWS.len() - 1) % ROWS.len();
    }

    pub fn down(&mut self) {
        self.cursor = (self.cursor + 1) % ROWS.len();
    }

    /// Steps the setting under the cursor.
    pub fn step(&mut self, d: i8) {
        if let Some(row) = ROWS.get(self.cursor) {
            self.draft = (row.step)(&self.draft, d);
        }
    }
}

/// The settings screen: read-only for everyone but the host.
#[derive(Debug)]
pub struct SettingsView<'a> {
    pub code: &'a str,
    pub edit: &'a SettingsEdit,
    /// The room's settings now (the draft's differences are marked).
    pub current: &'a RoomSettings,
    pub host: bool,
    pub theme: Theme,
}

impl Widget for &SettingsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let r = draw::centered(area, 64, (ROWS.len() as u16 + 8).min(area.height));
        // The rows that fit (the frame, a blank line, the preset's line and the hint take 6),
        // scrolled to keep the cursor in view.
        let fit = usize::from(r.height.saturating_sub(6)).max(1);
        let first = self.edit.cursor.saturating_sub(fit - 1);
        let title = sfmt!(40; "ROOM {} SETTINGS", self.code);
        let inner = draw::frame(buf, r, theme, title.as_str(), theme.dim());
        let shown = if self.host {
            &self.edit.draft
        } else {
            self.current
        };
        for (i, row) in ROWS.iter().enumerate().skip(first).take(fit) {
            let y = inner.y + 1 + (i - first) as u16;
            let here = self.host && i == self.edit.cursor;
            let mark = if i == self.edit.cursor { ">" } else { " " };
            draw::put(buf, inner, inner.x + 2, y, mark, theme.accent());
            draw::put(buf, inner, inner.x + 4, y, row.label, theme.dim());
            let value = (row.show)(shown);
            let changed = (row.show)(shown) != (row.show)(self.current);
            let style = if here {
                theme.title()
            } else if changed {
                theme.accent()
            } else {
                theme.text()
            };
            let value = if here { format!("< {value} >") } else { value };
            draw::put(buf, inner, inner.x + 16, y, &value, style);
        }
        if let Some(p) = presets::matching(shown) {
            let y = inner.y + 2 + ROWS.len().min(fit) as u16;
            draw::put_centered(buf, inner, y, p.about, theme.dim());
        }
        let hint = if self.host {
            "Up/Down row   Left/Right change   Enter apply   Esc back"
        } else {
            "Only the host changes these   Esc back"
        };
        draw::hint(buf, inner, hint, theme);
    }
}

/// The settings in one line, for the lobby (what everyone sees before Ready).
pub fn summary(s: &RoomSettings) -> String {
    let series = s.series();
    let mut out = String::new();
    if series.is_series() {
        out.push_str(&format!("First to {}", series.first_to()));
        if series.win_by() > 1 {
            out.push_str(&format!(", win by {}", series.win_by()));
        }
    } else {
        out.push_str("One game");
    }
    if series.stock() > 0 {
        out.push_str(&format!(", {}", stock_text(series.stock())));
    }
    if s.teams() >= 2 {
        out.push_str(&format!(", {} teams", s.teams()));
    }
    match presets::matching(s) {
        Some(p) => out.push_str(&format!(", {}", p.name)),
        None if !s.garbage().is_default() || !s.game().is_default() => out.push_str(", own rules"),
        None => {}
    }
    out
}
