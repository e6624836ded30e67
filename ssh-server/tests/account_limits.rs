//! What the account services do against abuse, without SSH: removing a key ends its live
//! sessions, a password change needs the current password, registrations per address are
//! limited, a login whose look-up failed gets its account at the session's start, and guests
//! are marked wherever other players see them.

use minotty_store::both;
use std::net::IpAddr;
use std::time::Duration;

use minotty_domain::AccountRef;
use minotty_domain::{KeyFingerprint, PlayerName};
use minotty_engine::versus::MatchKind;
use minotty_protocol::{Identity, RoomLimit, RoomSettings, RoomView};
use minotty_server::services::account::{Holder, KeyLookup, SharedAccounts};
use minotty_server::services::versus::SharedVersus;
use minotty_server::services::{Login, Services, SharedServices};
use minotty_store::{NewKey, Store};
use minotty_ui::{Request, Response};
use sqlx::AnyPool;
use tokio::sync::mpsc;

const KEY1: &str = "SHA256:0000000000000000000000000000000000000000001";
const KEY2: &str = "SHA256:0000000000000000000000000000000000000000002";
const KEY3: &str = "SHA256:0000000000000000000000000000000000000000003";

fn shared(store: Option<&Store>) -> SharedServices {
    SharedServices {
        account: SharedAccounts::new(store.cloned(), None),
        versus: SharedVersus::new(store.cloned(), Some(1)),
    }
}

fn fp(key: &str) -> KeyFingerprint {
    KeyFingerprint::parse(key).expect("a fingerprint")
}

fn login(user: &str, key: Option<&str>, account: Option<AccountRef>, peer: &str) -> Login {
    Login {
        ssh_user: user.into(),
        identity: minotty_server::services::Identity::of_key(key.map(fp), "ssh-ed25519"),
        peer: peer.parse::<IpAddr>().expect("address").into(),
        account,
    }
}

async fn next(rx: &mut mpsc::Receiver<Response>) -> Response {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("an answer in time")
        .expect("the channel is open")
}

async fn ask(s: &mut Services, rx: &mut mpsc::Receiver<Response>, request: Request) -> Response {
    s.handle(request);
    next(rx).await
}

/// Registers `name` with `key` in the store, as an earlier session would have.
async fn registered(store: &Store, name: &str, key: &str) -> AccountRef {
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(key).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    let a = store
        .register(&PlayerName::parse(name).expect("name"), &key, 0)
        .await
        .expect("registers");
    AccountRef {
        id: a.id,
        name: a.name.to_string(),
    }
}

both!(removing_a_key_ends_the_sessions_that_logged_in_with_it);
async fn removing_a_key_ends_the_sessions_that_logged_in_with_it(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(Some(&store));
    let ada = registered(&store, "ada", KEY1).await;
    let (mut home, mut rx) = Services::new(
        &shared,
        login("ada", Some(KEY1), Some(ada.clone()), "192.0.2.1"),
    );
    let set = Request::SetPassword {
        password: "correct horse".into(),
        current: None,
    };
    assert_eq!(ask(&mut home, &mut rx, set).await, Response::PasswordSet);
    // A laptop links its key, and has two sessions open with it.
    let (mut laptop, mut lrx) = Services::new(&shared, login("ada", Some(KEY2), None, "192.0.2.2"));
    let link = Request::LinkKey {
        name: "ada".into(),
        password: "correct horse".into(),
    };
    assert!(matches!(
        ask(&mut laptop, &mut lrx, link).await,
        Response::SignedIn { .. }
    ));
    let (second, _srx) = Services::new(
        &shared,
        login("ada", Some(KEY2), Some(ada.clone()), "192.0.2.2"),
    );
    let (gone, _grx) = Services::new(
        &shared,
        login("ada", Some(KEY2), Some(ada.clone()), "192.0.2.2"),
    );
    let live = shared.account.live_keys();
    assert_eq!(live.count(&Holder::Key(fp(KEY2))), 3);
    drop(gone);
    assert_eq!(
        live.count(&Holder::Key(fp(KEY2))),
        2,
        "an ended session is forgotten"
    );
    let (laptop_revoked, second_revoked, home_revoked) = (
        laptop.account.revoked(),
        second.account.revoked(),
        home.account.revoked(),
    );
    assert!(!laptop_revoked.is_cancelled());

    let remove = Request::RemoveKey {
        fingerprint: KEY2.into(),
    };
    assert_eq!(
        ask(&mut home, &mut rx, remove).await,
        Response::KeyRemoved {
            fingerprint: KEY2.into()
        }
    );
    // The sessions' loops wake up on the token.
    tokio::time::timeout(Duration::from_secs(1), laptop_revoked.cancelled())
        .await
        .expect("the laptop's session is told");
    assert!(second_revoked.is_cancelled());
    assert!(!home_revoked.is_cancelled(), "the remover's key stays");
    assert_eq!(live.count(&Holder::Key(fp(KEY2))), 0);

    // A session that authenticated just before the removal starts as a new key.
    let (late, _lrx) = Services::new(&shared, login("ada", Some(KEY2), Some(ada), "192.0.2.2"));
    assert_eq!(
        late.account.start().await.0,
        Identity::NewKey {
            suggested: "ada".into()
        }
    );
    assert_eq!(late.account.current(), None);
}

