use super::*;

/// A terminal with everything: kitty keyboard, sync, exact colour, right widths, fast.
fn good() -> DoctorReport {
    DoctorReport {
        pty: true,
        term: Some("xterm-kitty".into()),
        colorterm: Some("truecolor".into()),
        term_program: None,
        lang: Some("en_US.UTF-8".into()),
        // Before 9.5: no keystroke timer to speak of.
        ssh_client: Some("SSH-2.0-OpenSSH_9.4p1".into()),
        kitty_flags: Probe::Answer(0),
        sync: Probe::Answer(2),
        rgb: Probe::Answer(true),
        version: Probe::Answer("kitty(0.32.2)".into()),
        widths: Probe::Answer(vec![Some(1); GLYPHS.len()]),
        rtt: Probe::Answer(Rtt {
            median_ms: 12,
            max_ms: 20,
            samples: 5,
        }),
        keys_on_grid: false,
    }
}

fn ids(r: &DoctorReport) -> Vec<AdviceId> {
    advice(r).map(|a| a.id).collect()
}

fn tmux() -> DoctorReport {
    DoctorReport {
        term: Some("tmux-256color".into()),
        version: Probe::Answer("tmux 3.3a".into()),
        kitty_flags: Probe::NoAnswer,
        sync: Probe::NoAnswer,
        rgb: Probe::NoAnswer,
        ..good()
    }
}

#[test]
fn a_good_terminal_gets_no_advice_and_every_check_good() {
    let r = good();
    assert_eq!(ids(&r), vec![]);
    let checks = checks(&r);
    for c in &checks[1..] {
        assert_eq!(c.mark, Mark::Good, "{} {:?}", c.name, c.detail);
    }
    assert_eq!(
        checks[0].detail.as_str(),
        "kitty(0.32.2) (TERM=xterm-kitty)"
    );
}

#[test]
fn advice_wezterm_without_kitty_keyboard() {
    let r = DoctorReport {
        term_program: Some("WezTerm".into()),
        version: Probe::NoAnswer,
        kitty_flags: Probe::NoAnswer,
        ..good()
    };
    assert_eq!(ids(&r), vec![AdviceId::WezTermKitty]);
    assert!(advice(&r).next().unwrap().lines[0].contains("config.enable_kitty_keyboard = true"));
    // Once the keyboard protocol answers, nothing is left to say.
    let fixed = DoctorReport {
        kitty_flags: Probe::Answer(0),
        ..r
    };
    assert_eq!(ids(&fixed), vec![]);
}

#[test]
fn advice_tmux_keys_sync_and_rgb() {
    let r = tmux();
    assert_eq!(
        ids(&r),
        vec![AdviceId::TmuxKeys, AdviceId::TmuxSync, AdviceId::TmuxRgb]
    );
    let text: Vec<&str> = advice(&r).flat_map(|a| a.lines.iter().copied()).collect();
    assert!(text.iter().any(|l| l.contains("set -s extended-keys on")));
    assert!(text.iter().any(|l| l.contains("',*:sync'")));
    assert!(text.iter().any(|l| l.contains("',*:RGB'")));
    // Each goes away with its feature.
    let synced = DoctorReport {
        sync: Probe::Answer(2),
        rgb: Probe::Answer(true),
        ..tmux()
    };
    assert_eq!(ids(&synced), vec![AdviceId::TmuxKeys]);
    // TERM alone (an old tmux without XTVERSION) is enough to know.
    let old = DoctorReport {
        version: Probe::NoAnswer,
        ..tmux()
    };
    assert_eq!(old.multiplexer(), Some(Multiplexer::Tmux));
}

