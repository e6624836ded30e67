//! The flags of several instances: the NATS server, how to log in to it (user and password,
//! token, nkey seed or creds file; or credentials in the URL), TLS, and the cluster key every
//! message between instances is sealed with (`crate::cluster::auth`).

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use crate::cluster::auth::ClusterKey;
use crate::cluster::connect::{NatsAuth, NatsTls};

/// Several instances: rooms and the ranked queue across them over NATS.
#[derive(Clone, Args)]
pub struct ClusterArgs {
    /// NATS server URL (e.g. nats://127.0.0.1:4222, or nats://USER:PASS@HOST:4222 with
    /// credentials): join the other instances using it. Without it the server is a single
    /// instance. Needs --cluster-key.
    #[arg(long, env = "MINOTTY_NATS", value_name = "URL", hide_env_values = true)]
    pub nats: Option<String>,

    /// This instance's name in logs and NATS subjects (letters, digits, '-', '_').
    #[arg(long, env = "MINOTTY_INSTANCE_NAME", default_value = "minotty")]
    pub instance_name: String,

    /// With --nats, seconds SIGTERM lets running matches finish before the server stops.
    #[arg(long, env = "MINOTTY_DRAIN_SECS", default_value_t = 600)]
    pub drain_secs: u64,

    /// With --nats (required there): the secret every instance of the cluster shares, at least
    /// 32 characters (`openssl rand -hex 32`). Every message between instances is sealed with
    /// it; a message without a valid seal is dropped. Never printed.
    #[arg(
        long,
        env = "MINOTTY_CLUSTER_KEY",
        value_name = "SECRET",
        hide_env_values = true,
        value_parser = KeyParser
    )]
    pub cluster_key: Option<ClusterKey>,

    /// NATS user name (with --nats-password).
    #[arg(long, env = "MINOTTY_NATS_USER", value_name = "USER")]
    pub nats_user: Option<String>,

    /// NATS password (with --nats-user). Never printed.
    #[arg(
        long,
        env = "MINOTTY_NATS_PASSWORD",
        value_name = "SECRET",
        hide_env_values = true
    )]
    pub nats_password: Option<String>,

    /// NATS authentication token. Never printed.
    #[arg(
        long,
        env = "MINOTTY_NATS_TOKEN",
        value_name = "SECRET",
        hide_env_values = true
    )]
    pub nats_token: Option<String>,

    /// NATS nkey seed (`SU...`). Never printed.
    #[arg(
        long,
        env = "MINOTTY_NATS_NKEY_SEED",
        value_name = "SECRET",
        hide_env_values = true
    )]
    pub nats_nkey_seed: Option<String>,

    /// NATS credentials file (a user JWT and its nkey seed, `.creds`).
    #[arg(long, env = "MINOTTY_NATS_CREDS", value_name = "PATH")]
    pub nats_creds: Option<PathBuf>,

    /// TLS to NATS, trusting the CA certificates (PEM) in this file.
    #[arg(long, env = "MINOTTY_NATS_CA", value_name = "PATH")]
    pub nats_ca: Option<PathBuf>,

    /// TLS client certificate (PEM) for NATS (with --nats-client-key).
    #[arg(long, env = "MINOTTY_NATS_CLIENT_CERT", value_name = "PATH")]
    pub nats_client_cert: Option<PathBuf>,

    /// The TLS client certificate's private key (PEM file).
    #[arg(long, env = "MINOTTY_NATS_CLIENT_KEY", value_name = "PATH")]
    pub nats_client_key: Option<PathBuf>,
}

/// Shown with every secret redacted (the URL's password too).
impl std::fmt::Debug for ClusterArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secret = |s: &Option<String>| s.as_ref().map(|_| super::secrets::REDACTED);
        f.debug_struct("ClusterArgs")
            .field(
                "nats",
                &self.nats.as_deref().map(super::secrets::redact_url),
            )
            .field("instance_name", &self.instance_name)
            .field("drain_secs", &self.drain_secs)
            .field("cluster_key", &self.cluster_key)
            .field("nats_user", &self.nats_user)
            .field("nats_password", &secret(&self.nats_password))
            .field("nats_token", &secret(&self.nats_token))
            .field("nats_nkey_seed", &secret(&self.nats_nkey_seed))
            .field("nats_creds", &self.nats_creds)
            .field("nats_ca", &self.nats_ca)
            .field("nats_client_cert", &self.nats_client_cert)
            .field("nats_client_key", &self.nats_client_key)
            .finish()
    }
}

/// Parses `--cluster-key` without ever repeating the value in its error (clap's own message for
/// a value parser's error quotes the value given: the secret).
#[derive(Clone, Copy, Debug)]
struct KeyParser;

impl clap::builder::TypedValueParser for KeyParser {
    type Value = ClusterKey;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<ClusterKey, clap::Error> {
        let name = arg.map_or_else(|| "--cluster-key".to_owned(), ToString::to_string);
        let invalid = |why: String| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value for '{name}' (not shown): {why}\n"),
            )
            .with_cmd(cmd)
        };
        let text = value
            .to_str()
            .ok_or_else(|| invalid("not valid UTF-8".to_owned()))?;
        ClusterKey::new(text).map_err(|e| invalid(e.to_string()))
    }
}

