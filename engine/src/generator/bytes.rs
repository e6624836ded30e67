//! A [`PieceSource`]'s running state in a snapshot's binary form.

use super::{MAX_MULTIPLICITY, MAX_SNAP_CENTI, PieceSource, State};
use crate::piece::Piece;
use crate::rng::{self, SplitMix};

impl PieceSource {
    /// The running state in a snapshot's binary form: a tag (0 the seed's bag, 1 stock, 2
    /// recency of version 1, 3 uniform, 4 balance, 5 the fair bag, 6 recency), then the
    /// state's numbers.
    pub(crate) fn write(&self, w: &mut Vec<u8>) {
        use crate::replay::put;
        match &self.state {
            State::Bag(bag) => {
                let (lcg, pieces, next) = bag.parts();
                w.push(0);
                put(w, u64::from(lcg));
                w.extend(pieces.iter().map(|&p| p as u8));
                w.push(next as u8);
            }
            State::Stock {
                rng,
                multiplicity,
                restock,
                left,
            } => {
                w.push(1);
                put(w, rng.state());
                w.push(*multiplicity);
                w.push(*restock);
                w.extend_from_slice(left);
            }
            State::FairBag(bag) => {
                let (state, pieces, next) = bag.parts();
                w.push(5);
                put(w, state);
                w.extend(pieces.iter().map(|&p| p as u8));
                w.push(next as u8);
            }
            State::Recency {
                rng,
                snap_centi,
                ages,
                repeats,
            } => {
                w.push(if *repeats { 6 } else { 2 });
                put(w, rng.state());
                put(w, u64::from(*snap_centi));
                w.extend_from_slice(ages);
            }
            State::Uniform { rng } => {
                w.push(3);
                put(w, rng.state());
            }
            State::Balance { rng, relative } => {
                w.push(4);
                put(w, rng.state());
                w.extend_from_slice(relative);
            }
        }
    }

    /// Reads [`PieceSource::write`]'s form, refusing any state no game could reach (so dealing
    /// from it keeps every invariant `next_piece` relies on).
    pub(crate) fn read(
        r: &mut crate::replay::Reader<'_>,
    ) -> Result<PieceSource, crate::replay::ReplayError> {
        use crate::replay::ReplayError::Malformed;
        let seven = |r: &mut crate::replay::Reader<'_>| -> Result<[u8; 7], _> {
            let mut a = [0u8; 7];
            a.copy_from_slice(r.take(7)?);
            Ok(a)
        };
        let bag = |r: &mut crate::replay::Reader<'_>| -> Result<([Piece; 7], usize), _> {
            let codes = seven(r)?;
            let mut pieces = [Piece::I; 7];
            for (p, &c) in pieces.iter_mut().zip(&codes) {
                *p = *Piece::ALL.get(usize::from(c)).ok_or(Malformed("bag"))?;
            }
            Ok((pieces, usize::from(r.byte()?)))
        };
        let state = match r.byte()? {
            0 => {
                let lcg = r.small("bag")?;
                let (pieces, next) = bag(r)?;
                State::Bag(rng::Bag::from_parts(lcg, pieces, next).ok_or(Malformed("bag"))?)
            }
            5 => {
                let state = r.var()?;
                let (pieces, next) = bag(r)?;
                let fair = rng::FairBag::from_parts(state, pieces, next);
                State::FairBag(fair.ok_or(Malformed("bag"))?)
            }
            1 => {
                let rng = SplitMix::from_state(r.var()?);
                let (multiplicity, restock) = (r.byte()?, r.byte()?);
                let left = seven(r)?;
                let total: u32 = left.iter().map(|&c| u32::from(c)).sum();
                // Every draw leaves more than `restock` copies (restocking when it reaches it),
                // and no more than a fresh stock on top of them.
                let valid = (1..=MAX_MULTIPLICITY).contains(&multiplicity)
                    && u32::from(restock) < 7 * u32::from(multiplicity)
                    && total > u32::from(restock)
                    && total <= u32::from(restock) + 7 * u32::from(multiplicity);
                if !valid {
                    return Err(Malformed("stock"));
                }
                State::Stock {
                    rng,
                    multiplicity,
                    restock,
                    left,
                }
            }
            tag @ (2 | 6) => {
                let rng = SplitMix::from_state(r.var()?);
                let snap_centi: u16 = r.small("recency")?;
                let ages = seven(r)?;
                let repeats = tag == 6;
                // Version 1: only the piece dealt last has age 0; now no piece has.
                let zeros = ages.iter().filter(|&&a| a == 0).count();
                if snap_centi > MAX_SNAP_CENTI || zeros > usize::from(!repeats) {
                    return Err(Malformed("recency"));
                }
                State::Recency {
                    rng,
                    snap_centi,
                    ages,
                    repeats,
                }
            }
            3 => State::Uniform {
                rng: SplitMix::from_state(r.var()?),
            },
            4 => {
                let rng = SplitMix::from_state(r.var()?);
                let relative = seven(r)?;
                if relative.iter().min() != Some(&0) {
                    return Err(Malformed("balance"));
                }
                State::Balance { rng, relative }
            }
            _ => return Err(Malformed("generator")),
        };
        Ok(PieceSource { state })
    }
}