both!(changing_a_password_needs_the_current_one);
async fn changing_a_password_needs_the_current_one(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(Some(&store));
    let ada = registered(&store, "ada", KEY1).await;
    let (mut s, mut rx) = Services::new(&shared, login("ada", Some(KEY1), Some(ada), "192.0.2.1"));
    let set = |password: &str, current: Option<&str>| Request::SetPassword {
        password: password.into(),
        current: current.map(str::to_owned),
    };
    assert_eq!(
        ask(&mut s, &mut rx, set("correct horse", None)).await,
        Response::PasswordSet
    );
    for current in [None, Some("wrong horse")] {
        let Response::PasswordFailed { message } =
            ask(&mut s, &mut rx, set("battery staple", current)).await
        else {
            panic!("refused");
        };
        assert_eq!(
            message,
            "the current password is wrong: nothing was changed"
        );
    }
    assert_eq!(
        ask(
            &mut s,
            &mut rx,
            set("battery staple", Some("correct horse"))
        )
        .await,
        Response::PasswordSet
    );
    // The new password is the one that links a key now.
    let (mut other, mut orx) = Services::new(&shared, login("ada", Some(KEY2), None, "192.0.2.2"));
    let link = |password: &str| Request::LinkKey {
        name: "ada".into(),
        password: password.into(),
    };
    assert!(matches!(
        ask(&mut other, &mut orx, link("correct horse")).await,
        Response::LinkFailed { .. }
    ));
    let linked = ask(&mut other, &mut orx, link("battery staple")).await;
    assert!(matches!(linked, Response::SignedIn { .. }), "{linked:?}");
}

both!(an_address_registers_a_few_accounts_a_day);
async fn an_address_registers_a_few_accounts_a_day(pool: AnyPool) {
    let store = Store::from_pool(pool)
        .await
        .expect("store")
        .with_registration_limit(2);
    let shared = shared(Some(&store));
    for (i, key) in [KEY1, KEY2, KEY3].into_iter().enumerate() {
        let (mut s, mut rx) = Services::new(&shared, login("ada", Some(key), None, "198.51.100.7"));
        let register = Request::Register {
            name: format!("ada{i}"),
        };
        let answer = ask(&mut s, &mut rx, register).await;
        if i < 2 {
            assert!(matches!(answer, Response::SignedIn { .. }), "{answer:?}");
        } else {
            assert_eq!(
                answer,
                Response::RegisterFailed {
                    message: "too many new accounts from your address today; try again tomorrow"
                        .into()
                }
            );
            assert_eq!(s.account.current(), None);
        }
    }
}

