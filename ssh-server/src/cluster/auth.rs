//! Instances authenticate every message they send each other: the cluster key (`--cluster-key`,
//! shared by every instance and nobody else) seals it with an HMAC-SHA256 over the subject,
//! the sender's id, a timestamp, a sequence number and the payload. A message whose seal does
//! not verify, whose timestamp is more than [`MAX_SKEW`] away from this instance's clock, or
//! whose (sender, sequence) was received already, is dropped unread: anyone who can publish
//! on the NATS server but lacks the key can neither forge nor replay a message, nor move one
//! to another subject.
//!
//! The sealed form: `MCA1`, the timestamp (ms since the epoch, i64 big-endian), the sequence
//! number (u64 big-endian), the sender id's length (one byte) and the id, the 32-byte tag, then
//! the payload.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use tokio::time::Instant;

use super::checks::{DropReason, valid_part};

type HmacSha256 = Hmac<Sha256>;

/// The shortest cluster key accepted (characters; 32 random ones give ample strength).
pub const MIN_KEY_LEN: usize = 32;
/// How far a message's timestamp may be from this instance's clock (instances keep their
/// clocks in sync, e.g. with NTP).
pub const MAX_SKEW: Duration = Duration::from_secs(30);
/// Sequence numbers remembered per sender: a message this far behind the sender's latest is
/// dropped as a replay.
const WINDOW: u64 = 1 << 16;
const WORDS: usize = (WINDOW / 64) as usize;
/// The most senders remembered at once (each costs [`WINDOW`] bits).
pub const MAX_SENDERS: usize = 256;

const MAGIC: &[u8; 4] = b"MCA1";
const TAG: usize = 32;
const DOMAIN: &[u8] = b"minotty cluster message v1\0";

/// The shared cluster key (kept as the HMAC state it keys). Never printed: its `Debug` says
/// nothing of it.
#[derive(Clone)]
pub struct ClusterKey(HmacSha256);

impl std::fmt::Debug for ClusterKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClusterKey(<redacted>)")
    }
}

/// Why a cluster key was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error(
        "the cluster key is {0} characters: it needs at least {MIN_KEY_LEN} (e.g. `openssl rand -hex 32`)"
    )]
    TooShort(usize),
    #[error("the cluster key is not usable as an HMAC key")]
    Unusable,
}

impl ClusterKey {
    pub fn new(key: &str) -> Result<ClusterKey, KeyError> {
        let len = key.chars().count();
        if len < MIN_KEY_LEN {
            return Err(KeyError::TooShort(len));
        }
        let mac =
            <HmacSha256 as Mac>::new_from_slice(key.as_bytes()).map_err(|_| KeyError::Unusable)?;
        Ok(ClusterKey(mac))
    }

    fn mac(&self, subject: &str, header: &[u8], body: &[u8]) -> HmacSha256 {
        let mut mac = self.0.clone();
        mac.update(DOMAIN);
        mac.update(&(subject.len() as u64).to_be_bytes());
        mac.update(subject.as_bytes());
        mac.update(header);
        mac.update(body);
        mac
    }
}

/// A message that passed: who sent it and what it says.
#[derive(Debug, PartialEq, Eq)]
pub struct Opened<'a> {
    pub sender: &'a str,
    pub body: &'a [u8],
}

/// The sequence numbers of one sender seen lately.
struct Window {
    top: u64,
    bits: Box<[u64; WORDS]>,
    heard: Instant,
}

impl Window {
    fn new(now: Instant) -> Window {
        Window {
            top: 0,
            bits: Box::new([0; WORDS]),
            heard: now,
        }
    }

    fn bit(seq: u64) -> (usize, u64) {
        let i = seq % WINDOW;
        ((i / 64) as usize, 1 << (i % 64))
    }

    /// `true` the first time `seq` is seen (within the window).
    fn accept(&mut self, seq: u64) -> bool {
        if seq > self.top {
            if seq - self.top >= WINDOW {
                self.bits.fill(0);
            } else {
                for s in self.top + 1..=seq {
                    let (w, b) = Window::bit(s);
                    self.bits[w] &= !b;
                }
            }
            self.top = seq;
        } else if self.top - seq >= WINDOW {
            return false;
        }
        let (w, b) = Window::bit(seq);
        if self.bits[w] & b != 0 {
            return false;
        }
        self.bits[w] |= b;
        true
    }
}

