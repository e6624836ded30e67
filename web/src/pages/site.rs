//! What every page shows of the server (how to connect over SSH), from the request's `Host`
//! header where it can be believed.

use axum::http::{HeaderMap, header};

use crate::Web;

/// What every page shows of the server: how to connect over SSH.
#[derive(Clone, Debug)]
pub struct Site {
    pub host: String,
    pub ssh_port: u16,
}

impl Site {
    /// The site as the request reached it: the host it asked for (only a plain host name or
    /// address is believed), the server's SSH port.
    pub(crate) fn of(web: &Web, headers: &HeaderMap) -> Site {
        let asked = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(host_of)
            .filter(|h| !h.is_empty());
        Site {
            host: asked.unwrap_or("localhost").to_owned(),
            ssh_port: web.ssh_port,
        }
    }
}

/// The host of a `Host` header without its port, when it is a plain host name
/// (labels of letters, digits and `-`) or a bracketed IPv6 address; else empty.
fn host_of(value: &str) -> &str {
    let port_ok = |rest: &str| {
        rest.is_empty()
            || rest
                .strip_prefix(':')
                .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    if let Some(inner) = value.strip_prefix('[') {
        let Some((address, rest)) = inner.split_once(']') else {
            return "";
        };
        let literal = !address.is_empty()
            && address
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        return if literal && port_ok(rest) {
            &value[..address.len() + 2]
        } else {
            ""
        };
    }
    let (host, rest) = match value.find(':') {
        Some(i) => value.split_at(i),
        None => (value, ""),
    };
    // DNS's limits: 253 characters, labels of 1 to 63.
    let name = host.len() <= 253
        && host.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
    if name && port_ok(rest) { host } else { "" }
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn only_plain_hosts_are_believed() {
        for (header, host) in [
            ("example.org", "example.org"),
            ("example.org:8080", "example.org"),
            ("127.0.0.1:8080", "127.0.0.1"),
            ("[::1]:8080", "[::1]"),
            ("[2001:db8::1]", "[2001:db8::1]"),
            ("x[2Jx", ""),
            ("evil.org\"><script>", ""),
            ("a b", ""),
            ("host:port", ""),
            ("[::1]x", ""),
            ("[<b>]", ""),
            ("a..b", ""),
            (&"a".repeat(64), ""),
            ("", ""),
        ] {
            assert_eq!(host_of(header), host, "{header:?}");
        }
    }
}
