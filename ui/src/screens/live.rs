//! The Live screen: what is being played on the server now (solo games and versus matches,
//! most interesting first, as the server orders them), one solo game watched full size, and
//! the TV, which shows the best solo game by itself and moves on when it ends or after a while.
//!
//! The App's side (requests, timing, the TV's choice) is in `app/live.rs`; here are the state,
//! the key handling and the views.

use std::fmt::Write;

use minotty_engine::Piece;
use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::figures::pps;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::rules::mode_with_ruleset;
use crate::screens::versus_watch as watch;
use crate::text::{StackStr, clock, sanitize, sfmt};
use crate::theme::Theme;
use crate::widgets::board::Scale;
use crate::widgets::mini_board;
use minotty_protocol::{LiveEntry, LiveFrame, LiveKind, LiveMatchFrame, LiveStats};

/// What the Live screen shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LiveView {
    /// The list of what is played now.
    #[default]
    List,
    /// One solo game, chosen from the list.
    Watch,
    /// The TV: the best solo game now, changing by itself.
    Tv,
}

/// The Live screen's state.
#[derive(Clone, Debug, Default)]
pub struct LiveState {
    pub view: LiveView,
    /// The list as last received, most interesting first.
    pub entries: Vec<LiveEntry>,
    /// The list's selected row.
    pub cursor: usize,
    /// The game asked for (`WatchLive`), and the front-end time it was asked.
    pub watching: Option<u64>,
    pub watch_since: u64,
    /// The latest frame of that game.
    pub frame: Option<Box<LiveFrame>>,
    /// Or of that match (the TV).
    pub match_frame: Option<Box<LiveMatchFrame>>,
    /// When the watched game ended (its last frame stays on screen).
    pub ended_at: Option<u64>,
    /// It did not end: its player dropped and it is parked until they reconnect.
    pub parked: bool,
    /// A line of status under the list or the board ("too many watchers").
    pub message: Option<String>,
    /// When the list was last asked for.
    pub listed_at: Option<u64>,
    /// The list has arrived at least once.
    pub listed: bool,
    /// The TV is streamed to a client without keys.
    pub stream: bool,
    /// How `ssh` reaches the server (`-p 2222 192.0.2.7`), for the stream's hint.
    pub address: Option<String>,
}

/// What a key on the Live screen asks the App to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveAction {
    None,
    Moved,
    /// Watch the solo game listed as this id.
    Watch(u64),
    /// Spectate the match listed as this id (the versus screens take over).
    Spectate(u64),
    /// Switch to the TV.
    Tv,
    /// TV: show the next game now.
    Next,
    /// Back to the list (stop watching).
    List,
    /// Back to the main menu.
    Back,
    AskQuit,
}

impl LiveState {
    pub fn handle(&mut self, ev: KeyEvent) -> LiveAction {
        if is_ctrl(ev, 'c') {
            return LiveAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return LiveAction::None;
        }
        if matches!(ev.key, Key::Char('q' | 'Q')) {
            return LiveAction::AskQuit;
        }
        match self.view {
            LiveView::List => {
                if matches!(ev.key, Key::Char('t' | 'T')) {
                    return LiveAction::Tv;
                }
                match nav(ev) {
                    Some(Nav::Up) => self.cursor = wrap(self.cursor, self.entries.len(), false),
                    Some(Nav::Down) => self.cursor = wrap(self.cursor, self.entries.len(), true),
                    Some(Nav::Select | Nav::Right) => {
                        return match self.entries.get(self.cursor) {
                            Some(e) => match &e.kind {
                                LiveKind::Solo => LiveAction::Watch(e.id),
                                LiveKind::Match { .. } => LiveAction::Spectate(e.id),
                            },
                            None => LiveAction::None,
                        };
                    }
                    Some(Nav::Back | Nav::Left) => return LiveAction::Back,
                    None => return LiveAction::None,
                }
                LiveAction::Moved
            }
            LiveView::Watch | LiveView::Tv => {
                if self.view == LiveView::Tv && matches!(ev.key, Key::Char('n' | 'N')) {
                    return LiveAction::Next;
                }
                if self.view == LiveView::Watch && matches!(ev.key, Key::Char('t' | 'T')) {
                    return LiveAction::Tv;
                }
                // Only Esc (or Backspace): a watcher's fingers may rest on the game keys.
                match nav(ev) {
                    Some(Nav::Back) => LiveAction::List,
                    _ => LiveAction::None,
                }
            }
        }
    }

