//! One game, one set of figures: the results screen a player reads when their game ends, its
//! leaderboard row and its line in the profile's recent games show the same time and pieces
//! per second (one formatter, `minotty_ui::figures`), for a game played key by key in the App.

use minotty_engine::ModeKind;
use minotty_ui::boards::{self, Figures};
use minotty_ui::{App, AppContext, Key, KeyEvent};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Plays `kind` by hard-dropping every piece at uneven moments until the game ends; the App
/// is left on the results screen.
fn played(kind: ModeKind) -> (App, minotty_ui::FinishedGame) {
    let mut app = App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        ..AppContext::default()
    });
    app.set_release_events(false);
    app.play(kind, 0);
    let mut t = 0;
    let mut presses = 0u64;
    loop {
        t += 41;
        app.tick(t);
        if t % 533 < 41 && app.in_game() {
            presses += 1;
            app.handle_key(KeyEvent::press(Key::Char(' ')), t);
        }
        if let Some(game) = app.take_finished_game() {
            assert!(presses > 3, "the game was played: {presses} drops");
            // "GAME OVER  Enter: results".
            app.handle_key(KeyEvent::press(Key::Enter), t + 1_000);
            return (app, game);
        }
        assert!(t < 600_000, "the game ended");
    }
}

fn screen(app: &App) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
    terminal.draw(|f| app.render(f)).expect("draw");
    let buf = terminal.backend().buffer().clone();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

/// The value of the results table's row `label`.
fn value(lines: &[String], label: &str) -> String {
    let line = lines
        .iter()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("{label} on the results:\n{}", lines.join("\n")));
    let after = &line[line.find(label).expect("found") + label.len()..];
    after.split_whitespace().next().expect("a value").to_owned()
}

#[test]
fn the_results_the_board_and_the_profile_show_one_game_with_the_same_figures() {
    // The game: master, a few pieces, 0 lines.
    let (app, game) = played(ModeKind::Master);
    let lines = screen(&app);
    let time = value(&lines, "Time");
    let pps = value(&lines, "Pieces per second");
    let f = Figures::from(&game.stats);
    let board = boards::solo_values(ModeKind::Master, f);
    assert_eq!(
        board,
        vec![format!("{} lines {time}", game.stats.lines), pps.clone()],
        "the board row of the game on the results:\n{}",
        lines.join("\n")
    );
    let recent = boards::recent_game(
        1,
        ModeKind::Master,
        minotty_engine::RulesetId::Standard,
        0,
        "top_out",
        &game.stats,
    );
    assert_eq!(recent.result, board[0]);
    // Every millisecond of the time, as stored.
    assert!(
        time.ends_with(&format!("{:03}", game.stats.time % 1000)),
        "{time}"
    );
}
