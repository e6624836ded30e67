//! The address a player reached this server at, put into the commands the server shows them
//! (`help`, the doctor's report, usage messages) instead of the `-p PORT HOST` placeholders.
//!
//! It is the connection's own local address: the address and port the player's client
//! connected to. Behind a PROXY-protocol proxy the local address is the proxy's way in, not
//! the player's, so proxied connections keep the placeholders.

use std::borrow::Cow;
use std::net::SocketAddr;

/// The placeholder written in the texts.
pub const PLACEHOLDER: &str = "-p PORT HOST";

/// What an `ssh` command line needs to reach `local`: `-p 2222 192.0.2.7`, or only the host
/// on port 22.
pub fn ssh_target(local: SocketAddr) -> String {
    match local.port() {
        22 => local.ip().to_string(),
        port => format!("-p {port} {}", local.ip()),
    }
}

/// `text` with every [`PLACEHOLDER`] replaced by the way to reach `local` (unchanged without
/// one). A line whose command grows or shrinks takes the difference from the run of spaces
/// after it, so the descriptions of a help table stay in their column.
pub fn fill(text: &str, local: Option<SocketAddr>) -> Cow<'_, str> {
    let Some(local) = local else {
        return Cow::Borrowed(text);
    };
    if !text.contains(PLACEHOLDER) {
        return Cow::Borrowed(text);
    }
    let target = ssh_target(local);
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let Some(at) = line.find(PLACEHOLDER) else {
            out.push_str(line);
            continue;
        };
        let mut line = line.replacen(PLACEHOLDER, &target, 1);
        let after = at + target.len();
        let grew = target.len() as isize - PLACEHOLDER.len() as isize;
        // The first gap of three or more spaces after the command: the column gap.
        if let Some(gap) = line.get(after..).and_then(|rest| rest.find("   ")) {
            let gap = after + gap;
            let width = line
                .get(gap..)
                .map_or(0, |rest| rest.len() - rest.trim_start_matches(' ').len());
            let new_width = (width as isize - grew).max(2) as usize;
            line.replace_range(gap..gap + width, &" ".repeat(new_width));
        }
        out.push_str(&line);
    }
    Cow::Owned(out)
}

/// Where players open the web pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WebAddress {
    /// `--web-url`, checked ([`WebAddress::url`]): every player is shown it.
    Url(String),
    /// Where the pages listen: a player is shown it when their SSH client reached the same
    /// address, or, when the pages listen on every address, the one the client reached (none
    /// behind a proxy, as the `ssh` commands).
    Listen(SocketAddr),
}

/// The longest `--web-url` taken.
pub const MAX_WEB_URL: usize = 100;

impl WebAddress {
    /// `url` if it is `http://` or `https://` then a host (letters, digits, `.`, `-`, or a
    /// bracketed IPv6 address), an optional port and path of plain characters; without a
    /// trailing `/`. Anything else is refused with why.
    pub fn url(url: &str) -> Result<WebAddress, String> {
        let url = url.trim_end_matches('/');
        if url.len() > MAX_WEB_URL {
            return Err(format!("longer than {MAX_WEB_URL} characters"));
        }
        let rest = url
            .strip_prefix("https://")
            .or_else(|| url.strip_prefix("http://"))
            .ok_or("it must start with http:// or https://")?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(':') && !p.contains(']') => (h, Some(p)),
            _ => (authority, None),
        };
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-');
        let host_ok = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => !host.is_empty() && host.chars().all(plain),
        };
        if !host_ok {
            return Err("its host must be a plain name or address".into());
        }
        if port.is_some_and(|p| p.parse::<u16>().is_err()) {
            return Err("its port must be a number up to 65535".into());
        }
        let path_ok =
            |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '-' | '_' | '~');
        if !path.chars().all(path_ok) {
            return Err("its path may hold letters, digits and / . - _ ~ only".into());
        }
        Ok(WebAddress::Url(url.to_owned()))
    }
}