    /// Keeps the cursor on the list after it changed.
    pub fn clamp_cursor(&mut self) {
        self.cursor = self.cursor.min(self.entries.len().saturating_sub(1));
    }
}

/// The name of a listed game's players: "ada", "ada vs bob", "ada, bob, cy +2".
fn players(names: &[String]) -> StackStr<64> {
    match names {
        [] => sfmt!(64; "-"),
        [one] => sfmt!(64; "{}", sanitize(one)),
        [a, b] => sfmt!(64; "{} vs {}", sanitize(a), sanitize(b)),
        [a, b, rest @ ..] => sfmt!(64; "{}, {} +{}", sanitize(a), sanitize(b), rest.len()),
    }
}

fn kind_name(kind: MatchKind) -> &'static str {
    match kind {
        MatchKind::Battle => "battle",
        MatchKind::Race => "race",
    }
}

/// A match player's line under their board: "#2", "KO", "18/40", "sent 12".
fn status(b: &minotty_protocol::OpponentView, kind: MatchKind) -> StackStr<16> {
    match (b.alive, b.place) {
        (false, _) => sfmt!(16; "KO"),
        (true, Some(1)) => sfmt!(16; "WINNER"),
        (true, Some(p)) => sfmt!(16; "#{}", p),
        (true, None) => match kind {
            MatchKind::Race => sfmt!(16; "{}/40", b.progress.lines),
            MatchKind::Battle => sfmt!(16; "sent {}", b.progress.attack_sent),
        },
    }
}

/// A solo game's numbers on one line: "12,345  45 lines  2:13.4".
fn numbers(s: &LiveStats) -> StackStr<48> {
    let lines = crate::text::plural(s.lines, "line ", "lines");
    sfmt!(48; "{:>9}  {:>3} {lines}  {}", grouped(s.score).as_str(), s.lines, clock(s.time_ms).as_str())
}

/// `1234567` as "1,234,567".
pub fn grouped(n: u64) -> StackStr<32> {
    crate::figures::thousands(n)
}

/// Draws the Live screen.
#[derive(Debug)]
pub struct LiveScreenView<'a> {
    pub state: &'a LiveState,
    pub theme: Theme,
    /// Front-end time (the TV says how long the game has been on).
    pub now: u64,
}

impl Widget for &LiveScreenView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        match self.state.view {
            LiveView::List => self.list(area, buf),
            LiveView::Watch | LiveView::Tv => self.watch(area, buf),
        }
    }
}

