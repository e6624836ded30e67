//! Frame pacing: frames that time makes (gravity, clocks, animations) go out at most once an
//! interval (the player's frame rate, never faster than the server allows); a frame that
//! answers the player's key goes out at once. Time comes in (`now`).

use std::time::Duration;

use tokio::time::Instant;

/// When the next frame may be drawn.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pacer {
    last_frame: Option<Instant>,
    /// The frame to draw answers a key: it is not held back by the frame-rate cap.
    key_frame: bool,
}

impl Pacer {
    /// When a frame may go out, at `now`, with frames `interval` apart.
    pub(super) fn due(&self, now: Instant, interval: Duration) -> Instant {
        if self.key_frame {
            now
        } else {
            self.last_frame.map_or(now, |t| t + interval)
        }
    }

    /// The next frame answers a key.
    pub(super) fn answer_key(&mut self) {
        self.key_frame = true;
    }

    /// A frame was drawn at `now`.
    pub(super) fn drawn(&mut self, now: Instant) {
        self.key_frame = false;
        self.last_frame = Some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STEP: Duration = Duration::from_millis(16);

    #[test]
    fn timed_frames_are_an_interval_apart() {
        let t0 = Instant::now();
        let mut pacer = Pacer::default();
        assert_eq!(pacer.due(t0, STEP), t0, "the first frame at once");
        pacer.drawn(t0);
        let soon = t0 + Duration::from_millis(5);
        assert_eq!(pacer.due(soon, STEP), t0 + STEP);
        pacer.drawn(t0 + STEP);
        assert_eq!(pacer.due(t0 + STEP, STEP * 2), t0 + STEP * 3);
    }

    #[test]
    fn a_key_frame_is_not_held_back_once() {
        let t0 = Instant::now();
        let mut pacer = Pacer::default();
        pacer.drawn(t0);
        let key = t0 + Duration::from_millis(2);
        pacer.answer_key();
        assert_eq!(pacer.due(key, STEP), key);
        pacer.drawn(key);
        assert_eq!(pacer.due(key, STEP), key + STEP, "the cap applies again");
    }
}
