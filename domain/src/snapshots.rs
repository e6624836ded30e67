//! The rules of a player's stored snapshots, the same on the server and in `minotty play`.

use crate::text::sanitize_display;

/// The most snapshots a player keeps; saving another replaces the oldest.
pub const MAX_SNAPSHOTS: usize = 20;
/// Labels are cut to this many characters.
pub const MAX_LABEL_CHARS: usize = 40;

/// A label as stored: the allowlisted characters of `raw`, at most [`MAX_LABEL_CHARS`];
/// "snapshot" when nothing is left.
pub fn snapshot_label(raw: &str) -> String {
    let label = sanitize_display(raw, MAX_LABEL_CHARS);
    if label.is_empty() {
        "snapshot".to_owned()
    } else {
        label
    }
}
