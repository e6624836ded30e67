//! Earlier versions of the rulesets. A replay names its ruleset's version and plays by exactly
//! that version's rules, so a game recorded before a rule changed still verifies (and ranks)
//! as it did. Each version is the current ruleset with the [`Legacy`] behaviours of its time
//! (and before version 5, `tui-tetris`'s gravity clock and line clear pause of then).
//!
//! Version history (every ruleset moved together):
//!
//! - **1**: the first rules.
//! - **2** (issue 26, every rule exact to its seed text): `tetrs`'s ground time keeps counting
//!   after a grounded piece reaches a new lowest row (version 1 stopped it: a stall); on the
//!   16 ms grid of `tui-tetris` every delay counts whole steps from the step it starts in
//!   (version 1 ended one step late when it started late in its step);
//!   recency may deal the piece it just dealt; the 7-bag of `standard` and `tetrs` reaches
//!   all 5,040 orders, each with equal chance (`tui-tetris` keeps the rules seed's exact
//!   queue); Ocular's L North clockwise and J North counter-clockwise lists hold their missing
//!   two-cell-overlap position instead of repeating their first kick.
//! - **3** (issue 36, nothing pressed during a delay is lost): a press during a line clear
//!   delay or a spawn delay (ARE) acts when the next piece spawns: a rotation turns it at
//!   spawn (initial rotation, as a held one always did), hold holds it (initial hold), a
//!   tap of a direction moves it once, a soft drop steps it, a sonic or hard drop drops it;
//!   a direction held through the delay keeps charging DAS (as before). Version 2 and
//!   earlier ignored every such press but a direction's ([`Legacy::presses_lost_in_delays`]).
//!   With it, 40 lines keeps its start level (`Mode::sprint`); its preset under versions 1
//!   and 2 raised the level every 10 lines (`ModeKind::preset_at`: a mode is part of its
//!   replay, so those replays play as recorded and rank against that preset).
//! - **4** (issue 36, combo mode deals no start it cannot keep): combo mode's well starts with
//!   residual cells that its first two pieces can both keep without hold (the usual cells
//!   wherever they can be, else their mirror or another three-cell start: `game/combo_start.rs`);
//!   version 3 and earlier always started with the usual cells, and 12 of the 42 starts a
//!   7-bag deals broke after one piece ([`Legacy::combo_start_fixed`]).
//! - **5** (`tui-tetris` exactly as the rules seed's "Fixed-Step Semantics"; `standard` and
//!   `tetrs` play as at version 4): gravity counts by the seed's accumulator, so the ms a
//!   step leaves over carry to the next row (rows at 1008, 2000, 3008, 4000 ms at level 0
//!   instead of 1008, 2016, 3024) and a step spanning several intervals drops several rows
//!   ([`GravityClock::Accumulator`]); the next piece spawns at a clearing lock, whose rows go
//!   at once, and takes the player's actions through the 180 ms pause while gravity and the
//!   lock delay wait for its last step ([`ClearPause::LivePiece`]). Version 4 and earlier of
//!   every ruleset restart gravity from each row ([`GravityClock::FromLastRow`]) and spawn
//!   after the pause ([`ClearPause::BeforeSpawn`]): ruleset data that [`Ruleset::of_version`]
//!   sets, since `standard` keeps both by choice rather than as a behaviour of the past. No
//!   [`Legacy`] field came with it.

use super::{ClearPause, GravityClock, Ruleset, RulesetId};
use crate::generator::{BagShuffle, Dealing};

/// Behaviours of earlier ruleset versions that the current ones fixed, kept only so that
/// replays recorded under them play exactly as recorded. Every field is `false` in the
/// current versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Legacy {
    /// Version 1 of `tetrs`: a grounded piece that reached a new lowest row without leaving
    /// the ground restarted its ground time but never counted it again until it lifted off,
    /// so moving it forever kept it from locking.
    pub ground_clock_stops: bool,
    /// Version 1 on a step grid: a delay ended at the first step at or after its start plus
    /// its length (one step later when it started late in a step).
    pub delay_from_input: bool,
    /// Version 1: Ocular's L North clockwise and J North counter-clockwise lists repeat their
    /// first kick at index 2 instead of the two-cell-overlap position (as the tetrs engine's
    /// data does).
    pub ocular_repeated_kick: bool,
    /// Versions 1 and 2: a press of anything but a direction during a line clear or spawn
    /// delay did nothing (a direction only started DAS), so a tap, a rotation tapped and
    /// released, a hold or a hard drop pressed in the delay was lost.
    pub presses_lost_in_delays: bool,
    /// Versions 1 to 3: combo mode's well always started with the same three residual cells,
    /// whatever its first two pieces, so that some starts broke after one piece.
    pub combo_start_fixed: bool,
}

impl Legacy {
    /// The current versions: nothing kept.
    pub const NONE: Legacy = Legacy {
        ground_clock_stops: false,
        delay_from_input: false,
        ocular_repeated_kick: false,
        presses_lost_in_delays: false,
        combo_start_fixed: false,
    };

    /// Version 1.
    pub const V1: Legacy = Legacy {
        ground_clock_stops: true,
        delay_from_input: true,
        ocular_repeated_kick: true,
        presses_lost_in_delays: true,
        combo_start_fixed: true,
    };

    /// Version 2.
    pub const V2: Legacy = Legacy {
        presses_lost_in_delays: true,
        combo_start_fixed: true,
        ..Legacy::NONE
    };

    /// Version 3.
    pub const V3: Legacy = Legacy {
        combo_start_fixed: true,
        ..Legacy::NONE
    };
}

/// The earliest version of every ruleset this engine still plays.
pub const FIRST_VERSION: u16 = 1;

impl Ruleset {
    /// The ruleset `id` as it was at `version`, or `None` for a version this engine does not
    /// know (a later one, or 0).
    pub fn of_version(id: RulesetId, version: u16) -> Option<Ruleset> {
        let current = *Ruleset::get(id);
        // Version 4: every ruleset's gravity restarted from each row and its line clear delay
        // came before the next piece (`tui-tetris` changed both at version 5).
        let v4 = Ruleset {
            version: 4,
            gravity_clock: GravityClock::FromLastRow,
            clear_pause: ClearPause::BeforeSpawn,
            ..current
        };
        match version {
            v if v == current.version => Some(current),
            4 => Some(v4),
            3 => Some(Ruleset {
                version: 3,
                legacy: Legacy::V3,
                ..v4
            }),
            2 => Some(Ruleset {
                version: 2,
                legacy: Legacy::V2,
                ..v4
            }),
            1 => Some(Ruleset {
                version: 1,
                legacy: Legacy::V1,
                dealing: Dealing {
                    bag: BagShuffle::SeedLcg,
                    recency_repeats: false,
                },
                ..v4
            }),
            _ => None,
        }
    }

    /// Every version of `id` this engine plays, oldest first.
    pub fn versions(id: RulesetId) -> std::ops::RangeInclusive<u16> {
        FIRST_VERSION..=Ruleset::get(id).version
    }
}
