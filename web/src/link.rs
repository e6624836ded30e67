//! Linking a browser to an account: `ssh HOST web` prints a one-time code; `/link` takes it
//! (`?code=` fills the form) and, once the store redeems it, gives the browser its session
//! token as a cookie ([`COOKIE`]: `HttpOnly`, `SameSite=Lax`, for the store's session time);
//! `/play` then plays as that account. `POST /unlink` forgets this browser's session. A code is
//! tried at most [`TRIES_BURST`] times at once from one address, then [`TRIES_PER_SEC`] a
//! second: a code of about 40 bits, valid ten minutes, cannot be guessed at that pace.

use std::sync::Arc;

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use minotty_domain::{AccountRef, PlayerId};
use minotty_store::{SESSION_TTL_MS, Store, unix_now};
use serde::Deserialize;

use crate::Web;
use crate::listen::Conn;
use crate::pages::{Site, error, render};

/// The cookie a linked browser keeps.
pub const COOKIE: &str = "minotty_session";
/// Codes tried from one address: a burst, then this many a second.
pub const TRIES_BURST: u32 = 5;
pub const TRIES_PER_SEC: u32 = 1;
/// The longest code read (a code is 9 characters).
const MAX_CODE: usize = 16;

#[derive(Template)]
#[template(path = "link.html")]
struct LinkPage {
    site: Site,
    code: String,
    message: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
pub struct CodeQuery {
    code: Option<String>,
}

/// A code as typed: trimmed, upper case, dashes kept, at most [`MAX_CODE`] characters of
/// letters, digits and `-` (anything else: not a code).
fn normal(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_uppercase();
    (code.len() <= MAX_CODE && code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then_some(code)
}

/// `GET /link`.
pub async fn page(
    State(web): State<Arc<Web>>,
    Query(query): Query<CodeQuery>,
    headers: HeaderMap,
) -> Response {
    let site = Site::of(&web, &headers);
    let code = query.code.as_deref().and_then(normal).unwrap_or_default();
    render(&LinkPage {
        site,
        code,
        message: None,
    })
}

/// `POST /link`: the code redeemed, the cookie set, on to `/play`.
pub async fn redeem(
    State(web): State<Arc<Web>>,
    conn: Option<axum::extract::Extension<Conn>>,
    headers: HeaderMap,
    Form(form): Form<CodeQuery>,
) -> Response {
    let site = Site::of(&web, &headers);
    let again = |site: Site, status: StatusCode, message: String| {
        let mut page = render(&LinkPage {
            site,
            code: String::new(),
            message: Some(message),
        });
        *page.status_mut() = status;
        page
    };
    if let Some(conn) = &conn
        && !web.link_tries.allow(conn.0.client)
    {
        return again(
            site,
            StatusCode::TOO_MANY_REQUESTS,
            "Too many codes tried: wait a few seconds and try again.".into(),
        );
    }
    let Some(store) = web.store.as_ref() else {
        return error(
            site,
            StatusCode::SERVICE_UNAVAILABLE,
            "No accounts",
            "This server keeps no accounts.".into(),
        );
    };
    let Some(code) = form
        .code
        .as_deref()
        .and_then(normal)
        .filter(|c| !c.is_empty())
    else {
        return again(site, StatusCode::BAD_REQUEST, "Type the code first.".into());
    };
    let token = new_token();
    let work = match web.db_work(&site).await {
        Ok(permit) => permit,
        Err(page) => return page,
    };
    let redeemed = store.redeem_web_code(&code, &token, unix_now()).await;
    drop(work);
    match redeemed {
        Ok(Some(_)) => {
            let cookie = format!(
                "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
                SESSION_TTL_MS / 1000,
                web.cookie_secure()
            );
            let mut answer = (StatusCode::SEE_OTHER, [(header::LOCATION, "/play")]).into_response();
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                answer.headers_mut().insert(header::SET_COOKIE, value);
            }
            answer
        }
        Ok(None) => again(
            site,
            StatusCode::BAD_REQUEST,
            format!(
                "That code does not link anything: it may be mistyped, used already or older \
                 than ten minutes. Run ssh -p {} HOST web for a new one.",
                web.ssh_port
            ),
        ),
        Err(e) => {
            tracing::warn!(error = %e, "redeeming a web code");
            again(
                site,
                StatusCode::SERVICE_UNAVAILABLE,
                "The accounts could not be reached; try again in a moment.".into(),
            )
        }
    }
}

/// `POST /unlink`: this browser plays as a guest again (its session ends in the store).
pub async fn unlink(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    if let (Some(store), Some(token)) = (web.store.as_ref(), token_of(&headers))
        && let Err(e) = store.end_web_session(&token).await
    {
        tracing::warn!(error = %e, "ending a web session");
    }
    let mut answer = (StatusCode::SEE_OTHER, [(header::LOCATION, "/play")]).into_response();
    let gone = format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}",
        web.cookie_secure()
    );
    if let Ok(value) = HeaderValue::from_str(&gone) {
        answer.headers_mut().insert(header::SET_COOKIE, value);
    }
    answer
}

/// A new session token: 32 random bytes, in hex.
fn new_token() -> String {
    (0..32)
        .map(|_| format!("{:02x}", rand::random::<u8>()))
        .collect()
}

/// The session token the request's cookie holds, if it looks like one.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The account a request's cookie links, while it does (`None`: a guest).
pub async fn account_of(store: Option<&Store>, headers: &HeaderMap) -> Option<AccountRef> {
    let (store, token) = (store?, token_of(headers)?);
    let player: PlayerId = match store.web_session(&token, unix_now()).await {
        Ok(p) => p?,
        Err(e) => {
            tracing::warn!(error = %e, "reading a web session");
            return None;
        }
    };
    let account = store.account(player).await.ok()??;
    Some(AccountRef {
        id: account.id,
        name: account.name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_read_as_typed_and_nothing_else() {
        assert_eq!(normal(" k7qx-m4pz "), Some("K7QX-M4PZ".into()));
        for bad in ["<script>", "a b", "K7QX-M4PZ-K7QX-M4PZ", "'; --"] {
            assert_eq!(normal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn only_a_tokens_shape_is_read_from_the_cookie() {
        let token = "ab".repeat(32);
        let mut headers = HeaderMap::new();
        let cookie = format!("theme=dark; {COOKIE}={token}; other=1");
        headers.insert(header::COOKIE, HeaderValue::from_str(&cookie).unwrap());
        assert_eq!(token_of(&headers), Some(token));
        for bad in ["short", "' OR 1=1", &"zz".repeat(32)] {
            let mut headers = HeaderMap::new();
            let cookie = format!("{COOKIE}={bad}");
            headers.insert(header::COOKIE, HeaderValue::from_str(&cookie).unwrap());
            assert_eq!(token_of(&headers), None, "{bad:?}");
        }
        assert!(new_token().len() == 64 && token_of(&HeaderMap::new()).is_none());
    }
}
