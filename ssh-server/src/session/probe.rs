//! The terminal doctor's probe in a session: asked for by the App, started once the keyboard
//! handshake is over and no frame is pending (its questions must not interleave with a
//! frame), polled at its deadlines, and its report handed back when done. Time comes in (the
//! session's milliseconds).

use minotty_ui::doctor::DoctorReport;

use crate::doctor::Prober;

use super::negotiation::Negotiation;

/// The doctor's side of one session.
#[derive(Debug, Default)]
pub(super) struct DoctorProbe {
    /// The App asked for the doctor and the probe has not started.
    wanted: bool,
    /// The probe running (frames wait while it asks).
    prober: Option<Prober>,
}

impl DoctorProbe {
    /// The App asked for the doctor.
    pub(super) fn want(&mut self) {
        self.wanted = true;
    }

    /// Whether the probe may start now: asked for, not running, the keyboard handshake over
    /// and no frame pending.
    pub(super) fn may_start(&self, negotiation: &Negotiation, frame_pending: bool) -> bool {
        self.wanted && self.prober.is_none() && !negotiation.is_waiting() && !frame_pending
    }

    pub(super) fn start(&mut self, prober: Prober) {
        self.wanted = false;
        self.prober = Some(prober);
    }

    pub(super) fn running(&self) -> bool {
        self.prober.is_some()
    }

    /// The probe, while it runs (replies go to it).
    pub(super) fn prober_mut(&mut self) -> Option<&mut Prober> {
        self.prober.as_mut()
    }

    /// At `now`: gives up on a stage past its deadline; the report once the probe is done
    /// (then it no longer runs).
    pub(super) fn poll(&mut self, now: u64) -> Option<DoctorReport> {
        let p = self.prober.as_mut()?;
        p.poll(now);
        if !p.is_done() {
            return None;
        }
        self.prober.take().map(Prober::into_report)
    }

    /// The probe's next question, at `now`.
    pub(super) fn next_write(&mut self, now: u64) -> Option<Vec<u8>> {
        self.prober.as_mut()?.next_write(now)
    }

    /// When the running probe gives up waiting (the session's milliseconds).
    pub(super) fn deadline(&self) -> Option<u64> {
        self.prober.as_ref().and_then(Prober::deadline)
    }
}

#[cfg(test)]
mod tests {
    use minotty_ui::doctor::Probe;
    use tokio::time::Instant;

    use super::*;
    use crate::doctor::ClientInfo;

    fn prober() -> Prober {
        let info = ClientInfo {
            pty: true,
            term: Some("xterm-256color".to_owned()),
            env: Default::default(),
            ssh_client: None,
        };
        Prober::new(&info, 24)
    }

    #[test]
    fn it_starts_only_when_asked_after_the_handshake_between_frames() {
        let t0 = Instant::now();
        let mut probe = DoctorProbe::default();
        let done = Negotiation::Done;
        assert!(!probe.may_start(&done, false), "not asked");
        probe.want();
        assert!(!probe.may_start(&Negotiation::start(t0, false), false));
        assert!(!probe.may_start(&done, true), "a frame pending");
        assert!(probe.may_start(&done, false));
        probe.start(prober());
        assert!(probe.running());
        assert!(!probe.may_start(&done, false), "running already");
    }

    #[test]
    fn a_silent_terminal_gives_a_report_at_the_deadline() {
        let mut probe = DoctorProbe::default();
        probe.want();
        probe.start(prober());
        assert_eq!(probe.deadline(), None, "nothing asked yet");
        assert!(probe.next_write(100).is_some());
        assert!(probe.next_write(100).is_none(), "asked once");
        let deadline = probe.deadline().expect("waiting for an answer");
        assert!(deadline > 100);
        assert!(probe.poll(deadline - 1).is_none());
        let report = probe.poll(deadline).expect("gave up");
        assert_eq!(report.rtt, Probe::NoAnswer);
        assert!(!probe.running());
        assert!(probe.poll(deadline + 1).is_none());
    }
}
