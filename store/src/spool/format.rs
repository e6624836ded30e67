//! The spool's record format, version 1: one file per record, a header line of JSON that
//! describes the body, then the body, itself JSON.
//!
//! ```text
//! {"format":"minotty-spool","version":1,"kind":"game","bytes":812,"sha256":"9f2c..."}\n
//! {"player":7,"replay":"0100..","stats":{..},"outcome":..,"started_at":..,"ended_at":..}
//! ```
//!
//! The header says what the body is and how long, and its SHA-256: a body cut short or
//! changed is refused as corrupt, never half read. A game's replay is the engine's own codec
//! (`Replay::to_bytes`) in hex, as the log gives it for a game that could not be stored.

use minotty_domain::PlayerId;
use minotty_engine::{EndReason, Replay, Stats};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::{FinishedGame, NewMatch, UnixMs};

/// What the first line names.
pub const FORMAT: &str = "minotty-spool";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// One thing the database did not take.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// A finished solo game of a registered player (judged again when it is stored).
    Game(Box<FinishedGame>),
    /// A finished versus match.
    Match(NewMatch),
}

impl Record {
    /// `game` or `match`: the header's `kind`, and part of the file's name.
    pub fn kind(&self) -> &'static str {
        match self {
            Record::Game(_) => "game",
            Record::Match(_) => "match",
        }
    }
}

/// Why a file is not a record this build can read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Corrupt {
    #[error("no header line")]
    NoHeader,
    #[error("the header is not a spool header: {0}")]
    Header(String),
    #[error("format {0:?} version {1}, not {FORMAT} version {VERSION}")]
    Version(String, u32),
    #[error("the body has {got} bytes, the header says {want}")]
    Length { got: usize, want: usize },
    #[error("the body's checksum differs from the header's")]
    Checksum,
    #[error("the body does not decode: {0}")]
    Body(String),
    #[error("unknown kind {0:?}")]
    Kind(String),
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    version: u32,
    kind: String,
    bytes: usize,
    sha256: String,
}

/// A game as spooled: the fields of [`FinishedGame`], the replay in hex.
#[derive(Serialize, Deserialize)]
struct GameBody {
    player: i64,
    replay: String,
    stats: Stats,
    outcome: Option<(EndReason, bool)>,
    started_at: UnixMs,
    ended_at: UnixMs,
}

/// A record's body: one line of JSON, as its file holds it after the header (a game's replay
/// in hex). The log line of a record that could be neither stored nor spooled carries it
/// whole.
pub fn body(record: &Record) -> Result<Vec<u8>, serde_json::Error> {
    Ok(match record {
        Record::Game(g) => serde_json::to_vec(&GameBody {
            player: g.player.0,
            replay: hex(&g.replay.to_bytes()),
            stats: g.stats,
            outcome: g.outcome,
            started_at: g.started_at,
            ended_at: g.ended_at,
        })?,
        Record::Match(m) => serde_json::to_vec(m)?,
    })
}

/// [`body`] as text, for a log line (or why it could not be encoded).
pub fn body_text(record: &Record) -> String {
    match body(record) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => format!("(the record does not encode: {e})"),
    }
}

/// The bytes of a record file.
pub fn encode(record: &Record) -> Result<Vec<u8>, serde_json::Error> {
    let body = body(record)?;
    let header = Header {
        format: FORMAT.to_owned(),
        version: VERSION,
        kind: record.kind().to_owned(),
        bytes: body.len(),
        sha256: hex(&Sha256::digest(&body)),
    };
    let mut out = serde_json::to_vec(&header)?;
    out.push(b'\n');
    out.extend_from_slice(&body);
    Ok(out)
}

/// The record in `bytes`, checked against its header.
pub fn decode(bytes: &[u8]) -> Result<Record, Corrupt> {
    let newline = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or(Corrupt::NoHeader)?;
    let (head, body) = (&bytes[..newline], &bytes[newline + 1..]);
    let header: Header =
        serde_json::from_slice(head).map_err(|e| Corrupt::Header(e.to_string()))?;
    if header.format != FORMAT || header.version != VERSION {
        return Err(Corrupt::Version(header.format, header.version));
    }
    if body.len() != header.bytes {
        return Err(Corrupt::Length {
            got: body.len(),
            want: header.bytes,
        });
    }
    if hex(&Sha256::digest(body)) != header.sha256 {
        return Err(Corrupt::Checksum);
    }
    let bad = |e: &dyn std::fmt::Display| Corrupt::Body(e.to_string());
    match header.kind.as_str() {
        "game" => {
            let g: GameBody = serde_json::from_slice(body).map_err(|e| bad(&e))?;
            let replay = unhex(&g.replay).ok_or_else(|| bad(&"the replay is not hex"))?;
            let replay = Replay::from_bytes(&replay).map_err(|e| bad(&e))?;
            Ok(Record::Game(Box::new(FinishedGame {
                player: PlayerId(g.player),
                replay,
                stats: g.stats,
                outcome: g.outcome,
                started_at: g.started_at,
                ended_at: g.ended_at,
            })))
        }
        "match" => Ok(Record::Match(
            serde_json::from_slice(body).map_err(|e| bad(&e))?,
        )),
        other => Err(Corrupt::Kind(other.to_owned())),
    }
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}
