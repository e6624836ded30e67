//! Reading rows back: a player's latest rows by one statement, and an integer column as the
//! engine type it was stored from.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{PlayerId, Store, StoreError, from_db};

impl Store {
    /// The rows `sql` selects for `player` (bound as `$1`) up to `limit` (bound as `$2`), each
    /// read by `read`, in the statement's order.
    pub(crate) async fn player_rows<T>(
        &self,
        sql: &'static str,
        player: PlayerId,
        limit: u32,
        read: impl Fn(&AnyRow) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let rows = sqlx::query(sql)
            .bind(player.0)
            .bind(i64::from(limit))
            .fetch_all(&self.reader)
            .await?;
        rows.iter().map(read).collect()
    }
}

/// The integer column `name` of `row` as `T`; a value out of `T`'s range is corrupt.
pub(crate) fn int<T: TryFrom<i64>>(row: &AnyRow, name: &str) -> Result<T, StoreError> {
    from_db(row.try_get::<i64, _>(name)?, name)
}
