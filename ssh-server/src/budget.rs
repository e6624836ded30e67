//! Budgets that bound what one client can make the server do: the token bucket
//! ([`minotty_domain::TokenBucket`], over the caller's milliseconds), and the session's input gate built from it (bytes parsed per second, key
//! events per second, key releases only for keys the App saw pressed). Identical presses in one
//! millisecond are not collapsed here: "22" typed into a name or password field arrives in one
//! packet; the game's own key path collapses them (`minotty_ui::release`).
//!
//! Architecture Invariant: time comes in as the caller's milliseconds; nothing here reads a
//! clock, so the budgets are tested exactly.

use minotty_ui::{Key, KeyEvent, KeyKind};

pub use minotty_domain::TokenBucket;

/// Client bytes parsed in a burst, and per second sustained. A person typing, even with the
/// kitty keyboard protocol (about 10 bytes per press or release), sends a few hundred bytes a
/// second; past the budget, bytes are discarded without being parsed.
pub const INPUT_BYTES_BURST: u64 = 16 * 1024;
pub const INPUT_BYTES_PER_SEC: u64 = 8 * 1024;
/// Bytes that parse to nothing (garbage, sequences the game ignores) in a burst, and per second
/// sustained. While this budget is spent, all input is discarded unparsed.
pub const WASTED_BYTES_BURST: u64 = 1024;
pub const WASTED_BYTES_PER_SEC: u64 = 256;
/// Key events (presses and repeats) handed to the App in a burst, and per second sustained: no
/// person presses more than about ten keys a second.
pub const KEY_EVENTS_BURST: u64 = 300;
pub const KEY_EVENTS_PER_SEC: u64 = 100;
/// Keys the gate remembers as held (so that their releases pass). Terminals without release
/// events never release, so the oldest is forgotten when a new key comes past this many.
const MAX_HELD: usize = 16;

/// What one session lets through from its client to its App.
#[derive(Debug)]
pub struct InputGate {
    bytes: TokenBucket,
    wasted: TokenBucket,
    keys: TokenBucket,
    held: Vec<Key>,
    dropped_bytes: u64,
    dropped_keys: u64,
}

impl InputGate {
    pub fn new(now_ms: u64) -> InputGate {
        InputGate {
            bytes: TokenBucket::new(INPUT_BYTES_BURST, INPUT_BYTES_PER_SEC, now_ms),
            wasted: TokenBucket::new(WASTED_BYTES_BURST, WASTED_BYTES_PER_SEC, now_ms),
            keys: TokenBucket::new(KEY_EVENTS_BURST, KEY_EVENTS_PER_SEC, now_ms),
            held: Vec::new(),
            dropped_bytes: 0,
            dropped_keys: 0,
        }
    }

    /// How many of `len` received bytes may be parsed now; the rest are discarded. Nothing is
    /// parsed while the budget for bytes that parse to nothing is spent.
    pub fn admit_bytes(&mut self, len: usize, now_ms: u64) -> usize {
        let len = u64::try_from(len).unwrap_or(u64::MAX);
        let taken = if self.wasted.available(now_ms) == 0 {
            0
        } else {
            self.bytes.try_take_n(len, now_ms)
        };
        self.dropped_bytes = self.dropped_bytes.saturating_add(len - taken);
        usize::try_from(taken).unwrap_or(0)
    }

    /// Counts `n` parsed bytes that ended in no input against their budget.
    pub fn spend_wasted(&mut self, n: usize, now_ms: u64) {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        self.wasted.try_take_n(n, now_ms);
    }

    /// Whether the App gets this key event. A release passes only for a key the App saw
    /// pressed (so dropping presses never leaves a key stuck, and releases cost no budget);
    /// presses and repeats spend the key budget.
    pub fn admit_key(&mut self, event: &KeyEvent, now_ms: u64) -> bool {
        let pass = match event.kind {
            KeyKind::Release => match self.held.iter().position(|k| *k == event.key) {
                Some(i) => {
                    self.held.swap_remove(i);
                    true
                }
                None => false,
            },
            KeyKind::Press | KeyKind::Repeat => {
                let took = self.keys.try_take(now_ms);
                if took && !self.held.contains(&event.key) {
                    if self.held.len() >= MAX_HELD {
                        self.held.remove(0);
                    }
                    self.held.push(event.key);
                }
                took
            }
        };
        if !pass {
            self.dropped_keys += 1;
        }
        pass
    }