/// The pages' address for a player who connected to `local`: `--web-url` as it is, or
/// `http://` where the pages listen when the player can reach it there.
pub fn web_base(web: &WebAddress, local: Option<SocketAddr>) -> Option<String> {
    let listen = match web {
        WebAddress::Url(url) => return Some(url.clone()),
        WebAddress::Listen(listen) => *listen,
    };
    let ip = match local?.ip() {
        reached if listen.ip().is_unspecified() => reached,
        reached if reached == listen.ip() => reached,
        _ => return None,
    };
    Some(match ip {
        std::net::IpAddr::V4(ip) => format!("http://{ip}:{}", listen.port()),
        std::net::IpAddr::V6(ip) => format!("http://[{ip}]:{}", listen.port()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholders_become_the_address_and_columns_stay() {
        let text = "  ssh -p PORT HOST help                 this list\n\
                    \x20 ssh -t -p PORT HOST join CODE         play in CODE\n\
                    \x20                                       (needs -t)\n\
                    no placeholder here\n";
        let local: SocketAddr = "192.0.2.7:2222".parse().expect("addr");
        let filled = fill(text, Some(local));
        let lines: Vec<&str> = filled.lines().collect();
        assert_eq!(
            lines[0],
            "  ssh -p 2222 192.0.2.7 help            this list"
        );
        assert_eq!(
            lines[1],
            "  ssh -t -p 2222 192.0.2.7 join CODE    play in CODE"
        );
        assert_eq!(
            lines[2],
            "                                        (needs -t)"
        );
        assert_eq!(lines[3], "no placeholder here");
        // The descriptions start in the same column as before.
        let col = |l: &str| l.find("this list").or_else(|| l.find("play in"));
        assert_eq!(col(lines[0]), col(text.lines().next().expect("line")));
        assert_eq!(col(lines[1]), col(text.lines().nth(1).expect("line")));
        // Port 22 needs no -p; IPv6 as ssh takes it.
        let v6: SocketAddr = "[2001:db8::1]:22".parse().expect("addr");
        assert_eq!(ssh_target(v6), "2001:db8::1");
        // Without a known address, the text is left as it is.
        assert_eq!(fill(text, None), text);
    }

    #[test]
    fn a_web_url_is_a_plain_http_address() {
        for good in [
            "http://localhost:8080",
            "https://minotty.example/",
            "https://play.minotty.example/tetris",
            "http://[::1]:8080",
            "http://192.0.2.7",
        ] {
            let Ok(WebAddress::Url(url)) = WebAddress::url(good) else {
                panic!("{good} refused");
            };
            assert!(!url.ends_with('/'), "{url}");
        }
        let long = format!("https://{}.example", "a".repeat(MAX_WEB_URL));
        for bad in [
            "minotty.example",
            "ftp://minotty.example",
            "javascript:alert(1)",
            "https://",
            "https://mi notty.example",
            "https://x.example/\u{1b}[2J",
            "https://x.example/a?b=<c>",
            "https://user@x.example",
            "https://x.example:99999",
            "https://x.example\"onload=",
            long.as_str(),
        ] {
            assert!(WebAddress::url(bad).is_err(), "{bad:?} taken");
        }
    }

    #[test]
    fn the_pages_port_is_shown_at_the_address_the_player_reached() {
        let v4: SocketAddr = "192.0.2.7:2222".parse().unwrap();
        let v6: SocketAddr = "[2001:db8::1]:2222".parse().unwrap();
        let every = WebAddress::Listen("0.0.0.0:8080".parse().unwrap());
        assert_eq!(
            web_base(&every, Some(v4)).as_deref(),
            Some("http://192.0.2.7:8080")
        );
        assert_eq!(
            web_base(&every, Some(v6)).as_deref(),
            Some("http://[2001:db8::1]:8080")
        );
        assert_eq!(web_base(&every, None), None, "behind a proxy: no guess");
        // Pages on loopback: shown to a player on loopback, not to one from elsewhere.
        let loopback = WebAddress::Listen("127.0.0.1:8080".parse().unwrap());
        let local: SocketAddr = "127.0.0.1:2222".parse().unwrap();
        assert_eq!(
            web_base(&loopback, Some(local)).as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(web_base(&loopback, Some(v4)), None);
        let url = WebAddress::url("https://minotty.example").unwrap();
        assert_eq!(
            web_base(&url, None).as_deref(),
            Some("https://minotty.example")
        );
    }
}
