//! The results of a finished game: outcome, time, score, lines, pieces, PPS and more.

use minotty_engine::{EndReason, Game, GhostSplit, ModeKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::game::game_outcome_text;
use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::figures::{self, pps};
use crate::keymap::Keymap;
use crate::keys::{Key, KeyEvent};
use crate::session::{lines_text, time_text};
use crate::text::{StackStr, plural, sfmt};
use crate::theme::Theme;
use crate::widgets::stats::{piece_counts_line, piece_letter};
use minotty_protocol::GameRecorded;

pub const ITEMS: [&str; 3] = ["Retry", "Choose mode", "Main menu"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultsAction {
    None,
    Moved,
    Retry,
    Modes,
    MainMenu,
    AskQuit,
}

/// Handles a key on the results; the retry key of `keys` retries (`screens/retry.rs`).
pub fn handle(cursor: &mut usize, ev: KeyEvent, keys: &Keymap) -> ResultsAction {
    if is_ctrl(ev, 'c') {
        return ResultsAction::AskQuit;
    }
    if super::retry::is_retry(ev, keys) {
        return ResultsAction::Retry;
    }
    match nav(ev) {
        Some(Nav::Up) => *cursor = wrap(*cursor, ITEMS.len(), false),
        Some(Nav::Down) => *cursor = wrap(*cursor, ITEMS.len(), true),
        // Space is a hard drop for many players: only Enter confirms here.
        Some(Nav::Select) if ev.key == Key::Enter => {
            return match *cursor {
                0 => ResultsAction::Retry,
                1 => ResultsAction::Modes,
                _ => ResultsAction::MainMenu,
            };
        }
        Some(Nav::Back) if ev.key == Key::Esc => return ResultsAction::MainMenu,
        _ => return ResultsAction::None,
    }
    ResultsAction::Moved
}

/// A longer outcome for the results screen.
fn outcome_line(reason: EndReason, won: bool) -> &'static str {
    match reason {
        EndReason::BlockOut => "Game over: no room for the next piece",
        EndReason::LockOut => "Game over: locked above the field",
        EndReason::TopOut => "Game over: pushed over the top",
        EndReason::ComboBroken => "The combo broke",
        EndReason::Forfeit => "You gave up",
        EndReason::Limit(_) if won => "Goal reached!",
        EndReason::Limit(_) => "Limit reached",
        // Keep in step with `minotty_engine::MAX_INPUTS` (a test checks it).
        EndReason::InputLimit => "Ended at 100,000 inputs: not ranked",
    }
}

/// Under tetrs every piece spins: its spins are not all T-spins.
fn spins_label(game: &Game) -> &'static str {
    match game.ruleset().spin {
        minotty_engine::ruleset::SpinRule::Immobile => "Spins",
        minotty_engine::ruleset::SpinRule::TCorners { .. } => "T-spins",
    }
}

/// What the results say about storing the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnlineNote<'a> {
    /// Nothing (offline, or not known yet).
    None,
    /// Guest games are not stored.
    Guest,
    /// The player's account could not be reached: their game is not stored.
    Unreachable,
    /// The server stored it.
    Recorded(&'a GameRecorded),
}

/// Draws the results of `game`.
#[derive(Debug)]
pub struct ResultsView<'a> {
    pub game: &'a Game,
    pub cursor: usize,
    pub theme: Theme,
    pub online: OnlineNote<'a>,
    /// Where the web pages are: a leaderboard game's results show its page's address.
    pub web: Option<&'a str>,
    /// The game's finesse faults (40 lines, once it is judged: `GameSession::finesse_faults`).
    pub finesse: Option<u32>,
    /// The player's keys (the hint names the retry key).
    pub keys: &'a Keymap,
    /// A ghost race's ghost (its player's name, sanitized) and the split at the game's end.
    pub ghost: Option<(&'a str, GhostSplit)>,
    /// The stored game whose replay this game was taken over from.
    pub taken_over: Option<i64>,
}