    /// Bytes and key events dropped so far.
    pub fn dropped(&self) -> (u64, u64) {
        (self.dropped_bytes, self.dropped_keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_ui::Mods;

    fn key(c: char, kind: KeyKind) -> KeyEvent {
        KeyEvent {
            key: Key::Char(c),
            mods: Mods::default(),
            kind,
        }
    }

    /// A flood of one key: the first burst passes, then about 100 a second, however many
    /// arrive; (the test that fails without a budget: every event passed).
    #[test]
    fn key_flood_is_held_to_the_budget() {
        let mut gate = InputGate::new(0);
        let mut passed = 0u64;
        // 1,000,000 presses of 'x' spread over 10 seconds.
        for i in 0..1_000_000u64 {
            let t = i / 100_000 * 1000 + i % 1000;
            if gate.admit_key(&key('x', KeyKind::Press), t) {
                passed += 1;
            }
        }
        assert!(passed <= KEY_EVENTS_BURST + 10 * KEY_EVENTS_PER_SEC + 1);
        assert!(passed >= KEY_EVENTS_BURST);
        assert_eq!(gate.dropped().1, 1_000_000 - passed);
    }

    /// Text typed into a field arrives in one packet: a doubled letter is two presses in one
    /// millisecond, and both pass.
    #[test]
    fn doubled_letters_in_one_packet_both_pass() {
        let mut gate = InputGate::new(0);
        for c in "hunter22".chars() {
            assert!(gate.admit_key(&key(c, KeyKind::Press), 5), "{c}");
        }
    }

    #[test]
    fn releases_pass_only_for_pressed_keys_and_cost_nothing() {
        let mut gate = InputGate::new(0);
        // A release of a key never pressed is dropped.
        assert!(!gate.admit_key(&key('a', KeyKind::Release), 0));
        assert!(gate.admit_key(&key('a', KeyKind::Press), 1));
        // Spend the rest of the budget.
        let mut t = 2;
        while gate.admit_key(&key('b', KeyKind::Repeat), t) {
            t += 1;
            if t > 10_000 {
                break;
            }
        }
        assert!(!gate.admit_key(&key('c', KeyKind::Press), t));
        // The budget is empty, yet the held key's release passes: nothing stays stuck.
        assert!(gate.admit_key(&key('a', KeyKind::Release), t));
        assert!(!gate.admit_key(&key('a', KeyKind::Release), t + 1));
    }

    /// Terminals without release events press many keys and release none: every press
    /// passes, the oldest held key is forgotten (its late release is dropped), the newest kept.
    #[test]
    fn held_keys_are_bounded_and_the_oldest_forgotten() {
        let mut gate = InputGate::new(0);
        let chars: Vec<char> = ('a'..='z').collect();
        let passed = chars
            .iter()
            .enumerate()
            .filter(|(i, c)| gate.admit_key(&key(**c, KeyKind::Press), *i as u64))
            .count();
        assert_eq!(passed, chars.len());
        assert_eq!(gate.held.len(), MAX_HELD);
        assert!(!gate.admit_key(&key('a', KeyKind::Release), 100));
        assert!(gate.admit_key(&key('z', KeyKind::Release), 101));
    }

    #[test]
    fn bytes_beyond_the_budget_are_discarded() {
        let mut gate = InputGate::new(0);
        let burst = usize::try_from(INPUT_BYTES_BURST).unwrap_or(0);
        assert_eq!(gate.admit_bytes(burst + 100, 0), burst);
        assert_eq!(gate.admit_bytes(10, 0), 0);
        assert_eq!(gate.admit_bytes(100_000, 1000), 8 * 1024);
        assert_eq!(gate.dropped().0, 100 + 10 + 100_000 - 8 * 1024);
    }

    #[test]
    fn garbage_mutes_input_until_its_budget_refills() {
        let mut gate = InputGate::new(0);
        assert_eq!(gate.admit_bytes(100, 0), 100);
        let burst = usize::try_from(WASTED_BYTES_BURST).unwrap_or(0);
        gate.spend_wasted(burst, 0);
        assert_eq!(gate.admit_bytes(100, 0), 0);
        assert_eq!(gate.admit_bytes(100, 3), 0);
        // 256 a second: one token after 4 ms.
        assert_eq!(gate.admit_bytes(100, 4), 100);
    }
}
