//! minotty's web front end: the pages (leaderboards, profiles), and the operator's `/metrics`
//! and `/health` on their own address (`operator.rs`). The only crate with the HTTP stack
//! (axum, hyper, tower-http); every listener runs under `listen.rs`'s accept loop and bounds.
//!
//! The pages' own bounds, besides the connection bounds of [`BOUNDS`]: a request body of at
//! most [`MAX_BODY`] bytes (pages take none), an answer within [`DEADLINE`] (else 408), at
//! most [`REQUESTS_PER_SEC`] requests a second from one address (burst [`REQUESTS_BURST`];
//! more are answered 429), and at most [`DB_WORK`] pages reading the database at once (a page
//! that waits longer than [`DB_WAIT`] is answered 503). Every answer carries a content
//! security policy with no inline script or style, `nosniff` and `frame-ancestors 'none'`.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use minotty_store::Store;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, SemaphorePermit};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

mod assets;
pub mod link;
pub mod listen;
pub mod live;
pub mod operator;
pub mod pages;
pub mod play;
mod rate;

use listen::{Bounds, Conn};

/// The pages' connection bounds: browsers open a few connections each and keep them.
pub const BOUNDS: Bounds = Bounds {
    max_connections: 1024,
    max_per_address: 16,
    head_timeout: Duration::from_secs(5),
    lifetime: Duration::from_secs(120),
    keep_alive: true,
};
/// The largest request body taken (pages read none).
pub const MAX_BODY: usize = 16 * 1024;
/// How long a page may take.
pub const DEADLINE: Duration = Duration::from_secs(10);
/// Requests a second from one address, and the burst over it.
pub const REQUESTS_PER_SEC: u32 = 10;
pub const REQUESTS_BURST: u32 = 40;
/// Pages reading the database at once, and how long one waits for its turn.
pub const DB_WORK: usize = 8;
pub const DB_WAIT: Duration = Duration::from_secs(2);

/// The content security policy of every answer: nothing inline, nothing from elsewhere
/// (`'wasm-unsafe-eval'` lets the game page's script compile the replay player's module, served
/// from here like the script).
pub const CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; \
     connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// `/play`'s policy: [`CSP`] but for styles, which the browser terminal (xterm.js) sets up by
/// adding a `<style>` of its own. Scripts stay as strict.
pub const PLAY_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// What the pages are served from.
#[derive(Debug)]
pub struct Web {
    pub store: Option<Store>,
    /// The SSH port the pages tell players to connect to.
    pub ssh_port: u16,
    /// What is being played now (`live.rs`); `None`: no Live pages.
    pub live: Option<minotty_server::live::LiveDirectory>,
    /// Opens the browser's game sessions (`play.rs`); `None`: no `/play`.
    pub opener: Option<minotty_server::session::remote::Opener>,
    db: Semaphore,
    /// Players open the pages over HTTPS (`--web-url https://...`, a proxy in front): the
    /// session cookie is `Secure`.
    https: bool,
    /// The pages' connection bounds ([`BOUNDS`] unless [`Web::with_limits`] says otherwise).
    bounds: Bounds,
    rate: rate::PerAddress,
    /// Codes tried at `/link`, per address (`link.rs`).
    link_tries: rate::PerAddress,
    /// Ends the WebSockets at shutdown; they are its tasks.
    stop: CancellationToken,
    sockets: TaskTracker,
}

impl Web {
    pub fn new(store: Option<Store>, ssh_port: u16) -> Web {
        Web {
            store,
            ssh_port,
            live: None,
            opener: None,
            db: Semaphore::new(DB_WORK),
            https: false,
            bounds: BOUNDS,
            rate: rate::PerAddress::new(REQUESTS_PER_SEC, REQUESTS_BURST),
            link_tries: rate::PerAddress::new(link::TRIES_PER_SEC, link::TRIES_BURST),
            stop: CancellationToken::new(),
            sockets: TaskTracker::new(),
        }
    }

    /// The Live pages over `live` (the server's directory of games being played).
    pub fn with_live(mut self, live: minotty_server::live::LiveDirectory) -> Web {
        self.live = Some(live);
        self
    }

