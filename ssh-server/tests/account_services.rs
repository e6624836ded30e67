//! The account services of a session against a real throwaway database, without SSH: requests
//! in, responses out, as the session task sees them.

#[path = "services_db/mod.rs"]
mod services_db;

use minotty_store::both;
use std::time::Duration;

use minotty_domain::AccountRef;
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{BoardId, BoardPeriod, Identity, LeaderboardPage};
use minotty_server::services::Services;
use minotty_store::Store;
use minotty_ui::Settings;
use minotty_ui::{Request, Response};
use services_db::{KEY1, KEY2, ask, forty_lines, login, next, shared};
use sqlx::AnyPool;
use tokio::sync::mpsc;

/// The first page of the all-time 40 lines board (standard), as the session is answered.
async fn sprint_board(s: &mut Services, rx: &mut mpsc::Receiver<Response>) -> LeaderboardPage {
    let board = Request::Leaderboard {
        ruleset: minotty_engine::RulesetId::Standard,
        board: BoardId::Solo(ModeKind::Sprint),
        period: BoardPeriod::AllTime,
        offset: 0,
    };
    let Response::Leaderboard(page) = ask(s, rx, board).await else {
        panic!("a page");
    };
    page
}

/// Registers the session's key as `name`: signed in.
async fn registers(s: &mut Services, rx: &mut mpsc::Receiver<Response>, name: &str) {
    let register = Request::Register { name: name.into() };
    assert!(matches!(
        ask(s, rx, register).await,
        Response::SignedIn { .. }
    ));
}

/// Sets the signed-in player's first password: set.
async fn sets_password(s: &mut Services, rx: &mut mpsc::Receiver<Response>, password: &str) {
    let set = Request::SetPassword {
        password: password.into(),
        current: None,
    };
    assert_eq!(ask(s, rx, set).await, Response::PasswordSet);
}

both!(guests_read_boards_but_have_no_account);
async fn guests_read_boards_but_have_no_account(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(None, None));
    assert_eq!(s.account.start().await, (Identity::Guest, None));
    let Response::Error { message } =
        ask(&mut s, &mut rx, Request::Register { name: "ada".into() }).await
    else {
        panic!("an error");
    };
    assert!(message.contains("guests"), "{message}");
    assert!(matches!(
        ask(&mut s, &mut rx, Request::Profile).await,
        Response::Error { .. }
    ));
    let page = sprint_board(&mut s, &mut rx).await;
    assert_eq!((page.total, page.rows.len(), page.own), (0, 0, None));
    assert_eq!(page.columns, ["Time", "PPS"]);
}

