//! Registration, names, keys, passwords and their rate limits, settings.

use std::net::IpAddr;

use minotty_store::{
    Account, HashLimits, HashPool, KeyError, LimitConfig, LinkError, MAX_SETTINGS_BYTES, Password,
    PasswordChangeError, RegisterError, SettingsError, Store, UnixMs,
};
use sqlx::AnyPool;

use crate::support::{NOW, key, name, player, store};

fn ip(s: &str) -> IpAddr {
    s.parse().expect("address")
}

/// A hash budget that the tests of other limits never reach (even when their clock goes back).
const PLENTY: HashLimits = HashLimits {
    account_burst: 1_000_000_000,
    account_interval_ms: 1,
    ip_burst: 1_000_000_000,
    ip_interval_ms: 1,
};

#[tokio::test]
async fn open_creates_the_file_with_wal_foreign_keys_and_a_busy_timeout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("new.db");
    let url = format!("sqlite://{}", path.display());
    let store = Store::open(&url).await.expect("opens");
    assert!(path.exists());
    let p = store
        .pragmas()
        .await
        .expect("pragmas")
        .expect("SQLite has pragmas");
    assert_eq!(p.journal_mode, "wal");
    assert!(p.foreign_keys);
    assert_eq!(p.busy_timeout_ms, 5_000);
    let alice = player(&store, "alice", 1).await;
    store.close().await;
    // Reopening migrates nothing twice and keeps the data.
    let again = Store::open(&url).await.expect("reopens");
    assert_eq!(again.account(alice.id).await.expect("reads"), Some(alice));
}

/// alice links the key `key(n)` with `password`, from `from` at `at`.
async fn alice_links(
    store: &Store,
    password: &str,
    n: u32,
    from: IpAddr,
    at: UnixMs,
) -> Result<Account, LinkError> {
    store
        .link_key(&name("alice"), password, &key(n), from, at)
        .await
}

both!(registration_and_login_by_key);
async fn registration_and_login_by_key(pool: AnyPool) {
    let store = store(pool).await;
    let alice = store
        .register(&name("Alice"), &key(1), NOW)
        .await
        .expect("registers");
    assert_eq!(alice.name.as_str(), "Alice");
    assert!(!alice.has_password);
    assert_eq!(alice.created_at, NOW);

    let by_key = store
        .account_by_key(&key(1).fingerprint, NOW + 5)
        .await
        .expect("query");
    assert_eq!(by_key, Some(alice.clone()));
    assert_eq!(
        store
            .account_by_key(&key(2).fingerprint, NOW)
            .await
            .expect("query"),
        None
    );
    assert_eq!(
        store.account(alice.id).await.expect("query"),
        Some(alice.clone())
    );
    let keys = store.keys(alice.id).await.expect("keys");
    assert_eq!(keys.len(), 1);
    // The use is noted in memory and written in a batch.
    assert_eq!((keys[0].added_at, keys[0].last_used_at), (NOW, NOW));
    assert_eq!(store.flush_key_uses().await.expect("flushes"), 1);
    let keys = store.keys(alice.id).await.expect("keys");
    assert_eq!((keys[0].added_at, keys[0].last_used_at), (NOW, NOW + 5));
    assert_eq!(keys[0].algorithm, "ssh-ed25519");
}

both!(names_clash_without_regard_to_case);
async fn names_clash_without_regard_to_case(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "Alice", 1).await;
    let clash = store.register(&name("aLiCe"), &key(2), NOW).await;
    assert!(matches!(clash, Err(RegisterError::NameTaken)), "{clash:?}");
    let found = store.account_by_name(&name("ALICE")).await.expect("query");
    assert_eq!(found, Some(alice));
    assert_eq!(
        store.account_by_name(&name("bob")).await.expect("query"),
        None
    );
    // The refused registration left nothing behind: key 2 is still free.
    assert_eq!(
        store
            .account_by_key(&key(2).fingerprint, NOW)
            .await
            .expect("query"),
        None
    );
    player(&store, "bob", 2).await;
}

both!(a_key_registers_only_once_and_a_refusal_rolls_back);
async fn a_key_registers_only_once_and_a_refusal_rolls_back(pool: AnyPool) {
    let store = store(pool).await;
    player(&store, "alice", 1).await;
    let again = store.register(&name("bob"), &key(1), NOW).await;
    assert!(matches!(again, Err(RegisterError::KeyTaken)), "{again:?}");
    // bob's row was rolled back with the key: the name is free.
    assert_eq!(
        store.account_by_name(&name("bob")).await.expect("query"),
        None
    );
    player(&store, "bob", 2).await;
}

