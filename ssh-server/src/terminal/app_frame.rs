//! A session's frame of its App: the whole screen, or only the parts that changed.

use minotty_ui::{App, Damage};

use super::RemoteTerminal;

impl RemoteTerminal {
    /// Draws `app`'s screen after `damage` (what the App said changed since the last frame).
    /// When it is partial ([`Damage::Time`], [`Damage::Board`]) and the frame before laid out
    /// the same [`App::parts`], only the damaged parts are rendered, compared and sent (the
    /// stats column, the board); otherwise the whole screen.
    pub fn draw_app(&mut self, app: &App, damage: Damage) {
        let parts = app.parts(self.drawn_area());
        let partial = parts.is_some_and(|p| {
            self.draw_parts(p, p.of(damage), |part, area, buf| {
                if part == p.time() {
                    app.render_time(area, buf);
                } else {
                    app.render_board(area, buf);
                }
            })
        });
        if !partial {
            self.draw_whole(parts, |area, buf| app.render_into(area, buf));
        }
    }
}
