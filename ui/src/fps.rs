//! The frames per second drawn for one player, counted as the frames are drawn.

use std::cell::Cell;

/// Counts frames over windows of at least a second; shows the rate of the last full window.
/// Interior mutability because drawing takes the `App` by shared reference.
#[derive(Debug, Default)]
pub struct FpsMeter {
    /// Front-end time the current window started at, once a frame was drawn.
    start: Cell<Option<u64>>,
    /// Frames drawn in the current window.
    frames: Cell<u32>,
    /// The rate of the last full window.
    shown: Cell<u32>,
}

impl FpsMeter {
    /// Counts a frame drawn at `now` (ms); returns the frames per second to show.
    pub fn frame(&self, now: u64) -> u32 {
        let start = *self.start.get().get_or_insert(now);
        let elapsed = now.saturating_sub(start);
        if elapsed >= 1000 {
            let rate = u64::from(self.frames.get()) * 1000 / elapsed;
            self.shown.set(u32::try_from(rate).unwrap_or(u32::MAX));
            self.start.set(Some(now));
            self.frames.set(1);
        } else {
            self.start.set(Some(start));
            self.frames.set(self.frames.get().saturating_add(1));
        }
        self.shown.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_frames_of_each_second() {
        let m = FpsMeter::default();
        // 30 frames in the first second (every 33 ms), nothing to show yet.
        for i in 0..30 {
            assert_eq!(m.frame(i * 33), 0);
        }
        // The first frame a second on closes the window: 30 frames over 1000 ms.
        assert_eq!(m.frame(1000), 30);
        // Then 10 frames in the next second.
        for i in 1..10 {
            assert_eq!(m.frame(1000 + i * 100), 30);
        }
        assert_eq!(m.frame(2000), 10);
        // A long gap lowers the rate rather than dividing by a stale window.
        assert_eq!(m.frame(6000), 0);
    }
}
