//! Another player's board at full size with its status and incoming-garbage meter: what the
//! match screen and the spectators' view both draw.

use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;
use crate::widgets::board::Scale;
use crate::widgets::garbage_meter;
use crate::widgets::mini_board::{self, Framing, full_size};
use minotty_protocol::OpponentView;

/// The short status of another player: place once out, else the numbers that matter.
pub(crate) fn status(o: &OpponentView, kind: MatchKind) -> StackStr<32> {
    match (o.alive, o.place) {
        (false, Some(p)) => sfmt!(32; "KO #{}", p),
        (false, None) => sfmt!(32; "KO"),
        (true, Some(1)) => sfmt!(32; "WINNER"),
        (true, Some(p)) => sfmt!(32; "#{}", p),
        (true, None) => match kind {
            MatchKind::Race => sfmt!(32; "{}/40", o.progress.lines),
            MatchKind::Battle => sfmt!(32; "sent {}", o.progress.attack_sent),
        },
    }
}

/// Another player's board at full size at `scale` at `at` (its meter at the left), clipped to
/// `area`.
pub(crate) fn draw_full(
    buf: &mut Buffer,
    (at, area): (Rect, Rect),
    o: &OpponentView,
    kind: MatchKind,
    theme: Theme,
    scale: Scale,
) {
    let st = status(o, kind);
    let (w, h) = full_size(scale);
    let meter = Rect::new(at.x, at.y + 1, 1, h - 2).intersection(at);
    let lines = (0, o.progress.pending_garbage);
    garbage_meter::draw_scaled(buf, meter, lines, scale.times(), theme);
    let b = Rect::new(at.x + 1, at.y, w, h).intersection(area);
    let footer = match (o.kos, o.progress.lives) {
        (0, 0) => sfmt!(40; " {} ", st.as_str()),
        (kos, 0) => sfmt!(40; " {} {} KOs {} ", st.as_str(), theme.dot(), kos),
        (0, lives) => sfmt!(40; " {} {} +{} ", st.as_str(), theme.dot(), lives),
        (kos, lives) => sfmt!(40; " {} {} KOs {} +{} ", st.as_str(), theme.dot(), kos, lives),
    };
    let frame = if o.alive { theme.dim() } else { theme.bad() };
    let framing = Framing {
        title: &o.name,
        footer: footer.as_str(),
        style: frame,
    };
    mini_board::full(buf, b, &o.board, theme, framing, scale);
    if !o.alive {
        let inner = draw::dialog(buf, draw::inner(b), 12, 3, theme, "");
        draw::put_centered(buf, inner, inner.y, st.as_str(), theme.bad());
    }
}
