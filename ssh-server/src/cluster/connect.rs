//! Connecting to NATS: the credentials (user and password, token, nkey seed or creds file, or
//! those written in the URL, `nats://USER:PASS@HOST` or `nats://TOKEN@HOST`) and TLS (a CA
//! file, optionally a client certificate). Nothing here logs or returns a secret: errors show
//! the URL redacted ([`crate::redact::redact_url`]).

use std::path::PathBuf;

use anyhow::Context;
use async_nats::{ConnectOptions, ServerAddr};

use crate::redact::redact_url;

/// How this instance logs in to the NATS server. `Debug` shows which way, never the secret.
#[derive(Clone)]
pub enum NatsAuth {
    UserPassword { user: String, password: String },
    Token(String),
    NkeySeed(String),
    CredsFile(PathBuf),
}

impl std::fmt::Debug for NatsAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NatsAuth::UserPassword { user, .. } => {
                write!(f, "UserPassword {{ user: {user:?}, password: <redacted> }}")
            }
            NatsAuth::Token(_) => f.write_str("Token(<redacted>)"),
            NatsAuth::NkeySeed(_) => f.write_str("NkeySeed(<redacted>)"),
            NatsAuth::CredsFile(p) => write!(f, "CredsFile({})", p.display()),
        }
    }
}

/// TLS to the NATS server.
#[derive(Clone, Debug)]
pub struct NatsTls {
    /// CA certificates (PEM) to trust.
    pub ca: PathBuf,
    /// A client certificate and its key (PEM files).
    pub client: Option<(PathBuf, PathBuf)>,
}

/// `%XX` sequences of a URL's user info decoded.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| char::from(c).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push(u8::try_from(h * 16 + l).unwrap_or(b'?'));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The server address without credentials, and the credentials the URL held.
pub fn split_url(url: &str) -> anyhow::Result<(ServerAddr, Option<NatsAuth>)> {
    let addr: ServerAddr = url
        .parse()
        .with_context(|| format!("the NATS URL {} is not valid", redact_url(url)))?;
    let mut inner = addr.into_inner();
    let auth = match (inner.username(), inner.password()) {
        ("", _) => None,
        (user, Some(pass)) => Some(NatsAuth::UserPassword {
            user: percent_decode(user),
            password: percent_decode(pass),
        }),
        (token, None) => Some(NatsAuth::Token(percent_decode(token))),
    };
    // Neither can fail for a URL with a host, which a NATS address has.
    let _ = inner.set_password(None);
    let _ = inner.set_username("");
    let addr = ServerAddr::from_url(inner).context("the NATS URL")?;
    Ok((addr, auth))
}

/// Connects as `name` to the NATS server at `url` with `auth` (or the URL's credentials) and
/// `tls`. The error names the URL redacted and says why (e.g. an authorization violation).
pub async fn connect(
    url: &str,
    auth: Option<&NatsAuth>,
    tls: Option<&NatsTls>,
    name: &str,
) -> anyhow::Result<async_nats::Client> {
    let shown = redact_url(url);
    let (addr, from_url) = split_url(url)?;
    let mut options = ConnectOptions::new().name(name);
    match auth.or(from_url.as_ref()) {
        None => {}
        Some(NatsAuth::UserPassword { user, password }) => {
            options = options.user_and_password(user.clone(), password.clone());
        }
        Some(NatsAuth::Token(token)) => options = options.token(token.clone()),
        Some(NatsAuth::NkeySeed(seed)) => options = options.nkey(seed.clone()),
        Some(NatsAuth::CredsFile(path)) => {
            options = options
                .credentials_file(path)
                .await
                .with_context(|| format!("reading the NATS creds file {}", path.display()))?;
        }
    }
    if let Some(tls) = tls {
        options = options
            .require_tls(true)
            .add_root_certificates(tls.ca.clone());
        if let Some((cert, key)) = &tls.client {
            options = options.add_client_certificate(cert.clone(), key.clone());
        }
    }
    options.connect(addr).await.map_err(|e| {
        let hint = match auth.or(from_url.as_ref()) {
            None => {
                " (does the server require credentials? --nats-user/--nats-password, \
                      --nats-token, --nats-nkey-seed or --nats-creds)"
            }
            Some(_) => " (check the NATS credentials)",
        };
        let why = e.to_string();
        let hint = if why.to_ascii_lowercase().contains("author") {
            hint
        } else {
            ""
        };
        anyhow::anyhow!("connecting to NATS at {shown}: {why}{hint}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_credentials_are_taken_out_of_the_address() {
        let (addr, auth) = split_url("nats://ann:p%40ss@127.0.0.1:4222").expect("valid");
        assert_eq!(addr.as_url_str(), "nats://127.0.0.1:4222");
        assert!(matches!(
            auth,
            Some(NatsAuth::UserPassword { ref user, ref password }) if user == "ann" && password == "p@ss"
        ));
        let (addr, auth) = split_url("nats://s3cr3t@h:4222").expect("valid");
        assert_eq!(addr.as_url_str(), "nats://h:4222");
        assert!(matches!(auth, Some(NatsAuth::Token(ref t)) if t == "s3cr3t"));
        let (_, auth) = split_url("nats://h:4222").expect("valid");
        assert!(auth.is_none());
        let shown = format!(
            "{:?}",
            [
                NatsAuth::UserPassword {
                    user: "u".into(),
                    password: "hunter2".into()
                },
                NatsAuth::Token("hunter2".into()),
                NatsAuth::NkeySeed("hunter2".into()),
            ]
        );
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn percent_decoding_is_total() {
        assert_eq!(percent_decode("a%2Fb%zz%4"), "a/b%zz%4");
    }

    /// Nothing listens on port 1: the error names the URL without its password.
    #[tokio::test]
    async fn connection_errors_show_the_url_redacted() {
        let e = connect("nats://u:hunter2@127.0.0.1:1", None, None, "t")
            .await
            .expect_err("nothing listens");
        let text = format!("{e:#}");
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("nats://u:<redacted>@127.0.0.1:1"), "{text}");
    }
}
