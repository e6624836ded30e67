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

impl AccountState {
    /// Draws the sub-screen shown (nothing when none is).
    pub(in crate::app) fn draw(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: Theme,
        settings: &Settings,
        (player, address): (&str, Option<&str>),
    ) {
        match &self.sub {
            Some(Sub::Welcome(state)) => WelcomeView { state, theme }.render(area, buf),
            Some(Sub::Unreachable(state)) => UnreachableView { state, theme }.render(area, buf),
            Some(Sub::Board(state)) => BoardView { state, theme }.render(area, buf),
            Some(Sub::Profile(state)) => ProfileView {
                state,
                theme,
                address,
            }
            .render(area, buf),
            Some(Sub::Replay(state)) => ReplayView { state, settings }.render(area, buf),
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
