//! Descent in the App: locked in the mode list until unlocked, its board (pegs, gems in their
//! colours, collected gems, the wall stripe), its stats and its results.

use minotty_engine::board::BUFFER_HEIGHT;
use minotty_engine::{Button, Cell, Game, GameConfig, Gem, Input, Mode, ModeKind, RulesetId, Time};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::widgets::Widget;

use super::{app, draw, playing, press};
use crate::keys::Key;
use crate::screens::mode_select::LOCKED_NOTE;
use crate::session::{COUNTDOWN_MS, Effects};
use crate::settings::{ColorMode, Graphics, Settings};
use crate::testutil::lines;
use crate::theme::Theme;
use crate::widgets::board::{BOARD_H, BOARD_W, BoardView};
use crate::{App, AppContext};

fn on_descent(mut a: App) -> App {
    press(&mut a, Key::Enter, 0);
    let at = ModeKind::ALL
        .iter()
        .position(|&k| k == ModeKind::Descent)
        .expect("listed");
    for _ in 0..at {
        press(&mut a, Key::Down, 0);
    }
    a
}

fn text(buf: &Buffer) -> String {
    lines(buf).join("\n")
}

#[test]
fn descent_is_listed_locked_until_unlocked() {
    let mut a = on_descent(app());
    assert!(!a.descent_unlocked());
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&draw(&a, w, h));
        assert!(s.contains("Descent"), "{w}x{h}\n{s}");
        assert!(s.contains(LOCKED_NOTE), "{w}x{h}\n{s}");
        assert!(s.contains("Finish Puzzle to unlock"));
        assert!(s.contains("Ruleset: tetrs"), "{w}x{h}\n{s}");
        assert!(!s.contains("Enter start"), "no start hint while locked");
    }
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Right, 0);
    assert!(a.game().is_none(), "a locked Descent does not start");
    a.play(ModeKind::Descent, 0);
    assert!(a.game().is_none(), "not even through play()");

    a.set_descent_unlocked(true);
    assert!(a.descent_unlocked());
    let s = text(&draw(&a, 80, 24));
    assert!(!s.contains(LOCKED_NOTE), "{s}");
    assert!(s.contains("Enter start"));
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("an unlocked Descent starts");
    assert_eq!(*game.mode(), Mode::descent());
    assert_eq!(game.ruleset().id, RulesetId::Tetrs);
}

#[test]
fn finishing_puzzle_unlocks_descent() {
    let mut a = on_descent(app());
    // Progress short of the last stage keeps it locked.
    a.deliver(
        crate::Response::PuzzleProgress {
            cleared: 23,
            completed: false,
        },
        0,
    );
    assert!(!a.descent_unlocked());
    assert!(text(&draw(&a, 80, 24)).contains(LOCKED_NOTE));
    a.deliver(
        crate::Response::PuzzleProgress {
            cleared: 24,
            completed: true,
        },
        0,
    );
    assert!(a.puzzle_completed() && a.descent_unlocked());
    let s = text(&draw(&a, 80, 24));
    assert!(!s.contains(LOCKED_NOTE) && s.contains("Enter start"), "{s}");
    press(&mut a, Key::Enter, 0);
    assert_eq!(a.game().map(|g| g.mode().kind), Some(ModeKind::Descent));
}

#[test]
fn a_start_mode_of_descent_needs_it_unlocked() {
    let ctx = |descent_unlocked| AppContext {
        player_name: "ada".into(),
        seed: 7,
        start_mode: Some(ModeKind::Descent),
        descent_unlocked,
        ..AppContext::default()
    };
    let mut locked = App::new(ctx(false));
    locked.tick(COUNTDOWN_MS);
    assert!(locked.game().is_none());
    let mut open = App::new(ctx(true));
    open.tick(COUNTDOWN_MS);
    assert_eq!(open.game().map(|g| g.mode().kind), Some(ModeKind::Descent));
}

fn unlocked_game() -> (App, u64) {
    let mut a = app();
    a.set_descent_unlocked(true);
    a.play(ModeKind::Descent, 0);
    a.tick(COUNTDOWN_MS);
    (a, COUNTDOWN_MS)
}

