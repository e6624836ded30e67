//! A ranked match starts only from ratings that were read. When the store cannot be read (a
//! database outage), a player's rating is unknown, not the default: pairing them as 1500
//! would show a rating change that the store, once back, computes again from the real rating
//! (`store::matches`), so what the players were told would not be what is stored. The queue
//! waits for the rating instead, telling the player why, and tries again while they wait.

use std::time::Duration;

use minotty_domain::PlayerId;
use minotty_domain::ranked::idle_grown;
use minotty_engine::rating::Rating;
use minotty_ui::Response;

use super::{Hub, Member, RankedClaim, lock};
use minotty_store::StoreError;

/// How long the queue waits between two reads of a rating the store could not give.
pub const RATING_RETRY: Duration = Duration::from_secs(2);

impl Hub {
    /// The player's rating: the latest ranked series' (not written yet, perhaps), the store's,
    /// or the default for a player who never played ranked; an error when the store cannot
    /// be read now. Its deviation has grown by the weeks idle since that series
    /// (`minotty_domain::ranked::idle_grown`, as the store grows it before rating the next).
    pub async fn known_rating(&self, player: PlayerId) -> Result<Rating, StoreError> {
        let now = super::unix_now();
        if let Some(&(r, at)) = lock(&self.ratings).get(&player) {
            return Ok(idle_grown(r, at, now));
        }
        match &self.store {
            Some(store) => Ok(store
                .rating_of(player)
                .await?
                .map_or_else(Rating::default, |s| {
                    idle_grown(s.rating, s.last_match_at, now)
                })),
            None => Ok(Rating::default()),
        }
    }

    /// For the queue: `member`'s rating, read again every [`RATING_RETRY`] while the store
    /// cannot give it (the player is told once) and the member still waits (their `claim`
    /// held, their session open). `None`: the member stopped waiting.
    pub(super) async fn rating_for_queue(
        &self,
        member: &Member,
        player: PlayerId,
        claim: RankedClaim,
    ) -> Option<Rating> {
        let mut told = false;
        loop {
            let e = match self.known_rating(player).await {
                Ok(r) => return Some(r),
                Err(e) => e,
            };
            if !self.holds_ranked(claim) || member.tx.is_closed() {
                return None;
            }
            if !told {
                told = true;
                tracing::warn!(
                    error = %e,
                    player = player.0,
                    "a queued player's rating cannot be read: waiting for the database"
                );
                member.send(Response::Notice {
                    message: "Your rating cannot be read right now (the database is out of \
                              reach): you join the queue as soon as it can be."
                        .into(),
                });
            }
            tokio::time::sleep(RATING_RETRY).await;
            if !self.holds_ranked(claim) || member.tx.is_closed() {
                return None;
            }
        }
    }
}