/// This instance's seal and its check of everyone's.
pub struct Auth {
    key: ClusterKey,
    id: String,
    seq: AtomicU64,
    windows: Mutex<HashMap<String, Window>>,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Auth")
            .field("key", &self.key)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl Auth {
    /// Seals as the instance `id` (a [`valid_part`]).
    pub fn new(key: ClusterKey, id: &str) -> Auth {
        Auth {
            key,
            id: id.to_owned(),
            seq: AtomicU64::new(0),
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// `body` sealed for `subject`, at `now_ms` (ms since the epoch).
    pub fn seal(&self, subject: &str, body: &[u8], now_ms: i64) -> Vec<u8> {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let id = self.id.as_bytes();
        let mut out = Vec::with_capacity(MAGIC.len() + 17 + id.len() + TAG + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&now_ms.to_be_bytes());
        out.extend_from_slice(&seq.to_be_bytes());
        // An id is a valid part, at most 48 bytes.
        out.push(u8::try_from(id.len()).unwrap_or(u8::MAX));
        out.extend_from_slice(id);
        let tag = self.key.mac(subject, &out[MAGIC.len()..], body).finalize();
        out.extend_from_slice(&tag.into_bytes());
        out.extend_from_slice(body);
        out
    }

    /// Checks a message received on `subject` at `now_ms` (`now` for forgetting silent
    /// senders); its sender and payload when it is authentic, fresh and never seen before.
    pub fn open<'a>(
        &self,
        subject: &str,
        bytes: &'a [u8],
        now_ms: i64,
        now: Instant,
    ) -> Result<Opened<'a>, DropReason> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or(DropReason::Unauthenticated)?;
        let (ts, rest) = split::<8>(rest)?;
        let (seq, rest) = split::<8>(rest)?;
        let (&len, rest) = rest.split_first().ok_or(DropReason::Unauthenticated)?;
        let len = usize::from(len);
        if rest.len() < len + TAG {
            return Err(DropReason::Unauthenticated);
        }
        let (id, rest) = rest.split_at(len);
        let (tag, body) = rest.split_at(TAG);
        let header_len = 17 + len;
        let header = &bytes[MAGIC.len()..MAGIC.len() + header_len];
        self.key
            .mac(subject, header, body)
            .verify_slice(tag)
            .map_err(|_| DropReason::Unauthenticated)?;
        // Authentic from here: the sender holds the key.
        let sender = std::str::from_utf8(id).map_err(|_| DropReason::BadSubjectPart)?;
        if !valid_part(sender) {
            return Err(DropReason::BadSubjectPart);
        }
        let ts = i64::from_be_bytes(ts);
        let skew = i64::try_from(MAX_SKEW.as_millis()).unwrap_or(i64::MAX);
        if ts.abs_diff(now_ms) > skew.unsigned_abs() {
            return Err(DropReason::Stale);
        }
        let seq = u64::from_be_bytes(seq);
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if !windows.contains_key(sender) {
            if windows.len() >= MAX_SENDERS {
                // Forget the silent first.
                windows.retain(|_, w| now.duration_since(w.heard) < MAX_SKEW);
            }
            if windows.len() >= MAX_SENDERS {
                return Err(DropReason::OverCap);
            }
            windows.insert(sender.to_owned(), Window::new(now));
        }
        let Some(window) = windows.get_mut(sender) else {
            return Err(DropReason::OverCap);
        };
        window.heard = now;
        if !window.accept(seq) {
            return Err(DropReason::Stale);
        }
        Ok(Opened { sender, body })
    }

    /// Forgets senders not heard from for twice [`MAX_SKEW`]: a message of theirs replayed
    /// later is stale by its timestamp.
    pub fn forget_silent(&self, now: Instant) {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        windows.retain(|_, w| now.duration_since(w.heard) < 2 * MAX_SKEW);
    }

    /// Senders remembered now.
    pub fn senders(&self) -> usize {
        self.windows.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

fn split<const N: usize>(b: &[u8]) -> Result<([u8; N], &[u8]), DropReason> {
    let (head, rest) = b
        .split_first_chunk::<N>()
        .ok_or(DropReason::Unauthenticated)?;
    Ok((*head, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "0123456789abcdef0123456789abcdef";
    const NOW: i64 = 1_800_000_000_000;

    fn pair() -> (Auth, Auth) {
        let key = ClusterKey::new(KEY).expect("long enough");
        (
            Auth::new(key.clone(), "a-00000001"),
            Auth::new(key, "b-00000002"),
        )
    }

    #[test]
    fn short_keys_are_refused_and_keys_never_shown() {
        assert_eq!(ClusterKey::new("short").err(), Some(KeyError::TooShort(5)));
        let key = ClusterKey::new(KEY).expect("long enough");
        let shown = format!("{key:?} {:?}", Auth::new(key.clone(), "a"));
        assert!(!shown.contains(KEY), "{shown}");
    }

    #[test]
    fn a_sealed_message_opens_once_with_its_sender() {
        let (a, b) = pair();
        let now = Instant::now();
        let sealed = a.seal("minotty.heartbeat", b"{\"x\":1}", NOW);
        let opened = b.open("minotty.heartbeat", &sealed, NOW + 5, now);
        assert_eq!(
            opened,
            Ok(Opened {
                sender: "a-00000001",
                body: b"{\"x\":1}"
            })
        );
        // The same bytes again: a replay.
        assert_eq!(
            b.open("minotty.heartbeat", &sealed, NOW + 6, now),
            Err(DropReason::Stale)
        );
        // Later messages, in any order within the window, pass once each.
        let m2 = a.seal("s", b"2", NOW);
        let m3 = a.seal("s", b"3", NOW);
        assert!(b.open("s", &m3, NOW, now).is_ok());
        assert!(b.open("s", &m2, NOW, now).is_ok());
        assert_eq!(b.open("s", &m2, NOW, now), Err(DropReason::Stale));
    }

    #[test]
    fn forged_moved_changed_or_old_messages_are_refused() {
        let (a, b) = pair();
        let now = Instant::now();
        let sealed = a.seal("minotty.inst.b.queue", b"{}", NOW);
        // Another subject.
        assert_eq!(
            b.open("minotty.inst.c.queue", &sealed, NOW, now),
            Err(DropReason::Unauthenticated)
        );
        // A changed payload, sender or timestamp.
        for at in [sealed.len() - 1, 30, 8] {
            let mut bad = sealed.clone();
            bad[at] ^= 1;
            assert_eq!(
                b.open("minotty.inst.b.queue", &bad, NOW, now),
                Err(DropReason::Unauthenticated),
                "byte {at}"
            );
        }
        // Another key; no seal at all; cut short.
        let other = Auth::new(
            ClusterKey::new("another key, long enough to be accepted").expect("long"),
            "a-00000001",
        );
        let forged = other.seal("minotty.inst.b.queue", b"{}", NOW);
        for bytes in [&forged[..], b"{}", &sealed[..20]] {
            assert_eq!(
                b.open("minotty.inst.b.queue", bytes, NOW, now),
                Err(DropReason::Unauthenticated)
            );
        }
        // Too old, or from the future.
        let skew = i64::try_from(MAX_SKEW.as_millis()).expect("small");
        let old = a.seal("s", b"", NOW - skew - 1);
        let future = a.seal("s", b"", NOW + skew + 1);
        assert_eq!(b.open("s", &old, NOW, now), Err(DropReason::Stale));
        assert_eq!(b.open("s", &future, NOW, now), Err(DropReason::Stale));
    }

    #[test]
    fn senders_are_bounded_and_forgotten_when_silent() {
        let key = ClusterKey::new(KEY).expect("long enough");
        let b = Auth::new(key.clone(), "b");
        let now = Instant::now();
        for i in 0..MAX_SENDERS {
            let a = Auth::new(key.clone(), &format!("s{i}"));
            assert!(b.open("s", &a.seal("s", b"", NOW), NOW, now).is_ok());
        }
        let late = Auth::new(key.clone(), "late");
        assert_eq!(
            b.open("s", &late.seal("s", b"", NOW), NOW, now),
            Err(DropReason::OverCap)
        );
        assert_eq!(b.senders(), MAX_SENDERS);
        let later = now + 2 * MAX_SKEW;
        b.forget_silent(later);
        assert_eq!(b.senders(), 0);
        assert!(b.open("s", &late.seal("s", b"", NOW), NOW, later).is_ok());
    }

    #[test]
    fn the_window_refuses_what_fell_out_of_it() {
        let mut w = Window::new(Instant::now());
        assert!(w.accept(1));
        assert!(w.accept(WINDOW + 10));
        assert!(!w.accept(1));
        assert!(!w.accept(10));
        assert!(w.accept(11));
        assert!(!w.accept(11));
        assert!(w.accept(3 * WINDOW));
        assert!(!w.accept(WINDOW + 10));
    }
}
