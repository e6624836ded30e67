//! The server's ed25519 host key: generated on first start (file mode 0600), reused after.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::Path;

use anyhow::{Context, bail};
use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, HashAlg, PrivateKey};

/// The largest host key file read: an OpenSSH ed25519 key is about 400 bytes.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

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
        match read_bounded(path) {
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

/// The file at `path`, at most [`MAX_FILE_BYTES`] of it (a larger file, or anything but a
/// regular file, is an error, never read whole).
fn read_bounded(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::other(format!(
            "larger than {MAX_FILE_BYTES} bytes: not a host key"
        )));
    }
    Ok(text)
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

    /// A huge file (or a device, a directory) where the key should be is refused with a clear
    /// error, read no further than the bound.
    #[test]
    fn an_oversized_or_odd_key_file_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("host_key");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_FILE_BYTES * 16).unwrap();
        let err = format!("{:#}", HostKey::load_or_generate(&path).unwrap_err());
        assert!(err.contains("larger than 65536 bytes"), "{err}");
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            MAX_FILE_BYTES * 16,
            "left as it was"
        );
        let err = format!("{:#}", HostKey::load_or_generate(dir.path()).unwrap_err());
        assert!(err.contains("not a regular file"), "{err}");
        #[cfg(unix)]
        {
            let link = dir.path().join("zero_key");
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            let err = format!("{:#}", HostKey::load_or_generate(&link).unwrap_err());
            assert!(err.contains("not a regular file"), "{err}");
        }
    }
}
