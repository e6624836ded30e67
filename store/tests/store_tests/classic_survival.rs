//! Classic's and Survival's boards: one each, under `standard`, Classic ranked by score from
//! any start level (not with its lock delay), Survival by the time survived (longer first);
//! real games judged by re-simulating their replays land there.

use minotty_domain::{Unranked, Verdict};
use minotty_engine::{
    Button, Cell, Game, GameConfig, Input, Mode, ModeKind, Piece, RulesetId, Time,
};
use minotty_store::{Board, FinishedGame, Store};
use sqlx::AnyPool;

use crate::support::{NOW, all_time_top, player, ranked, stats, store};

fn tap(game: &mut Game, t: Time, b: Button) {
    game.update(t, Some(Input::Press(b)));
    game.update(t, Some(Input::Release(b)));
}

/// Hard drops a second apart from `t` on, until the game is over.
fn top_out(game: &mut Game, mut t: Time) {
    while !game.is_over() {
        t += 1000;
        tap(game, t, Button::HardDrop);
    }
}

fn finished(account: &minotty_store::Account, game: &Game) -> FinishedGame {
    FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - i64::try_from(game.stats().time).expect("short"),
        ended_at: NOW,
    }
}

/// A Classic game from `level` that soft-drops its first piece a while (a point a row), then
/// tops out.
fn classic_game(level: u32, lock_delay: bool) -> Game {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::classic(level, lock_delay),
            ..GameConfig::default()
        },
        4,
    );
    game.update(0, None);
    game.update(100, Some(Input::Press(Button::SoftDrop)));
    game.update(400, Some(Input::Release(Button::SoftDrop)));
    top_out(&mut game, 400);
    game
}

/// A Survival game whose first piece, an I, digs the first row that rose; then it tops out.
fn survival_game() -> Game {
    let config = GameConfig {
        mode: Mode::survival(),
        ..GameConfig::default()
    };
    let seed = (0..)
        .find(|&s| {
            let mut g = Game::new(config.clone(), s);
            g.update(0, None);
            g.active().is_some_and(|a| a.placed.piece == Piece::I)
        })
        .expect("an I first");
    let mut game = Game::new(config, seed);
    game.update(0, None);
    game.update(10_000, None);
    let bottom = minotty_engine::board::HEIGHT - 1;
    let hole = (0..minotty_engine::board::WIDTH)
        .find(|&x| game.board().cell(x, bottom) == Cell::Empty)
        .expect("the risen row's hole") as i8;
    tap(&mut game, 10_000, Button::RotateCw);
    let column = game.active().expect("the I").placed.cells()[0].0;
    let button = if hole < column {
        Button::Left
    } else {
        Button::Right
    };
    for _ in 0..(hole - column).abs() {
        tap(&mut game, 10_000, button);
    }
    tap(&mut game, 10_000, Button::HardDrop);
    assert_eq!(game.stats().garbage_cleared, 1);
    top_out(&mut game, 10_000);
    game
}

both!(classic_and_survival_games_land_on_their_standard_boards);
async fn classic_and_survival_games_land_on_their_standard_boards(pool: AnyPool) {
    let store: Store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let classic = classic_game(18, false);
    let survival = survival_game();
    let score = classic.stats().score;
    let time = survival.stats().time;
    assert!(score > 0 && time > 10_000);
    let games: Vec<_> = [&classic, &survival]
        .into_iter()
        .map(|g| {
            let done = finished(&ada, g);
            let verdict = done.judge();
            (done, verdict)
        })
        .collect();
    assert_eq!(
        games[0].1,
        Verdict::Ranked {
            key: -(score as i64)
        }
    );
    assert_eq!(
        games[1].1,
        Verdict::Ranked {
            key: -(time as i64)
        }
    );
    let stored = store.insert_games(&games).await.expect("insert");
    for s in &stored {
        assert_eq!(s.improved.len(), 3, "all time, month, day");
    }
    for (kind, figure) in [(ModeKind::Classic, score), (ModeKind::Survival, time)] {
        let board = Board::new(kind, RulesetId::Standard);
        assert_eq!(
            Board::from(kind),
            board,
            "{kind:?}'s home board is standard"
        );
        let top = all_time_top(&store, board).await;
        assert_eq!(top.len(), 1, "{kind:?}");
        assert_eq!(top[0].name.to_string(), "ada");
        let got = match kind {
            ModeKind::Classic => top[0].score,
            _ => top[0].time_ms,
        };
        assert_eq!(got, figure, "{kind:?}");
        for other in [RulesetId::TuiTetris, RulesetId::Tetrs] {
            assert!(
                all_time_top(&store, Board::new(kind, other))
                    .await
                    .is_empty()
            );
        }
    }
    let record = store
        .game(stored[1].id)
        .await
        .expect("read")
        .expect("stored");
    assert_eq!(record.mode, ModeKind::Survival);
    // Classic with its lock delay is stored, not ranked.
    let aided = finished(&ada, &classic_game(18, true));
    assert_eq!(
        aided.judge(),
        Verdict::Unranked(Unranked::NotThePreset("classic"))
    );
}

both!(classic_ranks_more_points_first_and_survival_the_longer_game);
async fn classic_ranks_more_points_first_and_survival_the_longer_game(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let bob = player(&store, "bob", 2).await;
    let games = [
        ranked(
            &ada,
            ModeKind::Classic,
            stats(300_000, 48_000, 60, 150, 0),
            NOW,
        ),
        ranked(
            &bob,
            ModeKind::Classic,
            stats(90_000, 52_000, 40, 100, 0),
            NOW - 5,
        ),
        ranked(
            &ada,
            ModeKind::Survival,
            stats(130_500, 900, 20, 120, 0),
            NOW,
        ),
        ranked(
            &bob,
            ModeKind::Survival,
            stats(95_250, 9_000, 30, 90, 0),
            NOW - 5,
        ),
    ];
    store.insert_games(&games).await.expect("insert");
    let names = |rows: Vec<minotty_store::Entry>| -> Vec<String> {
        rows.iter()
            .map(|e| format!("{}:{}", e.rank, e.name))
            .collect()
    };
    let classic = Board::new(ModeKind::Classic, RulesetId::Standard);
    assert_eq!(
        names(all_time_top(&store, classic).await),
        ["1:bob", "2:ada"]
    );
    let survival = Board::new(ModeKind::Survival, RulesetId::Standard);
    assert_eq!(
        names(all_time_top(&store, survival).await),
        ["1:ada", "2:bob"]
    );
}
