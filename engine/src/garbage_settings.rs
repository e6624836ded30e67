//! A room's attack and garbage settings ([`GarbageSettings`]): how much a clear sends, how it
//! meets the garbage coming the other way, and how that garbage rises. One validated type,
//! clamped where it is made ([`GarbageSettings::new`], every serde read and every replay read),
//! carried in the [`Mode`](crate::Mode) every player's game runs, so a replay of a match game
//! re-simulates under the same settings. [`GarbageSettings::default`] is exactly the game as it
//! was before the settings existed (the tests in `engine/tests/garbage_settings.rs` pin it).
//!
//! The rules, each a pure function of the settings and the game's own time (never the wall
//! clock), so they are the same however updates are chunked:
//!
//! - **Multiplier** ([`GarbageSettings::multiplier_at`]): every attack is multiplied by
//!   `multiplier`%, which grows by `multiplier_increase` percentage points a minute once
//!   `multiplier_margin` seconds of game time have passed, up to [`MULTIPLIER_CEILING`]%. The
//!   product is counted in thousandths; what a clear's attack leaves below a whole line is
//!   carried to the player's next attack, so 150% turns two doubles (1 + 1) into 1 + 2 lines.
//! - **Cap** ([`GarbageSettings::cap_at`]): at most `cap` lines rise on one lock, growing by
//!   `cap_increase` lines a minute after `cap_margin` seconds, up to [`CAP_CEILING`].
//! - **Messiness** and **hole size**: an attack's rows share one hole `hole_size` columns wide
//!   (today's clean column at 0% and size 1); with messiness `m`%, each row after the first of
//!   what rises from one attack moves its hole to another column with chance `m`%, drawn from
//!   the game's seeded garbage stream (drawn only when `m > 0`, so clean garbage keeps its
//!   holes). A row is never empty nor full: the size is at most the width less one.
//! - **Blocking** ([`Blocking`]): whether an attack first cancels the garbage queued for its
//!   sender.
//! - **Back-to-back** ([`BackToBack`]): chaining (+1 line per clear of a chain, today) or
//!   surge, which charges the chain and releases it as one attack when it breaks.
//! - **Combo table** ([`ComboTable`]), **spin bonuses** ([`SpinBonus`]), **all clear**
//!   (`all_clear` lines for an all clear instead of the table's 10).
//! - **Opener** (`opener` seconds): no garbage rises in the game's first seconds; it is queued,
//!   becomes ready and can be cancelled as usual, and rises on the first lock that clears
//!   nothing after the opener.

use std::ops::RangeInclusive;

use crate::scoring::{self, Spin};

/// The board's width, for the hole size's bound.
const WIDTH: u8 = crate::board::WIDTH as u8;

/// The largest multiplier the increase can reach, in percent (10x).
pub const MULTIPLIER_CEILING: u32 = 1000;
/// The most lines the cap can reach with its increase (the visible field's height).
pub const CAP_CEILING: u32 = 20;
/// The most lines one attack can be (the wire's `u8`); every attack is capped here.
pub const MAX_ATTACK: u32 = 255;
/// A surge charges from this back-to-back count on (the count a chain has after its fourth
/// back-to-back clear: a tetris, then four more). TETR.IO's B2B charging (its Beta 1.0.0,
/// July 2024) also starts at a count of 4; releasing the whole count as one attack, added to
/// the breaking clear's, is minotty's own simpler choice: one number to learn, and a long
/// chain is worth keeping and dangerous to lose.
pub const SURGE_FROM: u32 = 4;

/// Whether an attack cancels the garbage queued for the player who made it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Blocking {
    /// The attack cancels queued garbage (ready or still in flight), oldest first; only what
    /// is left of it is sent. The game as it always was.
    #[default]
    Cancel,
    /// The attack cancels nothing: it is sent whole and the queued garbage still rises.
    None,
    /// The attack passes through: it cancels queued garbage as [`Blocking::Cancel`] does, and
    /// it is sent whole all the same (cancelling costs it nothing). Garbage it did not cancel
    /// still arrives.
    Passthrough,
}

/// What a back-to-back chain is worth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BackToBack {
    /// +1 line on every clear that continues the chain (today).
    #[default]
    Chaining,
    /// The +1 stays, and the chain charges: once its count reached [`SURGE_FROM`], the clear
    /// (or, where a lock without lines breaks a chain, the lock) that breaks it also releases
    /// the surge, as many lines as the count was, in the same attack. See [`surge`].
    Surge,
}