both!(linking_a_key_needs_the_right_password);
async fn linking_a_key_needs_the_right_password(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let home = ip("192.0.2.1");
    // No password yet: indistinguishable from a wrong one.
    let res = store
        .link_key(&name("alice"), "anything at all", &key(2), home, NOW)
        .await;
    assert!(matches!(res, Err(LinkError::WrongCredentials)), "{res:?}");

    let password = Password::parse("correct horse").expect("valid");
    store.set_password(alice.id, &password).await.expect("sets");
    assert!(
        store
            .account(alice.id)
            .await
            .expect("query")
            .expect("exists")
            .has_password
    );

    let res = store
        .link_key(&name("alice"), "wrong horse", &key(2), home, NOW)
        .await;
    assert!(matches!(res, Err(LinkError::WrongCredentials)), "{res:?}");
    let res = store
        .link_key(&name("nobody"), "correct horse", &key(2), home, NOW)
        .await;
    assert!(matches!(res, Err(LinkError::WrongCredentials)), "{res:?}");
    assert_eq!(
        store
            .account_by_key(&key(2).fingerprint, NOW)
            .await
            .expect("query"),
        None
    );

    // The name matches without regard to case, like registration.
    let linked = store
        .link_key(&name("ALICE"), "correct horse", &key(2), home, NOW)
        .await;
    assert_eq!(linked.expect("links").id, alice.id);
    let by_new_key = store
        .account_by_key(&key(2).fingerprint, NOW)
        .await
        .expect("query");
    assert_eq!(by_new_key.map(|a| a.id), Some(alice.id));
    assert_eq!(store.keys(alice.id).await.expect("keys").len(), 2);

    // A key of another account cannot be taken over.
    player(&store, "bob", 3).await;
    let res = store
        .link_key(&name("alice"), "correct horse", &key(3), home, NOW)
        .await;
    assert!(matches!(res, Err(LinkError::KeyTaken)), "{res:?}");
}

both!(wrong_passwords_are_rate_limited_per_account_and_per_address);
async fn wrong_passwords_are_rate_limited_per_account_and_per_address(pool: AnyPool) {
    let store = store(pool)
        .await
        .with_limits(LimitConfig {
            pair_burst: 2,
            pair_interval_ms: 60_000,
            account_burst: 2,
            account_interval_ms: 60_000,
            ip_burst: 3,
            ip_interval_ms: 10_000,
        })
        .with_hash_limits(PLENTY);
    let alice = player(&store, "alice", 1).await;
    let password = Password::parse("correct horse").expect("valid");
    store.set_password(alice.id, &password).await.expect("sets");

    // Two wrong tries on alice from two addresses use up her account's burst...
    for (i, from) in ["192.0.2.1", "192.0.2.2"].into_iter().enumerate() {
        let res = alice_links(&store, "nope nope", 9, ip(from), NOW + i as i64).await;
        assert!(matches!(res, Err(LinkError::WrongCredentials)), "{res:?}");
    }
    // ...so even the right password from a third address waits.
    let res = alice_links(&store, "correct horse", 2, ip("192.0.2.3"), NOW + 2).await;
    let Err(LinkError::RateLimited(wait)) = res else {
        panic!("expected a rate limit, got {res:?}");
    };
    assert!(wait.ms > 0 && wait.ms <= 60_000, "{wait:?}");
    // Once the wait is over it goes through, and clears alice's failures.
    let later = NOW + 2 + wait.ms;
    let res = alice_links(&store, "correct horse", 2, ip("192.0.2.3"), later).await;
    assert!(res.is_ok(), "{res:?}");

    // One address trying many names is limited by its own budget (3): unknown names count.
    let attacker = ip("198.51.100.7");
    for n in ["carol", "dave", "erin"] {
        let res = store
            .link_key(&name(n), "guess guess", &key(9), attacker, later)
            .await;
        assert!(matches!(res, Err(LinkError::WrongCredentials)), "{res:?}");
    }
    let res = store
        .link_key(&name("frank"), "guess guess", &key(9), attacker, later)
        .await;
    assert!(matches!(res, Err(LinkError::RateLimited(_))), "{res:?}");
    // Another address is not affected.
    let res = store
        .link_key(
            &name("frank"),
            "guess guess",
            &key(9),
            ip("203.0.113.1"),
            later,
        )
        .await;
    assert!(matches!(res, Err(LinkError::WrongCredentials)), "{res:?}");
}

