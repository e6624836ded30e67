//! Synthetic key releases for terminals that report none (no kitty keyboard protocol: xterm,
//! tmux, screen, most SSH clients' terminals).
//!
//! Without releases a held key looks like a press followed, after the OS repeat delay, by a
//! stream of repeated presses. Following the rules seed's DAS/ARR notes, a key counts as
//! released a timeout after its last press: 150 ms by default (kept below DAS, so that a tap
//! moves once), and once the terminal's repeat cadence has been observed, twice that cadence
//! clamped to 80..300 ms, so that movement stops soon after the repeats stop without breaking
//! slower repeat rates. A press of a held key is a repeat when it fits the cadence, and a fresh
//! tap (release, then press again) when it does not. Presses of a held key in the same
//! millisecond collapse into the first: OS key repeat never sends two at once, and a batch of
//! the same key pasted or flooded in one packet must not become a release and a press each
//! (two engine inputs a byte, against the game's input budget).
//!
//! Architecture Invariant: this module is pure: time comes in as the caller's milliseconds.

use crate::keys::{Key, KeyKind};

/// The default release timeout after a press (before any repeat is seen).
pub const DEFAULT_TIMEOUT_MS: u64 = 150;
/// The clamp of the repeat-driven timeout.
pub const REPEAT_TIMEOUT_MIN_MS: u64 = 80;
pub const REPEAT_TIMEOUT_MAX_MS: u64 = 300;
/// Keys tracked at once; terminals without releases only auto-repeat the last key anyway.
const MAX_HELD: usize = 8;

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
    last: u64,
    deadline: u64,
    /// Repeats were seen since the key was (re)pressed.
    repeating: bool,
}