both!(a_player_registers_saves_settings_plays_and_links_a_key);
async fn a_player_registers_saves_settings_plays_and_links_a_key(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(Some(KEY1), None));
    assert_eq!(
        s.account.start().await,
        (
            Identity::NewKey {
                suggested: "ada".into()
            },
            None
        )
    );

    // Registration: an invalid name, then a good one.
    let short = Request::Register { name: "ab".into() };
    assert!(matches!(
        ask(&mut s, &mut rx, short).await,
        Response::RegisterFailed { .. }
    ));
    let register = Request::Register { name: "Ada".into() };
    assert_eq!(
        ask(&mut s, &mut rx, register).await,
        Response::SignedIn {
            name: "Ada".into(),
            has_password: false,
            settings: None
        }
    );
    let me = s.account.current().expect("signed in");
    assert_eq!(me.name, "Ada");

    // Settings (no answer when saved), keys, password.
    let settings = Settings {
        ghost: false,
        preview: 2,
        ..Settings::default()
    };
    s.handle(Request::SaveSettings(Box::new(settings.clone())));
    let Response::Keys(keys) = ask(&mut s, &mut rx, Request::ListKeys).await else {
        panic!("keys");
    };
    assert_eq!(keys.len(), 1);
    assert!(keys[0].in_use);
    assert_eq!(keys[0].fingerprint, KEY1);
    assert_eq!(
        keys[0].algorithm, "ssh-ed25519",
        "the key's algorithm is stored"
    );
    let remove = Request::RemoveKey {
        fingerprint: KEY1.into(),
    };
    assert!(matches!(
        ask(&mut s, &mut rx, remove).await,
        Response::KeyFailed { .. }
    ));
    let weak = Request::SetPassword {
        password: "short".into(),
        current: None,
    };
    assert!(matches!(
        ask(&mut s, &mut rx, weak).await,
        Response::PasswordFailed { .. }
    ));
    sets_password(&mut s, &mut rx, "correct horse").await;

    // A finished game goes to the writer and comes back as GameRecorded.
    s.account.submit_game(forty_lines(7), 1_709_212_455_678);
    let Response::GameRecorded(recorded) = next(&mut rx).await else {
        panic!("recorded");
    };
    assert!(recorded.personal_best);
    assert_eq!(recorded.rank, Some(1));
    assert_eq!(recorded.note, None);

    // The board, the profile and the replay show it.
    let page = sprint_board(&mut s, &mut rx).await;
    assert_eq!(page.total, 1);
    assert_eq!(page.rows[0].name, "Ada");
    assert_eq!(page.rows[0].game, Some(recorded.game));
    assert_eq!(page.own.as_ref().map(|r| r.rank), Some(1));
    let Response::Profile(profile) = ask(&mut s, &mut rx, Request::Profile).await else {
        panic!("a profile");
    };
    assert_eq!(profile.name, "Ada");
    // One row per mode's home board (descent's and ascent's are tetrs; classic and survival
    // are standard).
    assert_eq!(profile.bests.len(), minotty_domain::modes::RANKED.len());
    assert_eq!(profile.bests.len(), 10);
    assert!(
        profile
            .bests
            .iter()
            .any(|b| b.mode == ModeKind::Descent && b.ruleset == RulesetId::Tetrs)
    );
    let sprint = &profile.bests[0];
    assert_eq!(sprint.mode, ModeKind::Sprint);
    assert_eq!(sprint.rank, Some(1));
    assert_eq!(
        sprint.best.as_deref(),
        Some(page.rows[0].values[0].as_str())
    );
    assert!(profile.bests[1..].iter().all(|b| b.best.is_none()));
    assert_eq!(profile.recent.len(), 1);
    assert_eq!(profile.recent[0].outcome, "finished");
    let replay = Request::Replay {
        game: recorded.game,
    };
    let Response::Replay { player, replay, .. } = ask(&mut s, &mut rx, replay).await else {
        panic!("a replay");
    };
    assert_eq!(player, "Ada");
    assert_eq!(replay.mode.kind, ModeKind::Sprint);
    assert!(matches!(
        ask(&mut s, &mut rx, Request::Replay { game: 999 }).await,
        Response::Error { .. }
    ));

    // The next session of the key starts registered, with the saved settings.
    let (next_session, _rx) = Services::new(&shared, login(Some(KEY1), Some(me.clone())));
    let (identity, stored) = next_session.account.start().await;
    assert_eq!(
        identity,
        Identity::Registered {
            name: "Ada".into(),
            has_password: true
        }
    );
    assert_eq!(stored, Some(settings.clone().clamped()));

    // Another key links with the password (a wrong one first).
    let (mut other, mut orx) = Services::new(&shared, login(Some(KEY2), None));
    let wrong = Request::LinkKey {
        name: "ada".into(),
        password: "battery staple".into(),
    };
    let Response::LinkFailed { message } = ask(&mut other, &mut orx, wrong).await else {
        panic!("refused");
    };
    assert_eq!(message, "wrong name or password");
    let right = Request::LinkKey {
        name: "ada".into(),
        password: "correct horse".into(),
    };
    let Response::SignedIn {
        name,
        has_password,
        settings: linked,
    } = ask(&mut other, &mut orx, right).await
    else {
        panic!("signed in");
    };
    assert_eq!((name.as_str(), has_password), ("Ada", true));
    assert_eq!(linked.map(|b| *b), Some(settings.clamped()));
    assert_eq!(other.account.current(), Some(me));

    // The first key's session removes the second key.
    let remove = Request::RemoveKey {
        fingerprint: KEY2.into(),
    };
    assert_eq!(
        ask(&mut s, &mut rx, remove).await,
        Response::KeyRemoved {
            fingerprint: KEY2.into()
        }
    );
}

