//! Connection limits applied before the SSH handshake: a global cap and a per-address cap.
//! A refused client gets a clear one-line reason without any cryptography spent on it.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Why a connection was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    ServerFull,
    TooManyFromAddress,
}

impl Refusal {
    /// The line the player reads.
    pub fn message(self, limit: usize) -> String {
        match self {
            Refusal::ServerFull => {
                "minotty: the server is full right now, please try again in a minute".to_owned()
            }
            Refusal::TooManyFromAddress => format!(
                "minotty: too many connections from your address (limit {limit}), close one and try again"
            ),
        }
    }
}

/// Counts open connections, in total and per client address (IPv6 clients per /64).
#[derive(Debug)]
pub struct ConnectionLimiter {
    max_total: usize,
    max_per_address: usize,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

impl ConnectionLimiter {
    pub fn new(max_total: usize, max_per_address: usize) -> Arc<ConnectionLimiter> {
        Arc::new(ConnectionLimiter {
            max_total,
            max_per_address,
            counts: Mutex::new(Counts::default()),
        })
    }

    /// Takes a slot for a connection from `ip`; the slot is freed when the permit drops.
    pub fn try_acquire(self: &Arc<Self>, ip: IpAddr) -> Result<ConnectionPermit, Refusal> {
        let key = address_key(ip);
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.total >= self.max_total {
            return Err(Refusal::ServerFull);
        }
        let per = counts.per_address.entry(key).or_insert(0);
        if *per >= self.max_per_address {
            return Err(Refusal::TooManyFromAddress);
        }
        *per += 1;
        counts.total += 1;
        Ok(ConnectionPermit {
            limiter: Arc::clone(self),
            key,
        })
    }

    /// Open connections in total.
    pub fn total(&self) -> usize {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .total
    }

    pub fn limit_for(&self, refusal: Refusal) -> usize {
        match refusal {
            Refusal::ServerFull => self.max_total,
            Refusal::TooManyFromAddress => self.max_per_address,
        }
    }
}

/// One open connection's slot.
#[derive(Debug)]
pub struct ConnectionPermit {
    limiter: Arc<ConnectionLimiter>,
    key: IpAddr,
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        let mut counts = self
            .limiter
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        counts.total = counts.total.saturating_sub(1);
        if let Some(per) = counts.per_address.get_mut(&self.key) {
            *per = per.saturating_sub(1);
            if *per == 0 {
                counts.per_address.remove(&self.key);
            }
        }
    }
}

/// IPv4 addresses count alone; IPv6 addresses count per /64 (one subscriber's prefix).
fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
    }
}

/// SSH_DISCONNECT_TOO_MANY_CONNECTIONS (RFC 4250 §4.2.2).
const TOO_MANY_CONNECTIONS: u32 = 12;

/// What a refused client receives: the message as a line before the SSH version (for `nc`),
/// then the version and an unencrypted SSH_MSG_DISCONNECT carrying the message, which OpenSSH
/// prints as "Received disconnect from ...: <message>".
pub fn refusal_bytes(message: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * message.len() + 64);
    out.extend_from_slice(message.as_bytes());
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(crate::SERVER_ID.as_bytes());
    out.extend_from_slice(b"\r\n");

    let mut payload = vec![1u8]; // SSH_MSG_DISCONNECT
    payload.extend_from_slice(&TOO_MANY_CONNECTIONS.to_be_bytes());
    let text = message
        .as_bytes()
        .get(..message.len().min(1024))
        .unwrap_or_default();
    payload.extend_from_slice(&u32::try_from(text.len()).unwrap_or(0).to_be_bytes());
    payload.extend_from_slice(text);
    payload.extend_from_slice(&0u32.to_be_bytes()); // language tag
    // packet_length(4) + padding_length(1) + payload + padding is a multiple of 8, padding >= 4.
    let mut padding = 8 - (5 + payload.len()) % 8;
    if padding < 4 {
        padding += 8;
    }
    let packet_length = 1 + payload.len() + padding;
    out.extend_from_slice(&u32::try_from(packet_length).unwrap_or(0).to_be_bytes());
    out.push(u8::try_from(padding).unwrap_or(8));
    out.extend_from_slice(&payload);
    out.extend(std::iter::repeat_n(0u8, padding));
    out
}

/// Sends the refusal and closes gracefully: the client's own banner is read and discarded so
/// that closing does not reset the connection before the client has read the message.
pub async fn refuse(mut stream: TcpStream, message: &str) {
    let bytes = refusal_bytes(message);
    let exchange = async {
        stream.write_all(&bytes).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        let mut total = 0usize;
        while total < 64 * 1024 {
            let n = stream.read(&mut sink).await?;
            if n == 0 {
                break;
            }
            total += n;
        }
        Ok::<(), std::io::Error>(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), exchange).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_total_and_per_address() {
        let limiter = ConnectionLimiter::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let p1 = limiter.try_acquire(a).unwrap();
        let _p2 = limiter.try_acquire(a).unwrap();
        assert_eq!(
            limiter.try_acquire(a).unwrap_err(),
            Refusal::TooManyFromAddress
        );
        let _p3 = limiter.try_acquire(b).unwrap();
        assert_eq!(limiter.try_acquire(b).unwrap_err(), Refusal::ServerFull);
        drop(p1);
        assert_eq!(limiter.total(), 2);
        let _p4 = limiter.try_acquire(a).unwrap();
        assert_eq!(limiter.total(), 3);
    }

    #[test]
    fn ipv6_counts_per_64_and_mapped_v4_as_v4() {
        let limiter = ConnectionLimiter::new(10, 1);
        let _p = limiter.try_acquire("2001:db8::1".parse().unwrap()).unwrap();
        assert!(limiter.try_acquire("2001:db8::2".parse().unwrap()).is_err());
        assert!(
            limiter
                .try_acquire("2001:db8:0:1::2".parse().unwrap())
                .is_ok()
        );
        let _q = limiter.try_acquire("192.0.2.7".parse().unwrap()).unwrap();
        assert!(
            limiter
                .try_acquire("::ffff:192.0.2.7".parse().unwrap())
                .is_err()
        );
    }

    #[test]
    fn disconnect_packet_is_well_formed() {
        let bytes = refusal_bytes("too many");
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.starts_with("too many\r\nSSH-2.0-"));
        let start = bytes.windows(2).rposition(|w| w == b"\r\n").unwrap() + 2;
        let packet = &bytes[start..];
        let len = u32::from_be_bytes(packet[..4].try_into().unwrap()) as usize;
        assert_eq!(packet.len(), 4 + len);
        assert_eq!(packet.len() % 8, 0);
        let padding = packet[4] as usize;
        assert!(padding >= 4);
        assert_eq!(packet[5], 1);
        assert_eq!(&packet[6..10], &12u32.to_be_bytes());
        assert_eq!(&packet[10..14], &8u32.to_be_bytes());
        assert_eq!(&packet[14..22], b"too many");
    }
}
