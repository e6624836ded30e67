//! What a frame must redraw ([`Damage`]), and the frames that redraw only a part: a front end
//! that keeps the screen it showed asks [`App::parts`] and, when the last frame had the same
//! ones, draws the damaged parts alone ([`App::render_time`], [`App::render_board`]) instead
//! of everything.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, Screen, solo};
use crate::damage::{Damage, Parts};
use crate::theme::Theme;

impl App {
    /// What changed since the last call: [`Damage::Time`] when only the game clock moved,
    /// [`Damage::Board`] when the piece moved too.
    pub fn take_damage(&mut self) -> Damage {
        let all = std::mem::take(&mut self.dirty);
        let partial = std::mem::take(&mut self.partial);
        Damage::all_if(all).and(partial)
    }

    /// The parts of an `area`-sized screen that partial frames change, when the screen is
    /// the running game with nothing over it (no quit question, notice, parked game offer or
    /// frame rate). A front end may redraw only the damage's parts ([`Parts::of`]) when the
    /// frame before had the same parts: everything else on the screen is as that frame left
    /// it.
    pub fn parts(&self, area: Rect) -> Option<Parts> {
        let (min_w, min_h) = crate::MIN_SIZE;
        let fits = area.width >= min_w && area.height >= min_h;
        let over = self.menus.quit_open() || self.versus.has_notice() || self.parked_offered();
        if self.screen != Screen::Game || !fits || over {
            return None;
        }
        let theme = Theme::new(&self.settings);
        self.solo.parts(area, &self.solo_view(theme))
    }

    /// Draws [`Parts::time`] of an `area`-sized screen into `buf` (a cleared buffer whose
    /// area is that part, or holds it), cell for cell as [`App::render_into`] would.
    pub fn render_time(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.part_background(buf);
        self.solo.render_time(area, buf, &self.solo_view(theme));
    }

    /// Draws [`Parts::board`] of an `area`-sized screen into `buf`, as
    /// [`App::render_time`] draws the time's.
    pub fn render_board(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.part_background(buf);
        self.solo.render_board(area, buf, &self.solo_view(theme));
    }

    /// Fills a part's buffer with the screen's background; the theme it is drawn in.
    fn part_background(&self, buf: &mut Buffer) -> Theme {
        let theme = Theme::new(&self.settings);
        if let Some(bg) = theme.background() {
            buf.set_style(buf.area, ratatui::style::Style::new().bg(bg));
        }
        theme
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