#[test]
fn advice_send_env_colorterm() {
    let r = DoctorReport {
        colorterm: None,
        ..good()
    };
    assert_eq!(ids(&r), vec![AdviceId::SendEnvColorterm]);
    assert!(advice(&r).next().unwrap().lines[0].contains("SendEnv COLORTERM"));
    // Unknown colour (no answer) still gets it; a terminal that rounds colours does not.
    let unknown = DoctorReport {
        rgb: Probe::NoAnswer,
        ..r.clone()
    };
    assert!(ids(&unknown).contains(&AdviceId::SendEnvColorterm));
    let rounded = DoctorReport {
        rgb: Probe::Answer(false),
        ..r
    };
    assert!(!ids(&rounded).contains(&AdviceId::SendEnvColorterm));
}

#[test]
fn advice_colours_rounded() {
    let r = DoctorReport {
        rgb: Probe::Answer(false),
        ..good()
    };
    assert_eq!(r.truecolor(), TrueColor::No);
    assert_eq!(ids(&r), vec![AdviceId::ColoursRounded]);
    assert_eq!(checks(&r)[3].mark, Mark::Bad);
}

#[test]
fn advice_glyph_width() {
    let mut widths = vec![Some(1); GLYPHS.len()];
    widths[6] = Some(2); // ◆ drawn two columns wide
    widths[9] = None; // no report for ·: not counted as wrong
    let r = DoctorReport {
        widths: Probe::Answer(widths),
        ..good()
    };
    assert_eq!(ids(&r), vec![AdviceId::GlyphWidth]);
    let wrong: Vec<_> = r.wrong_glyphs().map(|(g, w)| (g.glyph, w)).collect();
    assert_eq!(wrong, vec![("◆", 2)]);
    let c = checks(&r)[4];
    assert_eq!(c.mark, Mark::Bad);
    assert_eq!(c.detail.as_str(), "1 wrong: ◆ is 2");
}

#[test]
fn advice_lang_not_utf8() {
    for (lang, applies) in [
        ("C", true),
        ("en_US.ISO-8859-1", true),
        ("de_DE.utf8", false),
        ("en_US.UTF-8", false),
    ] {
        let r = DoctorReport {
            lang: Some(lang.into()),
            ..good()
        };
        assert_eq!(ids(&r).contains(&AdviceId::LangNotUtf8), applies, "{lang}");
    }
}

#[test]
fn advice_no_sync_outside_a_multiplexer() {
    for v in [0, 4] {
        let r = DoctorReport {
            sync: Probe::Answer(v),
            ..good()
        };
        assert_eq!(ids(&r), vec![AdviceId::NoSync], "reply {v}");
    }
    let r = DoctorReport {
        sync: Probe::NoAnswer,
        ..good()
    };
    assert_eq!(ids(&r), vec![AdviceId::NoSync]);
}

#[test]
fn advice_no_kitty_keyboard_elsewhere() {
    let r = DoctorReport {
        kitty_flags: Probe::NoAnswer,
        version: Probe::Answer("XTerm(388)".into()),
        ..good()
    };
    assert_eq!(ids(&r), vec![AdviceId::NoKitty]);
    assert_eq!(checks(&r)[1].mark, Mark::Warn);
}

#[test]
fn advice_gnu_screen() {
    let r = DoctorReport {
        term: Some("screen.xterm-256color".into()),
        version: Probe::NoAnswer,
        kitty_flags: Probe::NoAnswer,
        sync: Probe::NoAnswer,
        ..good()
    };
    assert_eq!(r.multiplexer(), Some(Multiplexer::Screen));
    assert_eq!(ids(&r), vec![AdviceId::Screen]);
}

#[test]
fn advice_slow_round_trip() {
    let slow = |median_ms| DoctorReport {
        rtt: Probe::Answer(Rtt {
            median_ms,
            max_ms: 400,
            samples: 5,
        }),
        ..good()
    };
    assert_eq!(ids(&slow(SLOW_RTT_MS)), vec![AdviceId::SlowRtt]);
    assert_eq!(ids(&slow(SLOW_RTT_MS - 1)), vec![]);
    assert_eq!(checks(&slow(150))[6].mark, Mark::Warn);
}

