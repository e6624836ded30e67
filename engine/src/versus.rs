//! Versus rules that sit above single games: a room's settings ([`RoomSettings`], its
//! attack and garbage rules [`GarbageSettings`], kept in `garbage_settings.rs` beside the
//! game, which applies them), who an
//! attack goes to, who knocked out whom, when a match is over and the final placements
//! ([`over`]). [`Router`] is pure
//! bookkeeping used both by a server's room task and by [`Match`], a deterministic simulation
//! of several games in one process (tests, bots, replays of whole matches).

pub mod climb;
mod describe;
pub use describe::stock_text;
mod game_settings;
pub mod over;
pub mod presets;
mod router;
pub mod series;
mod settings;
mod sim;
pub mod teams;

pub use crate::garbage_settings::{
    BackToBack, Blocking, CAP_CEILING, ComboTable, GarbageDraft, GarbageSettings, MAX_ATTACK,
    MULTIPLIER_CEILING, SURGE_FROM, SpinBonus, multiplier_combo, surge,
};
pub use game_settings::{
    BADGE_PERCENT, GameDraft, GameSettings, MAX_BADGES, badge_attack, entry_text, handling_text,
};
pub use router::{MatchKind, PlayerView, Router, Targeting};
pub use series::{Series, SeriesSettings};
pub use settings::{RACE_LINES, RoomLimit, RoomSettings};
pub use sim::{Match, MatchEvent};
