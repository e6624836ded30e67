use super::*;
use std::net::{IpAddr, Ipv4Addr};

fn ip(s: &str) -> ClientAddr {
    ClientAddr::new(s.parse().expect("test address"))
}

fn limits() -> ConnectionLimits {
    ConnectionLimits {
        max_total: 1000,
        max_per_address: 2,
        max_per_subnet: 3,
        max_per_site: 4,
        startups: Startups {
            start: 1000,
            rate: 100,
            full: 1000,
        },
        connects_burst: 1000,
        connects_per_minute: 60,
    }
}

/// Takes a slot at time 0 with a roll that never triggers early drop, and logs it in.
fn take(limiter: &Arc<ConnectionLimiter>, addr: &str) -> Result<ConnectionPermit, Refusal> {
    let mut permit = limiter.try_acquire_at(ip(addr), 0, 99)?;
    permit.logged_in();
    Ok(permit)
}

#[test]
fn counts_total_and_per_address() {
    let limiter = ConnectionLimiter::new(ConnectionLimits {
        max_total: 3,
        ..limits()
    });
    let p1 = take(&limiter, "10.0.0.1").unwrap();
    let _p2 = take(&limiter, "10.0.0.1").unwrap();
    assert_eq!(
        take(&limiter, "10.0.0.1").unwrap_err(),
        Refusal::TooManyFromAddress
    );
    let _p3 = take(&limiter, "10.0.1.2").unwrap();
    assert_eq!(take(&limiter, "10.0.2.2").unwrap_err(), Refusal::ServerFull);
    drop(p1);
    assert_eq!(limiter.total(), 2);
    let _p4 = take(&limiter, "10.0.0.1").unwrap();
    assert_eq!(limiter.total(), 3);
}

/// Each row: the addresses already connected, the new one, and what happens to it.
#[test]
fn prefix_caps_table() {
    let cases: &[(&[&str], &str, Option<Refusal>)] = &[
        // IPv4: 2 per address, 3 per /24.
        (
            &["192.0.2.1", "192.0.2.1"],
            "192.0.2.1",
            Some(Refusal::TooManyFromAddress),
        ),
        (&["192.0.2.1", "192.0.2.1"], "192.0.2.2", None),
        (
            &["192.0.2.1", "192.0.2.2", "192.0.2.3"],
            "192.0.2.4",
            Some(Refusal::TooManyFromNetwork),
        ),
        (&["192.0.2.1", "192.0.2.2", "192.0.2.3"], "192.0.3.4", None),
        // An IPv4-mapped IPv6 address counts as its IPv4 address.
        (
            &["192.0.2.7", "192.0.2.7"],
            "::ffff:192.0.2.7",
            Some(Refusal::TooManyFromAddress),
        ),
        // IPv6: 2 per /64, 3 per /56, 4 per /48.
        (
            &["2001:db8::1", "2001:db8::2"],
            "2001:db8::3",
            Some(Refusal::TooManyFromAddress),
        ),
        (&["2001:db8::1", "2001:db8::2"], "2001:db8:0:1::3", None),
        (
            &["2001:db8:0:1::1", "2001:db8:0:2::1", "2001:db8:0:3::1"],
            "2001:db8:0:ff::1",
            Some(Refusal::TooManyFromNetwork),
        ),
        (
            &["2001:db8:0:1::1", "2001:db8:0:2::1", "2001:db8:0:3::1"],
            "2001:db8:0:100::1",
            None,
        ),
        (
            &[
                "2001:db8:0:100::1",
                "2001:db8:0:200::1",
                "2001:db8:0:300::1",
                "2001:db8:0:400::1",
            ],
            "2001:db8:0:500::1",
            Some(Refusal::TooManyFromNetwork),
        ),
        (
            &[
                "2001:db8:0:100::1",
                "2001:db8:0:200::1",
                "2001:db8:0:300::1",
                "2001:db8:0:400::1",
            ],
            "2001:db8:1::1",
            None,
        ),
    ];
    for (i, (before, new, expected)) in cases.iter().enumerate() {
        let limiter = ConnectionLimiter::new(limits());
        let _held: Vec<_> = before
            .iter()
            .map(|a| take(&limiter, a).unwrap_or_else(|e| panic!("case {i}: {a}: {e:?}")))
            .collect();
        assert_eq!(take(&limiter, new).err(), *expected, "case {i}: {new}");
    }
}

