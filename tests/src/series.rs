//! A series over SSH: the host changes the room's settings on its settings screen, and a player
//! loses games on purpose (hard drops at the spawn column until the stack tops out).

use std::time::Duration;

use anyhow::bail;

use crate::autoplay::{K_DOWN, K_ENTER, KittyKey, kitty_tap};
use crate::versus::drop_piece;
use crate::{PtySession, WAIT};

/// The row of "First to" on the room's settings screen (`minotty_ui`'s `room_settings::ROWS`:
/// Preset, Kind, Players, Limit, First to).
const FIRST_TO_ROW: usize = 4;

/// The screen's text with line breaks and runs of spaces as one space (a line wraps).
pub fn flat(s: &PtySession) -> String {
    s.contents()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// In the lobby, the host opens the settings (`o`), steps "First to" up to `n` games and
/// applies them (Enter); waits until the lobby's summary says so.
pub async fn set_first_to(host: &mut PtySession, n: u8) -> anyhow::Result<()> {
    host.send(&kitty_tap(KittyKey::Char('o'))).await?;
    host.wait_for_text("SETTINGS", WAIT).await?;
    let mut keys = Vec::new();
    for _ in 0..FIRST_TO_ROW {
        keys.extend(kitty_tap(K_DOWN));
    }
    for _ in 1..n {
        keys.extend(kitty_tap(KittyKey::Arrow('C')));
    }
    host.send(&keys).await?;
    host.wait_for_text(&format!("< {n} games >"), WAIT).await?;
    host.send(&kitty_tap(K_ENTER)).await?;
    host.wait_for_text(&format!("First to {n}"), WAIT).await
}

/// Hard-drops piece after piece (waiting a little between them) until the screen shows the
/// results' series line; the flat screen then.
pub async fn top_out(s: &mut PtySession) -> anyhow::Result<String> {
    for _ in 0..80 {
        if flat(s).contains("Series:") {
            return Ok(flat(s));
        }
        drop_piece(s).await;
        s.pump_for(Duration::from_millis(120)).await;
    }
    bail!("no results after 80 hard drops; screen:\n{}", s.contents())
}

/// Waits until the results' series line shows and contains `want`; the flat screen.
pub async fn wait_for_series(s: &mut PtySession, want: &str) -> anyhow::Result<String> {
    s.wait_until("the series line", WAIT, |s| {
        let t: String = s
            .contents()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        t.contains("Series:") && t.contains(want)
    })
    .await?;
    Ok(flat(s))
}

/// In the lobby, the host opens the settings (`o`; the cursor starts on the preset row), steps
/// the preset until it reads `name` (e.g. "League") and applies it (Enter); waits until the
/// lobby's summary names it.
pub async fn set_preset(host: &mut PtySession, name: &str) -> anyhow::Result<()> {
    host.send(&kitty_tap(KittyKey::Char('o'))).await?;
    host.wait_for_text("SETTINGS", WAIT).await?;
    let shown = format!("< {name} >");
    for _ in 0..=minotty_engine::versus::presets::PRESETS.len() {
        if host.contents().contains(&shown) {
            host.send(&kitty_tap(K_ENTER)).await?;
            return host.wait_for_text(&format!(", {name}"), WAIT).await;
        }
        host.send(&kitty_tap(KittyKey::Arrow('C'))).await?;
        host.pump_for(Duration::from_millis(100)).await;
    }
    bail!(
        "no preset {name:?} on the settings screen:\n{}",
        host.contents()
    )
}
