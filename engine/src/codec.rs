//! The binary forms of the engine's values, kept apart from the values themselves: a
//! [`Replay`](crate::Replay)'s (`b"MTRP"`), a [`Snapshot`](crate::Snapshot)'s (`b"MTSN"`), and
//! the parts they share (a mode, a tuning, a generator's running state) over LEB128 varints.
//!
//! The types' modules know nothing of their bytes; their `to_bytes` / `from_bytes` methods are
//! defined here. Every reader refuses anything cut short, oversized or out of range with an
//! error and never panics. Formats only grow in ways that keep every older value's bytes (see
//! `replay.rs` and `snapshot.rs` here for what each format number and code means).

use crate::replay::ReplayError;

mod garbage;
mod piece_source;
mod replay;
mod snapshot;
mod tuning;

pub(crate) use garbage::{read_garbage, write_garbage};
pub(crate) use tuning::{read_tuning, write_tuning};

/// Appends `v` as an LEB128 varint.
pub(crate) fn put(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push((v as u8) | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

/// Reads a binary form from its start: bytes, flags and varints, each refusing a value cut
/// short or out of range.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], ReplayError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(ReplayError::Malformed("cut short"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    pub(crate) fn byte(&mut self) -> Result<u8, ReplayError> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn flag(&mut self) -> Result<bool, ReplayError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(ReplayError::Malformed("flag")),
        }
    }

    pub(crate) fn var(&mut self) -> Result<u64, ReplayError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(ReplayError::Malformed("varint"))
    }

    pub(crate) fn small<T: TryFrom<u64>>(&mut self, what: &'static str) -> Result<T, ReplayError> {
        T::try_from(self.var()?).map_err(|_| ReplayError::Malformed(what))
    }
}
