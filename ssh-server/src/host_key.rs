//! The server's ed25519 host key: generated on first start (file mode 0600), reused after.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::Path;

use anyhow::{Context, bail};
use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey};

/// The server's private host key. Its `Debug` shows only the public fingerprint.
#[derive(Clone)]
pub struct HostKey(PrivateKey);

impl HostKey {
    /// A fresh random ed25519 key (tests use this to avoid touching the disk).
    pub fn generate() -> anyhow::Result<HostKey> {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)
            .context("generating an ed25519 host key")?;
        Ok(HostKey(key))
    }

    /// Loads the key at `path`, or generates one and writes it there with mode 0600 when the
    /// file does not exist. Returns the key and whether it was generated.
    pub fn load_or_generate(path: &Path) -> anyhow::Result<(HostKey, bool)> {
        match std::fs::read_to_string(path) {
            Ok(pem) => {
                let key = PrivateKey::from_openssh(pem.as_bytes())
                    .with_context(|| format!("reading host key {}", path.display()))?;
                if key.algorithm() != Algorithm::Ed25519 {
                    bail!("host key {} is not an ed25519 key", path.display());
                }
                warn_if_readable_by_others(path);
                Ok((HostKey(key), false))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let key = HostKey::generate()?;
                key.write_new(path)?;
                Ok((key, true))
            }
            Err(e) => Err(e).with_context(|| format!("reading host key {}", path.display())),
        }
    }

    fn write_new(&self, path: &Path) -> anyhow::Result<()> {
        let pem = self
            .0
            .to_openssh(LineEnding::LF)
            .context("encoding the host key")?;
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options
            .open(path)
            .with_context(|| format!("creating host key file {}", path.display()))?;
        file.write_all(pem.as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| format!("writing host key file {}", path.display()))?;
        Ok(())
    }

    /// The SHA-256 fingerprint as OpenSSH prints it (`SHA256:...`).
    pub fn fingerprint(&self) -> String {
        self.0.fingerprint(HashAlg::Sha256).to_string()
    }

    pub fn private_key(&self) -> &PrivateKey {
        &self.0
    }
}

impl fmt::Debug for HostKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("HostKey").field(&self.fingerprint()).finish()
    }
}

#[cfg(unix)]
fn warn_if_readable_by_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        tracing::warn!(
            path = %path.display(),
            "host key file is readable by group or others; chmod 600 it"
        );
    }
}

#[cfg(not(unix))]
fn warn_if_readable_by_others(_path: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_once_then_reused_with_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("host_key");
        let (first, generated) = HostKey::load_or_generate(&path).unwrap();
        assert!(generated);
        let (second, generated) = HostKey::load_or_generate(&path).unwrap();
        assert!(!generated);
        assert_eq!(first.fingerprint(), second.fingerprint());
        assert!(first.fingerprint().starts_with("SHA256:"));
        assert!(!format!("{first:?}").contains("PRIVATE"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn garbage_key_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("host_key");
        std::fs::write(&path, "not a key").unwrap();
        assert!(HostKey::load_or_generate(&path).is_err());
    }
}
