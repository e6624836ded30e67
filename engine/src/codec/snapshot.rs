//! A [`Snapshot`]'s binary form: `b"MTSN"`, a format byte, then the fields as bytes and LEB128
//! varints; the board as its non-empty rows from the bottom, two cells a byte. The serde form
//! is the same bytes.

use super::{Reader, put, read_tuning, write_tuning};
use crate::active::Active;
use crate::board::{BUFFER_HEIGHT, Board, Cell, HEIGHT, WIDTH};
use crate::event::Stats;
use crate::generator::PieceSource;
use crate::piece::{Piece, Placed, Rotation};
use crate::preset::{CHEESE_MAX, ModeKind};
use crate::replay::ReplayError;
use crate::rng::SplitMix;
use crate::ruleset::{RulesetId, Time, Tuning};
use crate::snapshot::{MAX_BYTES, MAX_QUEUE, Refill, Snapshot, SnapshotError, SnapshotPhase};

const MAGIC: &[u8; 4] = b"MTSN";
const FORMAT: u8 = 1;

impl From<ReplayError> for SnapshotError {
    fn from(e: ReplayError) -> Self {
        match e {
            ReplayError::Malformed(what) => SnapshotError::Malformed(what),
            _ => SnapshotError::Malformed("value"),
        }
    }
}

