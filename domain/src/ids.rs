//! Plain ids and times, shared by the store, the server and `minotty play`.

/// Milliseconds since the Unix epoch (UTC).
pub type UnixMs = i64;

/// A registered player's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerId(pub i64);

/// A stored game's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

#[cfg(test)]
mod tests {
    use super::*;

    /// The spool and the cluster carry a `PlayerId` as a bare number.
    #[test]
    fn a_player_id_serializes_as_its_number() {
        assert_eq!(serde_json::to_string(&PlayerId(42)).unwrap(), "42");
        assert_eq!(
            serde_json::from_str::<PlayerId>("-7").unwrap(),
            PlayerId(-7)
        );
    }
}
