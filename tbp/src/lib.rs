//! # minotty-tbp
//!
//! The Tetris Bot Protocol (TBP, `tetris-bot-protocol/tbp-spec`, its "mvp" messages) for
//! minotty: the messages as serde types ([`msg`]), the conversions between TBP's frame and the
//! engine's ([`frame`]), the game state both ends track ([`state`]), placements turned into
//! buttons under the engine's rules ([`path`]), and minotty's own TBP bot ([`brain`], [`bot`],
//! the `minotty-bot` binary). The server's frontend, which runs any TBP bot as a versus
//! opponent, is `frontend`, behind the feature of that name; the bot arena (`minotty arena`,
//! built-in levels and TBP bots in bot-vs-bot matches) is `arena`, behind the feature `arena`.
//!
//! Nothing here does IO but [`bot::run`] on the streams it is given, the frontend (child
//! processes, tokio) and the arena (threads, the wall clock, the frontend's bots).

#[cfg(feature = "arena")]
pub mod arena;
pub mod bot;
pub mod brain;
pub mod frame;
#[cfg(feature = "frontend")]
pub mod frontend;
pub mod msg;
pub mod path;
pub mod state;

pub use msg::{BotMessage, FrontendMessage, Location, Move, Orientation, Start, TbpPiece, TbpSpin};
pub use state::TbpState;
