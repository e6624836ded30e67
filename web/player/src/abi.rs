//! The functions the page's script calls (`replay.js`). Memory crosses only as buffers this
//! module owns: the script asks for an input buffer, writes the replay's bytes into it, and
//! reads a frame (or the board's text) where the returned pointer says, before its next call.
//! A `*mut`/`*const` here is an address in the module's memory handed to the script, never
//! dereferenced by Rust.
#![allow(unsafe_code)] // `#[unsafe(no_mangle)]` only: there is no unsafe block.

use std::cell::RefCell;

use super::{MAX_REPLAY_BYTES, Viewer, frame};

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static VIEWER: RefCell<Option<Viewer>> = const { RefCell::new(None) };
    static FRAME: RefCell<[u32; frame::WORDS]> = const { RefCell::new([0; frame::WORDS]) };
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Opening went well.
pub const OPENED: i32 = 0;
/// The bytes are not a replay.
pub const MALFORMED: i32 = 1;
/// A replay this engine cannot play (a later ruleset version, too many inputs).
pub const UNPLAYABLE: i32 = 2;

/// A buffer of `len` bytes for the replay, or null when no replay is that long.
#[unsafe(no_mangle)]
pub extern "C" fn mt_buffer(len: u32) -> *mut u8 {
    let len = len as usize;
    if len > MAX_REPLAY_BYTES {
        return std::ptr::null_mut();
    }
    INPUT.with_borrow_mut(|input| {
        input.clear();
        input.resize(len, 0);
        input.as_mut_ptr()
    })
}

/// Opens the replay written into the buffer: [`OPENED`], [`MALFORMED`] or [`UNPLAYABLE`].
#[unsafe(no_mangle)]
pub extern "C" fn mt_open() -> i32 {
    let bytes = INPUT.with_borrow_mut(std::mem::take);
    let (viewer, code) = match Viewer::open(&bytes) {
        Ok(v) => (Some(v), OPENED),
        Err(minotty_engine::ReplayError::Malformed(_)) => (None, MALFORMED),
        Err(_) => (None, UNPLAYABLE),
    };
    VIEWER.set(viewer);
    code
}

/// The open replay's length in ms (0 when none is open).
#[unsafe(no_mangle)]
pub extern "C" fn mt_end() -> u32 {
    VIEWER.with_borrow(|v| v.as_ref().map_or(0, |v| frame::ms(v.end())))
}

/// Moves the open replay to `t` ms and returns its frame's [`frame::WORDS`] words (all zero
/// when none is open).
#[unsafe(no_mangle)]
pub extern "C" fn mt_seek(t: u32) -> *const u32 {
    let words = VIEWER.with_borrow_mut(|v| {
        v.as_mut().map(|v| {
            v.seek(t.into());
            v.frame().0
        })
    });
    FRAME.with_borrow_mut(|f| {
        *f = words.unwrap_or([0; frame::WORDS]);
        f.as_ptr()
    })
}

/// The board's text now ([`Viewer::board_text`]): its bytes start here, [`mt_text_len`] long.
#[unsafe(no_mangle)]
pub extern "C" fn mt_text() -> *const u8 {
    let text = VIEWER.with_borrow(|v| v.as_ref().map(Viewer::board_text).unwrap_or_default());
    TEXT.with_borrow_mut(|t| {
        *t = text;
        t.as_ptr()
    })
}

/// The length of the text [`mt_text`] last wrote.
#[unsafe(no_mangle)]
pub extern "C" fn mt_text_len() -> u32 {
    TEXT.with_borrow(|t| t.len() as u32)
}

/// The bytes a script would write into [`mt_buffer`]'s buffer.
#[cfg(test)]
pub(crate) fn fill_for_test(bytes: &[u8]) {
    INPUT.with_borrow_mut(|input| *input = bytes.to_vec());
}

/// The text [`mt_text`] wrote, as the script would decode it.
#[cfg(test)]
pub(crate) fn text_for_test() -> String {
    assert_eq!(mt_text_len() as usize, TEXT.with_borrow(String::len));
    TEXT.with_borrow(String::clone)
}
