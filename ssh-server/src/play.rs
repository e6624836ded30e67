//! Local play in this terminal (`minotty play`). Placeholder until the UI lands.

use minotty_engine::ModeKind;

/// Plays in the local terminal.
pub fn run(mode: Option<ModeKind>) -> anyhow::Result<()> {
    let _ = mode;
    anyhow::bail!("minotty play: not built yet")
}
