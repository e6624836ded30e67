//! A stored match's replay, read for its viewer (the App's `Request::MatchReplay`) and for
//! `replay mN --cast`: who may watch it is decided on the match's record (no replay read), then
//! every seat's replay is read, decoded and, where the recorder did not already, judged
//! (`minotty_domain::seat_judge`, as solo games are) on the blocking pool.
//!
//! Who may watch what: a ranked match by anyone (its result is on the versus board); any other
//! only by an account that had a seat in it. The results screen asks by room and seed (the
//! match has no id when the results open): whoever knows them was sent its `MatchStart`.
//!
//! Bounds: at most [`MAX_MATCH_SEATS`] seats, each at most `MAX_INPUTS` inputs (refused before
//! decoding past that); a seat whose replay is missing or does not verify is sent as such,
//! never played.

use minotty_domain::{PlayerId, SeatCheck, SeatClaims, judge_replay};
use minotty_engine::Replay;
use minotty_engine::versus::{MatchKind, RoomSettings};
use minotty_protocol::{MAX_MATCH_SEATS, MatchRef, MatchReplay, MatchSeat, SeatFilm};
use minotty_store::{MatchId, MatchPlayer, Store, StoreError};

/// Why a match replay is not given.
#[derive(Debug)]
pub enum Refused {
    /// No such match (or, by room and seed, not stored yet).
    NotFound,
    /// An unranked match, and the caller had no seat in it.
    Private,
    /// The database failed.
    Store(StoreError),
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        Refused::Store(e)
    }
}

/// The match `of`, as `caller` (the account of the connection's key, if any) may watch it.
pub async fn load(
    store: &Store,
    of: &MatchRef,
    caller: Option<PlayerId>,
) -> Result<MatchReplay, Refused> {
    let id = match of {
        MatchRef::Id(id) => MatchId(*id),
        MatchRef::Played { room, seed } => store
            .match_by_room_seed(room, *seed)
            .await?
            .ok_or(Refused::NotFound)?,
    };
    let record = store.match_record(id).await?.ok_or(Refused::NotFound)?;
    let by_id = matches!(of, MatchRef::Id(_));
    let seated = caller.is_some_and(|c| record.players.contains(&c));
    if by_id && !record.ranked && !seated {
        return Err(Refused::Private);
    }
    let mut players = store.match_players(id).await?;
    players.truncate(MAX_MATCH_SEATS);
    let (seed, kind) = (record.seed, record.kind);
    // Clamped by their serde read, as a peer's are; unreadable ones are shown as unknown.
    let settings = record
        .settings
        .as_deref()
        .and_then(|json| serde_json::from_str::<RoomSettings>(json).ok());
    let seats = tokio::task::spawn_blocking(move || {
        players
            .into_iter()
            .map(|p| seat(p, seed, kind))
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| {
        tracing::error!(error = %e, id = id.0, "reading a match replay");
        Refused::NotFound
    })?;
    Ok(MatchReplay {
        id: id.0,
        kind: record.kind,
        ranked: record.ranked,
        ended_at: record.ended_at,
        seats,
        settings,
    })
}

/// One stored seat as its viewer gets it: decoded, and judged unless the recorder did.
fn seat(p: MatchPlayer, seed: u32, kind: MatchKind) -> MatchSeat {
    let check = SeatCheck::from_db(p.replay_check.as_deref());
    let film = match (p.replay.as_deref(), check) {
        (None, _) | (_, SeatCheck::Missing) => SeatFilm::Missing,
        (Some(_), SeatCheck::Unverified(why)) => SeatFilm::Unverified(why),
        (Some(bytes), check) => match Replay::from_bytes(bytes) {
            Err(e) => SeatFilm::Unverified(format!("does not decode: {e}")),
            Ok(replay) => {
                let check = if check == SeatCheck::Verified {
                    check
                } else {
                    // Stored before the recorder judged seats.
                    let claims = SeatClaims {
                        seed,
                        lines: p.lines,
                        routed_attack: match kind {
                            MatchKind::Battle => p.attack_sent,
                            MatchKind::Race => 0,
                        },
                    };
                    judge_replay(&replay, claims)
                };
                match check {
                    SeatCheck::Verified => SeatFilm::Verified(Box::new(replay)),
                    SeatCheck::Unverified(why) => SeatFilm::Unverified(why),
                    SeatCheck::Missing | SeatCheck::Unchecked => SeatFilm::Missing,
                }
            }
        },
    };
    MatchSeat {
        name: p.name,
        place: p.place,
        forfeited: p.forfeited,
        film,
    }
}
