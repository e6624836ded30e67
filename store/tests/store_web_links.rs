//! Browsers linked to accounts in the store: a code works once and only in its time, a new
//! code replaces the last, a player keeps at most MAX_SESSIONS linked browsers (the oldest go),
//! and ending them ends them all; what a browser presents is never stored as it is.

use minotty_domain::{KeyFingerprint, PlayerId, PlayerName};
use minotty_store::{CODE_TTL_MS, MAX_SESSIONS, NewKey, SESSION_TTL_MS, Store, UnixMs, both};
use sqlx::AnyPool;

const NOW: UnixMs = 1_760_000_000_000;

async fn player(store: &Store, name: &str, n: u32) -> PlayerId {
    let fingerprint = format!("SHA256:{:0>43}", format!("wkey{n}"));
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&fingerprint).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    store
        .register(&PlayerName::parse(name).expect("name"), &key, NOW)
        .await
        .expect("registers")
        .id
}

both!(a_code_links_one_browser_once_in_its_time);
async fn a_code_links_one_browser_once_in_its_time(pool: AnyPool) {
    let store = Store::from_pool(pool.clone()).await.expect("store");
    let ada = player(&store, "ada", 1).await;
    let bo = player(&store, "bob", 2).await;

    store
        .new_web_code(ada, "K7QX-M4PZ", NOW)
        .await
        .expect("a code");
    // Not the code: nothing; the code: ada, once.
    for wrong in ["", "K7QX-M4PX", "' OR 1=1 --", "k7qx-m4pz"] {
        let got = store
            .redeem_web_code(wrong, "t0", NOW)
            .await
            .expect("asked");
        assert_eq!(got, None, "{wrong:?}");
    }
    let got = store.redeem_web_code("K7QX-M4PZ", "token-a", NOW + 1).await;
    assert_eq!(got.expect("asked"), Some(ada));
    let again = store.redeem_web_code("K7QX-M4PZ", "token-b", NOW + 2).await;
    assert_eq!(again.expect("asked"), None, "used once");
    assert_eq!(
        store.web_session("token-a", NOW + 3).await.expect("read"),
        Some(ada)
    );
    assert_eq!(
        store.web_session("token-b", NOW + 3).await.expect("read"),
        None
    );

    // Expired, and replaced: neither works.
    store
        .new_web_code(bo, "AAAA-BBBB", NOW)
        .await
        .expect("a code");
    let late = store
        .redeem_web_code("AAAA-BBBB", "t1", NOW + CODE_TTL_MS)
        .await
        .expect("asked");
    assert_eq!(late, None, "expired");
    store
        .new_web_code(bo, "CCCC-DDDD", NOW)
        .await
        .expect("a code");
    store
        .new_web_code(bo, "EEEE-FFFF", NOW)
        .await
        .expect("a code");
    let replaced = store.redeem_web_code("CCCC-DDDD", "t2", NOW).await;
    assert_eq!(
        replaced.expect("asked"),
        None,
        "a new code replaces the last"
    );
    let newest = store.redeem_web_code("EEEE-FFFF", "t3", NOW).await;
    assert_eq!(newest.expect("asked"), Some(bo));

    // A session lasts its time.
    let end = NOW + 1 + SESSION_TTL_MS;
    assert_eq!(store.web_session("token-a", end).await.expect("read"), None);

    // Nothing stored as presented.
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM web_sessions")
        .fetch_all(&pool)
        .await
        .expect("read");
    assert!(stored.iter().all(|h| h.len() == 64 && !h.contains("token")));
}

both!(a_player_keeps_at_most_max_sessions_and_can_end_them_all);
async fn a_player_keeps_at_most_max_sessions_and_can_end_them_all(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let ada = player(&store, "ada", 1).await;
    let extra = 5;
    for i in 0..MAX_SESSIONS + extra {
        let code = format!("CODE-{i:04}");
        store
            .new_web_code(ada, &code, NOW + i)
            .await
            .expect("a code");
        let token = format!("token-{i}");
        let got = store.redeem_web_code(&code, &token, NOW + i).await;
        assert_eq!(got.expect("asked"), Some(ada));
    }
    assert_eq!(
        store.web_sessions_of(ada, NOW + 100).await.expect("read"),
        MAX_SESSIONS as u64
    );
    // The oldest went.
    assert_eq!(
        store.web_session("token-0", NOW + 100).await.expect("read"),
        None
    );
    let newest = format!("token-{}", MAX_SESSIONS + extra - 1);
    assert_eq!(
        store.web_session(&newest, NOW + 100).await.expect("read"),
        Some(ada)
    );
    assert_eq!(
        store.end_web_sessions(ada).await.expect("ended"),
        MAX_SESSIONS as u64
    );
    assert_eq!(
        store.web_session(&newest, NOW + 100).await.expect("read"),
        None
    );
}
