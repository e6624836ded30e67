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

/// `player`'s ten latest games in `store`, read again every 50 ms (for at most 10 s) until
/// there is one: the writer stores a finished game a moment after the player sees it end.
pub async fn games_once_stored(
    store: &minotty_store::Store,
    player: minotty_domain::PlayerId,
) -> anyhow::Result<Vec<minotty_store::GameRecord>> {
    let mut games = Vec::new();
    for _ in 0..200 {
        games = store.recent_games(player, 10).await?;
        if !games.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    Ok(games)
}
