//! The operator's endpoint, on its own address (`--metrics-listen`): `GET /metrics` (the
//! Prometheus text format) and `GET /health` (200 "ok" while serving, 200 "degraded:
//! <reasons>" while serving without the database or NATS, 503 while starting or draining);
//! anything else is 404 (405 for another method on a known path).
//!
//! It must never become a way to exhaust the server, nor to keep the operator's monitoring
//! from its answers: [`BOUNDS`] (`listen.rs` lets the slowest client go for a new one, so a
//! balancer's check, which sends its request at once, is answered), one request per
//! connection, no body read.

use std::future::Future;
use std::time::Duration;

use axum::Router;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use minotty_server::metrics::{DEPENDENCIES, Health};
use tokio::net::TcpListener;

use crate::listen::{self, Bounds};

/// Connections served at once in all, and from one address (IPv6: one /64); a request head
/// within 2 s; the answer written within 5 s more.
pub const BOUNDS: Bounds = Bounds {
    max_connections: 64,
    max_per_address: 4,
    head_timeout: Duration::from_secs(2),
    lifetime: Duration::from_secs(7),
    keep_alive: false,
};

const TEXT: &str = "text/plain; charset=utf-8";

/// The endpoint's routes; `health` answers `/health`.
pub fn router(health: &'static Health) -> Router {
    Router::new()
        .route(
            "/metrics",
            get(|| async {
                (
                    [(
                        header::CONTENT_TYPE,
                        "text/plain; version=0.0.4; charset=utf-8",
                    )],
                    minotty_server::metrics::render(),
                )
            }),
        )
        .route("/health", get(move || async move { health_answer(health) }))
        .method_not_allowed_fallback(|| async {
            (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::CONTENT_TYPE, TEXT)],
                "only GET\n",
            )
        })
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, TEXT)],
                "not found\n",
            )
        })
}

fn health_answer(health: &Health) -> Response {
    let (status, body) = DEPENDENCIES.health(health);
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, [(header::CONTENT_TYPE, TEXT)], body).into_response()
}

/// Serves the endpoint on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    health: &'static Health,
    shutdown: impl Future<Output = ()>,
) {
    serve_with(listener, health, shutdown, BOUNDS).await;
}

/// [`serve`] with other bounds (tests).
pub async fn serve_with(
    listener: TcpListener,
    health: &'static Health,
    shutdown: impl Future<Output = ()>,
    bounds: Bounds,
) {
    listen::serve(listener, router(health), bounds, shutdown).await;
}

#[cfg(test)]
#[path = "operator_tests.rs"]
mod tests;
