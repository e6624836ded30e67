//! Opening the account screens: what each shows and asks for depends on who the player is
//! (lent by the App); the App shows `Screen::Account`.

use super::{AccountState, KEY_NOT_REGISTERED, NOT_REGISTERED, OFFLINE, Sub, UNREACHABLE, keys};
use crate::Request;
use crate::screens::account_board::BoardScreen;
use crate::screens::account_form::Load;
use crate::screens::account_keys::KeysScreen;
use crate::screens::account_profile::{GuestKind, ProfileScreen};
use minotty_protocol::Identity;

impl AccountState {
    /// Opens the leaderboards, asking for their first page when there is a server to ask.
    pub(in crate::app) fn open_leaderboards(
        &mut self,
        identity: &Identity,
        requests: &mut Vec<Request>,
    ) {
        let mut board = BoardScreen {
            local: matches!(identity, Identity::Local { .. }),
            ..BoardScreen::default()
        };
        if *identity == Identity::Offline {
            board.load = Load::Offline;
        } else {
            keys::fetch_board(&board, requests);
        }
        self.sub = Some(Sub::Board(board));
    }

    /// Opens the profile: asked for when the player has one, else why they have none.
    pub(in crate::app) fn open_profile(
        &mut self,
        identity: &Identity,
        requests: &mut Vec<Request>,
    ) {
        let mut profile = ProfileScreen {
            local: matches!(identity, Identity::Local { .. }),
            ..ProfileScreen::default()
        };
        match identity {
            Identity::Offline => profile.load = Load::Offline,
            Identity::Guest | Identity::NewKey { .. } | Identity::Unreachable { .. } => {
                profile.guest = true;
                profile.guest_kind = match identity {
                    Identity::Unreachable { .. } => GuestKind::Unreachable,
                    Identity::Guest if !self.chose_guest => GuestKind::NoKey,
                    _ => GuestKind::ChoseGuest,
                };
            }
            Identity::Registered { .. } | Identity::Local { .. } => {
                requests.push(Request::Profile);
            }
        }
        self.sub = Some(Sub::Profile(profile));
    }

    /// Opens the password and keys screen (from the settings): the keys asked for, or why
    /// there are none to manage.
    pub(in crate::app) fn open_keys(&mut self, identity: &Identity, requests: &mut Vec<Request>) {
        let mut keys = KeysScreen::default();
        match identity {
            Identity::Offline | Identity::Local { .. } => keys.refused = Some(OFFLINE),
            Identity::Guest if !self.chose_guest => keys.refused = Some(NOT_REGISTERED),
            Identity::Guest | Identity::NewKey { .. } => keys.refused = Some(KEY_NOT_REGISTERED),
            Identity::Unreachable { .. } => keys.refused = Some(UNREACHABLE),
            Identity::Registered { has_password, .. } => {
                keys.has_password = *has_password;
                requests.push(Request::ListKeys);
            }
        }
        self.sub = Some(Sub::Keys(keys));
    }
}