/// The combo bonus an attack gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ComboTable {
    /// The ruleset's table: 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, then 5 lines by combo (today).
    #[default]
    Ruleset,
    /// No combo bonus.
    None,
    /// The clear's attack (lines, spin and back-to-back) times `1 + combo / 4`, rounded down;
    /// a clear worth nothing (a single) gets [`multiplier_combo`]'s small table instead.
    Multiplier,
}

/// Which spins earn a spin's attack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SpinBonus {
    /// The ruleset's spin rule (the T's corners; every piece under `tetrs`). Today.
    #[default]
    TSpins,
    /// Besides the ruleset's, any other piece whose last move was a rotation and which can
    /// move neither up, left nor right when it locks makes a full spin.
    AllSpins,
    /// As [`SpinBonus::AllSpins`], but the other pieces' spins are minis.
    AllMini,
    /// No spin counts: a T-spin double is a double.
    None,
}

/// The settings as asked for, every field public: what a settings screen edits and a serde
/// read or a replay brings, before [`GarbageSettings::new`] clamps them. Missing fields read
/// as the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct GarbageDraft {
    /// Percent of every attack that is sent.
    pub multiplier: u16,
    /// Percentage points the multiplier grows by each minute after its margin.
    pub multiplier_increase: u16,
    /// Seconds of game time before the multiplier grows.
    pub multiplier_margin: u16,
    /// The most lines that rise on one lock.
    pub cap: u8,
    /// Lines the cap grows by each minute after its margin.
    pub cap_increase: u8,
    /// Seconds of game time before the cap grows.
    pub cap_margin: u16,
    /// Percent chance that a garbage row's hole moves from the row above's.
    pub messiness: u8,
    /// Columns of each garbage row's hole.
    pub hole_size: u8,
    pub blocking: Blocking,
    pub b2b: BackToBack,
    pub combo: ComboTable,
    pub spins: SpinBonus,
    /// Lines an all clear adds instead of the table's 10.
    pub all_clear: u8,
    /// Seconds at the start in which no garbage rises.
    pub opener: u8,
}

impl GarbageDraft {
    /// The attack and garbage rules as they always were (a constant, for tables such as the
    /// room presets).
    pub const DEFAULT: GarbageDraft = GarbageDraft {
        multiplier: 100,
        multiplier_increase: 0,
        multiplier_margin: 0,
        cap: 8,
        cap_increase: 0,
        cap_margin: 0,
        messiness: 0,
        hole_size: 1,
        blocking: Blocking::Cancel,
        b2b: BackToBack::Chaining,
        combo: ComboTable::Ruleset,
        spins: SpinBonus::TSpins,
        all_clear: 10,
        opener: 0,
    };
}

impl Default for GarbageDraft {
    fn default() -> Self {
        GarbageDraft::DEFAULT
    }
}

/// A room's attack and garbage settings, every value within the bounds below. Made only by
/// [`GarbageSettings::new`] (serde reads and replay reads too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "GarbageDraft", into = "GarbageDraft"))]
pub struct GarbageSettings {
    v: GarbageDraft,
}

impl From<GarbageDraft> for GarbageSettings {
    fn from(d: GarbageDraft) -> GarbageSettings {
        GarbageSettings::new(d)
    }
}

impl From<GarbageSettings> for GarbageDraft {
    fn from(s: GarbageSettings) -> GarbageDraft {
        s.v
    }
}

impl GarbageSettings {
    pub const MULTIPLIER: RangeInclusive<u16> = 10..=500;
    pub const MULTIPLIER_INCREASE: RangeInclusive<u16> = 0..=100;
    pub const MARGIN: RangeInclusive<u16> = 0..=600;
    pub const CAP: RangeInclusive<u8> = 1..=CAP_CEILING as u8;
    pub const CAP_INCREASE: RangeInclusive<u8> = 0..=10;
    pub const MESSINESS: RangeInclusive<u8> = 0..=100;
    /// A row keeps at least one block and at least one hole.
    pub const HOLE_SIZE: RangeInclusive<u8> = 1..=WIDTH - 1;
    pub const ALL_CLEAR: RangeInclusive<u8> = 0..=20;
    pub const OPENER: RangeInclusive<u8> = 0..=30;

