//! `server_meta`: the creation time is kept from the first start, the last start is replaced.

use minotty_store::Store;
use sqlx::AnyPool;

use crate::support::NOW;

both!(starts_are_recorded_and_the_creation_time_kept);
async fn starts_are_recorded_and_the_creation_time_kept(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    assert_eq!(store.meta("created_at").await.expect("reads"), None);
    store.record_start("0.1.0", NOW).await.expect("records");
    assert_eq!(
        store.meta("created_at").await.expect("reads"),
        Some(NOW.to_string())
    );
    assert_eq!(
        store.meta("last_start").await.expect("reads").as_deref(),
        Some("0.1.0")
    );
    store
        .record_start("0.2.0", NOW + 1000)
        .await
        .expect("records");
    assert_eq!(
        store.meta("created_at").await.expect("reads"),
        Some(NOW.to_string()),
        "the first start's time stays"
    );
    assert_eq!(
        store.meta("last_start").await.expect("reads").as_deref(),
        Some("0.2.0")
    );
    assert_eq!(store.meta("missing").await.expect("reads"), None);
}

#[tokio::test]
async fn a_database_file_keeps_its_data_when_reopened() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let store = Store::open(&url).await.expect("opens");
    store.record_start("0.1.0", NOW).await.expect("records");
    store.close().await;
    let again = Store::open(&url).await.expect("reopens");
    assert_eq!(
        again.meta("created_at").await.expect("reads"),
        Some(NOW.to_string())
    );
    assert!(Store::open("postgres://nowhere").await.is_err());
}
