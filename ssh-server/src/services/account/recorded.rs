//! What the results screen is told of a game the writer stored, or did not: its id, rank and
//! notes (why it is not ranked; what the replay quota deleted), or the error.

use minotty_domain::{Period, Verdict};
use minotty_protocol::GameRecorded;
use minotty_store::{QuotaCut, REPLAY_QUOTA, StoredGame, WriteResult};
use minotty_ui::Response;

use super::error;

/// What the results screen is told about a stored game.
pub(super) fn recorded(result: WriteResult, previous_best: Option<(String, String)>) -> Response {
    match result {
        Ok(StoredGame {
            quota:
                Some(QuotaCut {
                    this_game: true,
                    removed,
                }),
            ..
        }) => {
            tracing::info!(
                removed,
                "a stored game was deleted at once: over the replay quota"
            );
            error(&over_quota(removed, true))
        }
        Ok(StoredGame {
            id,
            verdict,
            improved,
            rank,
            quota,
        }) => {
            let why = match verdict {
                Verdict::Ranked { .. } => None,
                Verdict::Unranked(why) => Some(format!("not ranked: {why}")),
                Verdict::Rejected(_) => Some("not ranked: the replay did not check out".into()),
            };
            let cut = quota
                .filter(|q| q.removed > 0)
                .map(|q| over_quota(q.removed, false));
            let note = match (why, cut) {
                (Some(why), Some(cut)) => Some(format!("{why}; {cut}")),
                (why, cut) => why.or(cut),
            };
            Response::GameRecorded(GameRecorded {
                game: id.0,
                personal_best: improved.contains(&Period::AllTime),
                rank,
                note,
                previous_best,
            })
        }
        Err(e) => {
            tracing::warn!(error = %e, "a finished game was not stored");
            error(e.for_player())
        }
    }
}

/// What the player is told when the replay quota deleted games as theirs was stored:
/// `removed` older ones, and this one too when `this_game`.
fn over_quota(removed: u32, this_game: bool) -> String {
    let mib = REPLAY_QUOTA >> 20;
    match (this_game, removed) {
        (true, 0) => format!("not kept: your replays are over the {mib} MiB quota (bests stay)"),
        (true, n) => format!("not kept, nor {n} older: replays over the {mib} MiB quota"),
        (false, 1) => format!("your oldest game was removed: {mib} MiB replay quota"),
        (false, n) => format!("your {n} oldest games were removed: {mib} MiB replay quota"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_domain::{GameId, Unranked};

    fn stored(verdict: Verdict, quota: Option<QuotaCut>) -> WriteResult {
        Ok(StoredGame {
            id: GameId(7),
            verdict,
            improved: Vec::new(),
            rank: None,
            quota,
        })
    }

    fn note(response: Response) -> Option<String> {
        match response {
            Response::GameRecorded(rec) => rec.note,
            other => panic!("not recorded: {other:?}"),
        }
    }

    #[test]
    fn the_player_is_told_what_the_replay_quota_deleted() {
        let unranked = || Verdict::Unranked(Unranked::GoalMissed);
        let ranked = || Verdict::Ranked { key: 1 };
        // Nothing deleted: nothing said.
        assert_eq!(note(recorded(stored(ranked(), None), None)), None);
        // Older games deleted: said, after why it is not ranked.
        let cut = |removed| {
            Some(QuotaCut {
                removed,
                this_game: false,
            })
        };
        assert_eq!(
            note(recorded(stored(ranked(), cut(3)), None)).as_deref(),
            Some("your 3 oldest games were removed: 32 MiB replay quota")
        );
        let both = note(recorded(stored(unranked(), cut(1)), None)).expect("a note");
        assert!(both.starts_with("not ranked: "), "{both}");
        assert!(
            both.ends_with("; your oldest game was removed: 32 MiB replay quota"),
            "{both}"
        );
        // This game deleted: told it was not kept.
        let gone = Some(QuotaCut {
            removed: 0,
            this_game: true,
        });
        match recorded(stored(ranked(), gone), None) {
            Response::Error { message } => assert_eq!(
                message,
                "not kept: your replays are over the 32 MiB quota (bests stay)"
            ),
            other => panic!("not an error: {other:?}"),
        }
    }
}
