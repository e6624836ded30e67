//! The account screens' frame: the sub-screen shown draws itself with what the App lends it
//! (the settings a replay plays with, the player's name on the keys screen).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{AccountState, Sub};
use crate::screens::account_board::BoardView;
use crate::screens::account_keys::KeysView;
use crate::screens::account_profile::ProfileView;
use crate::screens::account_replay::ReplayView;
use crate::screens::account_unreachable::UnreachableView;
use crate::screens::account_welcome::WelcomeView;
use crate::settings::Settings;
use crate::theme::Theme;

/// Who the screens are for and where this server is: the player's name, how `ssh` reaches the
/// server, where its web pages are (each when known).
#[derive(Clone, Copy, Debug)]
pub(in crate::app) struct Who<'a> {
    pub player: &'a str,
    pub address: Option<&'a str>,
    pub web: Option<&'a str>,
}

impl AccountState {
    /// Draws the sub-screen shown (nothing when none is).
    pub(in crate::app) fn draw(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: Theme,
        settings: &Settings,
        who: Who<'_>,
    ) {
        let Who {
            player,
            address,
            web,
        } = who;
        match &self.sub {
            Some(Sub::Welcome(state)) => WelcomeView { state, theme }.render(area, buf),
            Some(Sub::Unreachable(state)) => UnreachableView { state, theme }.render(area, buf),
            Some(Sub::Board(state)) => BoardView { state, theme }.render(area, buf),
            Some(Sub::Profile(state)) => ProfileView {
                state,
                theme,
                address,
                web,
            }
            .render(area, buf),
            Some(Sub::Replay(state)) => ReplayView {
                state,
                settings,
                web,
            }
            .render(area, buf),
            Some(Sub::Keys(state)) => KeysView {
                state,
                name: player,
                theme,
            }
            .render(area, buf),
            None => {}
        }
    }
}
