//! Instances authenticate and encrypt every message they send each other: the cluster key
//! (`--cluster-key`, shared by every instance and nobody else) seals it with XChaCha20-Poly1305
//! (an AEAD), whose associated data binds the subject, the sender's id, a timestamp and a
//! sequence number to the payload it encrypts. A message that does not open (a forged,
//! changed or moved one), whose timestamp is more than [`MAX_SKEW`] away from this instance's
//! clock, or whose (sender, sequence) was received already, is dropped unread: anyone who can
//! subscribe or publish on the NATS server but lacks the key reads nothing of a payload (room
//! codes, account ids, ranked players' addresses), and can neither forge nor replay a message,
//! nor move one to another subject. Subjects themselves are not encrypted (NATS routes by
//! them).
//!
//! The sealed form, version 2: `MCA2`, the timestamp (ms since the epoch, i64 big-endian), the
//! sequence number (u64 big-endian), this instance's 16-byte nonce prefix, the sender id's
//! length (one byte) and the id, then the ciphertext and its 16-byte tag. The nonce is the
//! prefix (random, drawn when the instance starts) followed by the sequence number (counted
//! from 1 by the instance): it never repeats under one key. The key is derived from the
//! cluster key (HMAC-SHA256 under a label of its own). Version 1 (`MCA1`, an HMAC-SHA256 tag
//! over a plaintext payload) is refused as [`DropReason::Version`], counted and logged, so a
//! cluster of mixed versions says so instead of splitting silently.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use chacha20poly1305::aead::{Aead, Payload};
use chacha20poly1305::{KeyInit, XChaCha20Poly1305, XNonce};
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

const MAGIC: &[u8; 4] = b"MCA2";
/// The magic of the first version (an HMAC over a plaintext payload).
const MAGIC_V1: &[u8; 4] = b"MCA1";
/// The AEAD's tag.
const TAG: usize = 16;
/// The random part of a nonce, drawn once per instance.
const PREFIX: usize = 16;
/// Timestamp, sequence number, nonce prefix and the id's length.
const FIXED: usize = 8 + 8 + PREFIX + 1;
/// What the associated data starts with.
const DOMAIN: &[u8] = b"minotty cluster message v2\0";
/// The label the encryption key is derived under.
const KEY_LABEL: &[u8] = b"minotty cluster encryption key v2\0";

/// The shared cluster key (kept as the AEAD it keys). Never printed: its `Debug` says nothing
/// of it.
#[derive(Clone)]
pub struct ClusterKey(XChaCha20Poly1305);

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
        let mut mac =
            <HmacSha256 as Mac>::new_from_slice(key.as_bytes()).map_err(|_| KeyError::Unusable)?;
        mac.update(KEY_LABEL);
        let derived = mac.finalize().into_bytes();
        let aead = XChaCha20Poly1305::new_from_slice(&derived).map_err(|_| KeyError::Unusable)?;
        Ok(ClusterKey(aead))
    }
}

/// The associated data of a message on `subject` whose header (magic to the id) is `header`.
fn associated(subject: &str, header: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(DOMAIN.len() + 8 + subject.len() + header.len());
    aad.extend_from_slice(DOMAIN);
    aad.extend_from_slice(&(subject.len() as u64).to_be_bytes());
    aad.extend_from_slice(subject.as_bytes());
    aad.extend_from_slice(header);
    aad
}

/// The nonce of the message `seq` of the instance whose prefix is `prefix`.
fn nonce(prefix: &[u8; PREFIX], seq: u64) -> XNonce {
    let mut n = [0u8; PREFIX + 8];
    n[..PREFIX].copy_from_slice(prefix);
    n[PREFIX..].copy_from_slice(&seq.to_be_bytes());
    XNonce::from(n)
}