both!(keys_are_listed_and_removed_but_never_the_one_in_use);
async fn keys_are_listed_and_removed_but_never_the_one_in_use(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 5).await;
    store
        .set_password(alice.id, &Password::parse("correct horse").expect("valid"))
        .await
        .expect("sets");
    alice_links(&store, "correct horse", 2, ip("192.0.2.1"), NOW + 10)
        .await
        .expect("links");
    let listed: Vec<String> = store
        .keys(alice.id)
        .await
        .expect("keys")
        .into_iter()
        .map(|k| k.fingerprint.to_string())
        .collect();
    assert_eq!(
        listed,
        [
            key(1).fingerprint.to_string(),
            key(2).fingerprint.to_string()
        ]
    );

    let in_use = key(1).fingerprint;
    let res = store.remove_key(alice.id, &in_use, &in_use).await;
    assert!(matches!(res, Err(KeyError::InUse)), "{res:?}");
    // Bob's key is not alice's to remove.
    let res = store
        .remove_key(alice.id, &key(5).fingerprint, &in_use)
        .await;
    assert!(matches!(res, Err(KeyError::NotFound)), "{res:?}");
    assert_eq!(store.keys(bob.id).await.expect("keys").len(), 1);

    store
        .remove_key(alice.id, &key(2).fingerprint, &in_use)
        .await
        .expect("removes");
    assert_eq!(store.keys(alice.id).await.expect("keys").len(), 1);
    assert_eq!(
        store
            .account_by_key(&key(2).fingerprint, NOW)
            .await
            .expect("query"),
        None
    );
}

both!(settings_round_trip);
async fn settings_round_trip(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    assert_eq!(store.settings(alice.id).await.expect("query"), None);

    let first = r#"{"das":120,"arr":0,"keys":{"left":"a"}}"#;
    store
        .save_settings(alice.id, first, NOW)
        .await
        .expect("saves");
    assert_eq!(
        store.settings(alice.id).await.expect("query").as_deref(),
        Some(first)
    );
    let second = r#"{"das":100}"#;
    store
        .save_settings(alice.id, second, NOW + 1)
        .await
        .expect("saves");
    assert_eq!(
        store.settings(alice.id).await.expect("query").as_deref(),
        Some(second)
    );
    assert_eq!(store.settings(bob.id).await.expect("query"), None);

    let res = store.save_settings(alice.id, "{not json", NOW).await;
    assert!(matches!(res, Err(SettingsError::NotJson(_))), "{res:?}");
    let huge = format!("\"{}\"", "x".repeat(MAX_SETTINGS_BYTES));
    let res = store.save_settings(alice.id, &huge, NOW).await;
    assert!(matches!(res, Err(SettingsError::TooLarge(_))), "{res:?}");
    assert_eq!(
        store.settings(alice.id).await.expect("query").as_deref(),
        Some(second)
    );
}

both!(changing_a_password_needs_the_current_one_and_is_rate_limited);
async fn changing_a_password_needs_the_current_one_and_is_rate_limited(pool: AnyPool) {
    let store = store(pool)
        .await
        .with_limits(LimitConfig {
            pair_burst: 2,
            pair_interval_ms: 60_000,
            account_burst: 2,
            account_interval_ms: 60_000,
            ip_burst: 20,
            ip_interval_ms: 1_000,
        })
        .with_hash_limits(PLENTY);
    let alice = player(&store, "alice", 1).await;
    let home = ip("192.0.2.1");
    let first = Password::parse("correct horse").expect("valid");
    let second = Password::parse("battery staple").expect("valid");
    let links = |password: &'static str, n: u32| {
        let store = store.clone();
        async move { alice_links(&store, password, n, ip("192.0.2.99"), NOW + 500_000).await }
    };
    // No password yet: the first one is set without a current one.
    store
        .change_password(alice.id, "", &first, home, NOW)
        .await
        .expect("sets the first password");
    // A wrong current password changes nothing.
    let res = store
        .change_password(alice.id, "wrong horse", &second, home, NOW)
        .await;
    assert!(
        matches!(res, Err(PasswordChangeError::WrongCurrent)),
        "{res:?}"
    );
    assert_eq!(
        res.unwrap_err().to_string(),
        "the current password is wrong: nothing was changed"
    );
    let res = store
        .change_password(alice.id, "", &second, home, NOW)
        .await;
    assert!(matches!(res, Err(PasswordChangeError::WrongCurrent)));
    // Past the account's burst, even the right password waits.
    let res = store
        .change_password(alice.id, "correct horse", &second, home, NOW)
        .await;
    assert!(
        matches!(res, Err(PasswordChangeError::RateLimited(_))),
        "{res:?}"
    );
    assert!(links("correct horse", 2).await.is_ok(), "still the first");
    store
        .change_password(alice.id, "correct horse", &second, home, NOW + 60_000)
        .await
        .expect("changes with the current password");
    assert!(matches!(
        links("correct horse", 3).await,
        Err(LinkError::WrongCredentials)
    ));
    assert!(links("battery staple", 3).await.is_ok());
}

