//! A key's identity, parsed once where the SSH handler first sees the key: the
//! [`KeyFingerprint`] that the services, the reconnect store and the rooms are given.

use minotty_domain::KeyFingerprint;
use russh::keys::{HashAlg, PublicKey};

/// The SHA-256 fingerprint of `key` as a [`KeyFingerprint`]. russh prints every SHA-256
/// fingerprint as `SHA256:` and 43 characters of unpadded base64 (32 bytes, whatever the key's
/// algorithm), which always parses; `None` would be a key without an identity (a guest).
pub(super) fn fingerprint_of(key: &PublicKey) -> Option<KeyFingerprint> {
    KeyFingerprint::parse(&key.fingerprint(HashAlg::Sha256).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use russh::keys::{Algorithm, PrivateKey};

    #[test]
    fn every_key_has_a_fingerprint_as_printed() {
        for _ in 0..50 {
            let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
            let public = key.public_key();
            let printed = public.fingerprint(HashAlg::Sha256).to_string();
            let parsed = fingerprint_of(public).expect("a fingerprint");
            // The same text as before: what the database and the logs hold is unchanged.
            assert_eq!(parsed.as_str(), printed);
        }
    }
}
