//! Snapshots: the whole state of a game at one moment, to resume it later as a custom game
//! ([`crate::StartBoard::Snapshot`]).
//!
//! A [`Snapshot`] holds the board's cells, the piece in play with its lock-delay state (lowest
//! row, lock resets used, the lock timer, timer lock down's ground time, the last rotation for
//! spin detection), or the line clear in progress, the hold and whether it was used for this
//! piece, the queue, the generator's full running state (so the pieces after the preview come
//! out the same), what refills the board after a clear (cheese rows left, combo walls), the
//! garbage stream, combo and back-to-back, and the stats.
//!
//! Clock: a game resumed from a snapshot goes on at the snapshot's game time, with every timer
//! where it was (the next gravity step, the lock timer, a line clear's end), so the same inputs
//! at the same times play the same game as the original did. What is not in a snapshot: held
//! buttons and auto-shift (the resumed game starts with every button released), incoming
//! garbage (solo games have none), and the mode's limits and level rule (the custom game's
//! own apply).
//!
//! Binary form: `b"MTSN"`, a format byte, then the fields as bytes and LEB128 varints; the
//! board as its non-empty rows from the bottom, two cells a byte. A whole snapshot is at most
//! [`MAX_BYTES`] bytes; [`Snapshot::from_bytes`] refuses anything longer before reading it,
//! checks every value (a piece that does not fit, a generator state that could not arise) and
//! never panics. The serde form is the same bytes.

use crate::board::{BUFFER_HEIGHT, Board, Cell, HEIGHT, WIDTH};
use crate::event::Stats;
use crate::game::Active;
use crate::generator::PieceSource;
use crate::mode::{CHEESE_MAX, ModeKind};
use crate::piece::{Piece, Placed, Rotation};
use crate::replay::{Reader, ReplayError, put, read_tuning, write_tuning};
use crate::rng::SplitMix;
use crate::ruleset::{RulesetId, Time, Tuning};

const MAGIC: &[u8; 4] = b"MTSN";
const FORMAT: u8 = 1;
/// The largest binary snapshot. A full board takes 200 bytes and everything else well under
/// 200; the bound leaves room and is what stores may rely on.
pub const MAX_BYTES: usize = 1024;
/// The most pieces a snapshot's queue may hold (a game keeps seven).
pub const MAX_QUEUE: usize = 16;

/// What a board gets after a clear: nothing, new cheese rows (up to `visible` on the board),
/// or the walls of a combo well `width` columns wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Refill {
    #[default]
    Nothing,
    Cheese {
        visible: u32,
    },
    Well {
        width: u8,
    },
}

/// Where the game was when the snapshot was taken: a piece in play, or rows being cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SnapshotPhase {
    Falling {
        active: Active,
        /// When gravity last moved the piece (the next step is due one interval later).
        last_fall: Time,
        /// Timer lock down's ground bookkeeping (unused under extended lock down).
        on_ground: bool,
        touchdown: Option<Time>,
        liftoff: Option<Time>,
        ground_left: u32,
    },
    /// Rows `rows` (bit `y` for row `y`) are being cleared; the next piece spawns at `until`.
    Clearing { until: Time, rows: u64 },
}

/// Why snapshot bytes were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// More than [`MAX_BYTES`] bytes.
    TooLarge { len: usize },
    /// Not a snapshot, cut short, or a value that could not arise in a game.
    Malformed(&'static str),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::TooLarge { len } => {
                write!(f, "snapshot of {len} bytes, more than {MAX_BYTES}")
            }
            SnapshotError::Malformed(what) => write!(f, "malformed snapshot: {what}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

impl From<ReplayError> for SnapshotError {
    fn from(e: ReplayError) -> Self {
        match e {
            ReplayError::Malformed(what) => SnapshotError::Malformed(what),
            _ => SnapshotError::Malformed("value"),
        }
    }
}

/// A game's whole state at one moment (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub(crate) ruleset: RulesetId,
    pub(crate) tuning: Tuning,
    pub(crate) mode: ModeKind,
    pub(crate) time: Time,
    pub(crate) board: Board,
    pub(crate) phase: SnapshotPhase,
    pub(crate) hold: Option<Piece>,
    pub(crate) hold_used: bool,
    pub(crate) queue: Vec<Piece>,
    pub(crate) source: PieceSource,
    pub(crate) rng: SplitMix,
    pub(crate) refill: Refill,
    pub(crate) cheese_left: u32,
    /// Combo index, -1 without a chain.
    pub(crate) combo: i32,
    pub(crate) b2b: bool,
    pub(crate) b2b_chain: u32,
    pub(crate) stats: Stats,
}

impl Snapshot {
    /// The ruleset the game was played under (a resumed game should use it too).
    pub fn ruleset(&self) -> RulesetId {
        self.ruleset
    }

    /// The tuning the game was played with.
    pub fn tuning(&self) -> Tuning {
        self.tuning
    }

    /// The mode the snapshot was taken in.
    pub fn mode(&self) -> ModeKind {
        self.mode
    }

    /// The game time it was taken at; a resumed game goes on from it.
    pub fn time(&self) -> Time {
        self.time
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece in play, or `None` when the snapshot was taken during a line clear.
    pub fn active(&self) -> Option<Placed> {
        match self.phase {
            SnapshotPhase::Falling { active, .. } => Some(active.placed),
            SnapshotPhase::Clearing { .. } => None,
        }
    }

    pub fn phase(&self) -> &SnapshotPhase {
        &self.phase
    }

    pub fn hold(&self) -> Option<Piece> {
        self.hold
    }

    /// Whether hold was already used for the piece in play.
    pub fn hold_used(&self) -> bool {
        self.hold_used
    }

    /// The next pieces, soonest first.
    pub fn queue(&self) -> &[Piece] {
        &self.queue
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The running combo index, `None` without a chain.
    pub fn combo(&self) -> Option<u32> {
        u32::try_from(self.combo).ok()
    }

    pub fn back_to_back(&self) -> bool {
        self.b2b
    }

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
                if last_fall > time || lock_at.is_some_and(|t| t < time) {
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
                if rows == 0 || rows >> HEIGHT != 0 || until < time {
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
    use super::{MAX_BYTES, Snapshot};
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