    /// The operator's bounds: connections in all and per address, and requests a second per
    /// address (after a burst of four times as many); each at least 1.
    pub fn with_limits(mut self, connections: usize, per_address: usize, per_sec: u32) -> Web {
        self.bounds.max_connections = connections.max(1);
        self.bounds.max_per_address = per_address.max(1);
        let per_sec = per_sec.max(1);
        self.rate = rate::PerAddress::new(per_sec, per_sec.saturating_mul(4));
        self
    }

    /// Players reach the pages at `url` (`--web-url`): an `https://` one makes the session
    /// cookie `Secure`, so a browser sends it over HTTPS only.
    pub fn with_public_url(mut self, url: &str) -> Web {
        self.https = url.starts_with("https://");
        self
    }

    /// What the session cookie's attributes end with: `; Secure` behind HTTPS.
    pub fn cookie_secure(&self) -> &'static str {
        if self.https { "; Secure" } else { "" }
    }

    /// Play in the browser through `opener` (the core's).
    pub fn with_play(mut self, opener: minotty_server::session::remote::Opener) -> Web {
        self.opener = Some(opener);
        self
    }

    /// WebSockets open now.
    pub fn sockets(&self) -> usize {
        self.sockets.len()
    }

    /// A turn to read the database, or the page that says to try again.
    #[allow(clippy::result_large_err)]
    async fn db_work(&self, site: &pages::Site) -> Result<SemaphorePermit<'_>, Response> {
        match tokio::time::timeout(DB_WAIT, self.db.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(pages::error(
                site.clone(),
                StatusCode::SERVICE_UNAVAILABLE,
                "Busy",
                "The server is busy; try again in a moment.".into(),
            )),
        }
    }
}

/// The pages' routes over `web`.
pub fn router(web: Arc<Web>) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/leaderboard/{board}", get(pages::leaderboard))
        .route("/player/{name}", get(pages::player))
        .route("/game/{id}", get(pages::game::game))
        .route("/game/{id}/replay", get(pages::game::replay))
        .route("/assets/replay.js", get(pages::game::script))
        .route("/assets/player.wasm", get(pages::game::module))
        .route("/assets/board.js", get(live::board_script))
        .route("/assets/live.js", get(live::script))
        .route("/live", get(live::list))
        .route("/live/{id}", get(live::page))
        .route("/live/{id}/ws", get(live::socket))
        .route("/link", get(link::page).post(link::redeem))
        .route("/unlink", axum::routing::post(link::unlink))
        .route("/play", get(play::page))
        .route("/play/ws", get(play::socket))
        .route("/assets/play.js", get(play::script))
        .route("/assets/vendor/xterm.js", get(play::xterm))
        .route("/assets/vendor/addon-fit.js", get(play::xterm_fit))
        .route("/assets/vendor/xterm.css", get(play::xterm_css))
        .route("/assets/vendor/LICENSES.txt", get(play::licenses))
        .route("/assets/style.css", get(assets::style))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&web),
            limit_rate,
        ))
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            DEADLINE,
        ))
        // A page that says its own policy keeps it (`/play`'s); every other answer gets CSP.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .with_state(web)
}

/// Serves the pages on `listener` until `shutdown` completes; then closes the WebSockets
/// (waiting for them at most [`SOCKETS_CLOSE`]).
pub async fn serve(listener: TcpListener, web: Arc<Web>, shutdown: impl Future<Output = ()>) {
    listen::serve(listener, router(Arc::clone(&web)), web.bounds, shutdown).await;
    web.stop.cancel();
    web.sockets.close();
    let _ = tokio::time::timeout(SOCKETS_CLOSE, web.sockets.wait()).await;
}

/// How long the end of the pages waits for their WebSockets to close.
pub const SOCKETS_CLOSE: Duration = Duration::from_secs(2);

async fn not_found(State(web): State<Arc<Web>>, headers: axum::http::HeaderMap) -> Response {
    pages::error(
        pages::Site::of(&web, &headers),
        StatusCode::NOT_FOUND,
        "Not found",
        "There is no page here.".into(),
    )
}

/// Answers 429 to an address past its requests a second.
async fn limit_rate(State(web): State<Arc<Web>>, request: Request, next: Next) -> Response {
    let allowed = match request.extensions().get::<Conn>() {
        Some(conn) => web.rate.allow(conn.client),
        // Not from `listen.rs` (the router driven directly, in tests): nothing to count.
        None => true,
    };
    if !allowed {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "1")],
            "too many requests; slow down\n",
        )
            .into_response();
    }
    next.run(request).await
}