#[test]
fn the_game_screen_shows_gems_depth_and_time_left() {
    let (a, _) = unlocked_game();
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&draw(&a, w, h));
        for label in ["GEMS", "DEPTH", "LEFT", "3:00"] {
            assert!(s.contains(label), "{w}x{h}: {label}\n{s}");
        }
        assert!(!s.contains("PIECES"), "{w}x{h}\n{s}");
        assert!(!s.contains("I     0"), "{w}x{h}: no piece counts\n{s}");
        // Gems of the first view and pegs are on the board.
        assert!(s.contains("◆◆"), "{w}x{h}\n{s}");
        assert!(s.contains("██"), "{w}x{h}");
        // Descent is never snapshotted, so the footer does not offer it.
        assert!(
            s.contains("Esc pause") && !s.contains("Ctrl+S"),
            "{w}x{h}\n{s}"
        );
    }
    for (w, h) in [(1, 1), (10, 5), (30, 10), (79, 23)] {
        draw(&a, w, h);
    }
}

/// A Descent game played by turning and shifting until it has collected gems still in view.
fn game_with_collected_gem() -> Game {
    for seed in 0..200 {
        let mut game = Game::new(
            GameConfig {
                ruleset: RulesetId::Tetrs,
                mode: Mode::descent(),
                ..GameConfig::default()
            },
            seed,
        );
        let mut t: Time = 0;
        let mut state = seed;
        while t < 30_000 {
            t += 50;
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let b = [
                Button::RotateCw,
                Button::RotateCcw,
                Button::Left,
                Button::Right,
            ][(state >> 16) as usize % 4];
            game.update(t, Some(Input::Press(b)));
            game.update(t, Some(Input::Release(b)));
            let d = game.descent().expect("descent");
            let seen =
                (BUFFER_HEIGHT..40).any(|y| (0..10).any(|x| d.gem(x, y) == Some(Gem::Collected)));
            if seen {
                return game;
            }
        }
    }
    panic!("no game collected a gem in view");
}

#[test]
fn every_board_cell_is_drawn_as_what_it_holds_in_every_theme() {
    let game = game_with_collected_gem();
    let d = game.descent().expect("descent");
    let active: Vec<(i8, i8)> = game
        .active()
        .map(|a| a.placed.cells().to_vec())
        .unwrap_or_default();
    for graphics in Graphics::ALL {
        for colors in ColorMode::ALL {
            let theme = Theme::new(&Settings {
                graphics,
                colors,
                ..Settings::default()
            });
            let fx = Effects::default();
            let view = BoardView {
                game: &game,
                fx: &fx,
                t: game.now(),
                theme,
                ghost: false,
                trail: false,
                hidden: false,
                blind: false,
                scale: crate::widgets::board::Scale::ONE,
            };
            let (w, h) =
                crate::widgets::board::board_size(theme, crate::widgets::board::Scale::ONE);
            let mut buf = Buffer::empty(Rect::new(0, 0, w.max(BOARD_W), h.max(BOARD_H)));
            // The Electronika well's walls are two columns wide, a frame's one.
            // and it has no top row.
            let (x0, y0) = if graphics == Graphics::Electronika {
                (2, 0)
            } else {
                (1, 1)
            };
            (&view).render(buf.area, &mut buf);
            let mut collected = 0;
            for vy in 0..20u16 {
                let y = BUFFER_HEIGHT + usize::from(vy);
                for x in 0..10u16 {
                    if active.contains(&(x as i8, y as i8)) {
                        continue;
                    }
                    let cell = &buf[(x0 + 2 * x, y0 + vy)];
                    let right = buf[(x0 + 1 + 2 * x, y0 + vy)].symbol();
                    let glyph = format!("{}{}", cell.symbol(), right);
                    let at = format!("{graphics:?} {colors:?} ({x}, {y})");
                    match (
                        d.gem(usize::from(x), y),
                        game.board().cell(usize::from(x), y),
                    ) {
                        (Some(Gem::Shining(c)), _) => {
                            assert_eq!(glyph, theme.gem(), "{at}");
                            assert_eq!(cell.fg, theme.piece_color(c), "{at}: its colour");
                            assert!(cell.modifier.contains(Modifier::BOLD), "{at}");
                        }
                        (Some(Gem::Collected), _) => {
                            collected += 1;
                            assert_eq!(glyph, theme.collected_gem(), "{at}");
                        }
                        (None, Cell::Garbage) => {
                            assert_eq!(glyph, theme.block(), "{at}: a peg");
                            assert_eq!(cell.fg, theme.garbage().fg.unwrap_or_default());
                        }
                        (None, Cell::Block(p)) => {
                            assert_eq!(x, 9, "{at}: only the wall is a block");
                            assert_eq!(glyph, theme.piece_block(p), "{at}");
                            assert_eq!(cell.fg, theme.piece_color(p), "{at}: the stripe's colour");
                        }
                        (None, Cell::Empty) => assert_eq!(glyph, theme.empty(), "{at}"),
                    }
                }
            }
            assert!(collected > 0, "a collected gem was drawn");
        }
    }
}

