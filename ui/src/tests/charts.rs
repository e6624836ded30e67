//! The profile's charts (`c`): a board's personal best over time and pieces per second per
//! game, drawn at 80x24 and 200x60 with their axis labels, in ASCII too, and at tiny sizes.

use minotty_engine::{ModeKind, RulesetId};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::keys::{Key, KeyEvent};
use crate::screens::account_form::Load;
use crate::screens::account_profile::{ProfileAction, ProfileScreen, ProfileView};
use crate::settings::{ColorMode, Graphics, Settings};
use crate::testutil::lines;
use crate::theme::Theme;
use minotty_protocol::{
    BestHistory, BestPoint, GamePps, Profile, ProfileBest, ProfileCharts, RecentGame,
};

const DAY: i64 = 86_400_000;
/// 2025-11-22.
const T0: i64 = 1_763_769_600_000;

fn best(mode: ModeKind, game: Option<i64>) -> ProfileBest {
    ProfileBest {
        mode,
        ruleset: RulesetId::Standard,
        best: game.map(|_| "x".into()),
        rank: game.map(|_| 3),
        game,
    }
}

fn profile() -> Profile {
    let history = |mode, values: &[(i64, u64)]| BestHistory {
        mode,
        ruleset: RulesetId::Standard,
        points: values
            .iter()
            .map(|&(d, value)| BestPoint {
                at: T0 + d * DAY,
                value,
            })
            .collect(),
    };
    Profile {
        name: "ada".into(),
        bests: vec![
            best(ModeKind::Sprint, Some(7)),
            best(ModeKind::Marathon, Some(8)),
        ],
        recent: vec![RecentGame {
            game: 1234,
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Standard,
            ended_at: T0,
            result: "1:01.000".into(),
            outcome: "finished".into(),
        }],
        matches: Vec::new(),
        rating: None,
        ranked: None,
        charts: ProfileCharts {
            bests: vec![
                history(ModeKind::Sprint, &[(0, 90_000), (2, 75_000), (4, 61_000)]),
                history(ModeKind::Marathon, &[(1, 12_000), (3, 48_000)]),
            ],
            pps: (0..30)
                .map(|i| GamePps {
                    game: i,
                    mode: ModeKind::Sprint,
                    pps: 1.0 + f64::from(i as u32) * 0.05,
                })
                .collect(),
        },
    }
}

fn screen_with(p: &Profile) -> ProfileScreen {
    let mut s = ProfileScreen::default();
    s.arrived(p);
    assert_eq!(s.load, Load::Ready);
    s
}

fn draw(s: &ProfileScreen, graphics: Graphics, w: u16, h: u16) -> String {
    let theme = Theme::new(&Settings {
        graphics,
        colors: if graphics == Graphics::Unicode {
            ColorMode::Ansi256
        } else {
            ColorMode::Monochrome
        },
        ..Settings::default()
    });
    let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
    ProfileView {
        web: None,
        state: s,
        theme,
        address: None,
    }
    .render(buf.area, &mut buf);
    lines(&buf).join("\n")
}

#[test]
fn the_lists_show_game_ids_and_what_they_are_for() {
    let mut s = screen_with(&profile());
    let text = draw(&s, Graphics::Unicode, 80, 24);
    assert!(text.contains("#1234"), "{text}");
    assert!(text.contains("c charts"), "{text}");
    // No placeholder: without the server's address the line says where to send the command,
    // with it the whole command.
    assert!(!text.contains("HOST"), "{text}");
    assert!(
        text.contains("game #7: replay 7 --cast, over ssh to this server"),
        "{text}"
    );
    let theme = Theme::new(&Settings::default());
    let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    ProfileView {
        web: None,
        state: &s,
        theme,
        address: Some("-p 2222 192.0.2.7"),
    }
    .render(buf.area, &mut buf);
    let with = lines(&buf).join("\n");
    assert!(
        with.contains("game #7: ssh -p 2222 192.0.2.7 replay 7 --cast > game.cast"),
        "{with}"
    );
    s.handle(KeyEvent::press(Key::Down));
    s.handle(KeyEvent::press(Key::Down));
    let text = draw(&s, Graphics::Unicode, 80, 24);
    assert!(text.contains("replay 1234 --cast"), "{text}");
}