impl Snapshot {
    /// The binary form (at most [`MAX_BYTES`] bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::with_capacity(256);
        w.extend_from_slice(MAGIC);
        w.push(FORMAT);
        w.push(self.ruleset.code());
        w.push(self.mode as u8);
        if self.tuning.is_default() {
            w.push(0);
        } else {
            w.push(1);
            write_tuning(&mut w, &self.tuning);
        }
        put(&mut w, self.time);
        write_board(&mut w, &self.board);
        match self.phase {
            SnapshotPhase::Falling {
                active,
                last_fall,
                on_ground,
                touchdown,
                liftoff,
                ground_left,
            } => {
                w.push(0);
                let p = active.placed;
                w.push(p.piece as u8);
                w.push(p.rotation as u8);
                w.push(p.x as u8);
                w.push(p.y as u8);
                w.push(active.lowest as u8);
                put_time(&mut w, active.lock_at);
                w.push(active.resets);
                match active.rotated {
                    None => w.push(0),
                    Some((kick, last)) => {
                        w.push(1 + u8::from(last));
                        w.push(kick);
                    }
                }
                w.push(u8::from(active.dropped));
                put(&mut w, last_fall);
                w.push(u8::from(on_ground));
                put_time(&mut w, touchdown);
                put_time(&mut w, liftoff);
                put(&mut w, u64::from(ground_left));
            }
            SnapshotPhase::Clearing { until, rows } => {
                w.push(1);
                put(&mut w, until);
                put(&mut w, rows);
            }
        }
        w.push(self.hold.map_or(0, |p| p as u8 + 1));
        w.push(u8::from(self.hold_used));
        w.push(self.queue.len() as u8);
        w.extend(self.queue.iter().map(|&p| p as u8));
        self.source.write(&mut w);
        put(&mut w, self.rng.state());
        match self.refill {
            Refill::Nothing => w.push(0),
            Refill::Cheese { visible } => {
                w.push(1);
                put(&mut w, u64::from(visible));
            }
            Refill::Well { width } => {
                w.push(2);
                w.push(width);
            }
        }
        put(&mut w, u64::from(self.cheese_left));
        put(&mut w, (i64::from(self.combo) + 1) as u64);
        w.push(u8::from(self.b2b));
        put(&mut w, u64::from(self.b2b_chain));
        write_stats(&mut w, &self.stats);
        w
    }

    /// Reads the binary form: anything over [`MAX_BYTES`] is refused before it is read, and
    /// every value is checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, SnapshotError> {
        if bytes.len() > MAX_BYTES {
            return Err(SnapshotError::TooLarge { len: bytes.len() });
        }
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC {
            return Err(SnapshotError::Malformed("not a minotty snapshot"));
        }
        if r.byte()? != FORMAT {
            return Err(SnapshotError::Malformed("unknown snapshot format"));
        }
        let ruleset = RulesetId::from_code(r.byte()?).ok_or(SnapshotError::Malformed("ruleset"))?;
        let mode = *ModeKind::ALL
            .get(usize::from(r.byte()?))
            .ok_or(SnapshotError::Malformed("mode"))?;
        let tuning = match r.byte()? {
            0 => Tuning::default(),
            1 => read_tuning(&mut r)?,
            _ => return Err(SnapshotError::Malformed("tuning")),
        };
        let time = r.var()?;
        let board = read_board(&mut r)?;
        let phase = match r.byte()? {
            0 => {
                let piece = read_piece(&mut r)?;
                let rotation = *Rotation::ALL
                    .get(usize::from(r.byte()?))
                    .ok_or(SnapshotError::Malformed("rotation"))?;
                let x = r.byte()? as i8;
                let y = r.byte()? as i8;
                let lowest = r.byte()? as i8;
                // Within these a piece's cells are computed without overflow, and `fits` says
                // whether it is really on the board.
                let span = -4..=HEIGHT as i8 + 4;
                if !(-4..=WIDTH as i8 + 4).contains(&x)
                    || !span.contains(&y)
                    || !span.contains(&lowest)
                {
                    return Err(SnapshotError::Malformed("piece position"));
                }
                let placed = Placed {
                    piece,
                    rotation,
                    x,
                    y,
                };
                if !board.fits(&placed) {
                    return Err(SnapshotError::Malformed("piece overlaps the board"));
                }
                let lock_at = read_time(&mut r)?;
                let resets = r.byte()?;
                let rotated = match r.byte()? {
                    0 => None,
                    n @ (1 | 2) => Some((r.byte()?, n == 2)),
                    _ => return Err(SnapshotError::Malformed("rotation flag")),
                };
                let dropped = r.flag()?;
                let last_fall = r.var()?;
                let on_ground = r.flag()?;
                let touchdown = read_time(&mut r)?;
                let liftoff = read_time(&mut r)?;
                let ground_left = r.small("ground time")?;
                // Gravity counts from at most the end of a line clear pause with the piece in
                // play (`ClearPause::LivePiece`), at most a tuning's longest delay away.
                let latest_fall = time.saturating_add(Time::from(crate::ruleset::MAX_DELAY));
                if last_fall > latest_fall || lock_at.is_some_and(|t| t < time) {
                    return Err(SnapshotError::Malformed("timers"));
                }
                SnapshotPhase::Falling {
                    active: Active {
                        placed,
                        lowest,
                        lock_at,
                        resets,
                        rotated,
                        dropped,
                    },
                    last_fall,
                    on_ground,
                    touchdown,
                    liftoff,
                    ground_left,
                }
            }
            1 => {
                let until = r.var()?;
                let rows = r.var()?;
                // No rows: the appearance delay between a lock that cleared nothing and the
                // next piece, which the game keeps as a clear of no rows.
                if rows >> HEIGHT != 0 || until < time {
                    return Err(SnapshotError::Malformed("line clear"));
                }
                SnapshotPhase::Clearing { until, rows }
            }
            _ => return Err(SnapshotError::Malformed("phase")),
        };
        let hold = match r.byte()? {
            0 => None,
            b => Some(
                *Piece::ALL
                    .get(usize::from(b - 1))
                    .ok_or(SnapshotError::Malformed("hold"))?,
            ),
        };
        let hold_used = r.flag()?;
        let n = usize::from(r.byte()?);
        if n > MAX_QUEUE {
            return Err(SnapshotError::Malformed("queue"));
        }
        let mut queue = Vec::with_capacity(n);
        for _ in 0..n {
            queue.push(read_piece(&mut r)?);
        }
        let source = PieceSource::read(&mut r)?;
        let rng = SplitMix::from_state(r.var()?);
        let refill = match r.byte()? {
            0 => Refill::Nothing,
            1 => {
                let visible = r.small("cheese")?;
                if !(1..=HEIGHT as u32 - BUFFER_HEIGHT as u32).contains(&visible) {
                    return Err(SnapshotError::Malformed("cheese"));
                }
                Refill::Cheese { visible }
            }
            2 => {
                let width = r.byte()?;
                if !(1..=WIDTH as u8).contains(&width) {
                    return Err(SnapshotError::Malformed("well"));
                }
                Refill::Well { width }
            }
            _ => return Err(SnapshotError::Malformed("refill")),
        };
        let cheese_left = r.small("cheese left")?;
        if cheese_left > CHEESE_MAX {
            return Err(SnapshotError::Malformed("cheese left"));
        }
        let combo = i32::try_from(r.var()?)
            .map_err(|_| SnapshotError::Malformed("combo"))?
            .checked_sub(1)
            .ok_or(SnapshotError::Malformed("combo"))?;
        let b2b = r.flag()?;
        let b2b_chain = r.small("back-to-back")?;
        let mut stats = read_stats(&mut r)?;
        stats.time = time;
        if r.pos != bytes.len() {
            return Err(SnapshotError::Malformed("trailing bytes"));
        }
        Ok(Snapshot {
            ruleset,
            tuning,
            mode,
            time,
            board,
            phase,
            hold,
            hold_used,
            queue,
            source,
            rng,
            refill,
            cheese_left,
            combo,
            b2b,
            b2b_chain,
            stats,
        })
    }
}

fn put_time(w: &mut Vec<u8>, t: Option<Time>) {
    put(w, t.map_or(0, |t| t.saturating_add(1)));
}

fn read_time(r: &mut Reader<'_>) -> Result<Option<Time>, SnapshotError> {
    Ok(r.var()?.checked_sub(1))
}