/// The colour drawn for board cell `(x, y)` (a visible row) in an 80 x 24 frame.
fn drawn_fg(a: &App, x: usize, y: usize) -> ratatui::style::Color {
    let buf = draw(a, 80, 24);
    let rows = lines(&buf);
    let edge = "┌────────────────────┐";
    let top = rows.iter().position(|r| r.contains(edge)).expect("board");
    let byte = rows[top].find(edge).expect("edge");
    let left = rows[top][..byte].chars().count() as u16;
    let vy = (y - BUFFER_HEIGHT) as u16;
    buf[(left + 1 + 2 * x as u16, top as u16 + 1 + vy)].fg
}

#[test]
fn gems_change_colour_on_screen_after_a_rotation() {
    let (mut a, now) = unlocked_game();
    let theme = Theme::new(&Settings::default());
    let shining = |a: &App| -> Vec<(usize, usize, minotty_engine::Piece)> {
        let d = a.game().and_then(Game::descent).expect("descent");
        (BUFFER_HEIGHT..40)
            .flat_map(|y| (0..10).map(move |x| (x, y)))
            .filter_map(|(x, y)| match d.gem(x, y) {
                Some(Gem::Shining(c)) => Some((x, y, c)),
                _ => None,
            })
            .collect()
    };
    let before = shining(&a);
    let &(x, y, old) = before.first().expect("a gem in the first view");
    assert_eq!(drawn_fg(&a, x, y), theme.piece_color(old));
    // `x` rotates clockwise by default.
    press(&mut a, Key::Char('x'), now + 50);
    assert!(
        a.game()
            .and_then(|g| g.active())
            .is_some_and(|p| p.placed.rotation != minotty_engine::Rotation::North),
        "the piece turned"
    );
    let d = a.game().and_then(Game::descent).expect("descent");
    match d.gem(x, y) {
        Some(Gem::Shining(new)) => {
            assert_ne!(new, old, "the rotation moved the gem to its next colour");
            assert_eq!(drawn_fg(&a, x, y), theme.piece_color(new));
        }
        other => assert_eq!(other, Some(Gem::Collected)),
    }
}

#[test]
fn the_results_show_gems_and_depth() {
    let (mut a, now) = unlocked_game();
    super::wakeups(&mut a, now + 190_000);
    press(&mut a, Key::Enter, now + 190_000); // the final board waits for Enter
    let game = a.game().expect("the finished game");
    assert!(game.is_over());
    let gems = game.descent().expect("descent").gems();
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&draw(&a, w, h));
        assert!(s.contains("RESULTS"), "{w}x{h}\n{s}");
        assert!(s.contains("Gems"), "{w}x{h}\n{s}");
        assert!(s.contains("Depth"), "{w}x{h}\n{s}");
        assert!(s.contains("Descent"), "{w}x{h}\n{s}");
        assert!(!s.contains("Tetrises"), "{w}x{h}\n{s}");
        let row = s.lines().find(|l| l.contains("Gems")).expect("gems row");
        let mut words = row.split_whitespace().skip_while(|w| *w != "Gems");
        assert_eq!(words.nth(1), Some(gems.to_string().as_str()), "{row}");
    }
    let finished = a.take_finished_game().expect("handed to the front end");
    assert_eq!(finished.kind, ModeKind::Descent);
    assert_eq!(finished.stats.score, u64::from(gems));
}

#[test]
fn playing_helper_still_refuses_a_locked_descent() {
    let (a, _) = playing(ModeKind::Descent);
    assert!(a.game().is_none());
}