both!(password_changes_from_one_address_start_a_bounded_number_of_hashes);
async fn password_changes_from_one_address_start_a_bounded_number_of_hashes(pool: AnyPool) {
    // Hashes counted on a pool of this test's own (two threads, as the server's).
    let store = store(pool)
        .await
        .with_hash_pool(HashPool::new(2, 16))
        .with_hash_limits(HashLimits {
            account_burst: 4,
            account_interval_ms: 60_000,
            ip_burst: 4,
            ip_interval_ms: 60_000,
        });
    let hashes = || store.hash_pool().started();
    let password = Password::parse("correct horse").expect("valid");
    let mut players = Vec::new();
    for (i, n) in ["alpha", "bravo", "charlie"].into_iter().enumerate() {
        let p = player(&store, n, i as u32 + 1).await;
        store.set_password(p.id, &password).await.expect("sets");
        players.push(p);
    }
    assert_eq!(hashes(), 3);
    // The attacker: every account changing its own password, again and again, from one
    // address (as 14 sessions did, at 98 % of a core).
    let attacker = ip("198.51.100.7");
    let (mut changed, mut refused) = (0, 0);
    for round in 0..10 {
        for p in &players {
            let res = store
                .change_password(p.id, "correct horse", &password, attacker, NOW + round)
                .await;
            match res {
                Ok(()) => changed += 1,
                Err(e @ PasswordChangeError::Throttled(_)) => {
                    assert!(
                        e.to_string().starts_with(
                            "too many password changes or checks from here; try again in "
                        ),
                        "{e}"
                    );
                    refused += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    // The address's 4 hashes: two changes (a check and a hash each), and nothing more ran.
    assert_eq!((changed, refused), (2, 28));
    assert_eq!(hashes(), 3 + 4);
    // Links from there are refused before any hash too (fresh keys, right password).
    for n in 10..20 {
        let res = store
            .link_key(&name("charlie"), "correct horse", &key(n), attacker, NOW)
            .await;
        assert!(matches!(res, Err(LinkError::Throttled(_))), "{res:?}");
    }
    assert_eq!(hashes(), 7);
    // Another address is served at once.
    let home = ip("192.0.2.1");
    store
        .change_password(players[2].id, "correct horse", &password, home, NOW)
        .await
        .expect("another address changes its password");
    assert_eq!(hashes(), 9);
    // One account from many addresses: its own budget (4) holds. alpha used 2 above.
    let mut more = 0;
    for i in 0..10 {
        let from = ip(&format!("203.0.113.{i}"));
        if store
            .change_password(players[0].id, "correct horse", &password, from, NOW)
            .await
            .is_ok()
        {
            more += 1;
        }
    }
    assert_eq!(more, 1);
    assert_eq!(hashes(), 11);
    // And a minute later the attacker's address may again (one hash a minute: not a change
    // of two; a link of one).
    let res = store
        .change_password(
            players[1].id,
            "correct horse",
            &password,
            attacker,
            NOW + 60_010,
        )
        .await;
    assert!(
        matches!(res, Err(PasswordChangeError::Throttled(_))),
        "{res:?}"
    );
    assert!(store.hash_pool().threads_used() <= 2);
}

both!(an_attackers_wrong_passwords_do_not_keep_the_victim_from_linking);
async fn an_attackers_wrong_passwords_do_not_keep_the_victim_from_linking(pool: AnyPool) {
    let store = store(pool).await.with_hash_limits(PLENTY);
    let alice = player(&store, "alice", 1).await;
    let password = Password::parse("correct horse").expect("valid");
    store.set_password(alice.id, &password).await.expect("sets");
    // The attacker types wrong passwords for alice until refused (the defaults: 5).
    let attacker = ip("198.51.100.7");
    let mut tries = 0;
    loop {
        match alice_links(&store, "wrong wrong", 9, attacker, NOW).await {
            Err(LinkError::WrongCredentials) => tries += 1,
            Err(LinkError::RateLimited(_)) => break,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(tries, 5);
    // Alice, from home, links her new key at once.
    let res = alice_links(&store, "correct horse", 2, ip("192.0.2.1"), NOW + 1).await;
    assert!(res.is_ok(), "{res:?}");
    // The attacker still waits.
    let res = alice_links(&store, "correct horse", 3, attacker, NOW + 2).await;
    assert!(matches!(res, Err(LinkError::RateLimited(_))), "{res:?}");
}
