//! The player's personal bests for the mode select: asked each time it opens (a game may have
//! been stored since). The answer goes to the menus, cleaned of control characters (see
//! `menus.rs`).

use crate::Request;
use minotty_protocol::Identity;

/// Asks for the bests, when `identity` has any to be asked for (a registered player, or a
/// `minotty play` save file).
pub(super) fn ask(identity: &Identity, requests: &mut Vec<Request>) {
    if matches!(
        identity,
        Identity::Registered { .. } | Identity::Local { .. }
    ) {
        requests.push(Request::Bests);
    }
}

#[cfg(test)]
mod tests {
    use super::ask;
    use crate::Request;
    use minotty_protocol::Identity;

    fn asked(identity: Identity) -> Vec<Request> {
        let mut requests = vec![Request::LiveList];
        ask(&identity, &mut requests);
        requests
    }

    #[test]
    fn only_a_registered_player_or_a_save_file_has_bests_to_ask_for() {
        let registered = Identity::Registered {
            name: "ada".into(),
            has_password: false,
        };
        // Queued after what was already waiting.
        assert_eq!(asked(registered), [Request::LiveList, Request::Bests]);
        let local = Identity::Local { name: "ada".into() };
        assert_eq!(asked(local), [Request::LiveList, Request::Bests]);
        for nobody in [
            Identity::Offline,
            Identity::Guest,
            Identity::NewKey {
                suggested: "ada".into(),
            },
            Identity::Unreachable {
                suggested: "ada".into(),
            },
        ] {
            assert_eq!(asked(nobody), [Request::LiveList]);
        }
    }
}
