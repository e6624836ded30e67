//! The store against real throwaway databases: `both!(test)` runs each test on a SQLite file of
//! its own and on a PostgreSQL database of its own (`store_db`), both migrated by the store's
//! own migrators. Every query of `minotty_store` runs in at least one of these tests,
//! on both databases.

#[macro_use]
extern crate minotty_store;

use minotty_store::testing as store_db;

mod accounts;
mod charts;
mod classic_survival;
mod descent;
mod games;
mod instances;
mod integrity;
mod leaderboard;
mod limits;
mod meta;
mod nothing;
mod puzzle;
mod quota;
mod rulesets;
mod snapshots;
mod support;
mod versions;
mod writer;
