use super::*;
use crate::budget::InputGate;
use crate::terminal::TermEnv;
use minotty_ui::doctor::{DoctorReport, GLYPHS, PROBE_DEADLINE_MS, Probe, Rtt};

fn info() -> ClientInfo {
    ClientInfo {
        pty: true,
        term: Some("xterm-256color".into()),
        env: TermEnv::default(),
        ssh_client: Some("SSH-2.0-OpenSSH_9.6".into()),
    }
}

/// Runs a prober against a scripted terminal: `answer(stage_bytes)` gives the replies.
fn run(mut answer: impl FnMut(&[u8]) -> Vec<Reply>, rtt_ms: u64) -> DoctorReport {
    let mut p = Prober::new(&info(), 24);
    let mut now = 0;
    for _ in 0..100 {
        if p.is_done() {
            break;
        }
        if let Some(bytes) = p.next_write(now) {
            let replies = answer(&bytes);
            now += rtt_ms;
            for r in replies {
                p.take(&r, now);
            }
        } else {
            now = p.deadline().unwrap();
            p.poll(now);
        }
    }
    assert!(p.is_done());
    p.into_report()
}

/// A terminal like kitty: answers everything, glyphs one column wide except ◆.
fn kitty(bytes: &[u8]) -> Vec<Reply> {
    let mut out = Vec::new();
    if bytes.starts_with(b"\x1b[?u") {
        out.push(Reply::KittyFlags(0));
        out.push(Reply::Mode {
            mode: 2026,
            value: 2,
        });
        out.push(Reply::Version("kitty(0.32.2)".into()));
        out.push(Reply::Status {
            valid: true,
            body: "0;38:2:1:2:3m".into(),
        });
    }
    let text = String::from_utf8_lossy(bytes);
    for (i, g) in GLYPHS.iter().enumerate() {
        if text.contains(&format!("H{}\x1b[6n", g.glyph)) {
            let w = if i == 6 { 2 } else { 1 };
            out.push(Reply::CursorPosition {
                row: 24,
                col: 1 + w,
            });
        }
    }
    out.push(Reply::DeviceAttributes);
    out
}

#[test]
fn a_terminal_that_answers_everything() {
    let r = run(kitty, 7);
    assert_eq!(r.kitty_flags, Probe::Answer(0));
    assert_eq!(r.sync, Probe::Answer(2));
    assert_eq!(r.rgb, Probe::Answer(true));
    assert_eq!(r.version, Probe::Answer("kitty(0.32.2)".into()));
    assert_eq!(
        r.rtt,
        Probe::Answer(Rtt {
            median_ms: 7,
            max_ms: 7,
            samples: RTT_SAMPLES as u8
        })
    );
    let wrong: Vec<_> = r.wrong_glyphs().map(|(g, w)| (g.glyph, w)).collect();
    assert_eq!(wrong, vec![("◆", 2)]);
    assert_eq!(r.term.as_deref(), Some("xterm-256color"));
}

#[test]
fn tmux_answers_only_some() {
    // What tmux 3.3a answered when tried: XTVERSION, positions, DA1; no kitty flags,
    // no DECRPM, no DECRQSS.
    let r = run(
        |bytes| {
            let mut out = kitty(bytes);
            out.retain(|r| {
                !matches!(
                    r,
                    Reply::KittyFlags(_) | Reply::Mode { .. } | Reply::Status { .. }
                )
            });
            for r in &mut out {
                if let Reply::Version(v) = r {
                    *v = "tmux 3.3a".into();
                }
            }
            out
        },
        3,
    );
    assert_eq!(r.kitty_flags, Probe::NoAnswer);
    assert_eq!(r.sync, Probe::NoAnswer);
    assert_eq!(r.rgb, Probe::NoAnswer);
    assert_eq!(r.multiplexer(), Some(minotty_ui::doctor::Multiplexer::Tmux));
}

#[test]
fn a_silent_terminal_is_given_up_on_after_one_deadline() {
    let mut p = Prober::new(&info(), 24);
    assert!(p.next_write(0).is_some());
    assert!(p.next_write(0).is_none(), "one write per stage");
    assert_eq!(p.deadline(), Some(PROBE_DEADLINE_MS));
    p.poll(PROBE_DEADLINE_MS - 1);
    assert!(!p.is_done());
    p.poll(PROBE_DEADLINE_MS);
    assert!(p.is_done());
    let r = p.into_report();
    assert_eq!(r.rtt, Probe::NoAnswer);
    assert_eq!(r.kitty_flags, Probe::NoAnswer);
    assert_eq!(r.widths, Probe::NoAnswer);
}

