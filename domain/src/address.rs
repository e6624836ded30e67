//! A client's address, as every limit and share sees it: one type, made once where the
//! connection's peer is known (after a trusted balancer's PROXY header), used everywhere.
//!
//! [`ClientAddr`] is canonical: an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, which a `[::]`
//! listener reports for every IPv4 client) is that IPv4 address, so the same client counts
//! once whichever way it arrived. [`AddressKey`] is an address cut to a prefix, the key of a
//! per-address count:
//!
//! | key                    | IPv4 | IPv6 | used for                                        |
//! |------------------------|------|------|-------------------------------------------------|
//! | [`ClientAddr::key`]    | /32  | /64  | one client: its shares, budgets and back-offs    |
//! | [`ClientAddr::network`]| /24  | /56  | one network: connection caps, the open-rooms page |
//! | [`ClientAddr::site`]   |  -   | /48  | one IPv6 site: connection caps                  |
//!
//! One IPv6 subscriber usually holds a whole /64 (often a /56 or /48), so a client key of a
//! single IPv6 address would give one client as many keys as it likes.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The prefix of one client: IPv4 /32, IPv6 /64.
pub const CLIENT_V4: u8 = 32;
pub const CLIENT_V6: u8 = 64;
/// The prefix of one network: IPv4 /24, IPv6 /56.
pub const NETWORK_V4: u8 = 24;
pub const NETWORK_V6: u8 = 56;
/// The prefix of one IPv6 site: /48.
pub const SITE_V6: u8 = 48;

/// A client's address, canonical (IPv4-mapped IPv6 is IPv4). The only way to make one is
/// [`ClientAddr::new`] (or `From<IpAddr>`), which canonicalises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClientAddr(IpAddr);

impl ClientAddr {
    pub fn new(ip: IpAddr) -> ClientAddr {
        ClientAddr(ip.to_canonical())
    }

    /// The address itself (canonical).
    pub fn ip(self) -> IpAddr {
        self.0
    }

    /// The key of one client (IPv4 /32, IPv6 /64).
    pub fn key(self) -> AddressKey {
        self.prefix(CLIENT_V4, CLIENT_V6)
    }

    /// The key of the client's network (IPv4 /24, IPv6 /56).
    pub fn network(self) -> AddressKey {
        self.prefix(NETWORK_V4, NETWORK_V6)
    }

    /// The key of the client's IPv6 site (/48); `None` for IPv4.
    pub fn site(self) -> Option<AddressKey> {
        self.0.is_ipv6().then(|| self.prefix(CLIENT_V4, SITE_V6))
    }

    /// The address cut to `v4` bits (IPv4) or `v6` bits (IPv6); lengths past the family's
    /// width are the whole address.
    pub fn prefix(self, v4: u8, v6: u8) -> AddressKey {
        AddressKey::cut(self.0, v4, v6)
    }

    pub fn is_loopback(self) -> bool {
        self.0.is_loopback()
    }
}

impl From<IpAddr> for ClientAddr {
    fn from(ip: IpAddr) -> ClientAddr {
        ClientAddr::new(ip)
    }
}

/// An address as text (`192.0.2.1`, `::ffff:192.0.2.1`, `2001:db8::1`), canonical once parsed.
impl std::str::FromStr for ClientAddr {
    type Err = std::net::AddrParseError;

    fn from_str(s: &str) -> Result<ClientAddr, Self::Err> {
        s.parse::<IpAddr>().map(ClientAddr::new)
    }
}

impl fmt::Display for ClientAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// An address cut to a prefix length (the length is part of the key): what per-address
/// counts are keyed by. Made from a [`ClientAddr`], so it is canonical too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AddressKey {
    net: IpAddr,
    len: u8,
}

