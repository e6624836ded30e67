//! The kitty keyboard protocol handshake: the session asks for the terminal's keyboard flags,
//! then for its device attributes (DA1, which every terminal answers). A flags reply before
//! the DA1 reply means the protocol is there (key releases are read); a DA1 reply alone, or
//! nothing within [`NEGOTIATION_TIMEOUT`], means it is not. Time comes in (`now`).

use std::time::Duration;

use tokio::time::Instant;

/// How long the terminal gets to answer the keyboard protocol queries.
pub(super) const NEGOTIATION_TIMEOUT: Duration = Duration::from_secs(2);

/// Where the handshake is: the flags reply must come before the DA1 reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Negotiation {
    Waiting { flags_seen: bool, deadline: Instant },
    Done,
}

impl Negotiation {
    /// The handshake of a session started at `start`; a stream has no terminal to ask.
    pub(super) fn start(start: Instant, stream: bool) -> Negotiation {
        if stream {
            Negotiation::Done
        } else {
            Negotiation::Waiting {
                flags_seen: false,
                deadline: start + NEGOTIATION_TIMEOUT,
            }
        }
    }

    pub(super) fn is_waiting(&self) -> bool {
        matches!(self, Negotiation::Waiting { .. })
    }

    /// When the handshake gives up, while it waits.
    pub(super) fn deadline(&self) -> Option<Instant> {
        match self {
            Negotiation::Waiting { deadline, .. } => Some(*deadline),
            Negotiation::Done => None,
        }
    }

    /// At `now`: true when the handshake just gave up (the terminal did not answer in time:
    /// no key releases).
    pub(super) fn expire(&mut self, now: Instant) -> bool {
        match *self {
            Negotiation::Waiting { deadline, .. } if now >= deadline => {
                *self = Negotiation::Done;
                true
            }
            _ => false,
        }
    }

    /// The keyboard flags reply arrived (while waiting).
    pub(super) fn flags(&mut self) {
        if let Negotiation::Waiting { deadline, .. } = *self {
            *self = Negotiation::Waiting {
                flags_seen: true,
                deadline,
            };
        }
    }

    /// The DA1 reply arrived: the handshake is over. `Some(kitty)` (whether the flags came
    /// first) when it was waiting, `None` when it was over already.
    pub(super) fn attributes(&mut self) -> Option<bool> {
        match *self {
            Negotiation::Waiting { flags_seen, .. } => {
                *self = Negotiation::Done;
                Some(flags_seen)
            }
            Negotiation::Done => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_before_attributes_is_kitty() {
        let t0 = Instant::now();
        let mut n = Negotiation::start(t0, false);
        assert_eq!(n.deadline(), Some(t0 + NEGOTIATION_TIMEOUT));
        n.flags();
        assert!(!n.expire(t0 + NEGOTIATION_TIMEOUT - Duration::from_millis(1)));
        assert_eq!(n.attributes(), Some(true));
        assert_eq!(n, Negotiation::Done);
        assert_eq!(n.deadline(), None);
        assert_eq!(n.attributes(), None);
    }

    #[test]
    fn attributes_alone_is_no_kitty() {
        let t0 = Instant::now();
        let mut n = Negotiation::start(t0, false);
        assert_eq!(n.attributes(), Some(false));
        // Flags after the end change nothing.
        n.flags();
        assert_eq!(n, Negotiation::Done);
    }

    #[test]
    fn silence_gives_up_at_the_deadline_once() {
        let t0 = Instant::now();
        let mut n = Negotiation::start(t0, false);
        assert!(!n.expire(t0 + Duration::from_millis(1999)));
        assert!(n.is_waiting());
        assert!(n.expire(t0 + NEGOTIATION_TIMEOUT));
        assert!(!n.is_waiting());
        assert!(!n.expire(t0 + NEGOTIATION_TIMEOUT * 2));
        assert_eq!(n.attributes(), None);
    }

    #[test]
    fn a_stream_asks_nothing() {
        let n = Negotiation::start(Instant::now(), true);
        assert_eq!(n, Negotiation::Done);
        assert_eq!(n.deadline(), None);
    }
}
