//! What the pages' test files share: keys for test accounts, and a request as a browser
//! sends it, through the router.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use minotty_domain::KeyFingerprint;
use minotty_store::NewKey;
use minotty_web::{Web, router};
use tower::ServiceExt;

/// The `i`th test key.
pub fn key(i: u32) -> NewKey {
    NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{i:0>43}")).expect("a fingerprint"),
        algorithm: "ssh-ed25519".into(),
    }
}

/// `GET uri` with `host` as its Host header: the status, the body as text, the headers.
pub async fn get(
    web: &Arc<Web>,
    uri: &str,
    host: &str,
) -> (StatusCode, String, axum::http::HeaderMap) {
    let request = Request::builder()
        .uri(uri)
        .header(header::HOST, host)
        .body(Body::empty())
        .expect("a request");
    let response = router(Arc::clone(web))
        .oneshot(request)
        .await
        .expect("an answer");
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("a body");
    (
        status,
        String::from_utf8(body.to_vec()).expect("utf-8"),
        headers,
    )
}

/// `GET uri`: the status, the body's bytes, the headers.
#[allow(dead_code)] // Not every test file reads bytes.
pub async fn get_bytes(web: &Arc<Web>, uri: &str) -> (StatusCode, Vec<u8>, axum::http::HeaderMap) {
    let request = Request::builder()
        .uri(uri)
        .header(header::HOST, "localhost")
        .body(Body::empty())
        .expect("a request");
    let response = router(Arc::clone(web))
        .oneshot(request)
        .await
        .expect("an answer");
    let (status, headers) = (response.status(), response.headers().clone());
    let body = axum::body::to_bytes(response.into_body(), 4 << 20)
        .await
        .expect("a body");
    (status, body.to_vec(), headers)
}