impl ClusterArgs {
    /// The cluster settings, when `--nats` was given; an error saying what is missing when
    /// they do not go together (no cluster key, a password without a user, ...).
    pub fn config(&self) -> anyhow::Result<Option<crate::cluster::ClusterConfig>> {
        let Some(nats) = &self.nats else {
            if self.cluster_key.is_some() || self.auth().is_some() {
                tracing::warn!("cluster or NATS settings without --nats: ignored");
            }
            return Ok(None);
        };
        let Some(key) = self.cluster_key.clone() else {
            bail!(
                "--nats needs --cluster-key (MINOTTY_CLUSTER_KEY): the secret every instance of \
                 the cluster shares, at least {} characters (e.g. `openssl rand -hex 32`)",
                crate::cluster::auth::MIN_KEY_LEN
            );
        };
        if self.nats_password.is_some() && self.nats_user.is_none() {
            bail!("--nats-password needs --nats-user");
        }
        let ways = [
            self.nats_user.is_some(),
            self.nats_token.is_some(),
            self.nats_nkey_seed.is_some(),
            self.nats_creds.is_some(),
        ];
        if ways.iter().filter(|w| **w).count() > 1 {
            bail!(
                "NATS credentials: give one of --nats-user/--nats-password, --nats-token, \
                 --nats-nkey-seed, --nats-creds"
            );
        }
        if self.nats_client_cert.is_some() != self.nats_client_key.is_some() {
            bail!("--nats-client-cert and --nats-client-key go together");
        }
        let tls = self.nats_ca.as_ref().map(|ca| NatsTls {
            ca: ca.clone(),
            client: self
                .nats_client_cert
                .clone()
                .zip(self.nats_client_key.clone()),
        });
        Ok(Some(crate::cluster::ClusterConfig {
            nats: nats.clone(),
            auth: self.auth(),
            tls,
            key,
            instance_name: self.instance_name.clone(),
            drain: std::time::Duration::from_secs(self.drain_secs),
            max_proxies: crate::cluster::MAX_PROXIES,
            max_proxies_per_peer: crate::cluster::MAX_PROXIES_PER_PEER,
        }))
    }

    fn auth(&self) -> Option<NatsAuth> {
        if let Some(user) = &self.nats_user {
            return Some(NatsAuth::UserPassword {
                user: user.clone(),
                password: self.nats_password.clone().unwrap_or_default(),
            });
        }
        if let Some(token) = &self.nats_token {
            return Some(NatsAuth::Token(token.clone()));
        }
        if let Some(seed) = &self.nats_nkey_seed {
            return Some(NatsAuth::NkeySeed(seed.clone()));
        }
        self.nats_creds.clone().map(NatsAuth::CredsFile)
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::config::{ServeCli as Cli, ServeCommand as Command};

    const KEY: &str = "0123456789abcdef0123456789abcdef";

    fn cluster(args: &[&str]) -> Result<super::ClusterArgs, clap::Error> {
        let cli = Cli::try_parse_from(["minotty", "serve"].iter().chain(args))?;
        match cli.command {
            Some(Command::Serve(s)) => Ok(s.cluster),
            None => panic!("not serve"),
        }
    }

    #[test]
    fn nats_needs_a_long_enough_cluster_key() {
        let c = cluster(&["--nats", "nats://127.0.0.1:4222"]).expect("parses");
        let e = c.config().expect_err("no key").to_string();
        assert!(e.contains("--cluster-key"), "{e}");
        let short = cluster(&["--cluster-key", "short-secret"]).expect_err("too short");
        assert!(short.to_string().contains("at least 32"), "{short}");
        // The refused value is a secret all the same: never repeated.
        assert!(!short.to_string().contains("short-secret"), "{short}");
        let c = cluster(&["--nats", "nats://h:4222", "--cluster-key", KEY]).expect("parses");
        let config = c.config().expect("fine").expect("a cluster");
        assert!(!format!("{config:?}").contains(KEY));
        // Without --nats there is no cluster, key or not.
        let c = cluster(&["--cluster-key", KEY]).expect("parses");
        assert!(c.config().expect("fine").is_none());
    }

    #[test]
    fn nats_credentials_and_tls() {
        use crate::cluster::connect::NatsAuth;
        let base = ["--nats", "nats://h:4222", "--cluster-key", KEY];
        let with = |more: &[&str]| {
            let mut args = base.to_vec();
            args.extend_from_slice(more);
            cluster(&args).expect("parses").config()
        };
        let c = with(&["--nats-user", "u", "--nats-password", "p"])
            .expect("fine")
            .expect("a cluster");
        assert!(matches!(
            c.auth,
            Some(NatsAuth::UserPassword { ref user, ref password }) if user == "u" && password == "p"
        ));
        assert!(!format!("{c:?}").contains("\"p\""), "{c:?}");
        let args = cluster(&[
            "--nats",
            "nats://u:urlpw@h",
            "--nats-user",
            "u",
            "--nats-password",
            "flagpw",
            "--cluster-key",
            KEY,
        ])
        .expect("parses");
        let shown = format!("{args:?}");
        for secret in ["urlpw", "flagpw", KEY] {
            assert!(!shown.contains(secret), "{shown}");
        }
        let c = with(&["--nats-token", "t0k"]).expect("fine").expect("some");
        assert!(matches!(c.auth, Some(NatsAuth::Token(ref t)) if t == "t0k"));
        assert!(!format!("{c:?}").contains("t0k"), "{c:?}");
        assert!(with(&["--nats-password", "p"]).is_err());
        assert!(with(&["--nats-token", "t", "--nats-user", "u"]).is_err());
        assert!(with(&["--nats-ca", "ca.pem", "--nats-client-cert", "c.pem"]).is_err());
        let c = with(&["--nats-ca", "ca.pem"]).expect("fine").expect("some");
        assert!(c.tls.is_some_and(|t| t.client.is_none()));
    }
}