#[test]
fn c_shows_the_selected_boards_best_over_time_and_pieces_per_second() {
    let mut s = screen_with(&profile());
    assert_eq!(
        s.handle(KeyEvent::press(Key::Char('c'))),
        ProfileAction::Moved
    );
    assert!(s.charts);
    for (w, h) in [(80, 24), (200, 60)] {
        let text = draw(&s, Graphics::Unicode, w, h);
        assert!(
            text.contains("PERSONAL BEST · 40 Lines · standard"),
            "{text}"
        );
        // The best from 1:30.0 down to 1:01.0, dated from the first to the last improvement.
        for label in ["1:30.0", "1:01.0", "2025-11-22", "2025-11-26", "⣿ time"] {
            assert!(text.contains(label), "{w}x{h}: {label} missing\n{text}");
        }
        assert!(text.contains("PIECES PER SECOND · last 30 games"), "{text}");
        for label in ["0.00", "2.45", "30", "⣿ pps"] {
            assert!(text.contains(label), "{w}x{h}: {label} missing\n{text}");
        }
        assert!(text.contains("Left/Right board"), "{text}");
    }
    // Another board, and back to the lists.
    s.handle(KeyEvent::press(Key::Right));
    let text = draw(&s, Graphics::Unicode, 80, 24);
    assert!(
        text.contains("PERSONAL BEST · Marathon · standard"),
        "{text}"
    );
    assert!(text.contains("48000") && text.contains("12000"), "{text}");
    // Two days apart: dates.
    assert!(
        text.contains("2025-11-23") && text.contains("2025-11-25"),
        "{text}"
    );
    assert_eq!(s.handle(KeyEvent::press(Key::Esc)), ProfileAction::Moved);
    assert!(!s.charts);
    assert!(draw(&s, Graphics::Unicode, 80, 24).contains("BESTS"));
    // The cursor on marathon's best opens its board.
    s.handle(KeyEvent::press(Key::Down));
    s.handle(KeyEvent::press(Key::Char('c')));
    assert!(draw(&s, Graphics::Unicode, 80, 24).contains("Marathon · standard"));
}

#[test]
fn charts_read_in_ascii_and_do_not_panic_anywhere() {
    let mut s = screen_with(&profile());
    s.handle(KeyEvent::press(Key::Char('c')));
    for graphics in [Graphics::Ascii, Graphics::Electronika] {
        let text = draw(&s, graphics, 80, 24);
        assert!(text.is_ascii(), "{text}");
        assert!(
            text.contains("PERSONAL BEST - 40 Lines - standard"),
            "{text}"
        );
        assert!(text.contains("1:30.0") && text.contains("* time"), "{text}");
        assert!(text.contains("* pps") && text.contains("2.45"), "{text}");
    }
    for (w, h) in [(1, 1), (10, 5), (40, 12), (60, 16), (80, 20), (300, 100)] {
        draw(&s, Graphics::Unicode, w, h);
        draw(&s, Graphics::Ascii, w, h);
    }
    // Improvements within a day are dated by the time of day.
    let mut today = profile();
    today.charts.bests[0].points = vec![
        BestPoint {
            at: T0 + 9 * 3_600_000,
            value: 80_000,
        },
        BestPoint {
            at: T0 + 17 * 3_600_000 + 30 * 60_000,
            value: 70_000,
        },
    ];
    let mut s = screen_with(&today);
    s.handle(KeyEvent::press(Key::Char('c')));
    let text = draw(&s, Graphics::Unicode, 80, 24);
    assert!(text.contains("09:00") && text.contains("17:30"), "{text}");
    // No history at all: said so.
    let mut empty = profile();
    empty.charts = ProfileCharts::default();
    let mut s = screen_with(&empty);
    s.handle(KeyEvent::press(Key::Char('c')));
    let text = draw(&s, Graphics::Unicode, 80, 24);
    assert!(text.contains("no ranked games yet"), "{text}");
    assert!(text.contains("No data yet."), "{text}");
}

