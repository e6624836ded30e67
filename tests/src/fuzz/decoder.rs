//! Client bytes into the server's input decoder: mixes of ESC, CSI fragments, kitty keyboard
//! sequences, replies to the server's queries, UTF-8, invalid bytes and huge runs, split into
//! packets at random points, with flushes (the lone-ESC timeout) in between.
//!
//! Checks: no panic (also none caught inside the decoder), at most one input per byte fed, the
//! decoder's heap bounded after every packet, and that a plain key after a flush decodes as
//! itself (garbage never leaves the decoder stuck).

use minotty_server::input::{Input, InputDecoder};
use minotty_ui::{Key, KeyEvent};

use super::{Figures, Rng, live_bytes};

/// The most heap bytes the decoder may hold after a packet, whatever came before. Its parser
/// starts over after `MAX_PENDING` (256) bytes without an event, so a few KiB is generous.
pub const DECODER_RETAINED_LIMIT: i64 = 64 * 1024;

/// Final bytes of CSI sequences that terminals send (and some they do not).
const FINALS: &[u8] = b"ABCDEFHPQRSZabcdu~cMmRtIO@`";

/// One piece of a client's input.
fn fragment(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(16) {
        0 | 1 => out.push(rng.range(0x20, 0x7e) as u8),
        2 => out.push(0x1b),
        3 => out.push(*rng.pick(&[0x00, 0x03, 0x08, 0x09, 0x0a, 0x0d, 0x7f, 0x1c, 0x1f])),
        4 | 5 => csi(rng, out),
        6 | 7 => kitty(rng, out),
        8 => {
            // SS3 keys (application cursor mode) and Alt+key.
            out.extend_from_slice(if rng.one_in(2) { b"\x1bO" } else { b"\x1b" });
            out.push(rng.byte());
        }
        9 => {
            // OSC, DCS, APC and PM strings, terminated or not.
            let starts: [&[u8]; 4] = [b"\x1b]", b"\x1bP", b"\x1b_", b"\x1b^"];
            out.extend_from_slice(rng.pick_copy(&starts));
            for _ in 0..rng.below(40) {
                out.push(rng.range(0x20, 0x7e) as u8);
            }
            match rng.below(3) {
                0 => out.push(0x07),
                1 => out.extend_from_slice(b"\x1b\\"),
                _ => {}
            }
        }
        10 => {
            // A valid UTF-8 character from anywhere in Unicode.
            let c = char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{FFFD}');
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
        11 => {
            // Invalid UTF-8: continuation bytes, overlong forms, cut sequences, bytes never used.
            let bad: &[&[u8]] = &[
                &[0x80],
                &[0xbf],
                &[0xc0, 0x80],
                &[0xe0, 0x80],
                &[0xf0, 0x9f],
                &[0xf5],
                &[0xff],
                &[0xfe, 0xfe],
                &[0xed, 0xa0, 0x80],
            ];
            out.extend_from_slice(rng.pick_copy(bad));
        }
        12 => {
            // Replies to the server's own queries, and reports nobody asked for.
            let replies: &[&[u8]] = &[
                b"\x1b[?0u",
                b"\x1b[?31u",
                b"\x1b[?62;22c",
                b"\x1b[?1;2c",
                b"\x1b[200~",
                b"\x1b[201~",
                b"\x1b[<0;10;10M",
                b"\x1b[<64;1;1m",
                b"\x1b[M !!",
                b"\x1b[I",
                b"\x1b[O",
                b"\x1b[12;40R",
            ];
            out.extend_from_slice(rng.pick_copy(replies));
        }
        13 => out.push(rng.byte()),
        14 => {
            // A huge run of one byte or one fragment (rare: they are long).
            if rng.one_in(20) {
                let mut unit = Vec::new();
                fragment_small(rng, &mut unit);
                let times = rng.range(100, 20_000) as usize;
                for _ in 0..times {
                    out.extend_from_slice(&unit);
                }
            } else {
                out.push(rng.byte());
            }
        }
        _ => {
            for _ in 0..rng.below(8) {
                out.push(*rng.pick(b"[;:?<>=0123456789"));
            }
        }
    }
}

/// A fragment that is not itself a run.
fn fragment_small(rng: &mut Rng, out: &mut Vec<u8>) {
    match rng.below(4) {
        0 => out.push(rng.byte()),
        1 => csi(rng, out),
        2 => kitty(rng, out),
        _ => out.extend_from_slice(b"\x1b["),
    }
}

/// `CSI`, random parameters, and a final byte (or none: a fragment).
fn csi(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    if rng.one_in(4) {
        out.push(*rng.pick(b"?<>="));
    }
    for i in 0..rng.below(6) {
        if i > 0 {
            out.push(*rng.pick(b";;;:"));
        }
        number(rng, out);
    }
    if !rng.one_in(5) {
        out.push(*rng.pick(FINALS));
    }
}

/// A kitty keyboard protocol key: `CSI code[:alternates];mods[:event][;text] u` or an arrow
/// with modifiers and an event type, with numbers sometimes far out of range.
fn kitty(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    if rng.one_in(3) {
        out.push(b'1');
    } else {
        number(rng, out);
        if rng.one_in(4) {
            out.push(b':');
            number(rng, out);
        }
    }
    if !rng.one_in(4) {
        out.push(b';');
        number(rng, out);
        if !rng.one_in(3) {
            out.push(b':');
            out.extend_from_slice(rng.below(5).to_string().as_bytes());
        }
    }
    if rng.one_in(6) {
        out.push(b';');
        number(rng, out);
    }
    out.push(*rng.pick(b"uuuuABCDHF~"));
}

/// A decimal number: small, around a key code, or huge.
fn number(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = match rng.below(4) {
        0 => rng.below(10),
        1 => rng.below(200),
        2 => rng.range(57_344, 57_460),
        _ => rng.wide(),
    };
    out.extend_from_slice(n.to_string().as_bytes());
}

pub(super) fn case(rng: &mut Rng, figures: &mut Figures) -> Result<(), String> {
    let mut stream = Vec::new();
    for _ in 0..rng.range(1, 64) {
        fragment(rng, &mut stream);
    }
    // Cut the stream into packets at random points, some with the ESC timeout after them.
    let mut packets: Vec<(&[u8], bool)> = Vec::new();
    let mut rest = stream.as_slice();
    while !rest.is_empty() {
        let n = match rng.below(4) {
            0 => 1,
            1 => rng.range(1, 16),
            _ => rest.len() as u64,
        }
        .min(rest.len() as u64) as usize;
        let (packet, tail) = rest.split_at(n);
        packets.push((packet, rng.one_in(4)));
        rest = tail;
    }
    figures.units += stream.len() as u64;

    let before = live_bytes();
    let mut decoder = InputDecoder::new();
    let mut out: Vec<Input> = Vec::with_capacity(64);
    let mut events = 0u64;
    let mut fed = 0u64;
    for (packet, timeout) in packets {
        decoder.feed(packet, &mut out);
        fed += packet.len() as u64;
        if timeout {
            decoder.flush(&mut out);
        }
        events += out.len() as u64;
        if events > fed {
            return Err(format!("{events} inputs from {fed} bytes"));
        }
        let out_bytes = (out.capacity() * std::mem::size_of::<Input>()) as i64;
        out.clear();
        if let (Some(a), Some(b)) = (before, live_bytes()) {
            let retained = b - a - out_bytes;
            figures.max_retained = figures.max_retained.max(retained.max(0) as u64);
            if retained > DECODER_RETAINED_LIMIT {
                return Err(format!(
                    "the decoder holds {retained} heap bytes after {fed} bytes"
                ));
            }
        }
    }
    figures.max_items = figures.max_items.max(events);
    // Whatever came before, a flush then a plain key decodes as that key.
    decoder.flush(&mut out);
    out.clear();
    decoder.feed(b"q", &mut out);
    if out != [Input::Key(KeyEvent::press(Key::Char('q')))] || decoder.has_pending() {
        return Err(format!("after a flush, \"q\" decoded as {out:?}"));
    }
    Ok(())
}
