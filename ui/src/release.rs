//! Synthetic key releases for terminals that report none (no kitty keyboard protocol: xterm,
//! tmux, screen, most SSH clients' terminals).
//!
//! Without releases a held key looks like a press followed, after the terminal's repeat delay
//! (250-600 ms on common systems), by a stream of repeated presses at its repeat rate. Following
//! the rules seed's DAS/ARR notes, a key counts as released a timeout after its last press:
//! 150 ms by default (kept below DAS, so that a tap moves once), and while the key repeats,
//! twice the observed repeat cadence clamped to 80..300 ms (the seed's repeat-driven release),
//! so that movement stops soon after the repeats stop without breaking slower repeat rates.
//!
//! Which press is a repeat: a terminal repeats a key only once its repeat delay has passed since
//! the press, so a second press of a key that has not repeated yet, sooner than that delay, is
//! always a new tap (Right, 60 ms, Right is two taps, never a hold). Later, it may be the
//! terminal's first repeat: it is forwarded as a press (it may be one) and the key counts as
//! repeating from then on, so that the presses that follow at the repeat cadence are repeats.
//! The press after it is the ambiguous one: a terminal's second repeat, or the second press of
//! a double tap in the rhythm of play (a press, 0.2-1 s, two presses 35-90 ms apart), which
//! come at the same pace once OpenSSH's 20 ms keystroke timer has moved them. Far slower than
//! two repeats' intervals it is a tap at once. Otherwise it is held back ([`pending_wait`]):
//! the next press at a repeat's pace (or a second press in the same keystroke packet) makes
//! both repeats and the key stays held; none in time makes it a tap, played late
//! ([`Due::Tap`]: a release and a press), never later than the key's release, so that a tap
//! never charges DAS. Nothing pressed is lost; a double tap's second press waits up to 80 ms
//! until the client's repeat is learnt, and rarely after (BENCHMARKS.md, "Taps and holds
//! without key releases"). This holds for every key alike: for a move, a rotation or a hard
//! drop the terminal's repeats must do nothing (the engine repeats only moves, by its DAS),
//! and a double tap must act twice; only the first repeat, which nothing can tell from a
//! tap when it comes, acts (a held hard drop drops two pieces, a held rotation turns twice).
//! The delay is learnt per client from its holds (a press, a first repeat, then a second repeat
//! at the cadence confirms it), and until then a floor of [`DEFAULT_DELAY_FLOOR_MS`] stands in;
//! once learnt, a press later than five quarters of it ([`delay_ceiling`]) is a tap too.
//! Presses of a held key in the same millisecond collapse into the first: OS key repeat never
//! sends two at once, and a batch of the same key pasted or flooded in one packet must not
//! become a release and a press each (two engine inputs a byte, against the game's input
//! budget).
//!
//! With real releases (kitty keyboard protocol) nothing is made up: presses and releases pass
//! through as they come, repeats are dropped, and the engine's DAS is exact.
//!
//! Architecture Invariant: this module is pure: time comes in as the caller's milliseconds.

use crate::keys::{Key, KeyKind};

/// The default release timeout after a press (before any repeat is seen).
pub const DEFAULT_TIMEOUT_MS: u64 = 150;
/// The clamp of the repeat-driven timeout.
pub const REPEAT_TIMEOUT_MIN_MS: u64 = 80;
pub const REPEAT_TIMEOUT_MAX_MS: u64 = 300;
/// How soon after a press a terminal's first repeat can come, until the client's own delay is
/// learnt: terminals start repeating 250-600 ms after a press (short settings go to ~200 ms).
pub const DEFAULT_DELAY_FLOOR_MS: u64 = 200;
/// The floor never goes below this, whatever was learnt: two presses this close are two taps.
pub const MIN_DELAY_FLOOR_MS: u64 = 150;
/// A second press later than this after the first is never its first repeat.
pub const MAX_DELAY_MS: u64 = 1000;
/// Before a cadence is learnt, a repeat confirming a hold comes sooner than this.
pub const UNLEARNT_CADENCE_MAX_MS: u64 = 60;
/// Keys tracked at once; terminals without releases only auto-repeat the last key anyway.
const MAX_HELD: usize = 8;

/// What a synthetic event due at a time is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// The key comes up.
    Release,
    /// A press held back as perhaps a repeat turned out a tap: release the key, then press it.
    Tap,
}