/// A message that passed: who sent it and what it says.
#[derive(Debug, PartialEq, Eq)]
pub struct Opened<'a> {
    pub sender: &'a str,
    pub body: Vec<u8>,
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
    /// The first part of every nonce this instance seals with (random, drawn at start).
    prefix: [u8; PREFIX],
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
            prefix: rand::random(),
            seq: AtomicU64::new(0),
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// `body` sealed (encrypted and authenticated) for `subject`, at `now_ms` (ms since the
    /// epoch).
    pub fn seal(&self, subject: &str, body: &[u8], now_ms: i64) -> Vec<u8> {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let id = self.id.as_bytes();
        let mut out = Vec::with_capacity(MAGIC.len() + FIXED + id.len() + body.len() + TAG);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&now_ms.to_be_bytes());
        out.extend_from_slice(&seq.to_be_bytes());
        out.extend_from_slice(&self.prefix);
        // An id is a valid part, at most 48 bytes.
        out.push(u8::try_from(id.len()).unwrap_or(u8::MAX));
        out.extend_from_slice(id);
        let aad = associated(subject, &out);
        let payload = Payload {
            msg: body,
            aad: &aad,
        };
        match self.key.0.encrypt(&nonce(&self.prefix, seq), payload) {
            Ok(sealed) => out.extend_from_slice(&sealed),
            // Only for a body past the cipher's length limit (256 GiB): sent as nothing, which
            // no instance opens.
            Err(_) => out.clear(),
        }
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
        let Some(rest) = bytes.strip_prefix(MAGIC) else {
            return Err(if bytes.starts_with(MAGIC_V1) {
                DropReason::Version
            } else {
                DropReason::Unauthenticated
            });
        };
        let (ts, rest) = split::<8>(rest)?;
        let (seq, rest) = split::<8>(rest)?;
        let (prefix, rest) = split::<PREFIX>(rest)?;
        let (&len, rest) = rest.split_first().ok_or(DropReason::Unauthenticated)?;
        let len = usize::from(len);
        if rest.len() < len + TAG {
            return Err(DropReason::Unauthenticated);
        }
        let (id, sealed) = rest.split_at(len);
        let header = &bytes[..MAGIC.len() + FIXED + len];
        let aad = associated(subject, header);
        let payload = Payload {
            msg: sealed,
            aad: &aad,
        };
        let seq = u64::from_be_bytes(seq);
        let body = self
            .key
            .0
            .decrypt(&nonce(&prefix, seq), payload)
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
                body: b"{\"x\":1}".to_vec()
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

    /// What a subscriber to every subject sees of a message carrying a room code, an account id
    /// and a ranked player's address: none of them, in any form it could search for.
    #[test]
    fn a_sealed_payload_shows_nothing_of_what_it_carries() {
        let (a, b) = pair();
        let secrets = ["K7QX2M", "account-48151623", "203.0.113.77"];
        let body = format!(
            "{{\"code\":\"{}\",\"account\":\"{}\",\"addr\":\"{}\"}}",
            secrets[0], secrets[1], secrets[2]
        );
        let sealed = a.seal("minotty.inst.b-00000002.queue", body.as_bytes(), NOW);
        let seen = String::from_utf8_lossy(&sealed).to_lowercase();
        for secret in secrets {
            assert!(
                !seen.contains(&secret.to_lowercase()),
                "{secret} in {seen:?}"
            );
            assert!(
                !sealed
                    .windows(4)
                    .any(|w| secret.as_bytes().windows(4).any(|s| s == w)),
                "4 bytes of {secret} in the sealed bytes"
            );
        }
        assert_eq!(
            sealed.len(),
            MAGIC.len() + FIXED + "a-00000001".len() + body.len() + TAG
        );
        // The receiver reads it all.
        let opened = b
            .open(
                "minotty.inst.b-00000002.queue",
                &sealed,
                NOW,
                Instant::now(),
            )
            .expect("opens");
        assert_eq!(opened.body, body.as_bytes());
    }

    #[test]
    fn a_tampered_ciphertext_is_refused_and_an_old_version_is_named() {
        let (a, b) = pair();
        let now = Instant::now();
        let sealed = a.seal("s", b"{\"code\":\"K7QX2M\"}", NOW);
        let body_at = MAGIC.len() + FIXED + "a-00000001".len();
        // Each byte of the ciphertext and of its tag, and the nonce prefix.
        for at in (body_at..sealed.len()).chain(20..36) {
            let mut bad = sealed.clone();
            bad[at] ^= 0x40;
            assert_eq!(
                b.open("s", &bad, NOW, now),
                Err(DropReason::Unauthenticated),
                "byte {at}"
            );
        }
        // Nothing of it was taken as seen: the real one still opens.
        assert!(b.open("s", &sealed, NOW, now).is_ok());
        // A message of the first version (an HMAC over a plaintext payload).
        let mut v1 = b"MCA1".to_vec();
        v1.extend_from_slice(&sealed[4..]);
        assert_eq!(b.open("s", &v1, NOW, now), Err(DropReason::Version));
    }

    #[test]
    fn nonces_never_repeat_within_an_instance_or_across_instances() {
        let key = ClusterKey::new(KEY).expect("long enough");
        let mut seen = std::collections::HashSet::new();
        for i in 0..8 {
            // Instances of one name, as after restarts, start their sequence again at 1.
            let a = Auth::new(key.clone(), "same-name");
            for _ in 0..64 {
                let sealed = a.seal("s", b"x", NOW);
                let nonce = sealed[12..36].to_vec();
                assert!(seen.insert(nonce), "a nonce repeated (instance {i})");
            }
        }
        // The same body under the same subject never seals to the same bytes.
        let a = Auth::new(key, "a");
        assert_ne!(a.seal("s", b"x", NOW), a.seal("s", b"x", NOW));
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
