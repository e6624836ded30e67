//! The terminal's environment variables a client sends over SSH (`SendEnv`), kept bounded.

/// What the client says about its terminal through SSH environment requests (`SendEnv`):
/// `COLORTERM`, `TERM_PROGRAM` and `LANG`, and nothing else. Each value is at most
/// [`TermEnv::MAX_VALUE`] bytes of the ASCII the text policy keeps, so a connection holds at most a few
/// hundred bytes of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermEnv {
    pub colorterm: Option<String>,
    pub term_program: Option<String>,
    pub lang: Option<String>,
}

impl TermEnv {
    pub const MAX_VALUE: usize = 64;

    /// Keeps `name=value` when it is one of the three and the value is short printable ASCII;
    /// whether it was kept (the channel request's answer).
    pub fn accept(&mut self, name: &str, value: &str) -> bool {
        let slot = match name {
            "COLORTERM" => &mut self.colorterm,
            "TERM_PROGRAM" => &mut self.term_program,
            "LANG" => &mut self.lang,
            _ => return false,
        };
        let printable = value.bytes().all(minotty_domain::text::is_allowed_ascii);
        if value.len() > Self::MAX_VALUE || !printable {
            return false;
        }
        *slot = Some(value.to_owned());
        true
    }

    /// Whether the terminal says it shows 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    pub fn truecolor(&self) -> bool {
        self.colorterm
            .as_deref()
            .is_some_and(|v| v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_three_short_printable_environment_variables_are_kept() {
        let mut env = TermEnv::default();
        for (name, value, kept) in [
            ("COLORTERM", "truecolor", true),
            ("TERM_PROGRAM", "WezTerm", true),
            ("LANG", "en_US.UTF-8", true),
            ("LD_PRELOAD", "/tmp/x.so", false),
            ("PATH", "/bin", false),
            ("lang", "C", false),
            ("LANG", "a\x1b[31m", false),
            ("LANG", "a\nb", false),
            ("LANG", "é", false),
            ("TERM_PROGRAM", &"x".repeat(TermEnv::MAX_VALUE + 1), false),
        ] {
            assert_eq!(env.accept(name, value), kept, "{name}={value:?}");
        }
        assert_eq!(
            env.lang.as_deref(),
            Some("en_US.UTF-8"),
            "a refused value keeps the old"
        );
        assert!(env.truecolor());
        for (v, yes) in [
            ("24bit", true),
            ("TrueColor", true),
            ("256", false),
            ("", false),
        ] {
            let env = TermEnv {
                colorterm: Some(v.to_owned()),
                ..TermEnv::default()
            };
            assert_eq!(env.truecolor(), yes, "{v}");
        }
    }
}