/// What the caller should do with an incoming key event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forward {
    /// A new press.
    Press,
    /// The key was held and pressed again as a fresh tap: release it, then press it.
    Repress,
    /// The key was released.
    Release,
    /// Nothing to do (a repeat of a held key, or a release of a key not held).
    Nothing,
}

#[derive(Clone, Copy, Debug)]
struct Held {
    key: Key,
    /// The press that began this tap or hold.
    pressed: u64,
    /// The last event of the key.
    last: u64,
    deadline: u64,
    /// Whether the key counts as down; once its release is made up the record stays, to tell
    /// the terminal's first repeat from a new press.
    down: bool,
    /// Repeats were seen since the key was (re)pressed.
    repeating: bool,
    /// The delay from the press to what may be the first repeat, learnt once a second repeat
    /// confirms it.
    first_delay: Option<u64>,
    /// A press at a repeat's pace after what may be the first repeat, held back: the next press
    /// at the cadence makes them repeats, none by `deadline` makes it a tap ([`Due::Tap`]).
    pending: Option<u64>,
}

/// Tracks held keys and their synthetic release deadlines.
#[derive(Clone, Debug)]
pub struct ReleaseSynth {
    synthesize: bool,
    timeout: u64,
    /// The observed repeat interval (a running average), once seen.
    cadence: Option<u64>,
    /// The observed repeat delay (press to first repeat, a running average), once seen.
    delay: Option<u64>,
    held: [Option<Held>; MAX_HELD],
}

impl Default for ReleaseSynth {
    fn default() -> Self {
        ReleaseSynth::new(false, DEFAULT_TIMEOUT_MS)
    }
}

/// The release timeout after a fresh press: the player's setting, kept below DAS so that a tap
/// never charges an auto-shift (with a timeout equal to DAS the shift would fire first).
pub fn initial_timeout(setting_ms: u64, das_ms: u64) -> u64 {
    let t = setting_ms.max(1);
    if das_ms >= 2 { t.min(das_ms - 1) } else { t }
}

/// The release timeout while a key repeats at `cadence` ms: two intervals, clamped.
pub fn repeat_timeout(cadence: Option<u64>) -> u64 {
    cadence
        .map_or(0, |c| c.saturating_mul(2))
        .clamp(REPEAT_TIMEOUT_MIN_MS, REPEAT_TIMEOUT_MAX_MS)
}

/// How long after a press a second press may be the terminal's first repeat: three quarters
/// of the learnt delay (network jitter), or [`DEFAULT_DELAY_FLOOR_MS`] before any is learnt.
pub fn delay_floor(delay: Option<u64>) -> u64 {
    delay
        .map_or(DEFAULT_DELAY_FLOOR_MS, |d| d - d / 4)
        .clamp(MIN_DELAY_FLOOR_MS, MAX_DELAY_MS)
}

/// How long after a press a second press may still be the terminal's first repeat: five
/// quarters of the learnt delay (a keyboard's delay is fixed; the SSH path moves it by tens of
/// ms at most), or [`MAX_DELAY_MS`] before any is learnt.
pub fn delay_ceiling(delay: Option<u64>) -> u64 {
    delay.map_or(MAX_DELAY_MS, |d| d + d / 4).min(MAX_DELAY_MS)
}

/// OpenSSH (9.5 on) sends keystrokes on a 20 ms timer: an interval between two presses can
/// arrive a slot longer or shorter than it was made (a repeat every 40 ms as 60 then 20).
pub const SLOT_MS: u64 = 20;

/// The slowest interval between repeats at `cadence` ([`fits_cadence`]).
pub fn repeat_bound(cadence: Option<u64>) -> u64 {
    match cadence {
        Some(c) => c + (c / 2).max(10),
        None => UNLEARNT_CADENCE_MAX_MS - 1,
    }
}

/// How long a press `interval` ms after a possible first repeat is held back, waiting for the
/// next repeat: until the two intervals together would be slower than two repeats (one of
/// them may be a slot long and the other a slot short), and at most one repeat's interval,
/// and a slot more.
pub fn pending_wait(interval: u64, cadence: Option<u64>) -> u64 {
    let bound = repeat_bound(cadence);
    (2 * bound).saturating_sub(interval).min(bound) + SLOT_MS
}

