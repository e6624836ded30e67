//! Tests of `command_budget.rs`: floods of commands from one connection and from many
//! connections of one address, counted (admitted and refused), on the caller's clock.

use super::*;

use std::net::IpAddr;

fn ip(s: &str) -> ClientAddr {
    s.parse().expect("an address")
}

/// The attacker: one connection sending commands as fast as it can. Before the budgets every
/// one ran (and read the database); now the connection's burst runs, then its rate.
#[test]
fn a_flood_from_one_connection_is_refused_past_its_budget() {
    let budgets = CommandBudgets::default();
    let limits = CommandLimits::default();
    let mut conn = ConnectionCommands::default();
    let a = ip("192.0.2.1");
    let ran = (0..1_000)
        .filter(|_| budgets.admit(&mut conn, a, &limits, 0).is_ok())
        .count();
    assert_eq!(ran, CONNECTION_BURST as usize);
    assert_eq!(budgets.counts(), (u64::from(CONNECTION_BURST), 1_000 - 10));
    let refused = budgets.admit(&mut conn, a, &limits, 0).unwrap_err();
    // 20 a minute: the next in 3 s.
    assert_eq!(refused, Refused::Connection { wait_ms: 3_000 });
    assert_eq!(
        refused.message(),
        "too many commands on this connection; try again in 3 s"
    );
    // 3 s later: one more, at the connection's rate.
    let later = (0..1_000)
        .filter(|_| budgets.admit(&mut conn, a, &limits, 3_000).is_ok())
        .count();
    assert_eq!(later, 1);
    // A long quiet time refills only the burst.
    let later = (0..1_000)
        .filter(|_| budgets.admit(&mut conn, a, &limits, 3_600_000).is_ok())
        .count();
    assert_eq!(later, CONNECTION_BURST as usize);
}

/// The attacker with many connections from one address: the address's burst runs in all,
/// however many connections share it; another address is not affected.
#[test]
fn a_flood_from_many_connections_of_one_address_is_refused_past_its_budget() {
    let budgets = CommandBudgets::default();
    let limits = CommandLimits {
        burst: 20,
        per_minute: 0,
        ..CommandLimits::default()
    };
    let a = ip("198.51.100.9");
    let mut ran = 0;
    for _ in 0..100 {
        let mut conn = ConnectionCommands::default();
        ran += (0..5)
            .filter(|_| budgets.admit(&mut conn, a, &limits, 1_000).is_ok())
            .count();
    }
    assert_eq!(ran, 20, "the address's burst, in all");
    assert_eq!(budgets.counts(), (20, 480));
    let mut conn = ConnectionCommands::default();
    assert_eq!(
        budgets.admit(&mut conn, a, &limits, 10_000_000),
        Err(Refused::Address { wait_ms: 0 }),
        "no refill at 0 a minute"
    );
    assert!(
        Refused::Address { wait_ms: 0 }
            .message()
            .contains("from your address; try again later")
    );
    let mut other = ConnectionCommands::default();
    assert_eq!(
        budgets.admit(&mut other, ip("198.51.100.10"), &limits, 0),
        Ok(())
    );
    // An IPv6 client is one address per /64; a v4-mapped address is the v4 address.
    for i in 0..30u16 {
        let mut conn = ConnectionCommands::default();
        let v6 = IpAddr::V6(std::net::Ipv6Addr::new(0x2001, 0xdb8, 1, 2, i, i, i, 1));
        let _ = budgets.admit(&mut conn, v6.into(), &limits, 0);
    }
    let mut conn = ConnectionCommands::default();
    assert!(
        budgets
            .admit(&mut conn, ip("2001:db8:1:2:ffff::1"), &limits, 0)
            .is_err()
    );
    assert!(
        budgets
            .admit(&mut conn, ip("::ffff:198.51.100.9"), &limits, 0)
            .is_err()
    );
}

/// A connection refused by its own bucket takes nothing from its address's: the other
/// connections of the address keep their share.
#[test]
fn a_refused_connection_spends_nothing_of_its_address() {
    let budgets = CommandBudgets::default();
    let limits = CommandLimits {
        burst: 15,
        per_minute: 0,
        ..CommandLimits::default()
    };
    let a = ip("203.0.113.1");
    let mut greedy = ConnectionCommands::default();
    let ran = (0..100)
        .filter(|_| budgets.admit(&mut greedy, a, &limits, 0).is_ok())
        .count();
    assert_eq!(ran, CONNECTION_BURST as usize);
    let mut polite = ConnectionCommands::default();
    let ran = (0..100)
        .filter(|_| budgets.admit(&mut polite, a, &limits, 0).is_ok())
        .count();
    assert_eq!(ran, 5, "the address's 15, less the greedy one's 10");
}

/// One export at a time per connection; the address's exports have a budget of their own.
#[test]
fn a_second_export_on_one_connection_is_refused_and_exports_have_a_budget() {
    let budgets = CommandBudgets::default();
    let limits = CommandLimits {
        export_burst: 2,
        exports_per_minute: 1,
        ..CommandLimits::default()
    };
    let a = ip("192.0.2.50");
    let conn = ConnectionCommands::default();
    let first = budgets.begin_export(&conn).expect("the first export");
    assert_eq!(
        budgets.begin_export(&conn).unwrap_err(),
        Refused::ExportRunning
    );
    assert!(Refused::ExportRunning.message().contains("one at a time"));
    // Another connection may export meanwhile.
    let other = ConnectionCommands::default();
    let second = budgets.begin_export(&other).expect("another connection's");
    drop(first);
    let again = budgets.begin_export(&conn).expect("once the first ended");
    drop((second, again));
    assert_eq!(budgets.take_export(a, &limits, 0), Ok(()));
    assert_eq!(budgets.take_export(a, &limits, 0), Ok(()));
    assert_eq!(
        budgets.take_export(a, &limits, 0),
        Err(Refused::Exports { wait_ms: 60_000 })
    );
    assert_eq!(budgets.take_export(a, &limits, 60_000), Ok(()));
    assert_eq!(budgets.take_export(ip("192.0.2.51"), &limits, 0), Ok(()));
}

/// Addresses are remembered up to a bound; full buckets are forgotten first.
#[test]
fn the_addresses_remembered_stay_bounded() {
    let budgets = CommandBudgets::default();
    let limits = CommandLimits::default();
    for i in 0..MAX_ADDRESSES as u32 {
        let mut conn = ConnectionCommands::default();
        budgets
            .admit(&mut conn, IpAddr::V4(i.into()).into(), &limits, 0)
            .expect("a first command");
    }
    // An hour later every bucket is full again: a new address makes room.
    let mut conn = ConnectionCommands::default();
    let late = ClientAddr::new(IpAddr::V4(u32::MAX.into()));
    assert_eq!(budgets.admit(&mut conn, late, &limits, 3_600_000), Ok(()));
    let held = budgets
        .addresses
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len();
    assert_eq!(held, 1);
}