both!(wrong_passwords_are_rate_limited_per_account);
async fn wrong_passwords_are_rate_limited_per_account(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut owner, mut rx) = Services::new(&shared, login(Some(KEY1), None));
    registers(&mut owner, &mut rx, "Ada").await;
    sets_password(&mut owner, &mut rx, "correct horse").await;

    // A new key guesses: the first five wrong passwords are told apart from nothing, then
    // every try is refused for a while, the right password too.
    let (mut guesser, mut grx) = Services::new(&shared, login(Some(KEY2), None));
    let attempt = |password: &str| Request::LinkKey {
        name: "ada".into(),
        password: password.into(),
    };
    for i in 0..5 {
        let Response::LinkFailed { message } =
            ask(&mut guesser, &mut grx, attempt(&format!("guess {i}"))).await
        else {
            panic!("refused");
        };
        assert_eq!(message, "wrong name or password", "attempt {i}");
    }
    // A new session of the same key and address (its own session budget) is refused by the
    // store's limit, which counts per account and address, not per session.
    let (mut guesser, mut grx) = Services::new(&shared, login(Some(KEY2), None));
    for password in ["guess 5", "correct horse"] {
        let Response::LinkFailed { message } = ask(&mut guesser, &mut grx, attempt(password)).await
        else {
            panic!("refused");
        };
        assert!(
            message.starts_with("too many wrong passwords; try again in"),
            "{password}: {message}"
        );
    }
    assert_eq!(guesser.account.current(), None);
}