/// Whether `interval` after a possible first repeat is the next repeat: within half the
/// learnt cadence (at least 10 ms) of it, or, before any is learnt, under
/// [`UNLEARNT_CADENCE_MAX_MS`] (terminals repeat at 25-40 per second; nobody taps one key
/// that fast).
pub fn fits_cadence(interval: u64, cadence: Option<u64>) -> bool {
    interval <= repeat_bound(cadence)
}

impl ReleaseSynth {
    /// `synthesize`: whether releases must be made up; `timeout`: see [`initial_timeout`].
    pub fn new(synthesize: bool, timeout: u64) -> ReleaseSynth {
        ReleaseSynth {
            synthesize,
            timeout: timeout.max(1),
            cadence: None,
            delay: None,
            held: [None; MAX_HELD],
        }
    }

    pub fn synthesizes(&self) -> bool {
        self.synthesize
    }

    pub fn set_synthesize(&mut self, on: bool) {
        self.synthesize = on;
        if !on {
            self.clear();
        }
    }

    pub fn set_timeout(&mut self, timeout: u64) {
        self.timeout = timeout.max(1);
    }

    /// The repeat cadence observed so far.
    pub fn cadence(&self) -> Option<u64> {
        self.cadence
    }

    /// The repeat delay observed so far.
    pub fn delay(&self) -> Option<u64> {
        self.delay
    }

    /// Forgets every held key (no releases are produced). What was learnt of the terminal's
    /// repeat delay and cadence stays.
    pub fn clear(&mut self) {
        self.held = [None; MAX_HELD];
    }

    /// Classifies one event of a (normalised) key at `now`.
    pub fn on_event(&mut self, key: Key, kind: KeyKind, now: u64) -> Forward {
        if !self.synthesize {
            return match kind {
                KeyKind::Press => Forward::Press,
                KeyKind::Repeat => Forward::Nothing,
                KeyKind::Release => Forward::Release,
            };
        }
        let slot = self
            .held
            .iter()
            .position(|h| h.is_some_and(|h| h.key == key));
        let rec = slot.and_then(|i| self.held[i].map(|h| (i, h)));
        match (kind, rec) {
            (KeyKind::Release, Some((i, h))) => {
                self.held[i] = None;
                if h.down {
                    Forward::Release
                } else {
                    Forward::Nothing
                }
            }
            (KeyKind::Release, None) => Forward::Nothing,
            (KeyKind::Repeat, Some((i, h))) if h.down => {
                self.repeat(i, now);
                Forward::Nothing
            }
            (KeyKind::Repeat, _) => {
                // The key is still down after all: its release was made up too early.
                self.insert(key, now, true);
                Forward::Press
            }
            (KeyKind::Press, None) => {
                self.insert(key, now, false);
                Forward::Press
            }
            (KeyKind::Press, Some((i, h))) => self.press(i, h, now),
        }
    }

    /// A press of a key with a record `h` in slot `i`.
    fn press(&mut self, i: usize, h: Held, now: u64) -> Forward {
        // Presses in the same millisecond arrived in one batch (a paste, a flood, or taps held
        // up by the network): they collapse into the press already held, so that a flood
        // costs the game no inputs.
        if let Some(p) = h.pending.filter(|&p| h.down && now <= p) {
            // Two presses of one key in one keystroke packet after a possible first repeat:
            // nobody taps a key twice within one 20 ms slot, so they are repeats.
            self.repeat(i, p);
            return Forward::Nothing;
        }
        if h.down && now <= h.last {
            return Forward::Nothing;
        }
        let again = if h.down {
            Forward::Repress
        } else {
            Forward::Press
        };
        if h.repeating {
            if h.down {
                if let Some(p) = h.pending {
                    // The held-back press is followed at the cadence (its deadline has not
                    // passed): both are repeats of a held key.
                    self.repeat(i, p);
                    self.repeat(i, now);
                    return Forward::Nothing;
                }
                if h.first_delay.is_some() {
                    let interval = now - h.last;
                    if interval > 2 * repeat_bound(self.cadence) {
                        // What looked like the first repeat is not followed at a repeat's
                        // pace: it was a press after a pause, and this is another tap.
                        self.insert(h.key, now, false);
                        return Forward::Repress;
                    }
                    // Near a repeat's pace, but a double tap after a press has it too: wait
                    // for the next repeat before calling it one, and no later than the key's
                    // release, so that a tap never stays down long enough to charge DAS.
                    self.held[i] = Some(Held {
                        pending: Some(now),
                        deadline: (now + pending_wait(interval, self.cadence)).min(h.deadline),
                        ..h
                    });
                    return Forward::Nothing;
                }
                self.repeat(i, now);
                return Forward::Nothing;
            }
            // The repeats stopped and the release was made up. Soon after, this is the same
            // stream held up (the key is still down: it repeats on); later, a new press.
            if now - h.last < 2 * repeat_timeout(self.cadence) {
                self.insert(h.key, now, true);
            } else {
                self.insert(h.key, now, false);
            }
            return Forward::Press;
        }
        let since = now.saturating_sub(h.pressed);
        if since < delay_floor(self.delay) || since > delay_ceiling(self.delay) {
            // Too soon for the terminal to repeat the key (or far too late): a new tap.
            self.insert(h.key, now, false);
            return again;
        }
        // Perhaps the terminal's first repeat, perhaps a new press: the key is down either
        // way, and counts as repeating, so that the repeats that may follow are not taps. Its
        // release comes as after a press, unless the cadence needs longer to reach the next
        // repeat: a lone second tap must not charge DAS.
        let wait = self
            .timeout
            .max(self.cadence.map_or(0, |c| c + c / 2))
            .max(1);
        self.held[i] = Some(Held {
            last: now,
            deadline: now + wait,
            down: true,
            repeating: true,
            first_delay: Some(since),
            pending: None,
            ..h
        });
        if h.down {
            Forward::Nothing
        } else {
            Forward::Press
        }
    }

