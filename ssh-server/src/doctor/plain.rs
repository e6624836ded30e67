//! `ssh HOST doctor` without a PTY: the report of what the server knows, asking nothing.

use super::client::ClientInfo;

/// What `ssh HOST doctor` prints without a PTY: what the server knows, the advice that follows
/// from it alone, and how to run the real checks. Nothing is asked: without a PTY the client's
/// terminal is in cooked mode and the replies would be echoed on the player's screen.
pub fn plain_report(info: &ClientInfo) -> String {
    use std::fmt::Write as _;
    let report = info.report();
    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(not sent)".to_owned());
    let mut out = String::new();
    out.push_str("minotty terminal doctor (no terminal: nothing was asked)\n\n");
    let _ = writeln!(
        out,
        "  PTY            {}",
        if info.pty {
            "yes"
        } else {
            "no (ssh -T, or a command without -t)"
        }
    );
    let _ = writeln!(out, "  TERM           {}", shown(&info.term));
    let _ = writeln!(out, "  COLORTERM      {}", shown(&info.env.colorterm));
    let _ = writeln!(out, "  TERM_PROGRAM   {}", shown(&info.env.term_program));
    let _ = writeln!(out, "  LANG           {}", shown(&info.env.lang));
    let _ = writeln!(
        out,
        "  SSH client     {}",
        info.ssh_client.as_deref().unwrap_or("(unknown)")
    );
    let advice: Vec<_> = minotty_ui::doctor::advice(&report).collect();
    if !advice.is_empty() {
        out.push_str("\nWhat to change:\n");
        for a in advice {
            for line in a.lines {
                let _ = writeln!(out, "  {line}");
            }
        }
    }
    out.push_str(
        "\nTo check what your terminal can do (keyboard, synchronized output, colours, glyph\n\
         widths, tmux or screen, round trip), run it with a terminal:\n\n  \
         ssh -t -p PORT HOST doctor\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terminal::TermEnv;

    #[test]
    fn the_plain_report_says_what_is_known_and_how_to_ask() {
        let text = plain_report(&ClientInfo {
            pty: false,
            term: None,
            env: TermEnv {
                lang: Some("C".into()),
                ..TermEnv::default()
            },
            ssh_client: Some("SSH-2.0-OpenSSH_9.6".into()),
        });
        assert!(text.contains("PTY            no"));
        assert!(text.contains("COLORTERM      (not sent)"));
        assert!(text.contains("SSH-2.0-OpenSSH_9.6"));
        assert!(text.contains("SendEnv COLORTERM"));
        assert!(text.contains("LANG is not UTF-8"));
        assert!(text.contains("ssh -t -p PORT HOST doctor"));
        assert!(!text.contains('\x1b'));
    }
}
