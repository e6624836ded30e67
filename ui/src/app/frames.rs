//! What a frame must redraw ([`Damage`]), and the frame that redraws only what time moved: a
//! front end that keeps the screen it showed asks [`App::time_area`] and, when the last frame
//! had the same one, draws that area alone with [`App::render_time`] instead of everything.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, Screen, solo};
use crate::damage::Damage;
use crate::theme::Theme;

impl App {
    /// What changed since the last call: [`Damage::Time`] when only the game clock moved.
    pub fn take_damage(&mut self) -> Damage {
        let all = std::mem::take(&mut self.dirty);
        let time = std::mem::take(&mut self.time_dirty);
        Damage::all_if(all).and(if time { Damage::Time } else { Damage::None })
    }

    /// The part of an `area`-sized screen that a [`Damage::Time`] frame changes, when the
    /// screen is the running game with nothing over it (no quit question, notice, parked
    /// game offer or frame rate). A front end may redraw only this area when the frame before
    /// had the same one: everything else on the screen is as that frame left it.
    pub fn time_area(&self, area: Rect) -> Option<Rect> {
        let (min_w, min_h) = crate::MIN_SIZE;
        let fits = area.width >= min_w && area.height >= min_h;
        let over = self.menus.quit_open() || self.versus.has_notice() || self.parked_offered();
        if self.screen != Screen::Game || !fits || over {
            return None;
        }
        let theme = Theme::new(&self.settings);
        self.solo.time_area(area, &self.solo_view(theme))
    }

    /// Draws the [`App::time_area`] of an `area`-sized screen into `buf` (a cleared buffer
    /// whose area is that one, or holds it), cell for cell as [`App::render_into`] would.
    pub fn render_time(&self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(&self.settings);
        if let Some(bg) = theme.background() {
            buf.set_style(buf.area, ratatui::style::Style::new().bg(bg));
        }
        self.solo.render_time(area, buf, &self.solo_view(theme));
    }

    /// What the solo screens are drawn with.
    pub(super) fn solo_view(&self, theme: Theme) -> solo::View<'_> {
        solo::View {
            settings: &self.settings,
            player: &self.player,
            theme,
            notice: self.snapshot_notice(),
            online: self.results_note(),
            now: self.now,
            web: self.web_address.as_deref(),
        }
    }
}