both!(a_login_whose_look_up_failed_gets_its_account_at_the_start);
async fn a_login_whose_look_up_failed_gets_its_account_at_the_start(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(Some(&store));
    let ada = registered(&store, "ada", KEY1).await;
    assert_eq!(
        shared.account.account_by_key(&fp(KEY1)).await,
        KeyLookup::Registered(ada.clone())
    );
    assert_eq!(
        shared.account.account_by_key(&fp(KEY2)).await,
        KeyLookup::Unknown
    );
    // Authentication could not read the account (it timed out): a guest for now...
    let (s, _rx) = Services::new(&shared, login("ada", Some(KEY1), None, "192.0.2.1"));
    assert_eq!(s.account.current(), None);
    // ...and the session's start reads it.
    assert_eq!(
        s.account.start().await.0,
        Identity::Registered {
            name: "ada".into(),
            has_password: false
        }
    );
    assert_eq!(s.account.current(), Some(ada));
    // A database that fails is "unavailable", not "unknown".
    store.close().await;
    assert_eq!(
        shared.account.account_by_key(&fp(KEY1)).await,
        KeyLookup::Unavailable
    );
}

fn battle() -> RoomSettings {
    RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None)
}

async fn room(rx: &mut mpsc::Receiver<Response>) -> RoomView {
    loop {
        if let Response::Room(view) = next(rx).await {
            return view;
        }
    }
}

#[tokio::test]
async fn guests_are_marked_and_never_show_a_registered_players_name() {
    let shared = shared(None);
    let bob = AccountRef {
        id: minotty_domain::PlayerId(7),
        name: "Bob".into(),
    };
    // A guest who calls themselves "Bob", a new key, and the real Bob.
    let (mut fake, mut frx) = Services::new(&shared, login("Bob", None, None, "192.0.2.1"));
    let (mut key, mut krx) =
        Services::new(&shared, login("cy\u{202E}d", Some(KEY2), None, "192.0.2.2"));
    let (mut real, mut rrx) =
        Services::new(&shared, login("bob", Some(KEY1), Some(bob), "192.0.2.3"));
    fake.handle(Request::CreateRoom(battle()));
    let view = room(&mut frx).await;
    for (s, rx) in [(&mut key, &mut krx), (&mut real, &mut rrx)] {
        s.handle(Request::JoinRoom {
            code: view.code.clone(),
            spectate: false,
        });
        room(rx).await;
    }
    let mut names = Vec::new();
    // The last view the room sent the first member has everyone.
    while let Ok(Some(r)) = tokio::time::timeout(Duration::from_millis(300), frx.recv()).await {
        if let Response::Room(v) = r {
            names = v.seats.iter().map(|s| s.name.clone()).collect();
        }
    }
    assert_eq!(names, ["~Bob", "~cyd", "Bob"]);
}

