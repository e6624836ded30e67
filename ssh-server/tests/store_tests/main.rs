//! The store against real throwaway SQLite databases (`#[sqlx::test]` gives each test its own
//! file, migrated by the store's own migrator). Every query of `minotty_server::store` runs in
//! at least one of these tests.

mod accounts;
mod charts;
mod descent;
mod games;
mod integrity;
mod leaderboard;
mod limits;
mod meta;
mod puzzle;
mod rulesets;
mod snapshots;
mod support;
mod writer;
