//! Settings that hold secrets, and their redaction wherever settings are shown
//! (`--print-config`, logs, errors): a secret flag's value is never printed, and a URL is
//! shown without its password (or token).

/// The flags whose whole value is a secret.
pub const SECRET_FLAGS: &[&str] = &[
    "cluster-key",
    "nats-password",
    "nats-token",
    "nats-nkey-seed",
];

/// The flags holding URLs that may carry credentials (`scheme://user:password@host/...`).
pub const URL_FLAGS: &[&str] = &["db", "nats"];

/// What is shown instead of a secret, and URLs with their credentials redacted.
pub use crate::redact::{REDACTED, redact_url};

/// How the value of `flag` may be shown.
pub fn shown_value(flag: &str, value: &str) -> String {
    if SECRET_FLAGS.contains(&flag) {
        REDACTED.to_owned()
    } else if URL_FLAGS.contains(&flag) {
        redact_url(value)
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_their_passwords_and_tokens() {
        let cases = [
            (
                "postgres://minotty:s3cret@db:5432/minotty",
                "postgres://minotty:<redacted>@db:5432/minotty",
            ),
            ("nats://u:p%40ss@h:4222", "nats://u:<redacted>@h:4222"),
            ("nats://t0ken@h", "nats://<redacted>@h"),
            (
                "nats://a:b@h1,nats://c:d@h2",
                "nats://a:<redacted>@h1,nats://c:<redacted>@h2",
            ),
            ("nats://h:4222", "nats://h:4222"),
            ("sqlite://minotty.db", "sqlite://minotty.db"),
            ("sqlite:///tmp/a@b.db", "sqlite:///tmp/a@b.db"),
            ("not a url", "not a url"),
        ];
        for (url, shown) in cases {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }

    #[test]
    fn secret_flags_are_never_shown() {
        for flag in SECRET_FLAGS {
            assert_eq!(shown_value(flag, "hunter2"), REDACTED);
        }
        assert_eq!(shown_value("listen", "0.0.0.0:22"), "0.0.0.0:22");
        assert_eq!(
            shown_value("db", "postgres://u:pw@h/d"),
            "postgres://u:<redacted>@h/d"
        );
    }
}