    /// `draft` with every value clamped to its bound.
    pub fn new(draft: GarbageDraft) -> GarbageSettings {
        fn c<T: Ord + Copy>(v: T, r: &RangeInclusive<T>) -> T {
            v.clamp(*r.start(), *r.end())
        }
        GarbageSettings {
            v: GarbageDraft {
                multiplier: c(draft.multiplier, &Self::MULTIPLIER),
                multiplier_increase: c(draft.multiplier_increase, &Self::MULTIPLIER_INCREASE),
                multiplier_margin: c(draft.multiplier_margin, &Self::MARGIN),
                cap: c(draft.cap, &Self::CAP),
                cap_increase: c(draft.cap_increase, &Self::CAP_INCREASE),
                cap_margin: c(draft.cap_margin, &Self::MARGIN),
                messiness: c(draft.messiness, &Self::MESSINESS),
                hole_size: c(draft.hole_size, &Self::HOLE_SIZE),
                all_clear: c(draft.all_clear, &Self::ALL_CLEAR),
                opener: c(draft.opener, &Self::OPENER),
                ..draft
            },
        }
    }

    /// The values, to read or to edit and pass to [`GarbageSettings::new`] again.
    pub fn values(&self) -> &GarbageDraft {
        &self.v
    }

    /// Whether these are the defaults (the game as it always was).
    pub fn is_default(&self) -> bool {
        *self == GarbageSettings::default()
    }

    /// The multiplier at game time `t` (ms), in thousandths: the base, plus the increase for
    /// the time past the margin, at most [`MULTIPLIER_CEILING`]%.
    pub fn multiplier_at(&self, t: u64) -> u32 {
        let base = u64::from(self.v.multiplier) * 10;
        let past = t.saturating_sub(u64::from(self.v.multiplier_margin) * 1000);
        // Points a minute are thousandths per 6,000 ms.
        let grown = u64::from(self.v.multiplier_increase).saturating_mul(past) / 6_000;
        base.saturating_add(grown)
            .min(u64::from(MULTIPLIER_CEILING) * 10) as u32
    }

    /// The cap at game time `t` (ms): the base, plus the increase for the whole minutes'
    /// worth past the margin (`increase * ms / 60,000`, rounded down), at most
    /// [`CAP_CEILING`].
    pub fn cap_at(&self, t: u64) -> u32 {
        let past = t.saturating_sub(u64::from(self.v.cap_margin) * 1000);
        let grown = u64::from(self.v.cap_increase).saturating_mul(past) / 60_000;
        (u64::from(self.v.cap) + grown).min(u64::from(CAP_CEILING)) as u32
    }

    /// Whether garbage may rise at game time `t` (the opener is over).
    pub fn rises_at(&self, t: u64) -> bool {
        t >= u64::from(self.v.opener) * 1000
    }

    /// A clear's attack before the multiplier: the ruleset's lines, spin and back-to-back
    /// attack ([`scoring::attack`] without its combo and all-clear parts), the combo table's
    /// bonus for `combo_index` (0 for a chain's first clear), and the all-clear lines.
    /// Nothing without lines. With the defaults this is [`scoring::attack`].
    pub fn clear_attack(
        &self,
        lines: u32,
        spin: Spin,
        b2b: bool,
        combo_index: u32,
        perfect: bool,
    ) -> u32 {
        if lines == 0 {
            return 0;
        }
        let table = scoring::attack(lines, spin, b2b, 0, false);
        let with_combo = match self.v.combo {
            ComboTable::Ruleset => table + scoring::combo_attack(combo_index),
            ComboTable::None => table,
            ComboTable::Multiplier if table == 0 => multiplier_combo(combo_index),
            ComboTable::Multiplier => (u64::from(table) * (4 + u64::from(combo_index)) / 4)
                .min(u64::from(MAX_ATTACK)) as u32,
        };
        let all_clear = if perfect {
            u32::from(self.v.all_clear)
        } else {
            0
        };
        (with_combo + all_clear).min(MAX_ATTACK)
    }

    /// The surge a chain breaking at back-to-back count `count` releases (0 when chaining).
    pub fn surge_of(&self, count: u32) -> u32 {
        match self.v.b2b {
            BackToBack::Chaining => 0,
            BackToBack::Surge => surge(count),
        }
    }

    /// `raw` lines of attack at game time `t` through the multiplier, with `carry`
    /// thousandths left from the player's earlier attacks: `(lines, carry left)`. At 100% the
    /// attack is `raw` and the carry stays.
    pub fn multiply(&self, raw: u32, carry: u32, t: u64) -> (u32, u32) {
        let total = u64::from(raw) * u64::from(self.multiplier_at(t)) + u64::from(carry % 1000);
        let lines = (total / 1000).min(u64::from(MAX_ATTACK)) as u32;
        (lines, (total % 1000) as u32)
    }

