//! What the database the instances share holds, read by a test straight from it.

use sqlx::Connection as _;

/// Rows in `table` of the database at `db`.
pub async fn count(db: &str, table: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(db)
        .await
        .expect("the database");
    sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(&mut conn)
        .await
        .expect("counts")
}
