//! The places of `listen.rs`: what is let go for a new connection, and what never is.

use std::time::Duration;

use super::*;

/// A connection whose request arrived is answered, never let go: with every place held by
/// clients that sent their heads and wait for their answers, a new one is closed.
#[tokio::test]
async fn answered_connections_are_not_let_go() {
    let places = Arc::new(Places {
        bounds: Bounds {
            max_connections: 2,
            max_per_address: 2,
            head_timeout: Duration::from_secs(2),
            lifetime: Duration::from_secs(7),
            keep_alive: false,
        },
        held: Mutex::new(Held::default()),
    });
    let a = ClientAddr::new("192.0.2.1".parse().unwrap());
    let b = ClientAddr::new("::ffff:192.0.2.2".parse().unwrap());
    let first = places.try_acquire(a).expect("a place");
    let second = places.try_acquire(a).expect("a place");
    assert!(
        places.try_acquire(a).is_none(),
        "the address holds its share"
    );
    first.head_read();
    second.head_read();
    assert!(
        places.try_acquire(b).is_none(),
        "nobody is waiting for a head"
    );
    drop(first);
    let third = places.try_acquire(b).expect("a place came back");
    // `third` still reads: a newer connection takes its place.
    let fourth = places.try_acquire(ClientAddr::new("192.0.2.3".parse().unwrap()));
    assert!(fourth.is_some());
    assert_eq!(places.lock().connections.len(), 2);
    drop(third);
    assert_eq!(
        places.lock().connections.len(),
        2,
        "let go already: nothing given back twice"
    );
    drop(second);
    assert_eq!(places.lock().per_address.len(), 1);
}

/// IPv6 addresses count by /64, IPv4-mapped ones as IPv4 (the one address type).
#[test]
fn addresses_are_counted_by_ipv4_address_or_ipv6_slash_64() {
    let key = |s: &str| ClientAddr::new(s.parse().unwrap()).key();
    assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::2"));
    assert_ne!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:3::1"));
    assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
}