both!(a_flood_of_snapshot_saves_stays_within_the_bounds);
/// A registered player floods Ctrl+S: the session's save budget refuses all but a burst, the
/// store keeps them, a list shows them, and a second session of the same player sees them;
/// a guest's are the session's alone.
async fn a_flood_of_snapshot_saves_stays_within_the_bounds(pool: AnyPool) {
    use minotty_domain::MAX_SNAPSHOTS;
    use minotty_server::services::account::{SNAPSHOT_BURST, SNAPSHOT_SLOW_DOWN};

    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(Some(&store));
    let ada = registered(&store, "ada", KEY1).await;
    let (mut s, mut rx) = Services::new(
        &shared,
        login("ada", Some(KEY1), Some(ada.clone()), "192.0.2.1"),
    );
    let mut game = minotty_engine::Game::new(minotty_engine::GameConfig::default(), 9);
    game.update(0, None);
    let snapshot = Box::new(game.snapshot().expect("a piece in play"));
    for i in 0..300 {
        s.handle(Request::SaveSnapshot {
            label: format!("flood {i}"),
            snapshot: snapshot.clone(),
        });
    }
    let (mut saved, mut slowed, mut other) = (0, 0, 0);
    while let Ok(Some(r)) = tokio::time::timeout(Duration::from_millis(500), rx.recv()).await {
        match r {
            Response::SnapshotSaved { .. } => saved += 1,
            Response::SnapshotFailed { message } if message == SNAPSHOT_SLOW_DOWN => slowed += 1,
            _ => other += 1,
        }
    }
    // A token comes back every 5 s: a flood of a few hundred milliseconds gets the burst.
    assert!(
        (SNAPSHOT_BURST..=SNAPSHOT_BURST + 1).contains(&saved),
        "saved {saved}, slowed {slowed}, other {other}"
    );
    assert!(slowed > 0);
    assert!(other <= 1, "at most one 'slow down' of the request budget");
    let kept = store.snapshots(ada.id).await.expect("lists");
    assert_eq!(kept.len() as u32, saved);
    assert!(kept.len() <= MAX_SNAPSHOTS);

    // Another session of the same player lists them.
    let (mut t, mut rx2) = Services::new(&shared, login("ada", Some(KEY1), Some(ada), "192.0.2.1"));
    let Response::Snapshots(list) = ask(&mut t, &mut rx2, Request::ListSnapshots).await else {
        panic!("a list");
    };
    assert_eq!(list.len() as u32, saved);
    assert_eq!(*list[0].snapshot, *snapshot);
    let id = list[0].id;
    let Response::Snapshots(left) = ask(&mut t, &mut rx2, Request::DeleteSnapshot { id }).await
    else {
        panic!("a list");
    };
    assert_eq!(left.len() as u32, saved - 1);

    // A guest's snapshot stays with the guest's session.
    let (mut g, mut grx) = Services::new(&shared, login("eve", None, None, "192.0.2.9"));
    let saved = ask(
        &mut g,
        &mut grx,
        Request::SaveSnapshot {
            label: "mine".into(),
            snapshot: snapshot.clone(),
        },
    )
    .await;
    assert_eq!(
        saved,
        Response::SnapshotSaved {
            label: "mine".into()
        }
    );
    let Response::Snapshots(list) = ask(&mut g, &mut grx, Request::ListSnapshots).await else {
        panic!("a list");
    };
    assert_eq!(list.len(), 1);
    let (mut g2, mut grx2) = Services::new(&shared, login("eve", None, None, "192.0.2.9"));
    let Response::Snapshots(list) = ask(&mut g2, &mut grx2, Request::ListSnapshots).await else {
        panic!("a list");
    };
    assert!(list.is_empty(), "a new session of a guest starts with none");
}

both!(unlinking_browsers_ends_the_games_played_in_them);
/// `w` on the keys screen (Request::UnlinkBrowsers) ends the games of the account's linked
/// browsers at once, and leaves its SSH sessions and other accounts' browsers alone.
async fn unlinking_browsers_ends_the_games_played_in_them(pool: AnyPool) {
    use minotty_server::services::Identity as Who;
    let store = Store::from_pool(pool).await.expect("store");
    let shared = shared(Some(&store));
    let ada = registered(&store, "ada", KEY1).await;
    let bob = registered(&store, "bob", KEY2).await;
    let browser_of = |account: &AccountRef| Login {
        identity: Who::Web {
            account: account.id,
        },
        account: Some(account.clone()),
        ..login(&account.name, None, None, "192.0.2.9")
    };
    let (ada_browser, _arx) = Services::new(&shared, browser_of(&ada));
    let (bob_browser, _brx) = Services::new(&shared, browser_of(&bob));
    let (mut home, mut rx) = Services::new(
        &shared,
        login("ada", Some(KEY1), Some(ada.clone()), "192.0.2.1"),
    );
    assert!(ada_browser.account.is_browser() && !home.account.is_browser());
    assert_eq!(
        ask(&mut home, &mut rx, Request::UnlinkBrowsers).await,
        Response::BrowsersUnlinked { count: 0 }
    );
    tokio::time::timeout(
        Duration::from_secs(1),
        ada_browser.account.revoked().cancelled(),
    )
    .await
    .expect("ada's browser is told");
    assert!(
        !bob_browser.account.revoked().is_cancelled(),
        "bob's plays on"
    );
    assert!(
        !home.account.revoked().is_cancelled(),
        "her key's session plays on"
    );
    let live = shared.account.live_keys();
    assert_eq!(live.count(&Holder::Browsers(ada.id)), 0);
    assert_eq!(live.count(&Holder::Browsers(bob.id)), 1);
}
