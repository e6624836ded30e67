//! A finished game's outcome in words, as the store's `outcome` column and `minotty play`'s save
//! file keep it.

use minotty_engine::EndReason;

/// The `outcome` column's word for a game's outcome.
pub fn outcome_text(outcome: Option<(EndReason, bool)>) -> &'static str {
    match outcome {
        None => "unfinished",
        Some((_, true)) => "won",
        Some((EndReason::BlockOut, _)) => "block_out",
        Some((EndReason::LockOut, _)) => "lock_out",
        Some((EndReason::TopOut, _)) => "top_out",
        Some((EndReason::Limit(_), _)) => "limit",
        Some((EndReason::ComboBroken, _)) => "combo_broken",
        Some((EndReason::Forfeit, _)) => "forfeit",
        Some((EndReason::InputLimit, _)) => "input_limit",
    }
}