fn read_piece(r: &mut Reader<'_>) -> Result<Piece, SnapshotError> {
    Piece::ALL
        .get(usize::from(r.byte()?))
        .copied()
        .ok_or(SnapshotError::Malformed("piece"))
}

fn cell_code(c: Cell) -> u8 {
    match c {
        Cell::Empty => 0,
        Cell::Block(p) => p as u8 + 1,
        Cell::Garbage => 8,
    }
}

/// The rows from the bottom up to the highest non-empty one (a count, then each row's ten
/// cells as five bytes of two 4-bit codes: 0 empty, 1-7 a piece, 8 garbage).
fn write_board(w: &mut Vec<u8>, board: &Board) {
    let used = (0..HEIGHT)
        .find(|&y| board.row_mask(y) != 0)
        .map_or(0, |top| HEIGHT - top);
    w.push(used as u8);
    for y in (HEIGHT - used..HEIGHT).rev() {
        for x in (0..WIDTH).step_by(2) {
            w.push(cell_code(board.cell(x, y)) | (cell_code(board.cell(x + 1, y)) << 4));
        }
    }
}

fn read_board(r: &mut Reader<'_>) -> Result<Board, SnapshotError> {
    let used = usize::from(r.byte()?);
    if used > HEIGHT {
        return Err(SnapshotError::Malformed("board height"));
    }
    let mut board = Board::new();
    for y in (HEIGHT - used..HEIGHT).rev() {
        for x in (0..WIDTH).step_by(2) {
            let b = r.byte()?;
            for (dx, code) in [(0, b & 0xF), (1, b >> 4)] {
                let cell = match code {
                    0 => Cell::Empty,
                    1..=7 => Cell::Block(Piece::ALL[usize::from(code - 1)]),
                    8 => Cell::Garbage,
                    _ => return Err(SnapshotError::Malformed("cell")),
                };
                board.set(x + dx, y, cell);
            }
        }
    }
    Ok(board)
}

/// Every field but `time`, which is the snapshot's own.
fn stats_fields(s: &Stats) -> [u64; 16] {
    [
        u64::from(s.level),
        u64::from(s.lines),
        u64::from(s.pieces),
        s.score,
        u64::from(s.garbage_cleared),
        u64::from(s.max_combo),
        u64::from(s.max_b2b),
        u64::from(s.singles),
        u64::from(s.doubles),
        u64::from(s.triples),
        u64::from(s.tetrises),
        u64::from(s.tspins),
        u64::from(s.perfect_clears),
        u64::from(s.attack),
        u64::from(s.sent),
        u64::from(s.garbage_received),
    ]
}

fn write_stats(w: &mut Vec<u8>, s: &Stats) {
    for v in stats_fields(s) {
        put(w, v);
    }
    for v in s.by_piece {
        put(w, u64::from(v));
    }
}

fn read_stats(r: &mut Reader<'_>) -> Result<Stats, SnapshotError> {
    let mut small = |what| -> Result<u32, SnapshotError> { Ok(r.small(what)?) };
    let level = small("level")?;
    let lines = small("lines")?;
    let pieces = small("pieces")?;
    let score = r.var()?;
    let mut small = |what| -> Result<u32, SnapshotError> { Ok(r.small(what)?) };
    let mut stats = Stats {
        time: 0,
        level,
        lines,
        pieces,
        score,
        garbage_cleared: small("stats")?,
        max_combo: small("stats")?,
        max_b2b: small("stats")?,
        singles: small("stats")?,
        doubles: small("stats")?,
        triples: small("stats")?,
        tetrises: small("stats")?,
        tspins: small("stats")?,
        perfect_clears: small("stats")?,
        attack: small("stats")?,
        sent: small("stats")?,
        garbage_received: small("stats")?,
        by_piece: [0; 7],
    };
    for v in stats.by_piece.iter_mut() {
        *v = small("stats")?;
    }
    if level > 1000 {
        return Err(SnapshotError::Malformed("level"));
    }
    Ok(stats)
}

/// The serde form is the binary form (a byte string), so it has the same bounds and checks.
#[cfg(feature = "serde")]
mod serde_bytes_form {
    use crate::snapshot::{MAX_BYTES, Snapshot};
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Snapshot {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.to_bytes())
        }
    }

    struct Bytes;

    impl<'de> Visitor<'de> for Bytes {
        type Value = Snapshot;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "a snapshot of at most {MAX_BYTES} bytes")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Snapshot, E> {
            Snapshot::from_bytes(v).map_err(E::custom)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Snapshot, A::Error> {
            let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(MAX_BYTES));
            while let Some(b) = seq.next_element::<u8>()? {
                if bytes.len() == MAX_BYTES {
                    return Err(A::Error::custom("snapshot too large"));
                }
                bytes.push(b);
            }
            self.visit_bytes(&bytes)
        }
    }

    impl<'de> Deserialize<'de> for Snapshot {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Snapshot, D::Error> {
            d.deserialize_bytes(Bytes)
        }
    }
}