impl LiveScreenView<'_> {
    fn list(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, area.width.min(100), area.height.min(30));
        let inner = draw::frame(buf, r, theme, "LIVE", theme.dim());
        let head = "Being played now, most exciting first";
        draw::put_centered(buf, inner, inner.y, head, theme.dim());
        let rows = inner.height.saturating_sub(4);
        let list = Rect::new(
            inner.x + 1,
            inner.y + 2,
            inner.width.saturating_sub(2),
            rows,
        );
        if s.entries.is_empty() {
            let text = if s.listed {
                "Nobody is playing right now. Play a game and others can watch it here."
            } else {
                "Looking..."
            };
            draw::wrapped(buf, list, list.y, text, theme.text());
        }
        let shown = usize::from(rows);
        let first = if shown == 0 {
            0
        } else {
            s.cursor.saturating_sub(shown - 1)
        };
        let dot = theme.dot();
        for (i, e) in s.entries.iter().enumerate().skip(first).take(shown) {
            let y = list.y + (i - first) as u16;
            let style = if i == s.cursor {
                theme.selected()
            } else {
                theme.text()
            };
            let (what, detail) = match &e.kind {
                LiveKind::Solo => (
                    mode_with_ruleset(e.mode, e.ruleset, dot),
                    sfmt!(64; "{}", numbers(&e.stats).as_str()),
                ),
                LiveKind::Match { kind } => (
                    sfmt!(48; "Versus {} {}", dot, kind_name(*kind)),
                    sfmt!(64; "{} players", e.players.len()),
                ),
            };
            // The columns at their own x, each cut to its width in columns (names may be wide).
            let who = players(&e.players);
            for (x, text, w) in [
                (1, who.as_str(), 20),
                (22, what.as_str(), 24),
                (47, detail.as_str(), u16::MAX),
            ] {
                let cell = Rect::new(list.x.saturating_add(x), y, w, 1).intersection(list);
                draw::put(buf, cell, cell.x, y, text, style);
            }
            if e.watchers > 0 && list.width > 90 {
                let w = sfmt!(16; "{} watching ", e.watchers);
                draw::put_right(buf, list, y, w.as_str(), style);
            }
        }
        if let Some(m) = &s.message {
            draw::put_centered(buf, inner, inner.bottom().saturating_sub(2), m, theme.bad());
        }
        draw::hint(buf, inner, "Enter watch   t TV   Esc back", theme);
    }

    fn watch(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let tv = s.view == LiveView::Tv;
        // The top line says who and what is on.
        let top = match (&s.frame, &s.match_frame) {
            (None, Some(m)) => {
                let names: Vec<String> = m.boards.iter().map(|b| b.name.clone()).collect();
                let ended = if s.ended_at.is_some() {
                    "  (match over)"
                } else {
                    ""
                };
                sfmt!(160; "{}{} {} Versus {}{}", if tv { "LIVE TV: " } else { "WATCHING: " }, players(&names).as_str(), theme.dot(), kind_name(m.kind), ended)
            }
            (Some(f), _) => {
                let title = mode_with_ruleset(f.mode, f.ruleset, theme.dot());
                let ended = match (s.ended_at, s.parked) {
                    (Some(_), true) => "  (player dropped: paused, reconnecting...)",
                    (Some(_), false) => "  (game over)",
                    (None, _) => "",
                };
                sfmt!(160; "{}{} {} {}{}", if tv { "LIVE TV: " } else { "WATCHING: " }, sanitize(&f.player), theme.dot(), title.as_str(), ended)
            }
            (None, None) if tv && s.listed && s.watching.is_none() => {
                sfmt!(160; "LIVE TV: nothing on right now, waiting for a game...")
            }
            (None, None) if tv => sfmt!(160; "LIVE TV: tuning in..."),
            (None, None) => sfmt!(160; "Tuning in..."),
        };
        draw::put_centered(buf, area, area.y, top.as_str(), theme.title());
        let body_h = mini_board::FULL_H;
        let stats_w = 24;
        let w = mini_board::FULL_W + 2 + stats_w;
        let body = draw::centered(
            Rect::new(
                area.x,
                area.y + 1,
                area.width,
                area.height.saturating_sub(2),
            ),
            w,
            body_h,
        );
        if let (None, Some(m)) = (&s.frame, &s.match_frame) {
            self.match_boards(area, buf, m);
        }
        if let Some(f) = &s.frame {
            let footer = match (s.ended_at, s.parked) {
                (Some(_), true) => "reconnecting...",
                (Some(_), false) => "game over",
                (None, _) => "",
            };
            let framing = mini_board::Framing {
                title: "",
                footer,
                style: theme.dim(),
            };
            mini_board::full(buf, body, &f.board, theme, framing, Scale::ONE);
            let panel = Rect::new(
                body.x.saturating_add(mini_board::FULL_W + 2),
                body.y,
                stats_w,
                body.height,
            )
            .intersection(area);
            self.stats(buf, panel, f);
        }
        if let Some(m) = &s.message {
            draw::put_centered(buf, area, area.bottom().saturating_sub(2), m, theme.bad());
        }
        let with_address = s
            .address
            .as_deref()
            .filter(|_| s.stream)
            .map(|at| sfmt!(96; "minotty live TV: ssh -t {} watch for keys   Ctrl+C ends", at));
        let hint = if let Some(h) = &with_address {
            h.as_str()
        } else if s.stream {
            "minotty live TV: ssh -t HOST watch for keys   Ctrl+C ends"
        } else if tv {
            "n next game   Esc list   q quit"
        } else {
            "t TV   Esc list   q quit"
        };
        draw::put_centered(
            buf,
            area,
            area.bottom().saturating_sub(1),
            hint,
            theme.dim(),
        );
    }

    /// A match's boards side by side: full size when they fit, else half-block minis.
    fn match_boards(&self, area: Rect, buf: &mut Buffer, m: &LiveMatchFrame) {
        let theme = self.theme;
        let body = Rect::new(
            area.x,
            area.y + 1,
            area.width,
            area.height.saturating_sub(2),
        );
        let n = m.boards.len();
        if let Some(scale) = watch::scale_for(n, body.width, body.height, Scale::MAX) {
            // As in the room's spectator seat: each board with hold, next and numbers, scaled
            // by whole cells where there is room.
            let y0 = body.y + (body.height - watch::height(scale)) / 2;
            let w = watch::Watch {
                scale,
                elapsed_ms: None,
            };
            watch::draw_with(buf, body, y0, &m.boards, m.kind, theme, w);
            return;
        }
        let n = m.boards.len().max(1) as u16;
        let full_w = mini_board::FULL_W + 1;
        if n.saturating_mul(full_w) <= body.width && body.height >= mini_board::FULL_H {
            let x0 = body.x + (body.width - n * full_w) / 2;
            let y0 = body.y + (body.height - mini_board::FULL_H) / 2;
            for (i, b) in m.boards.iter().enumerate() {
                let x = x0 + i as u16 * full_w;
                let r = Rect::new(x, y0, mini_board::FULL_W, mini_board::FULL_H).intersection(area);
                let name = sanitize(&b.name);
                let footer = status(b, m.kind);
                let framing = mini_board::Framing {
                    title: &name,
                    footer: footer.as_str(),
                    style: theme.dim(),
                };
                mini_board::full(buf, r, &b.board, theme, framing, Scale::ONE);
            }
            return;
        }
        // Minis: 10 wide, a name above and a status below, 12 columns apart.
        let per_row = (body.width / 12).max(1);
        for (i, b) in m.boards.iter().enumerate() {
            let (col, row) = (i as u16 % per_row, i as u16 / per_row);
            let x = body.x + col * 12 + 1;
            let y = body.y + row * (mini_board::MINI_H + 3);
            let name = sanitize(&b.name);
            draw::put(buf, body, x, y, &name, theme.text());
            let r = Rect::new(x, y + 1, mini_board::MINI_W, mini_board::MINI_H).intersection(body);
            if r.height == mini_board::MINI_H {
                mini_board::mini(buf, r, &b.board, theme);
                let st = status(b, m.kind);
                draw::put(
                    buf,
                    body,
                    x,
                    y + 1 + mini_board::MINI_H,
                    st.as_str(),
                    theme.dim(),
                );
            }
        }
    }

    fn stats(&self, buf: &mut Buffer, panel: Rect, f: &LiveFrame) {
        let theme = self.theme;
        let st = &f.stats;
        let rows: [(&str, StackStr<32>); 6] = [
            ("Player", sfmt!(32; "{}", sanitize(&f.player))),
            ("Score", grouped(st.score)),
            ("Lines", sfmt!(32; "{}", st.lines)),
            ("Level", sfmt!(32; "{}", st.level)),
            ("Time", sfmt!(32; "{}", clock(st.time_ms).as_str())),
            ("PPS", sfmt!(32; "{}", pps(st.pieces, st.time_ms).as_str())),
        ];
        let mut y = panel.y;
        for (label, value) in rows.iter() {
            draw::put_row(
                buf,
                panel,
                y,
                label,
                value.as_str(),
                [theme.dim(), theme.text()],
            );
            y = y.saturating_add(2);
        }
        let piece_name = |v: u8| -> char {
            Piece::ALL
                .get(usize::from(v).wrapping_sub(1))
                .map_or('-', |p| p.letter())
        };
        let mut next = StackStr::<32>::new();
        for &p in f.next.iter().take(5) {
            let _ = write!(next, "{} ", piece_name(p));
        }
        draw::put_row(
            buf,
            panel,
            y,
            "Next",
            next.as_str().trim_end(),
            [theme.dim(), theme.text()],
        );
        y = y.saturating_add(2);
        draw::put_row(
            buf,
            panel,
            y,
            "Hold",
            sfmt!(4; "{}", piece_name(f.hold)).as_str(),
            [theme.dim(), theme.text()],
        );
        let _ = self.now;
    }
}
