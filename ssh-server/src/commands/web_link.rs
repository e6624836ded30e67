//! `ssh HOST web`: a one-time code that links a browser to the caller's account (the store's
//! `web_links.rs`: one code a player at a time, valid ten minutes, used once), and `web --end`,
//! which unlinks every browser of theirs. The caller is the account of the connection's key;
//! a guest is told how to become one.

use minotty_domain::PlayerId;
use minotty_store::{CODE_TTL_MS, Store, unix_now};

use super::exec::Outcome;

/// The letters of a code: no 0/O, 1/I/L, so that it reads and types back alike.
const ALPHABET: &[u8; 31] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A new code, `XXXX-XXXX` (31^8, about 40 bits).
pub(crate) fn new_code() -> String {
    let mut code = String::with_capacity(9);
    for i in 0..8 {
        if i == 4 {
            code.push('-');
        }
        code.push(char::from(ALPHABET[rand::random_range(0..ALPHABET.len())]));
    }
    code
}

/// Where the player reaches the pages and the SSH server, for the lines the command prints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct To<'a> {
    pub web: Option<&'a str>,
    pub local: Option<std::net::SocketAddr>,
}

pub(crate) async fn run(
    store: Option<&Store>,
    live: &crate::services::account::LiveKeys,
    caller: Option<PlayerId>,
    end: bool,
    To { web, local }: To<'_>,
) -> Outcome {
    let ssh = local.map_or_else(
        || crate::address::PLACEHOLDER.to_owned(),
        crate::address::ssh_target,
    );
    let Some(store) = store else {
        return Outcome::fail("this server keeps no accounts: there is nothing to link".into());
    };
    let Some(player) = caller else {
        return Outcome::fail(format!(
            "a browser links to a registered player's account: connect with your key \
             (ssh {ssh}), choose a name on the welcome screen, then run \"ssh {ssh} web\""
        ));
    };
    let failed = |e: minotty_store::StoreError| {
        tracing::warn!(error = %e, "web link command");
        Outcome::fail("the accounts could not be reached; try again".into())
    };
    if end {
        let unlinked = store.end_web_sessions(player).await;
        // The games being played in them end too (on this instance).
        let ended = live.revoke(&crate::services::account::Holder::Browsers(player));
        tracing::info!(player = player.0, ended, "browsers unlinked");
        return match unlinked {
            Ok(0) => Outcome::ok("No browser was linked to your account.\n".into()),
            Ok(n) => Outcome::ok(format!(
                "Unlinked {n} browser{}: their games end, and they play as guests from now on.\n",
                if n == 1 { "" } else { "s" }
            )),
            Err(e) => failed(e),
        };
    }
    let code = new_code();
    if let Err(e) = store.new_web_code(player, &code, unix_now()).await {
        return failed(e);
    }
    let minutes = CODE_TTL_MS / 60_000;
    let open = match web {
        Some(web) => format!("open {web}/link?code={code}\nor type the code at {web}/link"),
        None => "type the code on the server's /link page".to_owned(),
    };
    Outcome::ok(format!(
        "Your code: {code}\n\
         It links one browser to your account, once, within {minutes} minutes:\n\
         {open}\n\
         The browser then plays as you (its games on your record). Unlink every browser with\n  \
         ssh {ssh} web --end\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_two_groups_of_four_unambiguous_letters() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..1000 {
            let code = new_code();
            assert_eq!(code.len(), 9);
            assert_eq!(code.as_bytes()[4], b'-');
            assert!(
                code.chars()
                    .filter(|&c| c != '-')
                    .all(|c| ALPHABET.contains(&(c as u8)) && !"01OIL".contains(c)),
                "{code}"
            );
            seen.insert(code);
        }
        assert!(seen.len() > 990, "codes repeat: {}", seen.len());
    }
}
