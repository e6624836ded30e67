//! Credentials taken out of what is shown: a URL without its password (or token), for logs,
//! errors and `--print-config` (`config/secrets.rs` says which settings are secrets). Pure,
//! so that the settings and the parts that connect with them (`cluster/connect.rs`) share it.

/// What is shown instead of a secret.
pub const REDACTED: &str = "<redacted>";

/// `url` with the password of its user info replaced by [`REDACTED`] (the user info entirely
/// when it is a lone token, `nats://TOKEN@host`). Several URLs separated by commas are each
/// redacted. Anything that is not a URL with user info is returned as it is.
pub fn redact_url(url: &str) -> String {
    url.split(',').map(redact_one).collect::<Vec<_>>().join(",")
}

fn redact_one(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let start = scheme_end + 3;
    let rest = &url[start..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else {
        return url.to_owned();
    };
    let userinfo = &authority[..at];
    let shown = match userinfo.split_once(':') {
        Some((user, _)) => format!("{user}:{REDACTED}"),
        None => REDACTED.to_owned(),
    };
    format!("{}{shown}{}", &url[..start], &rest[at..])
}