#[test]
fn slots_are_freed_at_every_prefix() {
    let limiter = ConnectionLimiter::new(limits());
    let held: Vec<_> = ["2001:db8:0:1::1", "2001:db8:0:2::1", "2001:db8:0:3::1"]
        .iter()
        .map(|a| take(&limiter, a).unwrap())
        .collect();
    assert!(take(&limiter, "2001:db8:0:4::1").is_err());
    drop(held);
    assert_eq!(limiter.total(), 0);
    let _again: Vec<_> = ["2001:db8:0:1::1", "2001:db8:0:2::1", "2001:db8:0:3::1"]
        .iter()
        .map(|a| take(&limiter, a).unwrap())
        .collect();
}

/// Below `start` nobody is dropped; between `start` and `full` the chance rises linearly from
/// `rate` %; at `full` everyone is refused. Logging in frees the startup slot.
#[test]
fn startups_drop_early_then_refuse() {
    let limiter = ConnectionLimiter::new(ConnectionLimits {
        max_per_address: 100,
        max_per_subnet: 100,
        startups: Startups {
            start: 2,
            rate: 50,
            full: 4,
        },
        ..limits()
    });
    let a = |n: u8| ClientAddr::new(IpAddr::V4(Ipv4Addr::new(198, 51, n, 1)));
    let mut pending: Vec<_> = (0..2)
        .map(|n| limiter.try_acquire_at(a(n), 0, 0).unwrap())
        .collect();
    assert_eq!(limiter.logging_in(), 2);
    // At start (2 logging in): refused when the roll is under 50.
    assert_eq!(
        limiter.try_acquire_at(a(10), 0, 49).unwrap_err(),
        Refusal::TooManyLoggingIn
    );
    pending.push(limiter.try_acquire_at(a(11), 0, 50).unwrap());
    // 3 logging in: halfway to full, 75 %.
    assert!(limiter.try_acquire_at(a(12), 0, 74).is_err());
    pending.push(limiter.try_acquire_at(a(13), 0, 75).unwrap());
    // Full: refused whatever the roll.
    assert_eq!(
        limiter.try_acquire_at(a(14), 0, 99).unwrap_err(),
        Refusal::TooManyLoggingIn
    );
    // Logged-in connections do not count.
    for p in &mut pending {
        p.logged_in();
    }
    assert_eq!(limiter.logging_in(), 0);
    assert_eq!(limiter.total(), 4);
    assert!(limiter.try_acquire_at(a(15), 0, 0).is_ok());
}

#[test]
fn new_connections_per_source_are_rate_limited() {
    let limiter = ConnectionLimiter::new(ConnectionLimits {
        connects_burst: 3,
        connects_per_minute: 30,
        ..limits()
    });
    for _ in 0..3 {
        drop(limiter.try_acquire_at(ip("203.0.113.9"), 0, 99).unwrap());
    }
    assert_eq!(
        limiter
            .try_acquire_at(ip("203.0.113.9"), 1000, 99)
            .unwrap_err(),
        Refusal::TooFast
    );
    // Another source is not affected; the same source gets one more after 2 s (30 a minute).
    assert!(limiter.try_acquire_at(ip("203.0.113.10"), 1000, 99).is_ok());
    assert!(limiter.try_acquire_at(ip("203.0.113.9"), 2000, 99).is_ok());
    // An IPv6 source is its /64.
    for _ in 0..3 {
        drop(limiter.try_acquire_at(ip("2001:db8::1"), 0, 99).unwrap());
    }
    assert_eq!(
        limiter
            .try_acquire_at(ip("2001:db8::ffff"), 0, 99)
            .unwrap_err(),
        Refusal::TooFast
    );
}

#[test]
fn startups_parse() {
    assert_eq!(
        Startups::parse("10:30:100"),
        Ok(Startups {
            start: 10,
            rate: 30,
            full: 100
        })
    );
    assert_eq!(
        Startups::parse("50"),
        Ok(Startups {
            start: 50,
            rate: 100,
            full: 50
        })
    );
    for bad in ["", "a:b:c", "10:30", "100:30:10", "10:101:20", "0:30:10"] {
        assert!(Startups::parse(bad).is_err(), "{bad}");
    }
}
