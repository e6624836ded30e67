//! The results' personal-best context from the server: a second 40 lines game is told the best
//! it faced (the first game's time) and its difference to it, in the board's own format.

#[path = "services_db/mod.rs"]
mod services_db;

use minotty_engine::ModeKind;
use minotty_server::services::Services;
use minotty_store::Store;
use minotty_store::both;
use minotty_ui::figures::{time, time_delta};
use minotty_ui::{Request, Response};
use services_db::{KEY1, forty_lines, login, next, shared};
use sqlx::AnyPool;

const NOW: i64 = 1_709_212_455_678;

both!(a_game_is_told_the_best_it_faced_and_its_difference);
async fn a_game_is_told_the_best_it_faced_and_its_difference(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(Some(KEY1), None));
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