/// Tracks held keys and their synthetic release deadlines.
#[derive(Clone, Debug)]
pub struct ReleaseSynth {
    synthesize: bool,
    timeout: u64,
    /// The observed repeat interval (a running average), once seen.
    cadence: Option<u64>,
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

impl ReleaseSynth {
    /// `synthesize`: whether releases must be made up; `timeout`: see [`initial_timeout`].
    pub fn new(synthesize: bool, timeout: u64) -> ReleaseSynth {
        ReleaseSynth {
            synthesize,
            timeout: timeout.max(1),
            cadence: None,
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

    /// Forgets every held key (no releases are produced).
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
        match (kind, slot) {
            (KeyKind::Release, Some(i)) => {
                self.held[i] = None;
                Forward::Release
            }
            (KeyKind::Release, None) => Forward::Nothing,
            (KeyKind::Repeat, Some(i)) => {
                self.repeat(i, now);
                Forward::Nothing
            }
            (KeyKind::Repeat, None) => {
                // The key is still down after all: its release was made up too early.
                self.insert(key, now, true);
                Forward::Press
            }
            (KeyKind::Press, None) => {
                self.insert(key, now, false);
                Forward::Press
            }
            (KeyKind::Press, Some(i)) => {
                let Some(h) = self.held[i] else {
                    return Forward::Nothing;
                };
                // Presses in the same millisecond arrived in one batch (a paste, a flood, or
                // taps held up by the network): they collapse into the press already held,
                // so that a flood costs the game no inputs.
                let interval = now.saturating_sub(h.last);
                if interval == 0 {
                    return Forward::Nothing;
                }
                if h.repeating || interval < repeat_timeout(self.cadence) {
                    self.repeat(i, now);
                    Forward::Nothing
                } else {
                    self.held[i] = Some(Held {
                        last: now,
                        deadline: now + self.timeout,
                        repeating: false,
                        ..h
                    });
                    Forward::Repress
                }
            }
        }
    }

    /// When the next synthetic release is due.
    pub fn next_deadline(&self) -> Option<u64> {
        self.held.iter().flatten().map(|h| h.deadline).min()
    }

    /// Takes the earliest release due at or before `now`, with the time it is due.
    pub fn pop_due(&mut self, now: u64) -> Option<(Key, u64)> {
        let (i, h) = self
            .held
            .iter()
            .enumerate()
            .filter_map(|(i, h)| h.map(|h| (i, h)))
            .filter(|(_, h)| h.deadline <= now)
            .min_by_key(|(_, h)| h.deadline)?;
        self.held[i] = None;
        Some((h.key, h.deadline))
    }

    fn repeat(&mut self, i: usize, now: u64) {
        let Some(h) = &mut self.held[i] else { return };
        let interval = now.saturating_sub(h.last);
        if interval > 0 {
            self.cadence = Some(match self.cadence {
                None => interval,
                Some(c) => (3 * c + interval) / 4,
            });
        }
        h.last = now;
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
            last: now,
            deadline,
            repeating,
        };
        let i = self
            .held
            .iter()
            .position(Option::is_none)
            .or_else(|| {
                // Full: forget the key pressed longest ago.
                (0..MAX_HELD).min_by_key(|&i| self.held[i].map_or(0, |h| h.last))
            })
            .unwrap_or(0);
        self.held[i] = Some(held);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Forward::*;
    use KeyKind::{Press as P, Release as R, Repeat as Rep};

    const L: Key = Key::Left;

    /// Runs `(time, kind, expected forward, expected next deadline)` rows, popping due
    /// releases before each event and checking they happen at `releases`.
    fn run(
        synth: &mut ReleaseSynth,
        rows: &[(u64, KeyKind, Forward, Option<u64>)],
        releases: &[u64],
    ) {
        let mut released = Vec::new();
        for &(t, kind, fwd, next) in rows {
            while let Some((_, at)) = synth.pop_due(t) {
                released.push(at);
            }
            assert_eq!(synth.on_event(L, kind, t), fwd, "forward at {t}");
            assert_eq!(synth.next_deadline(), next, "deadline after {t}");
        }
        while let Some((_, at)) = synth.pop_due(u64::MAX) {
            released.push(at);
        }
        assert_eq!(released, releases);
    }

    #[test]
    fn initial_timeout_table() {
        for (setting, das, expected) in [
            (150, 150, 149),
            (150, 200, 150),
            (100, 150, 100),
            (300, 167, 166),
            (150, 0, 150),
            (150, 1, 150),
            (0, 150, 1),
        ] {
            assert_eq!(initial_timeout(setting, das), expected, "{setting} {das}");
        }
    }

    #[test]
    fn repeat_timeout_table() {
        for (cadence, expected) in [
            (None, 80),
            (Some(20), 80),
            (Some(40), 80),
            (Some(50), 100),
            (Some(100), 200),
            (Some(150), 300),
            (Some(400), 300),
        ] {
            assert_eq!(repeat_timeout(cadence), expected, "{cadence:?}");
        }
    }

    #[test]
    fn a_tap_is_released_before_das() {
        let mut s = ReleaseSynth::new(true, initial_timeout(150, 150));
        run(&mut s, &[(1000, P, Press, Some(1149))], &[1149]);
    }

    #[test]
    fn a_hold_with_os_repeats_follows_the_cadence() {
        let mut s = ReleaseSynth::new(true, 149);
        // Press, OS repeat delay of 400 ms, then repeats every 40 ms, then the key goes up.
        run(
            &mut s,
            &[
                (0, P, Press, Some(149)),
                (400, P, Press, Some(549)),
                (440, P, Nothing, Some(520)),
                (480, P, Nothing, Some(560)),
                (520, P, Nothing, Some(600)),
            ],
            &[149, 600],
        );
        assert_eq!(s.cadence(), Some(40));
    }

    #[test]
    fn slow_explicit_repeats_stretch_the_timeout() {
        let mut s = ReleaseSynth::new(true, 149);
        run(
            &mut s,
            &[
                (0, P, Press, Some(149)),
                (500, Rep, Press, Some(580)),
                (560, Rep, Nothing, Some(680)),
                (670, Rep, Nothing, Some(814)),
                (770, Rep, Nothing, Some(928)),
            ],
            &[149, 928],
        );
        // 60, then (3*60 + 110) / 4 = 72, then (3*72 + 100) / 4 = 79.
        assert_eq!(s.cadence(), Some(79));
    }

    #[test]
    fn a_quick_second_tap_is_a_fresh_press() {
        let mut s = ReleaseSynth::new(true, 149);
        run(
            &mut s,
            &[(0, P, Press, Some(149)), (110, P, Repress, Some(259))],
            &[259],
        );
        // After a 40 ms cadence is known, 90 ms is still too slow to be a repeat.
        let mut s = ReleaseSynth::new(true, 149);
        s.cadence = Some(40);
        run(
            &mut s,
            &[
                (0, P, Press, Some(149)),
                (90, P, Repress, Some(239)),
                (120, P, Nothing, Some(200)),
            ],
            &[200],
        );
    }

    #[test]
    fn presses_in_one_millisecond_collapse_into_one() {
        // These were separate taps (a release and a press each) until a flood of one key in
        // one packet turned out to double the engine inputs it caused: now the repeats in the
        // same millisecond do nothing, and the key stays held with its first deadline.
        let mut s = ReleaseSynth::new(true, 149);
        run(
            &mut s,
            &[
                (0, P, Press, Some(149)),
                (0, P, Nothing, Some(149)),
                (0, P, Nothing, Some(149)),
            ],
            &[149],
        );
        // A thousand presses of one key in one millisecond: one press, no repeat cadence
        // learnt from them, one release.
        let mut s = ReleaseSynth::new(true, 149);
        assert_eq!(s.on_event(L, P, 0), Press);
        for _ in 0..1000 {
            assert_eq!(s.on_event(L, P, 0), Nothing);
        }
        assert_eq!(s.cadence(), None);
        assert_eq!(s.next_deadline(), Some(149));
    }

    #[test]
    fn real_releases_win_and_clear_forgets() {
        let mut s = ReleaseSynth::new(true, 149);
        run(
            &mut s,
            &[
                (0, P, Press, Some(149)),
                (50, R, Release, None),
                (60, R, Nothing, None),
            ],
            &[],
        );
        s.on_event(L, P, 100);
        s.clear();
        assert_eq!(s.next_deadline(), None);
        assert_eq!(s.pop_due(u64::MAX), None);
    }

    #[test]
    fn without_synthesis_events_pass_through() {
        let mut s = ReleaseSynth::new(false, 149);
        run(
            &mut s,
            &[
                (0, P, Press, None),
                (30, Rep, Nothing, None),
                (200, R, Release, None),
            ],
            &[],
        );
    }

    #[test]
    fn many_keys_never_overflow() {
        let mut s = ReleaseSynth::new(true, 149);
        for (i, c) in ('a'..='z').enumerate() {
            assert_eq!(s.on_event(Key::Char(c), P, i as u64), Press);
        }
        let mut n = 0;
        while s.pop_due(u64::MAX).is_some() {
            n += 1;
        }
        assert_eq!(n, MAX_HELD);
    }
}