    /// The spin a lock counts as, from the ruleset's verdict `ruleset` for a `t_piece` or
    /// another piece: a rotated piece that could move neither up, left nor right is
    /// `immobile`.
    pub fn spin(&self, ruleset: Spin, t_piece: bool, rotated: bool, immobile: bool) -> Spin {
        let other = !t_piece && ruleset == Spin::None && rotated && immobile;
        match self.v.spins {
            SpinBonus::TSpins => ruleset,
            SpinBonus::None => Spin::None,
            SpinBonus::AllSpins if other => Spin::Full,
            SpinBonus::AllMini if other => Spin::Mini,
            // The ruleset's own non-T spins (tetrs) are minis under all-mini.
            SpinBonus::AllMini if !t_piece && ruleset != Spin::None => Spin::Mini,
            SpinBonus::AllSpins | SpinBonus::AllMini => ruleset,
        }
    }

    /// Whether the spin rule needs to know if a non-T piece is immobile.
    pub fn other_pieces_spin(&self) -> bool {
        matches!(self.v.spins, SpinBonus::AllSpins | SpinBonus::AllMini)
    }

    /// Each setting as (label, value text), in the order a settings screen lists them, for
    /// the results and the replay viewer.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let v = &self.v;
        let per_minute = |inc: u32, margin: u16, unit: &str| {
            if inc == 0 {
                "none".to_string()
            } else {
                format!("+{inc}{unit}/min after {margin} s")
            }
        };
        vec![
            ("Garbage multiplier", format!("{}%", v.multiplier)),
            (
                "Multiplier increase",
                per_minute(u32::from(v.multiplier_increase), v.multiplier_margin, "%"),
            ),
            ("Garbage cap", format!("{} lines", v.cap)),
            (
                "Cap increase",
                per_minute(u32::from(v.cap_increase), v.cap_margin, ""),
            ),
            ("Messiness", format!("{}%", v.messiness)),
            ("Hole size", v.hole_size.to_string()),
            ("Blocking", v.blocking.label().to_string()),
            ("Back-to-back", v.b2b.label().to_string()),
            ("Combo table", v.combo.label().to_string()),
            ("Spin bonuses", v.spins.label().to_string()),
            ("All clear", format!("{} lines", v.all_clear)),
            (
                "Opener",
                if v.opener == 0 {
                    "none".to_string()
                } else {
                    format!("{} s", v.opener)
                },
            ),
        ]
    }

    /// [`GarbageSettings::describe`]'s rows whose value is not the default's.
    pub fn describe_changed(&self) -> Vec<(&'static str, String)> {
        let defaults = GarbageSettings::default().describe();
        self.describe()
            .into_iter()
            .zip(defaults)
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a)
            .collect()
    }
}

/// The surge a chain breaking at back-to-back count `count` releases: nothing below
/// [`SURGE_FROM`], then `count` lines (4 at 4, 5 at 5...), at most [`MAX_ATTACK`].
pub fn surge(count: u32) -> u32 {
    if count >= SURGE_FROM {
        count.min(MAX_ATTACK)
    } else {
        0
    }
}

/// [`ComboTable::Multiplier`]'s bonus for a clear worth nothing by itself, by combo index:
/// nothing for the first two clears of a chain, then 1 line, 2 from the 6th, 3 from the
/// 12th, 4 from the 20th.
pub fn multiplier_combo(combo_index: u32) -> u32 {
    match combo_index {
        0..=1 => 0,
        2..=5 => 1,
        6..=11 => 2,
        12..=19 => 3,
        _ => 4,
    }
}

macro_rules! labelled {
    ($t:ty { $($v:ident => $label:literal),* $(,)? }) => {
        impl $t {
            /// Every value, in the order a settings screen cycles through them.
            pub const ALL: &'static [$t] = &[$(<$t>::$v),*];

            /// A short human name.
            pub fn label(self) -> &'static str {
                match self {
                    $(<$t>::$v => $label),*
                }
            }
        }
    };
}

labelled!(Blocking {
    Cancel => "clears cancel incoming",
    None => "no blocking",
    Passthrough => "passthrough",
});
labelled!(BackToBack {
    Chaining => "chaining",
    Surge => "surge",
});
labelled!(ComboTable {
    Ruleset => "ruleset's",
    None => "none",
    Multiplier => "multiplier",
});
labelled!(SpinBonus {
    TSpins => "T-spins",
    AllSpins => "all spins",
    AllMini => "all-mini",
    None => "none",
});

#[cfg(test)]
mod tests;