    /// When the next synthetic release is due.
    pub fn next_deadline(&self) -> Option<u64> {
        self.held
            .iter()
            .flatten()
            .filter(|h| h.down)
            .map(|h| h.deadline)
            .min()
    }

    /// Takes the earliest synthetic event due at or before `now`: the key, the time it is
    /// due, and what it is.
    pub fn pop_due(&mut self, now: u64) -> Option<(Key, u64, Due)> {
        let (i, h) = self
            .held
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.map(|h| (i, h)))
            .filter(|(_, h)| h.down && h.deadline <= now)
            .min_by_key(|(_, h)| h.deadline)?;
        let at = h.deadline;
        if h.pending.is_some() {
            // No repeat followed the held-back press: it was a tap, pressed again now. The key
            // may still be a hold whose next repeat the network held up: a press at the pace
            // that follows is held back in its turn, never a stream of taps.
            self.held[i] = Some(Held {
                last: h.pending.unwrap_or(h.last),
                pending: None,
                deadline: at + self.timeout,
                ..h
            });
            return Some((h.key, at, Due::Tap));
        }
        self.held[i] = Some(Held { down: false, ..h });
        Some((h.key, at, Due::Release))
    }

    fn repeat(&mut self, i: usize, now: u64) {
        let Some(h) = &mut self.held[i] else { return };
        let interval = now.saturating_sub(h.last);
        if interval > 0 {
            self.cadence = Some(match self.cadence {
                None => interval,
                Some(c) => (3 * c + interval) / 4,
            });
            // A second repeat at the cadence: the first one was a repeat, after this delay.
            if let Some(d) = h.first_delay.take() {
                self.delay = Some(match self.delay {
                    None => d,
                    Some(x) => (3 * x + d) / 4,
                });
            }
        }
        h.last = now;
        h.pending = None;
        h.repeating = true;
        h.deadline = now + repeat_timeout(self.cadence);
    }

    fn insert(&mut self, key: Key, now: u64, repeating: bool) {
        let deadline = now
            + if repeating {
                repeat_timeout(self.cadence)
            } else {
                self.timeout
            };
        let held = Held {
            key,
            pressed: now,
            last: now,
            deadline,
            down: true,
            repeating,
            first_delay: None,
            pending: None,
        };
        let i = self
            .held
            .iter()
            .position(|h| h.is_some_and(|h| h.key == key))
            .or_else(|| self.held.iter().position(Option::is_none))
            .or_else(|| {
                // Full: forget a released key first, then the one pressed longest ago.
                (0..MAX_HELD).min_by_key(|&i| self.held[i].map_or((false, 0), |h| (h.down, h.last)))
            })
            .unwrap_or(0);
        self.held[i] = Some(held);
    }
}

#[cfg(test)]
mod population;
#[cfg(test)]
mod tests;
