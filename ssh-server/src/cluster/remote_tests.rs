//! A request to another instance on tokio's paused clock (`start_paused`): unanswered, it
//! gives up exactly at [`REQUEST_TIMEOUT`]; an answer just inside it is taken.

use std::time::Duration;

use tokio::time::Instant;

use super::REQUEST_TIMEOUT;
use super::remote::within_request_timeout;

#[tokio::test(start_paused = true)]
async fn an_unanswered_request_gives_up_exactly_at_request_timeout() {
    let t0 = Instant::now();
    assert_eq!(
        within_request_timeout(std::future::pending::<u8>()).await,
        None
    );
    assert_eq!(t0.elapsed(), REQUEST_TIMEOUT);
}

#[tokio::test(start_paused = true)]
async fn an_answer_a_millisecond_inside_request_timeout_is_taken() {
    let t0 = Instant::now();
    let inside = REQUEST_TIMEOUT - Duration::from_millis(1);
    let answer = async {
        tokio::time::sleep(inside).await;
        7
    };
    assert_eq!(within_request_timeout(answer).await, Some(7));
    assert_eq!(t0.elapsed(), inside);
}
