//! The versus screens' frames: the screen that shows (the menu, the forms, the queue, the
//! lobby, the Open rooms, the match, the results) and the notice box over any screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Versus, View, bot_picks};
use crate::screens::room_settings::SettingsView;
use crate::screens::versus_match::MatchView;
use crate::screens::versus_menu::{self, JoinView, MenuView};
use crate::screens::versus_results::ResultsView;
use crate::screens::versus_room::{LobbyView, QueueView};
use crate::settings::Settings;
use crate::theme::Theme;

impl Versus {
    /// Draws the versus screen that shows (`player`: the player's name over their own board).
    pub(in crate::app) fn draw(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: Theme,
        settings: &Settings,
        player: &str,
        now: u64,
    ) {
        let message = self.message.as_deref().unwrap_or("");
        match self.view {
            View::Menu => MenuView {
                cursor: self.menu_cursor,
                message,
                theme,
            }
            .render(area, buf),
            View::Create => self.create.view(message, theme).render(area, buf),
            View::Join { spectate } => JoinView {
                code: &self.code,
                spectate,
                message,
                theme,
            }
            .render(area, buf),
            View::Queue => QueueView {
                waited_ms: self.queue.map_or(0, |q| now.saturating_sub(q.since)),
                rating: self.queue.and_then(|q| q.rating),
                same_address: self.queue.is_some_and(|q| q.same_address),
                bot_offer: self.bot_offer,
                message,
                theme,
            }
            .render(area, buf),
            View::Room => match &self.room {
                Some(room) if let Some(edit) = &self.settings_edit => SettingsView {
                    code: &room.code,
                    edit,
                    current: &room.options,
                    host: room.host && !room.ranked,
                    theme,
                }
                .render(area, buf),
                Some(room) => LobbyView {
                    room,
                    targeting: self.targeting,
                    bot_level: (room.host && !room.ranked)
                        .then(|| self.bot_level().min(bot_picks(room))),
                    message,
                    theme,
                }
                .render(area, buf),
                None => MenuView {
                    cursor: self.menu_cursor,
                    message,
                    theme,
                }
                .render(area, buf),
            },
            View::OpenRooms => self.open_rooms_view(message, theme).render(area, buf),
            View::Match => {
                if let Some(m) = &self.game {
                    MatchView {
                        game: m,
                        settings,
                        player,
                        now,
                        climb: self.climb.as_ref(),
                    }
                    .render(area, buf);
                }
            }
            View::Results => {
                if let Some(result) = &self.result {
                    ResultsView {
                        result,
                        cursor: self.results_cursor,
                        message,
                        theme,
                        attack: &self.attack,
                        settings: self.results_settings.as_deref(),
                    }
                    .render(area, buf);
                }
            }
        }
    }

    /// Draws the notice box, if one is open, over whatever screen shows.
    pub(in crate::app) fn draw_notice(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        if let Some(text) = &self.notice {
            versus_menu::notice(buf, area, text, theme);
        }
    }
}