#[test]
fn advice_silent_terminal() {
    let r = DoctorReport {
        kitty_flags: Probe::NoAnswer,
        sync: Probe::NoAnswer,
        rgb: Probe::NoAnswer,
        version: Probe::NoAnswer,
        widths: Probe::NoAnswer,
        rtt: Probe::NoAnswer,
        ..good()
    };
    // Nothing answered: no advice built on missing answers, only that.
    assert_eq!(ids(&r), vec![AdviceId::Silent]);
}

#[test]
fn every_row_is_reached_by_some_test_report() {
    // The tests above, gathered: every row of the table applies to one of them.
    let mut seen = Vec::new();
    let reports = [
        tmux(),
        DoctorReport {
            term_program: Some("WezTerm".into()),
            version: Probe::NoAnswer,
            kitty_flags: Probe::NoAnswer,
            colorterm: None,
            rgb: Probe::Answer(false),
            lang: Some("C".into()),
            sync: Probe::NoAnswer,
            widths: Probe::Answer(vec![Some(2); GLYPHS.len()]),
            rtt: Probe::Answer(Rtt {
                median_ms: 300,
                max_ms: 300,
                samples: 1,
            }),
            ..good()
        },
        DoctorReport {
            colorterm: None,
            kitty_flags: Probe::NoAnswer,
            ..good()
        },
        DoctorReport {
            term: Some("screen".into()),
            version: Probe::NoAnswer,
            ..good()
        },
        DoctorReport {
            keys_on_grid: true,
            ..good()
        },
        DoctorReport {
            ssh_client: Some("SSH-2.0-OpenSSH_9.9".into()),
            ..good()
        },
        DoctorReport {
            rtt: Probe::NoAnswer,
            ..good()
        },
    ];
    for r in &reports {
        seen.extend(ids(r));
    }
    for row in ADVICE {
        assert!(seen.contains(&row.id), "{:?} never applies", row.id);
    }
    // Every line fits the Doctor screen at 80 columns.
    for row in ADVICE {
        for line in row.lines {
            assert!(crate::draw::width(line) <= 76, "{line}");
        }
    }
}

/// Issue 41: OpenSSH 9.5 and newer hold keys to a 20 ms grid by default. Keys seen on the grid
/// get the advice that says so; a client new enough without a grid seen (yet) gets the softer
/// one; an older OpenSSH or another client neither.
#[test]
fn advice_keys_on_the_openssh_grid() {
    // (client version string, keys seen on the grid, advice)
    let table = [
        ("SSH-2.0-OpenSSH_9.4p1", false, vec![]),
        ("SSH-2.0-OpenSSH_9.5", false, vec![AdviceId::KeysMayWait]),
        (
            "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13",
            false,
            vec![AdviceId::KeysMayWait],
        ),
        ("SSH-2.0-OpenSSH_10.0", false, vec![AdviceId::KeysMayWait]),
        ("SSH-2.0-OpenSSH_10.0", true, vec![AdviceId::KeysOnGrid]),
        ("SSH-2.0-PuTTY_Release_0.81", false, vec![]),
        (
            "SSH-2.0-PuTTY_Release_0.81",
            true,
            vec![AdviceId::KeysOnGrid],
        ),
        ("SSH-2.0-OpenSSH_x", false, vec![]),
    ];
    for (client, grid, want) in table {
        let r = DoctorReport {
            ssh_client: Some(client.into()),
            keys_on_grid: grid,
            ..good()
        };
        assert_eq!(ids(&r), want, "{client} {grid}");
    }
    let r = DoctorReport {
        keys_on_grid: true,
        ..good()
    };
    let text: Vec<&str> = advice(&r).flat_map(|a| a.lines.iter().copied()).collect();
    assert!(
        text.iter()
            .any(|l| l.contains("-o ObscureKeystrokeTiming=no")),
        "{text:?}"
    );
    assert_eq!(
        DoctorReport {
            ssh_client: Some("SSH-2.0-OpenSSH_9.6p1".into()),
            ..good()
        }
        .openssh(),
        Some((9, 6))
    );
}
