//! The results' personal-best context from the server: a second 40 lines game is told the best
//! it faced (the first game's time) and its difference to it, in the board's own format.

#[path = "../../store/tests/store_db/mod.rs"]
#[macro_use]
mod store_db;

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use minotty_bots::autoplay;
use minotty_engine::{Game, GameConfig, ModeKind};
use minotty_server::services::account::SharedAccounts;
use minotty_server::services::{Login, Services, SharedServices};
use minotty_store::{GameWriter, Store, WriterConfig};
use minotty_ui::FinishedGame;
use minotty_ui::figures::{time, time_delta};
use minotty_ui::online::{Request, Response};
use sqlx::AnyPool;
use tokio::sync::mpsc;

const KEY1: &str = "SHA256:0000000000000000000000000000000000000000001";
const NOW: i64 = 1_709_212_455_678;

/// A real 40 lines game played to the goal by the engine's bot.
fn forty_lines(seed: u32) -> FinishedGame {
    let mut game = Game::new(
        GameConfig {
            mode: ModeKind::Sprint.mode(),
            ..GameConfig::default()
        },
        seed,
    );
    autoplay(&mut game, 400, 200);
    let (reason, won) = game.outcome().expect("the game ended");
    assert!(won, "the bot clears 40 lines");
    FinishedGame {
        kind: ModeKind::Sprint,
        replay: game.replay(),
        stats: *game.stats(),
        reason,
        won,
    }
}

async fn next(rx: &mut mpsc::Receiver<Response>) -> Response {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("an answer in time")
        .expect("the channel is open")
}

both!(a_game_is_told_the_best_it_faced_and_its_difference);
async fn a_game_is_told_the_best_it_faced_and_its_difference(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let (writer, _task) = GameWriter::spawn(store.clone(), WriterConfig::default());
    let shared = SharedServices {
        account: SharedAccounts::new(Some(store.clone()), Some(writer)),
        ..SharedServices::default()
    };
    let login = Login {
        ssh_user: "ada".into(),
        fingerprint: Some(KEY1.into()),
        key_algorithm: Some("ssh-ed25519".into()),
        peer: IpAddr::V4(Ipv4Addr::LOCALHOST),
        account: None,
    };
    let (mut s, mut rx) = Services::new(&shared, login);
    s.account.start().await;
    s.handle(Request::Register { name: "Ada".into() });
    assert!(matches!(next(&mut rx).await, Response::SignedIn { .. }));

    let (first, second) = (forty_lines(7), forty_lines(8));
    let (t1, t2) = (first.stats.time, second.stats.time);
    assert_ne!(t1, t2, "seeds chosen for two times");
    s.account.submit_game(first, NOW);
    let Response::GameRecorded(one) = next(&mut rx).await else {
        panic!("recorded");
    };
    // The first game faced no best.
    assert!(one.personal_best);
    assert_eq!(one.previous_best, None);
    s.account.submit_game(second, NOW + 1_000);
    let Response::GameRecorded(two) = next(&mut rx).await else {
        panic!("recorded");
    };
    assert_eq!(two.personal_best, t2 < t1);
    let delta = i64::try_from(t2).expect("ms") - i64::try_from(t1).expect("ms");
    assert_eq!(
        two.previous_best,
        Some((
            time(t1).as_str().to_owned(),
            time_delta(delta).as_str().to_owned()
        ))
    );
    // The mode select's bests: the better of the two on the 40 lines board.
    s.handle(Request::Bests);
    let Response::Bests(bests) = next(&mut rx).await else {
        panic!("bests");
    };
    let sprint: Vec<(ModeKind, String)> = bests.into_iter().map(|b| (b.mode, b.best)).collect();
    assert_eq!(
        sprint,
        [(ModeKind::Sprint, time(t1.min(t2)).as_str().to_owned())]
    );
}
