//! Keys that arrive on OpenSSH's keystroke grid (issue 41, item 1).
//!
//! OpenSSH 9.5 and newer obscure keystroke timing by default (`ObscureKeystrokeTiming`): the
//! client holds every key until the next tick of a 20 ms timer, so a player loses up to 20 ms on
//! each key without knowing it. What the server sees is packets whose arrival times, modulo
//! 20 ms, crowd into a few milliseconds (the grid's phase, plus the path's jitter), where a
//! player's own timing spreads them over all twenty.
//!
//! [`KeyGrid`] keeps the phases of the last [`WINDOW`] arrivals (keys at the same millisecond
//! came in one packet and count once) and concludes once at least [`ON_GRID`] of them fall in
//! one [`SPREAD_MS`]-wide slice of the 20 ms cycle. A player's keys at random times land in a
//! given 8 ms slice 40 % of the time: 44 of 48 there has a chance of about 2e-12 per look (the
//! binomial tail, times the 20 slices), so uniformly random keys do not raise it (`tests`: a
//! million of them), while keys on the grid with up to 7 ms of jitter raise it by the 48th
//! packet. Deterministic and clock-free: the caller passes each arrival's time.

/// OpenSSH's default `ObscureKeystrokeTiming` interval (ms).
pub const GRID_MS: u64 = 20;
/// Arrivals looked at.
pub const WINDOW: usize = 48;
/// How many of them must share a slice.
pub const ON_GRID: usize = 44;
/// The slice of the cycle they must share (ms): the path's jitter from one packet to another.
pub const SPREAD_MS: u64 = 8;

/// What a player whose keys are on the grid is told (the game's footer, once).
pub const NOTICE: &str = "ssh delays keys: add -o ObscureKeystrokeTiming=no";

/// The detector. `Default` is empty.
#[derive(Clone, Debug)]
pub struct KeyGrid {
    /// The phases (arrival time mod [`GRID_MS`]) of the last arrivals, oldest overwritten.
    phases: [u8; WINDOW],
    /// Arrivals seen (distinct milliseconds), up to the window's worth counting.
    seen: usize,
    next: usize,
    last: Option<u64>,
    detected: bool,
}

impl Default for KeyGrid {
    fn default() -> Self {
        KeyGrid {
            phases: [0; WINDOW],
            seen: 0,
            next: 0,
            last: None,
            detected: false,
        }
    }
}

impl KeyGrid {
    /// Takes one key's arrival time (ms); returns `true` the one time the grid is recognised.
    pub fn observe(&mut self, t: u64) -> bool {
        if self.detected || self.last == Some(t) {
            return false;
        }
        self.last = Some(t);
        self.phases[self.next] = (t % GRID_MS) as u8;
        self.next = (self.next + 1) % WINDOW;
        self.seen = (self.seen + 1).min(WINDOW);
        if self.seen < WINDOW {
            return false;
        }
        self.detected = self.crowded() >= ON_GRID;
        self.detected
    }

    /// Whether the keys were found on the grid.
    pub fn detected(&self) -> bool {
        self.detected
    }

    /// The most phases in any slice of [`SPREAD_MS`] of the cycle (wrapping round).
    fn crowded(&self) -> usize {
        let mut counts = [0usize; GRID_MS as usize];
        for &p in &self.phases {
            counts[usize::from(p)] += 1;
        }
        (0..GRID_MS as usize)
            .map(|start| {
                (0..SPREAD_MS as usize)
                    .map(|d| counts[(start + d) % GRID_MS as usize])
                    .sum()
            })
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_engine::rng::SplitMix;

    /// Keys at a player's pace (one every `gap` ms, drawn uniformly) held to the grid of
    /// `phase` and then late by 0 to `jitter - 1` ms: when the detector concludes, in packets.
    fn on_grid(seed: u32, phase: u64, jitter: u32, gap: (u32, u32)) -> Option<usize> {
        let mut rng = SplitMix::new(seed, 5);
        let mut g = KeyGrid::default();
        let mut t = 1_000u64;
        for packet in 1..=2_000 {
            t += u64::from(gap.0 + rng.below(gap.1 - gap.0));
            let slot = t.div_ceil(GRID_MS) * GRID_MS + phase;
            let arrival = slot + u64::from(rng.below(jitter));
            if g.observe(arrival) {
                return Some(packet);
            }
        }
        None
    }

    #[test]
    fn keys_on_the_grid_are_found_by_the_48th_packet() {
        // (jitter up to, ms) at any phase and pace of play.
        for jitter in [1, 4, 8] {
            for seed in 0..50 {
                let found = on_grid(seed, u64::from(seed % 20), jitter, (40, 400));
                assert_eq!(found, Some(WINDOW), "jitter {jitter} seed {seed}");
            }
        }
    }

    #[test]
    fn a_grid_whose_phase_moved_is_found_a_window_after_the_move() {
        // OpenSSH's timer starts afresh after a pause: 20 packets at one phase, then the rest
        // at another, 10 ms away.
        let mut g = KeyGrid::default();
        let mut found = None;
        for packet in 1..=200u64 {
            let phase = if packet <= 20 { 3 } else { 13 };
            if g.observe(packet * 100 + phase) {
                found = Some(packet);
                break;
            }
        }
        let found = found.expect("found");
        assert!(
            found > WINDOW as u64 && found <= 20 + WINDOW as u64,
            "{found}"
        );
    }

    #[test]
    fn uniformly_random_keys_never_raise_it() {
        // The load tool's players: keys at uniformly random times, four a second.
        for seed in 0..20 {
            let mut rng = SplitMix::new(seed, 9);
            let mut g = KeyGrid::default();
            let mut t = 0u64;
            for _ in 0..50_000 {
                t += 1 + u64::from(rng.below(500));
                assert!(!g.observe(t), "seed {seed}: a false alarm at {t}");
            }
        }
    }

    #[test]
    fn it_concludes_once_and_a_packet_counts_once() {
        let mut g = KeyGrid::default();
        let mut hits = 0;
        for i in 0..200u64 {
            // Two keys in each packet: the second at the same millisecond counts nothing.
            hits += usize::from(g.observe(i * 60 + 3));
            hits += usize::from(g.observe(i * 60 + 3));
        }
        assert_eq!(hits, 1);
        assert!(g.detected());
        let mut fresh = KeyGrid::default();
        for i in 0..WINDOW as u64 - 1 {
            assert!(!fresh.observe(i * 40 + 7), "not before {WINDOW} packets");
        }
        assert!(fresh.observe(WINDOW as u64 * 40 + 7));
    }
}
