//! A session's frame of its App: the whole screen, or only what time moved.

use minotty_ui::App;

use super::RemoteTerminal;

impl RemoteTerminal {
    /// Draws `app`'s screen. When only its clock moved (`time_only`: the App said
    /// [`minotty_ui::Damage::Time`] since the last frame) and the frame before laid out the
    /// same [`App::time_area`], that area alone is rendered, compared and sent (a few of the
    /// screen's cells); otherwise the whole screen.
    pub fn draw_app(&mut self, app: &App, time_only: bool) {
        let part = app.time_area(self.drawn_area());
        let partial =
            time_only && part.is_some_and(|p| self.draw_part(p, |a, b| app.render_time(a, b)));
        if !partial {
            self.draw_whole(part, |area, buf| app.render_into(area, buf));
        }
    }
}