impl AddressKey {
    fn cut(ip: IpAddr, v4: u8, v6: u8) -> AddressKey {
        match ip {
            IpAddr::V4(a) => {
                let len = v4.min(32);
                let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
                AddressKey {
                    net: IpAddr::V4(Ipv4Addr::from(u32::from(a) & mask)),
                    len,
                }
            }
            IpAddr::V6(a) => {
                let len = v6.min(128);
                let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
                AddressKey {
                    net: IpAddr::V6(Ipv6Addr::from(u128::from(a) & mask)),
                    len,
                }
            }
        }
    }

    /// The same key cut shorter (`v4`/`v6` bits, never longer than it is): a client's key to
    /// its network's.
    pub fn widen(self, v4: u8, v6: u8) -> AddressKey {
        AddressKey::cut(self.net, v4.min(self.len), v6.min(self.len))
    }

    /// The network's first address (the rest zero).
    pub fn net(self) -> IpAddr {
        self.net
    }

    /// The prefix length.
    pub fn prefix_len(self) -> u8 {
        self.len
    }
}

/// The network's address alone for a client key (`192.0.2.1`, `2001:db8::`: the form the store
/// keeps per registration), with `/LEN` for any other prefix.
impl fmt::Display for AddressKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let client = match self.net {
            IpAddr::V4(_) => CLIENT_V4,
            IpAddr::V6(_) => CLIENT_V6,
        };
        if self.len == client {
            write!(f, "{}", self.net)
        } else {
            write!(f, "{}/{}", self.net, self.len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> ClientAddr {
        ClientAddr::new(s.parse().unwrap())
    }

    #[test]
    fn keys_table() {
        // (address, client key, network key, site key)
        let table: &[(&str, &str, &str, Option<&str>)] = &[
            ("192.0.2.7", "192.0.2.7", "192.0.2.0/24", None),
            ("::ffff:192.0.2.7", "192.0.2.7", "192.0.2.0/24", None),
            ("::ffff:10.1.2.3", "10.1.2.3", "10.1.2.0/24", None),
            (
                "2001:db8:1:2:3:4:5:6",
                "2001:db8:1:2::",
                "2001:db8:1::/56",
                Some("2001:db8:1::/48"),
            ),
            (
                "2001:db8:1:2ff::1",
                "2001:db8:1:2ff::",
                "2001:db8:1:200::/56",
                Some("2001:db8:1::/48"),
            ),
            ("::1", "::", "::/56", Some("::/48")),
        ];
        for &(ip, client, network, site) in table {
            let a = addr(ip);
            assert_eq!(a.key().to_string(), client, "{ip}");
            assert_eq!(a.network().to_string(), network, "{ip}");
            assert_eq!(a.site().map(|s| s.to_string()).as_deref(), site, "{ip}");
            assert_eq!(a.key().widen(NETWORK_V4, NETWORK_V6), a.network(), "{ip}");
        }
    }

    #[test]
    fn the_mapped_form_of_a_client_is_the_client_and_two_clients_stay_two() {
        assert_eq!(addr("::ffff:192.0.2.1"), addr("192.0.2.1"));
        assert_eq!(addr("::ffff:192.0.2.1").key(), addr("192.0.2.1").key());
        assert_ne!(
            addr("::ffff:192.0.2.1").key(),
            addr("::ffff:192.0.2.2").key()
        );
        assert_eq!(addr("::ffff:192.0.2.1").ip().to_string(), "192.0.2.1");
        // Keys of different lengths never collide.
        assert_ne!(
            addr("192.0.2.0").key(),
            addr("192.0.2.0").network(),
            "the length is part of the key"
        );
        assert!(addr("::ffff:127.0.0.1").is_loopback());
    }

    #[test]
    fn lengths_past_the_width_are_the_whole_address() {
        let a = addr("2001:db8::1");
        assert_eq!(a.prefix(200, 200).net(), a.ip());
        assert_eq!(a.prefix(0, 0).to_string(), "::/0");
        assert_eq!(addr("192.0.2.1").prefix(0, 0).to_string(), "0.0.0.0/0");
    }
}
