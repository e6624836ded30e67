//! Bytes into the replay decoder: real replays of random games with random mutations (bit
//! flips, overwritten, inserted and deleted bytes, cuts, spliced huge varints where the counts
//! are), replay headers followed by random bytes, and plain random bytes.
//!
//! Checks: no panic, in decoding or in re-simulating what decodes; a decoded replay never has
//! more inputs than the bytes it came from (a crafted count cannot make the decoder allocate
//! for it); what decodes encodes back to the same replay.

use minotty_engine::Replay;

use super::{Figures, Rng, engine};

/// The replay header up to the seed: magic, format, ruleset, version 1.
const HEADER: &[u8] = b"MTRP\x01\x00\x01";

/// A varint as the replay format writes it.
fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A huge or odd number as a varint: `u64::MAX`, just past `u32::MAX`, a non-canonical form
/// (trailing zero groups), or an over-long one (more than ten bytes).
fn odd_varint(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(5) {
        0 => varint(u64::MAX, out),
        1 => varint(u64::from(u32::MAX) + 1, out),
        2 => varint(rng.wide(), out),
        3 => out.extend_from_slice(&[0x80, 0x80, 0x80, 0x00]),
        _ => out.extend_from_slice(&[0xff; 11]),
    }
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..rng.range(1, 8) {
        let len = bytes.len() as u64;
        let at = rng.below(len + 1) as usize;
        match rng.below(7) {
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 if at < bytes.len() => bytes[at] = rng.byte(),
            2 => bytes.insert(at, rng.byte()),
            3 if at < bytes.len() => {
                bytes.remove(at);
            }
            4 => bytes.truncate(at),
            5 => {
                let mut v = Vec::new();
                odd_varint(rng, &mut v);
                let end = (at + rng.below(4) as usize).min(bytes.len());
                bytes.splice(at..end, v);
            }
            _ => {
                // Duplicate a slice (repeated inputs, repeated fields).
                let end = (at + rng.below(32) as usize).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
        }
    }
}

fn input_bytes(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        0..=5 => {
            let (game, _) = engine::random_game(rng, 200);
            let mut bytes = game.replay().to_bytes();
            mutate(rng, &mut bytes);
            bytes
        }
        6 | 7 => {
            // A plausible header, then random fields with huge counts here and there.
            let mut bytes = HEADER.to_vec();
            for _ in 0..rng.below(40) {
                match rng.below(4) {
                    0 => odd_varint(rng, &mut bytes),
                    1 => varint(rng.below(300), &mut bytes),
                    _ => bytes.push(rng.byte()),
                }
            }
            bytes
        }
        8 => {
            let mut bytes = b"MTRP".to_vec();
            bytes.extend((0..rng.below(64)).map(|_| rng.byte()));
            bytes
        }
        _ => (0..rng.below(256)).map(|_| rng.byte()).collect(),
    }
}

pub(super) fn case(rng: &mut Rng, figures: &mut Figures) -> Result<(), String> {
    let bytes = input_bytes(rng);
    figures.units += bytes.len() as u64;
    let Ok(replay) = Replay::from_bytes(&bytes) else {
        return Ok(());
    };
    figures.accepted += 1;
    figures.max_items = figures.max_items.max(replay.inputs.len() as u64);
    if replay.inputs.len() > bytes.len() {
        return Err(format!(
            "{} inputs decoded from {} bytes",
            replay.inputs.len(),
            bytes.len()
        ));
    }
    match Replay::from_bytes(&replay.to_bytes()) {
        Ok(back) if back == replay => {}
        Ok(_) => return Err("a decoded replay changed through its binary form".to_owned()),
        Err(e) => return Err(format!("a decoded replay does not encode back: {e}")),
    }
    // Re-simulate what decoded, as the leaderboard's judge and the replay viewer do (an error
    // such as a wrong ruleset version is fine; a panic is not).
    let _ = replay.verify();
    Ok(())
}