impl Widget for &ResultsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let game = self.game;
        let s = game.stats();
        let mode_title = crate::rules::game_title(game, theme.dot());
        let title = sfmt!(64; "RESULTS: {}", mode_title.as_str());
        let r = draw::centered(area, 44, 23);
        let inner = draw::frame(buf, r, theme, title.as_str(), theme.dim());
        let (reason, won) = game.outcome().unwrap_or((EndReason::Forfeit, false));
        let style = if won { theme.good() } else { theme.bad() };
        draw::put_centered(
            buf,
            inner,
            inner.y + 1,
            game_outcome_text(game, reason, won),
            style,
        );
        let puzzle = game.puzzle_state().filter(|_| game.mode().is_puzzle());
        let puzzle_line = puzzle.map(|p| {
            if won {
                sfmt!(48; "All {} stages cleared!", minotty_engine::puzzle::STAGE_COUNT)
            } else if matches!(reason, EndReason::Limit(_)) {
                sfmt!(48; "Out of attempts at stage {}", p.stage)
            } else {
                sfmt!(48; "Stopped at stage {}", p.stage)
            }
        });
        let line = match &puzzle_line {
            Some(l) => l.as_str(),
            None => outcome_line(reason, won),
        };
        draw::put_centered(buf, inner, inner.y + 2, line, theme.dim());
        // The server says the same once it has judged the game; offline and guest players
        // learn it here too.
        let mode = game.mode();
        if let Some((name, split)) = &self.ghost {
            // How the race against the ghost ended: the time at the player's last line, or
            // the lines ahead or behind (a race that ended before the ghost's first line).
            let room = usize::from(inner.width).saturating_sub(13 + name.chars().count());
            let time = time_text(split, room);
            let against = if time.is_empty() {
                lines_text(split)
            } else {
                sfmt!(24; "{}", time.as_str())
            };
            let line = sfmt!(64; "vs {}'s ghost: {}", name, against.as_str());
            draw::put_centered(buf, inner, inner.y + 3, line.as_str(), theme.accent());
        } else if game.bot_played() {
            draw::put_centered(
                buf,
                inner,
                inner.y + 3,
                "The bot played: not ranked",
                theme.bad(),
            );
        } else if let Some(source) = self.taken_over {
            let line = sfmt!(48; "From game #{}'s replay: not ranked", source);
            draw::put_centered(buf, inner, inner.y + 3, line.as_str(), theme.bad());
        } else if game.taken_back() {
            draw::put_centered(buf, inner, inner.y + 3, TAKEN_BACK_LINE, theme.bad());
        } else if game.paused() && mode.timed() && mode.kind != ModeKind::Custom {
            draw::put_centered(buf, inner, inner.y + 3, "Paused: not ranked", theme.bad());
        }
        let descent_rows: [(&str, StackStr<24>); 4];
        let classic_rows: [(&str, StackStr<24>); 10];
        let rows: &[(&str, StackStr<24>)] = if let Some(d) = game.descent() {
            descent_rows = [
                ("Time", sfmt!(24; "{}", figures::time(s.time).as_str())),
                ("Gems", sfmt!(24; "{}", d.gems())),
                (
                    if d.climbing() { "Height" } else { "Depth" },
                    sfmt!(24; "{} {}", d.depth(), plural(d.depth(), "row", "rows")),
                ),
                ("Piece", sfmt!(24; "{}", piece_letter(d.piece()))),
            ];
            &descent_rows
        } else {
            classic_rows = classic(game, won, self.finesse);
            &classic_rows
        };
        let table = Rect::new(inner.x + 4, inner.y + 4, inner.width.saturating_sub(8), 10);
        let table = table.intersection(inner);
        for (i, (label, value)) in rows.iter().enumerate() {
            let y = table.y + i as u16;
            draw::put_row(
                buf,
                table,
                y,
                label,
                value.as_str(),
                [theme.dim(), theme.text()],
            );
        }
        // The locked pieces by type under the table (Descent locks none).
        if game.descent().is_none() {
            let counts_at = Rect::new(inner.x + 1, inner.y + 14, inner.width.saturating_sub(2), 1);
            piece_counts_line(buf, counts_at.intersection(inner), counts_at.y, s, theme);
        }
        self.online_note(buf, inner);
        draw::menu(buf, inner, inner.y + 16, ITEMS, self.cursor, theme);
        let hint = match super::retry::hint(self.keys, "retry") {
            Some(retry) => sfmt!(64; "Enter select   {}   Esc menu", retry.as_str()),
            None => sfmt!(64; "Enter select   Esc menu"),
        };
        draw::hint(buf, inner, hint.as_str(), theme);
    }
}

