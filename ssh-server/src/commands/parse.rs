//! The exec commands that open a game rather than print a reply: `watch`/`tv`, `doctor`,
//! `join CODE` and `watch CODE`, read from the command line the client sent.

/// `watch` alone (or `tv`): the Live screen's TV, with a terminal or streamed without one.
pub(super) fn is_watch_tv(data: &[u8]) -> bool {
    let line = String::from_utf8_lossy(data);
    let mut words = line.split_whitespace();
    matches!(words.next(), Some("watch" | "tv")) && words.next().is_none()
}

/// Whether the command is `doctor` (the terminal doctor).
pub(super) fn is_doctor_command(data: &[u8]) -> bool {
    let line = String::from_utf8_lossy(data);
    let mut words = line.split_whitespace();
    words.next() == Some("doctor") && words.next().is_none()
}

/// `join CODE` (play in the room) or `watch CODE` (spectate): the request the game starts with,
/// or why the command is wrong; `None` for other commands.
pub(super) fn versus_command(data: &[u8]) -> Option<Result<minotty_ui::online::Request, String>> {
    let line = String::from_utf8_lossy(data);
    let mut words = line.split_whitespace();
    let spectate = match words.next()? {
        "join" => false,
        "watch" | "spectate" => true,
        _ => return None,
    };
    Some(match (words.next(), words.next()) {
        (Some(code), None) => Ok(minotty_ui::online::Request::JoinRoom {
            code: code.to_owned(),
            spectate,
        }),
        (None, _) if spectate => return None,
        _ => Err(
            "minotty: usage: join CODE (or watch CODE), e.g. \"ssh -t -p PORT HOST join K7PQ3M\"\n"
                .into(),
        ),
    })
}
