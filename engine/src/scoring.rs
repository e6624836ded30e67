//! Score and attack tables: pure functions of a clear, tested row by row in `tests/scoring.rs`.

/// Whether a lock was a T-spin, and of which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Spin {
    #[default]
    None,
    Mini,
    Full,
}

/// The rules seed's classic line-clear base score (before the level multiplier).
pub fn line_base(lines: u32) -> u32 {
    match lines {
        0 => 0,
        1 => 40,
        2 => 100,
        3 => 300,
        _ => 1200,
    }
}

/// The rules seed's T-spin table (before the level multiplier). Used *instead of* the line score.
pub fn tspin_base(spin: Spin, lines: u32) -> u32 {
    match (spin, lines) {
        (Spin::None, _) => 0,
        (Spin::Full, 0) => 400,
        (Spin::Full, 1) => 800,
        (Spin::Full, 2) => 1200,
        (Spin::Full, _) => 1600,
        (Spin::Mini, 0) => 100,
        (Spin::Mini, 1) => 200,
        (Spin::Mini, _) => 400,
    }
}

/// Whether a clear continues a back-to-back chain: a full T-spin with lines, or a tetris.
pub fn qualifies_for_b2b(lines: u32, spin: Spin) -> bool {
    lines >= 4 || (lines > 0 && spin == Spin::Full)
}

/// The points of one lock, split as the seed defines them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ClearScore {
    /// Base clear score (line or T-spin table) times `level + 1`, times 1.5 on back-to-back.
    pub clear: u32,
    /// `50 * combo_index`, no level multiplier.
    pub combo: u32,
}

impl ClearScore {
    pub fn total(&self) -> u32 {
        self.clear + self.combo
    }
}

/// Scores a lock that cleared `lines` rows with `spin` at the **pre-clear** `level`.
/// `b2b` is whether this clear is a back-to-back continuation; `combo_index` is `0` for the first
/// clear of a chain, `1` for the second, and so on (ignored when `lines == 0`).
pub fn score(lines: u32, spin: Spin, level: u32, b2b: bool, combo_index: u32) -> ClearScore {
    let base = if spin == Spin::None {
        line_base(lines)
    } else {
        tspin_base(spin, lines)
    };
    let mut clear = base.saturating_mul(level.saturating_add(1));
    if b2b {
        clear = clear.saturating_mul(3) / 2;
    }
    let combo = if lines > 0 {
        combo_index.saturating_mul(50)
    } else {
        0
    };
    ClearScore { clear, combo }
}

/// The guideline combo attack bonus by combo index: 0,1,1,2,2,3,3,4,4,4,5, then 5.
pub fn combo_attack(combo_index: u32) -> u32 {
    const TABLE: [u32; 11] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
    TABLE[(combo_index as usize).min(TABLE.len() - 1)]
}

/// Lines sent by a clear: the base attack, +1 for back-to-back, the combo bonus and 10 for a
/// perfect clear.
pub fn attack(lines: u32, spin: Spin, b2b: bool, combo_index: u32, perfect: bool) -> u32 {
    if lines == 0 {
        return 0;
    }
    let base = match spin {
        Spin::Full => 2 * lines.min(3),
        Spin::Mini => lines.min(2) - 1,
        Spin::None => match lines {
            1 => 0,
            2 => 1,
            3 => 2,
            _ => 4,
        },
    };
    base + u32::from(b2b) + combo_attack(combo_index) + if perfect { 10 } else { 0 }
}

/// The tetrs seed's score bonus: `10 * (lines + combo - 1)^2 * max(1, b2b) * (spin ? 4 : 1) *
/// (perfect ? 100 : 1)`. `combo` counts consecutive clearing pieces including this one (1 for
/// the first clear), `b2b` consecutive special clears including this one (0 when this one is
/// not special). Zero without lines.
pub fn tetrs_score(lines: u32, combo: u32, b2b: u32, spin: Spin, perfect: bool) -> u64 {
    if lines == 0 {
        return 0;
    }
    let base = u64::from(lines + combo.max(1) - 1);
    10u64
        .saturating_mul(base.saturating_mul(base))
        .saturating_mul(u64::from(b2b.max(1)))
        .saturating_mul(if spin == Spin::None { 1 } else { 4 })
        .saturating_mul(if perfect { 100 } else { 1 })
}