#[test]
fn replies_after_their_deadline_are_not_taken_for_later_ones() {
    let mut p = Prober::new(&info(), 24);
    // Round trips: all five answered.
    for i in 0..RTT_SAMPLES as u64 {
        p.next_write(i * 10);
        assert!(p.take(&Reply::DeviceAttributes, i * 10 + 4));
    }
    // The queries stage times out: the terminal is slow today.
    p.next_write(100);
    p.poll(100 + PROBE_DEADLINE_MS);
    // Now the late answers of that stage arrive, while the widths stage waits.
    let bytes = p.next_write(2000).unwrap();
    assert!(bytes.windows(4).any(|w| w == b"\x1b[6n"));
    assert!(!p.take(&Reply::KittyFlags(1), 2001), "late: not expected");
    assert!(
        p.take(&Reply::DeviceAttributes, 2002),
        "its stale sentinel is eaten"
    );
    assert!(
        !p.is_done(),
        "the stale sentinel did not end the widths stage"
    );
    for _ in 0..GLYPHS.len() {
        assert!(p.take(&Reply::CursorPosition { row: 24, col: 2 }, 2003));
    }
    // One position report too many: not expected.
    assert!(!p.take(&Reply::CursorPosition { row: 24, col: 2 }, 2003));
    assert!(p.take(&Reply::DeviceAttributes, 2004));
    assert!(p.is_done());
    let r = p.into_report();
    assert_eq!(r.kitty_flags, Probe::NoAnswer);
    assert_eq!(r.wrong_glyphs().count(), 0);
    assert!(matches!(r.widths, Probe::Answer(_)));
}

#[test]
fn duplicate_answers_are_not_expected() {
    let mut p = Prober::new(&info(), 24);
    for i in 0..RTT_SAMPLES as u64 {
        p.next_write(i);
        p.take(&Reply::DeviceAttributes, i);
    }
    p.next_write(10);
    assert!(p.take(&Reply::KittyFlags(3), 11));
    assert!(!p.take(&Reply::KittyFlags(1), 11));
    assert!(!p.take(&Reply::Mode { mode: 1, value: 1 }, 11));
    assert!(!p.take(&Reply::CursorPosition { row: 1, col: 1 }, 11));
    assert!(p.take(&Reply::DeviceAttributes, 12));
    assert!(!p.take(&Reply::KittyFlags(1), 13));
}

#[test]
fn a_flood_of_fake_replies_costs_what_garbage_costs() {
    use crate::budget::{INPUT_BYTES_BURST, WASTED_BYTES_BURST};
    use crate::input::{Input, InputDecoder};
    // A client sends 16 KiB of made-up replies (every kind the doctor asks for) while a
    // probe runs, all in one millisecond.
    let fake: &[u8] = b"\x1b[24;3R\x1b[?1;2c\x1b[?2026;2$y\x1bP>|evil\x1b\\\x1b[?11u";
    let mut flood = Vec::new();
    while flood.len() + fake.len() <= INPUT_BYTES_BURST as usize {
        flood.extend_from_slice(fake);
    }
    let mut gate = InputGate::new(0);
    let mut decoder = InputDecoder::new();
    let mut prober = Prober::new(&info(), 24);
    prober.next_write(0);
    let admitted = gate.admit_bytes(flood.len(), 0);
    assert_eq!(admitted, flood.len());
    let mut out = Vec::new();
    decoder.feed(&flood, &mut out);
    let (mut taken, mut charged) = (0, 0);
    for input in &out {
        let Input::Reply { reply, bytes } = input else {
            panic!("a reply became a key: {input:?}")
        };
        if route_reply(Some(&mut prober), reply, *bytes, &mut gate, 0) {
            taken += 1;
        } else {
            charged += bytes;
        }
    }
    // The probe took no more than it asks for: the round trips, one answer of each kind
    // and its sentinel (the widths stage has not sent its questions yet).
    assert!(taken <= RTT_SAMPLES + 5, "{taken} taken");
    assert!(charged > flood.len() - 200);
    // The garbage budget is spent: nothing more is parsed now, exactly as after 16 KiB of
    // garbage, and a second later only its refill is.
    assert_eq!(gate.admit_bytes(100, 0), 0);
    let mut garbage_gate = InputGate::new(0);
    garbage_gate.admit_bytes(flood.len(), 0);
    garbage_gate.spend_wasted(WASTED_BYTES_BURST as usize, 0);
    assert_eq!(garbage_gate.admit_bytes(100, 0), 0);
    for t in [3, 4, 100, 1000] {
        assert_eq!(
            gate.admit_bytes(10, t),
            garbage_gate.admit_bytes(10, t),
            "at {t} ms"
        );
    }
    // Without a probe every reply is charged.
    let mut gate = InputGate::new(0);
    assert!(!route_reply(
        None,
        &Reply::DeviceAttributes,
        9,
        &mut gate,
        0
    ));
}
