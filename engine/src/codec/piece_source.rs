//! A [`PieceSource`]'s running state in a snapshot's binary form.

use super::{Reader, put};
use crate::generator::{MAX_MULTIPLICITY, MAX_SNAP_CENTI, PieceSource, State};
use crate::piece::Piece;
use crate::replay::ReplayError;
use crate::rng::{self, SplitMix};

impl PieceSource {
    /// The running state in a snapshot's binary form: a tag (0 the seed's bag, 1 stock, 2
    /// recency of version 1, 3 uniform, 4 balance, 5 the fair bag, 6 recency), then the
    /// state's numbers.
    pub(crate) fn write(&self, w: &mut Vec<u8>) {
        match &self.state {
            State::Bag(bag) => {
                let (lcg, pieces, next) = bag.parts();
                write_bag(w, 0, u64::from(lcg), pieces, next);
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
                write_bag(w, 5, state, pieces, next);
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
    pub(crate) fn read(r: &mut Reader<'_>) -> Result<PieceSource, ReplayError> {
        use ReplayError::Malformed;
        let seven = |r: &mut Reader<'_>| -> Result<[u8; 7], _> {
            let mut a = [0u8; 7];
            a.copy_from_slice(r.take(7)?);
            Ok(a)
        };
        let bag = |r: &mut Reader<'_>| -> Result<([Piece; 7], usize), _> {
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

/// A bag's form after its tag: its generator's state, the seven pieces of the bag in play and
/// how many of them were dealt (the seed's bag and the fair bag alike).
fn write_bag(w: &mut Vec<u8>, tag: u8, state: u64, pieces: [Piece; 7], next: usize) {
    w.push(tag);
    put(w, state);
    w.extend(pieces.iter().map(|&p| p as u8));
    w.push(next as u8);
}

#[cfg(test)]
mod tests {
    use super::Reader;
    use crate::generator::{Generator, PieceSource};
    use crate::replay::ReplayError;

    fn read(bytes: &[u8]) -> Result<PieceSource, ReplayError> {
        PieceSource::read(&mut Reader { bytes, pos: 0 })
    }

    #[test]
    fn every_generator_state_reads_back_and_deals_alike() {
        let v1 = crate::ruleset::Ruleset::of_version(crate::RulesetId::Standard, 1)
            .expect("version 1")
            .dealing;
        let sources = Generator::PRESETS
            .into_iter()
            .flat_map(|g| [PieceSource::new(g, 99), PieceSource::dealing(g, 99, v1)]);
        for mut source in sources {
            for _ in 0..10 {
                source.next_piece();
            }
            let mut w = Vec::new();
            source.write(&mut w);
            let mut back = read(&w).expect("its own state");
            assert_eq!(back, source);
            for _ in 0..50 {
                assert_eq!(back.next_piece(), source.next_piece());
            }
        }
    }

    #[test]
    fn impossible_generator_states_are_refused() {
        use crate::replay::ReplayError::Malformed;
        for (bytes, what) in [
            // A bag that is not the seven pieces, or dealt past its end.
            (&[0u8, 5, 0, 0, 1, 2, 3, 4, 5, 0][..], "bag"),
            (&[0, 5, 0, 1, 2, 3, 4, 5, 6, 8][..], "bag"),
            // A stock with no copies left, or more than one restock could hold.
            (&[1, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0][..], "stock"),
            (&[1, 0, 2, 3, 9, 9, 9, 0, 0, 0, 0][..], "stock"),
            (&[1, 0, 9, 3, 2, 2, 2, 2, 2, 2, 2][..], "stock"),
            // Recency: two pieces dealt last; a snap above 10.
            (&[2, 0, 0xfa, 0x01, 0, 0, 1, 1, 1, 1, 1][..], "recency"),
            (&[2, 0, 0xe9, 0x07, 1, 0, 1, 1, 1, 1, 1][..], "recency"),
            // Balance counts not relative to the smallest.
            (&[4, 0, 1, 1, 1, 1, 1, 1, 1][..], "balance"),
            (&[9][..], "generator"),
        ] {
            assert_eq!(read(bytes), Err(Malformed(what)), "{bytes:?}");
        }
    }
}