/// The results table of every mode but Descent. 40 lines shows keys per piece and finesse
/// faults (its players count their inputs; pieces that took more presses than the fewest that
/// reach where they locked) instead of the level and the spins (a race for lines rarely
/// spins); cheese leads with what it ranks on, pieces, and the garbage rows dug; survival with
/// its time, the rows risen and dug; classic with its score, the level it reached from the one
/// it started at and the NES players' tetris rate (the share of the lines cleared by tetrises).
fn classic(game: &Game, won: bool, finesse: Option<u32>) -> [(&'static str, StackStr<24>); 10] {
    let s = game.stats();
    let puzzle = game.puzzle_state();
    let time = ("Time", sfmt!(24; "{}", figures::time(s.time).as_str()));
    let score = (
        "Score",
        sfmt!(24; "{}", figures::thousands(s.score).as_str()),
    );
    let lines = ("Lines", sfmt!(24; "{}", s.lines));
    let pieces = ("Pieces", sfmt!(24; "{}", s.pieces));
    let pps = (
        "Pieces per second",
        sfmt!(24; "{}", pps(s.pieces, s.time).as_str()),
    );
    let kpp = (
        "Keys per piece",
        sfmt!(24; "{}", figures::per_piece(key_presses(game), s.pieces).as_str()),
    );
    let faults = match finesse {
        Some(n) => sfmt!(24; "{}", n),
        None => sfmt!(24; "-"),
    };
    let tetrises = ("Tetrises", sfmt!(24; "{}", s.tetrises));
    let spins = (spins_label(game), sfmt!(24; "{}", s.tspins));
    let combo = (
        "Best combo / B2B",
        sfmt!(24; "{} / {}", s.max_combo, s.max_b2b),
    );
    let perfect = ("Perfect clears", sfmt!(24; "{}", s.perfect_clears));
    match game.mode().kind {
        ModeKind::Sprint => [
            time,
            pieces,
            pps,
            kpp,
            ("Finesse faults", faults),
            lines,
            score,
            tetrises,
            combo,
            perfect,
        ],
        ModeKind::Cheese => [
            pieces,
            ("Rows dug", sfmt!(24; "{}", s.garbage_cleared)),
            time,
            pps,
            kpp,
            lines,
            score,
            spins,
            combo,
            perfect,
        ],
        ModeKind::Survival => [
            time,
            ("Rows risen", sfmt!(24; "{}", s.garbage_received)),
            ("Rows dug", sfmt!(24; "{}", s.garbage_cleared)),
            pieces,
            pps,
            kpp,
            lines,
            score,
            spins,
            combo,
        ],
        ModeKind::Classic => [
            score,
            lines,
            (
                "Level",
                sfmt!(24; "{} (from {})", s.level, game.mode().start_level),
            ),
            time,
            pieces,
            pps,
            kpp,
            tetrises,
            (
                "Tetris rate",
                sfmt!(24; "{}%", (s.tetrises * 400).checked_div(s.lines).unwrap_or(0)),
            ),
            (
                "Singles / doubles / triples",
                sfmt!(24; "{} / {} / {}", s.singles, s.doubles, s.triples),
            ),
        ],
        ModeKind::Marathon
        | ModeKind::Ultra
        | ModeKind::Master
        | ModeKind::Combo
        | ModeKind::Custom
        | ModeKind::Endless
        | ModeKind::Puzzle
        | ModeKind::Descent
        | ModeKind::Ascent => [
            time,
            score,
            lines,
            pieces,
            pps,
            match puzzle {
                Some(p) => ("Stage reached", sfmt!(24; "{}: {}", p.stage, p.name)),
                None => ("Level", sfmt!(24; "{}", s.level)),
            },
            match puzzle {
                Some(p) => {
                    let start = game.mode().puzzle_start().unwrap_or(1);
                    let cleared = (p.stage + u8::from(won)).saturating_sub(start);
                    (
                        "Stages cleared",
                        sfmt!(24; "{} (from stage {})", cleared, start),
                    )
                }
                None => tetrises,
            },
            spins,
            combo,
            perfect,
        ],
    }
}

/// The keys the player pressed in `game` (each press once, however long it was held).
fn key_presses(game: &Game) -> u64 {
    let presses = game
        .inputs()
        .iter()
        .filter(|(_, i)| matches!(i, minotty_engine::Input::Press(_)))
        .count();
    presses as u64
}

/// What the results say of a game taken back (undo, a savepoint).
pub const TAKEN_BACK_LINE: &str = "Taken back: not ranked";

impl ResultsView<'_> {
    /// The screen says by itself that the game is not ranked, and why (the server's note
    /// would say it a second time).
    fn said_unranked(&self) -> bool {
        let game = self.game;
        let mode = game.mode();
        game.bot_played()
            || game.taken_back()
            || (game.paused() && mode.timed() && mode.kind != ModeKind::Custom)
            || game
                .outcome()
                .is_some_and(|(reason, _)| reason == EndReason::InputLimit)
    }

    /// "NEW PERSONAL BEST" under the outcome, the global rank (or why there is none) under the
    /// table; for guests, that nothing is stored.
    fn online_note(&self, buf: &mut Buffer, inner: Rect) {
        let theme = self.theme;
        let y = inner.y + 15;
        match self.online {
            OnlineNote::None => {}
            OnlineNote::Guest => {
                let line = "Guest games are not stored";
                draw::put_centered(buf, inner, y, line, theme.dim());
            }
            OnlineNote::Unreachable => {
                let line = "Account unreachable: not stored";
                draw::put_centered(buf, inner, y, line, theme.dim());
            }
            OnlineNote::Recorded(rec) => {
                // The best the game faced and its difference: "NEW PERSONAL BEST  -1.234" and
                // "was 0:42.908" by the rank, or "Your best 0:40.440  +1.234".
                let previous = rec.previous_best.as_ref();
                let was = previous.map(|(best, _)| best.as_str());
                if rec.personal_best {
                    let pb = match previous {
                        Some((_, delta)) => sfmt!(48; "NEW PERSONAL BEST  {}", delta),
                        None => sfmt!(48; "NEW PERSONAL BEST"),
                    };
                    draw::put_centered(buf, inner, inner.y + 3, pb.as_str(), theme.accent());
                } else if let (Some((best, delta)), None) = (previous, &rec.note) {
                    let line = sfmt!(48; "Your best {}  {}", best, delta);
                    draw::put_centered(buf, inner, inner.y + 3, line.as_str(), theme.dim());
                }
                // A leaderboard game's page, to share: the one line between menu and hint.
                if let (Some(web), None) = (self.web, &rec.note) {
                    let link = sfmt!(128; "{}/game/{}", web, rec.game);
                    let short = link
                        .as_str()
                        .split_once("://")
                        .map_or(link.as_str(), |(_, l)| l);
                    let fits = |s: &str| s.chars().count() + 2 <= usize::from(inner.width);
                    let shown = [link.as_str(), short].into_iter().find(|s| fits(s));
                    if let Some(shown) = shown {
                        let y = inner.y + 19;
                        draw::put_centered(buf, inner, y, shown, theme.accent());
                    }
                }
                if let Some(rank) = rec.rank {
                    let line = match was.filter(|_| rec.personal_best) {
                        Some(was) => sfmt!(64; "Global rank #{}  (was {})", rank, was),
                        None => sfmt!(64; "Global rank #{}", rank),
                    };
                    draw::put_centered(buf, inner, y, line.as_str(), theme.good());
                } else if let Some(note) = rec.note.as_ref().filter(|_| !self.said_unranked()) {
                    // Cleaned of control characters when it arrived (`app/account.rs`).
                    draw::put_centered(buf, inner, y, note, theme.dim());
                }
            }
        }
    }
}