both!(a_flood_of_requests_is_held_to_the_sessions_budget);
/// A session that floods requests (each one database work) gets its burst answered, then one
/// "slow down" and nothing more, instead of holding a read connection busy.
async fn a_flood_of_requests_is_held_to_the_sessions_budget(pool: AnyPool) {
    use minotty_server::services::account::REQUESTS_BURST;
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(None, None));
    for _ in 0..1000 {
        s.handle(Request::Leaderboard {
            ruleset: minotty_engine::RulesetId::Standard,
            board: BoardId::Solo(ModeKind::Sprint),
            period: BoardPeriod::AllTime,
            offset: 0,
        });
    }
    let (mut pages, mut refusals) = (0, 0);
    while let Ok(Some(response)) = tokio::time::timeout(Duration::from_millis(500), rx.recv()).await
    {
        match response {
            Response::Leaderboard(_) => pages += 1,
            Response::Error { message } => {
                assert!(message.contains("slow down"), "{message}");
                refusals += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(refusals, 1);
    assert!(pages as u64 <= REQUESTS_BURST + 1, "{pages} pages");
    assert!(pages as u64 >= REQUESTS_BURST - 1, "{pages} pages");
}

both!(puzzle_progress_is_kept_per_account);
async fn puzzle_progress_is_kept_per_account(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(Some(KEY1), None));
    s.account.start().await;
    registers(&mut s, &mut rx, "Ada").await;
    let none = Response::PuzzleProgress {
        cleared: 0,
        completed: false,
    };
    assert_eq!(ask(&mut s, &mut rx, Request::PuzzleProgress).await, none);
    let three = Response::PuzzleProgress {
        cleared: 3,
        completed: false,
    };
    let cleared = Request::PuzzleCleared { stage: 3 };
    assert_eq!(ask(&mut s, &mut rx, cleared).await, three);
    // A stage that does not exist is ignored (no answer): the next answer is the progress.
    s.handle(Request::PuzzleCleared { stage: 99 });
    assert_eq!(ask(&mut s, &mut rx, Request::PuzzleProgress).await, three);

    // Another session of the same account reads it back.
    let me = s.account.current().expect("signed in");
    let (mut again, mut rx2) = Services::new(&shared, login(Some(KEY1), Some(me)));
    again.account.start().await;
    assert_eq!(
        ask(&mut again, &mut rx2, Request::PuzzleProgress).await,
        three
    );
    let last = Request::PuzzleCleared {
        stage: minotty_engine::puzzle::STAGE_COUNT,
    };
    assert_eq!(
        ask(&mut again, &mut rx2, last).await,
        Response::PuzzleProgress {
            cleared: minotty_engine::puzzle::STAGE_COUNT,
            completed: true,
        }
    );
}

both!(a_replay_of_someone_elses_private_game_reads_no_blob);
/// The replay viewer's request plays the same attacker as `replay ID --cast`: someone else's
/// game that is not on a leaderboard is refused on its record, before its blob is read.
async fn a_replay_of_someone_elses_private_game_reads_no_blob(pool: AnyPool) {
    use minotty_domain::{KeyFingerprint, PlayerName, Unranked, Verdict};
    use minotty_store::NewKey;
    let store = Store::from_pool(pool).await.expect("store");
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(KEY1).expect("a fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    let ada = store
        .register(&PlayerName::parse("ada").expect("name"), &key, 0)
        .await
        .expect("ada");
    let played = forty_lines(7);
    let finished = minotty_store::FinishedGame {
        player: ada.id,
        replay: played.replay,
        stats: played.stats,
        outcome: Some((played.reason, played.won)),
        started_at: 0,
        ended_at: 1_000,
    };
    let stored = store
        .insert_games(&[(finished, Verdict::Unranked(Unranked::Unfinished))])
        .await
        .expect("stored");
    let game = stored[0].id.0;
    let shared = shared(&store);
    let (mut guest, mut guest_rx) = Services::new(&shared, login(None, None));
    assert!(matches!(
        ask(&mut guest, &mut guest_rx, Request::Replay { game }).await,
        Response::Error { .. }
    ));
    assert_eq!(store.replay_reads(), 0, "no blob read for a refusal");
    let me = AccountRef {
        id: ada.id,
        name: "ada".into(),
    };
    let (mut own, mut own_rx) = Services::new(&shared, login(Some(KEY1), Some(me)));
    let Response::Replay { player, .. } =
        ask(&mut own, &mut own_rx, Request::Replay { game }).await
    else {
        panic!("ada watches her own game");
    };
    assert_eq!(player, "ada");
    assert_eq!(store.replay_reads(), 1);
}

both!(password_changes_are_held_to_the_sessions_budget);
/// A session that changes its password again and again gets its burst, then a message, and
/// the refused changes start no hash (counted on the store's pool).
async fn password_changes_are_held_to_the_sessions_budget(pool: AnyPool) {
    use minotty_server::services::account::{PASSWORD_BURST, PASSWORD_SLOW_DOWN};
    use minotty_store::{HashLimits, HashPool};
    // The store's budgets per account and address out of the way: the session's is tested.
    let store = Store::from_pool(pool)
        .await
        .expect("store")
        .with_hash_pool(HashPool::new(2, 16))
        .with_hash_limits(HashLimits {
            account_burst: 1_000,
            account_interval_ms: 1,
            ip_burst: 1_000,
            ip_interval_ms: 1,
        });
    let shared = shared(&store);
    let (mut s, mut rx) = Services::new(&shared, login(Some(KEY1), None));
    registers(&mut s, &mut rx, "Ada").await;
    let change = || Request::SetPassword {
        password: "correct horse".into(),
        current: Some("correct horse".into()),
    };
    for _ in 0..20 {
        s.handle(change());
    }
    let (mut set, mut refused) = (0, 0);
    for _ in 0..20 {
        match next(&mut rx).await {
            Response::PasswordSet => set += 1,
            Response::PasswordFailed { message } if message == PASSWORD_SLOW_DOWN => refused += 1,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!((set, refused), (PASSWORD_BURST, 20 - PASSWORD_BURST));
    // The first set the password (one hash), the others checked it and hashed anew (two).
    assert_eq!(
        store.hash_pool().started(),
        1 + 2 * u64::from(PASSWORD_BURST - 1)
    );
    // Links are counted the same way.
    let (mut other, mut orx) = Services::new(&shared, login(Some(KEY2), None));
    for _ in 0..PASSWORD_BURST {
        other.handle(Request::LinkKey {
            name: "nobody".into(),
            password: "guess guess".into(),
        });
    }
    other.handle(Request::LinkKey {
        name: "ada".into(),
        password: "correct horse".into(),
    });
    let mut messages = Vec::new();
    for _ in 0..=PASSWORD_BURST {
        let Response::LinkFailed { message } = next(&mut orx).await else {
            panic!("refused");
        };
        messages.push(message);
    }
    assert!(
        messages.contains(&PASSWORD_SLOW_DOWN.to_owned()),
        "{messages:?}"
    );
}
