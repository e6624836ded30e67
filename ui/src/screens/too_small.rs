//! The message shown when the terminal is smaller than the game needs.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::text::sfmt;
use crate::theme::Theme;

/// Asks the player to enlarge the terminal to `need`, showing its size now.
#[derive(Debug)]
pub struct TooSmallView {
    pub need: (u16, u16),
    pub theme: Theme,
}

impl Widget for &TooSmallView {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (w, h) = self.need;
        let want = sfmt!(48; "Please enlarge to {} x {}", w, h);
        let now = sfmt!(48; "(now {} x {})", area.width, area.height);
        let one = sfmt!(96; "{} {}", want.as_str(), now.as_str());
        let mid = area.y + area.height / 2;
        if draw::width(one.as_str()) <= area.width {
            draw::put_centered(buf, area, mid, one.as_str(), self.theme.accent());
        } else {
            let top = mid.saturating_sub(1).max(area.y);
            draw::put_centered(buf, area, top, want.as_str(), self.theme.accent());
            draw::put_centered(
                buf,
                area,
                top.saturating_add(1),
                now.as_str(),
                self.theme.accent(),
            );
        }
    }
}
