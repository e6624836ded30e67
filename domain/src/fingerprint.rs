//! SSH public keys' fingerprints: the identity of a connection, parsed once where a key is
//! first seen (the SSH handler, the command line) and passed inward as [`KeyFingerprint`].

use std::fmt;

/// A key's SHA-256 fingerprint as OpenSSH prints it: `SHA256:` and 43 characters of unpadded
/// base64 (russh: `key.fingerprint(HashAlg::Sha256).to_string()`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyFingerprint(String);

impl KeyFingerprint {
    pub fn parse(raw: &str) -> Option<KeyFingerprint> {
        let b64 = raw.strip_prefix("SHA256:")?;
        let ok = b64.len() == 43
            && b64
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
        ok.then(|| KeyFingerprint(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for KeyFingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_validated() {
        let good = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";
        assert_eq!(KeyFingerprint::parse(good).unwrap().as_str(), good);
        for bad in [
            "",
            "uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
            "MD5:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
            "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2",
            "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s=",
            "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2'",
        ] {
            assert_eq!(KeyFingerprint::parse(bad), None, "{bad:?}");
        }
    }
}