// ---- versus results: attack per minute over the match -------------------------------------

mod versus {
    use minotty_engine::Mode;
    use minotty_engine::versus::MatchKind;

    use crate::Response;
    use crate::tests::{draw, press};
    use crate::testutil::lines;
    use crate::{App, AppContext, Graphics, Key};
    use minotty_protocol::{
        BoardSnapshot, Identity, MatchResult, MatchStart, OpponentView, Progress, ResultRow,
    };

    fn result_row(seat: usize, name: &str, place: u8) -> ResultRow {
        ResultRow {
            seat,
            name: name.into(),
            place,
            kos: 0,
            attack_per_minute: 30.0,
            pieces_per_second: 1.5,
            lines: 20,
            attack_sent: 30,
            garbage_received: 4,
            forfeited: false,
            rating: None,
            time_ms: 60_000,
            pieces: 90,
        }
    }

    /// A 1v1 where bob sends a line every 2 s for a minute (30 a minute), then the results.
    fn played(graphics: Graphics) -> App {
        let mut a = App::new(AppContext {
            player_name: "ada".into(),
            seed: 7,
            identity: Identity::Guest,
            ..AppContext::default()
        });
        let mut settings = a.settings().clone();
        settings.graphics = graphics;
        a.set_settings(settings);
        press(&mut a, Key::Down, 0);
        press(&mut a, Key::Enter, 0);
        a.deliver(
            Response::MatchStart(MatchStart {
                teams: Vec::new(),
                kind: MatchKind::Battle,
                mode: Mode::custom(1, false, None),
                seed: 3,
                players: vec!["ada".into(), "bob".into()],
                you: Some(0),
                countdown_ms: 3000,
                ranked: false,
                game: Default::default(),
            }),
            0,
        );
        for t in (0..=60_000u64).step_by(500) {
            a.tick(3000 + t);
            let bob = OpponentView {
                seat: 1,
                name: "bob".into(),
                board: BoardSnapshot {
                    rows: vec![[0u8; 10]; 20],
                },
                progress: Progress {
                    attack_sent: (t / 2000) as u32,
                    time_ms: t,
                    ..Progress::default()
                },
                alive: true,
                place: None,
                kos: 0,
                target: Some(0),
            };
            a.deliver(Response::Opponents(vec![bob]), 3000 + t);
        }
        a.deliver(
            Response::MatchOver(MatchResult {
                teams: Vec::new(),
                kind: MatchKind::Battle,
                rows: vec![result_row(1, "bob", 1), result_row(0, "ada", 2)],
                you: Some(0),
                ranked: false,
                series: None,
            }),
            64_000,
        );
        a
    }

    #[test]
    fn the_results_chart_each_players_attack_per_minute() {
        let a = played(Graphics::Unicode);
        for (w, h) in [(80, 24), (200, 60)] {
            let text = lines(&draw(&a, w, h)).join("\n");
            for want in [
                "MATCH RESULTS",
                "ATTACK PER MINUTE",
                "⣿ bob",
                "• ada",
                "30",
                "0:05",
                "1:00",
                "Rematch",
            ] {
                assert!(text.contains(want), "{w}x{h}: {want} missing\n{text}");
            }
        }
    }

    #[test]
    fn the_results_chart_is_ascii_in_ascii_and_fits_or_hides() {
        let a = played(Graphics::Ascii);
        let text = lines(&draw(&a, 80, 24)).join("\n");
        assert!(text.is_ascii(), "{text}");
        assert!(text.contains("* bob") && text.contains("# ada"), "{text}");
        for (w, h) in [(1, 1), (20, 10), (60, 24), (80, 30), (120, 40), (300, 100)] {
            draw(&a, w, h);
        }
    }
}
