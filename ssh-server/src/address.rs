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
}
