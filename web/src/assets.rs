//! The pages' static files, embedded in the binary: the style sheet and the scripts (each
//! page's module serves its own script through [`javascript`]).

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// `/assets/style.css`.
pub async fn style() -> Response {
    css(include_str!("../assets/style.css"))
}

/// A style sheet's answer.
pub fn css(body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// A script's answer.
pub fn javascript(body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}
