//! Versus helpers: players in rooms over SSH, boards read off versus screens, and placements
//! planned with the engine for a known seed (every match of a test server gets the seed in
//! `Limits::versus_seed`, and hard drops land where planned whatever the timing).

use std::time::Duration;

use anyhow::{Context, bail};
use minotty_bots::{Weights, best_plan, evaluate};
use minotty_engine::event::EventKind;
use minotty_engine::{Button, Game, GameConfig, Input, Mode};
use russh::ChannelMsg;

use crate::autoplay::{K_DOWN, K_ENTER, KITTY_REPLY, KittyKey, kitty_tap, kitty_text};
use crate::{Connection, Login, PtySession, WAIT};

/// Terminal size for versus players: two full-size boards side by side.
pub const COLS: u16 = 120;
pub const ROWS: u16 = 40;

/// A player's taps for one piece.
pub fn taps(buttons: &[Button]) -> Vec<u8> {
    buttons
        .iter()
        .flat_map(|b| match b {
            Button::Left => vec![KittyKey::Arrow('D')],
            Button::Right => vec![KittyKey::Arrow('C')],
            Button::RotateCw => vec![KittyKey::Char('x')],
            Button::RotateCcw => vec![KittyKey::Char('z')],
            // No key by default: two clockwise turns (the same at spawn on an open board).
            Button::Rotate180 => vec![KittyKey::Char('x'), KittyKey::Char('x')],
            Button::HardDrop => vec![KittyKey::Char(' ')],
            _ => vec![],
        })
        .flat_map(kitty_tap)
        .collect()
}

fn buttons(turns: u8, dx: i8) -> Vec<Button> {
    let mut b = match turns {
        0 => vec![],
        1 => vec![Button::RotateCw],
        2 => vec![Button::RotateCw, Button::RotateCw],
        _ => vec![Button::RotateCcw],
    };
    let dir = if dx < 0 { Button::Left } else { Button::Right };
    b.extend(std::iter::repeat_n(dir, dx.unsigned_abs() as usize));
    b.push(Button::HardDrop);
    b
}

/// Plays `buttons` on a fork of `game`; the fork and the lines it cleared.
fn try_plan(game: &Game, plan: &[Button]) -> (Game, u32) {
    let mut sim = game.fork();
    let mut lines = 0;
    let t = sim.now();
    for &b in plan {
        for input in [Input::Press(b), Input::Release(b)] {
            for e in sim.update(t, Some(input)) {
                if let EventKind::LineClear(c) = e.kind {
                    lines += u32::from(c.lines);
                }
            }
        }
    }
    // Past the line-clear pause, so the next piece is in play.
    sim.update(t + 400, None);
    (sim, lines)
}

/// A game of `mode` dealt `seed`, as each player's App starts it.
pub fn game(mode: Mode, seed: u32) -> Game {
    let mut g = Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    );
    g.update(0, None);
    g
}

/// Placements (one tap list per piece) that build four rows beside an empty right column
/// and clear them with an I piece: a tetris, and no other clear before it. A beam search
/// over the engine's own games; `None` when the seed does not allow one within 14 pieces.
pub fn tetris_plan(mode: Mode, seed: u32) -> Option<Vec<Vec<Button>>> {
    let weights = Weights {
        height: -100,
        lines: 0,
        holes: -5000,
        bumpiness: -150,
    };
    let mut beam: Vec<(Game, Vec<Vec<Button>>)> = vec![(game(mode, seed), Vec::new())];
    for _ in 0..14 {
        let mut next: Vec<(i64, Game, Vec<Vec<Button>>)> = Vec::new();
        for (g, plans) in &beam {
            for turns in 0..4u8 {
                for dx in -5i8..=5 {
                    let plan = buttons(turns, dx);
                    let (sim, lines) = try_plan(g, &plan);
                    if sim.is_over() {
                        continue;
                    }
                    let mut plans = plans.clone();
                    plans.push(plan);
                    if lines == 4 {
                        return Some(plans);
                    }
                    let board = sim.board();
                    let well_used = (0..40).any(|y| board.row_mask(y) & (1 << 9) != 0);
                    if lines > 0 || well_used {
                        continue;
                    }
                    let score = evaluate(board, 0, &weights);
                    next.push((score, sim, plans));
                }
            }
        }
        next.sort_by_key(|n| std::cmp::Reverse(n.0));
        next.dedup_by(|a, b| a.1.board() == b.1.board() && a.0 == b.0);
        next.truncate(40);
        beam = next.into_iter().map(|(_, g, p)| (g, p)).collect();
    }
    None
}

/// The engine bot's placements for `mode` and `seed` until the game is won (a race's 40
/// lines), at most `max` pieces.
pub fn bot_plan(mode: Mode, seed: u32, max: usize) -> Option<Vec<Vec<Button>>> {
    let mut g = game(mode, seed);
    let weights = Weights::default();
    let mut plans = Vec::new();
    while plans.len() < max {
        let plan = best_plan(&g, &weights)?.buttons;
        let (next, _) = try_plan(&g, &plan);
        plans.push(plan);
        g = next;
        if g.is_over() {
            return g.outcome().filter(|o| o.1).map(|_| plans);
        }
    }
    None
}

/// A playfield found on a screen: its left column and its 20 rows of 10 cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub x: usize,
    /// The screen row of the field's top row.
    pub top: usize,
    pub rows: Vec<Vec<bool>>,
    /// Per row: every cell was a cell (not covered by text such as "SINGLE" or "3").
    pub clean: Vec<bool>,
}

impl Field {
    /// Bottom rows that are garbage-like: exactly one empty cell.
    pub fn garbage_rows(&self) -> usize {
        self.rows
            .iter()
            .rev()
            .take_while(|r| r.iter().filter(|&&c| !c).count() == 1)
            .count()
    }

    pub fn filled(&self) -> usize {
        self.rows.iter().flatten().filter(|&&c| c).count()
    }

    /// The rows below the spawn area, when none of them is covered by text.
    pub fn stack(&self) -> Option<Vec<Vec<bool>>> {
        self.clean[3..]
            .iter()
            .all(|&c| c)
            .then(|| self.rows[3..].to_vec())
    }
}

/// Every full-size playfield on the screen (20 rows between borders 21 columns apart, at least
/// 14 of them made only of two-column cells), left to right. Cells covered by text read as
/// empty.
pub fn fields(screen: &vt100::Screen) -> Vec<Field> {
    let (rows, cols) = screen.size();
    let (rows, cols) = (rows.get(), cols.get());
    let lines: Vec<Vec<char>> = screen
        .rows(0, cols)
        .take(usize::from(rows))
        .map(|l| l.chars().collect())
        .collect();
    let cell = |s: &[char]| -> Option<bool> {
        match s {
            [' ', '·'] | [' ', '.'] | ['░', '░'] | [':', ':'] => Some(false),
            // A hard drop's trail, for a moment: empty cells.
            ['▓', '▓'] | ['▒', '▒'] | ['|', '|'] | ['!', '!'] | ['\'', '\''] => Some(false),
            ['█', '█'] | ['[', ']'] => Some(true),
            _ => None,
        }
    };
    let border = |c: char| matches!(c, '│' | '┃' | '║' | '|' | '▕');
    // A row of the field at `x`: its cells and whether all of them parsed.
    let segment = |line: &[char], x: usize| -> Option<(Vec<bool>, bool)> {
        if !line.get(x).copied().is_some_and(border)
            || !line.get(x + 21).copied().is_some_and(border)
        {
            return None;
        }
        let cells: Vec<Option<bool>> = (0..10)
            .map(|i| line.get(x + 1 + 2 * i..x + 3 + 2 * i).and_then(cell))
            .collect();
        let clean = cells.iter().all(Option::is_some);
        Some((
            cells.into_iter().map(|c| c.unwrap_or(false)).collect(),
            clean,
        ))
    };
    let mut found = Vec::new();
    for x in 0..usize::from(cols).saturating_sub(21) {
        let mut run: Vec<(Vec<bool>, bool)> = Vec::new();
        let mut top = 0;
        for (y, line) in lines.iter().enumerate() {
            match segment(line, x) {
                Some(r) => {
                    if run.is_empty() {
                        top = y;
                    }
                    run.push(r);
                }
                None if run.len() >= 20 => break,
                None => run.clear(),
            }
        }
        if run.len() >= 20 && run.iter().filter(|r| r.1).count() >= 14 {
            run.truncate(20);
            let (rows, clean) = run.into_iter().unzip();
            found.push(Field {
                x,
                top,
                rows,
                clean,
            });
        }
    }
    found
}

/// Rows of the player's incoming-garbage meter (the column left of their own playfield)
/// that are lit.
pub fn meter(screen: &vt100::Screen) -> usize {
    let Some(f) = fields(screen).into_iter().next() else {
        return 0;
    };
    let Some(col) = f.x.checked_sub(1).and_then(|c| u16::try_from(c).ok()) else {
        return 0;
    };
    (f.top..f.top + 20)
        .filter(|&y| {
            u16::try_from(y)
                .ok()
                .and_then(|y| screen.cell(y, col))
                .is_some_and(|c| !c.contents().trim().is_empty())
        })
        .count()
}

/// A player connected with a PTY (kitty keyboard protocol on: every tap is a press and a
/// release), at the main menu (or a new key's welcome screen).
pub async fn player(conn: &Connection) -> anyhow::Result<PtySession> {
    player_sized(conn, COLS, ROWS).await
}

/// [`player`] with a terminal of `cols` x `rows`.
pub async fn player_sized(conn: &Connection, cols: u16, rows: u16) -> anyhow::Result<PtySession> {
    let mut s = conn.play(cols, rows).await?;
    s.send(KITTY_REPLY).await?;
    s.wait_until("the main menu", WAIT, |s| {
        let t = s.contents();
        t.contains("Leaderboards") || t.contains(crate::pty::WELCOME)
    })
    .await?;
    Ok(s)
}

/// On a new key's welcome screen: registers the suggested name (the SSH user name).
pub async fn register(s: &mut PtySession) -> anyhow::Result<()> {
    s.wait_for_text(crate::pty::WELCOME, WAIT).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("Leaderboards", WAIT).await
}

/// Connects a guest (keyboard-interactive) and opens the game.
pub async fn guest(
    addr: std::net::SocketAddr,
    name: &str,
) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(addr, name, Login::Guest).await?;
    let s = player(&conn).await?;
    Ok((conn, s))
}

/// Connects with a new key and registers `name` on the welcome screen.
pub async fn registered(
    addr: std::net::SocketAddr,
    name: &str,
) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(addr, name, Login::Key).await?;
    let mut s = player(&conn).await?;
    register(&mut s).await?;
    Ok((conn, s))
}

/// A ranked match: ann registers on `a`, bob on `b` (one server, or two instances); ann queues
/// (and is told her rating), then bob; the queue (its leader's) pairs them and both play.
pub async fn ranked_pair(
    a: std::net::SocketAddr,
    b: std::net::SocketAddr,
) -> anyhow::Result<((Connection, PtySession), (Connection, PtySession))> {
    let (ca, mut ann) = registered(a, "ann").await.context("ann on a")?;
    let (cb, mut bob) = registered(b, "bob").await.context("bob on b")?;
    versus_item(&mut ann, 0).await.context("ann queues")?;
    ann.wait_for_text("1500", WAIT)
        .await
        .context("ann queued")?;
    versus_item(&mut bob, 0).await.context("bob queues")?;
    wait_for_play(&mut ann).await.context("ann plays")?;
    wait_for_play(&mut bob).await.context("bob plays")?;
    Ok(((ca, ann), (cb, bob)))
}

/// From the main menu to the versus menu, then the `item`th entry (0 quick match, 1 create,
/// 2 join, 3 watch).
pub async fn versus_item(s: &mut PtySession, item: usize) -> anyhow::Result<()> {
    s.send(&kitty_tap(K_DOWN)).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("Quick match", WAIT).await?;
    for _ in 0..item {
        s.send(&kitty_tap(K_DOWN)).await?;
    }
    s.send(&kitty_tap(K_ENTER)).await?;
    Ok(())
}

/// Characters in a room code.
pub const CODE_LEN: usize = 6;

/// The room code shown in a lobby ("... join K7PQ3M").
pub fn room_code(text: &str) -> Option<String> {
    text.match_indices("join ").find_map(|(at, _)| {
        let rest: Vec<char> = text[at + 5..].chars().take(CODE_LEN + 1).collect();
        let code: String = rest.iter().take(CODE_LEN).collect();
        let valid = code.len() == CODE_LEN
            && code
                .chars()
                .all(|c| c.is_ascii_uppercase() || ('2'..='9').contains(&c))
            && rest
                .get(CODE_LEN)
                .is_none_or(|c| !c.is_ascii_alphanumeric());
        valid.then_some(code)
    })
}

/// Pumps every session for `duration` at once (each in its own task) and hands them back, in
/// order.
pub async fn pump_all(sessions: Vec<PtySession>, duration: Duration) -> Vec<PtySession> {
    let tasks: Vec<_> = sessions
        .into_iter()
        .map(|mut s| {
            tokio::spawn(async move {
                s.pump_for(duration).await;
                s
            })
        })
        .collect();
    let mut out = Vec::with_capacity(tasks.len());
    for t in tasks {
        out.push(t.await.expect("a pumping task"));
    }
    out
}

/// On the join screen: clears the field, types `code` and presses Enter.
pub async fn type_code(s: &mut PtySession, code: &str) -> anyhow::Result<()> {
    let mut keys = Vec::new();
    for _ in 0..8 {
        keys.extend(kitty_tap(crate::autoplay::K_BACKSPACE));
    }
    keys.extend(kitty_text(code));
    keys.extend(kitty_tap(K_ENTER));
    s.send(&keys).await
}

/// Creates a room (a battle, or a race) for `players` and waits for the lobby; returns the
/// code.
pub async fn create_room(s: &mut PtySession, race: bool, players: u8) -> anyhow::Result<String> {
    versus_item(s, 1).await?;
    s.wait_for_text("CREATE ROOM", WAIT).await?;
    if race {
        s.send(&kitty_tap(KittyKey::Arrow('C'))).await?;
        s.wait_for_text("race", WAIT).await?;
    }
    s.send(&kitty_tap(K_DOWN)).await?;
    for _ in 2..players {
        s.send(&kitty_tap(KittyKey::Arrow('C'))).await?;
    }
    s.pump_for(Duration::from_millis(100)).await;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_until("the lobby", WAIT, |s| room_code(&s.contents()).is_some())
        .await?;
    room_code(&s.contents()).context("room code")
}

/// Joins a room from the menu by typing its code (lower case, as a friend might).
pub async fn join_room(s: &mut PtySession, code: &str, spectate: bool) -> anyhow::Result<()> {
    versus_item(s, if spectate { 3 } else { 2 }).await?;
    s.pump_for(Duration::from_millis(100)).await;
    s.send(&kitty_text(&code.to_lowercase())).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text(&format!("ROOM {code}"), WAIT).await
}

/// Opens a game with `ssh -t HOST join CODE`.
pub async fn exec_join(conn: &Connection, code: &str) -> anyhow::Result<PtySession> {
    let channel = conn.handle.channel_open_session().await?;
    channel
        .request_pty(false, "xterm-256color", COLS.into(), ROWS.into(), 0, 0, &[])
        .await?;
    channel.exec(false, format!("join {code}")).await?;
    let mut s = PtySession::new(channel, COLS, ROWS);
    s.send(KITTY_REPLY).await?;
    s.wait_for_text(&format!("ROOM {code}"), WAIT).await?;
    Ok(s)
}

/// Runs `command` (e.g. `join CODE`) as an exec request with a PTY, like `ssh -t`, without
/// waiting for anything on the screen.
pub async fn exec_pty(conn: &Connection, command: &str) -> anyhow::Result<PtySession> {
    let channel = conn.handle.channel_open_session().await?;
    channel
        .request_pty(false, "xterm-256color", COLS.into(), ROWS.into(), 0, 0, &[])
        .await?;
    channel.exec(false, command).await?;
    let mut s = PtySession::new(channel, COLS, ROWS);
    s.send(KITTY_REPLY).await?;
    Ok(s)
}

/// The game clock shown beside the player's board ("TIME  0:02.0").
fn game_clock(text: &str) -> Option<String> {
    let at = text.find("TIME ")?;
    text[at + 5..].split_whitespace().next().map(str::to_owned)
}

/// Waits until the match has started: the countdown is over (the game clock runs) and a piece
/// is in play on the player's own playfield.
pub async fn wait_for_play(s: &mut PtySession) -> anyhow::Result<()> {
    s.wait_until("the match to start", Duration::from_secs(15), |s| {
        fields(s).first().is_some_and(|f| f.filled() == 4)
            && game_clock(&s.contents()).is_some_and(|t| t != "0:00.0")
    })
    .await
}

/// The player's own stack: their playfield below the spawn rows (`None` while text covers it).
fn stack(s: &PtySession) -> Option<Vec<Vec<bool>>> {
    fields(s.screen()).first().and_then(Field::stack)
}

/// A seed whose first pieces allow a clean tetris in a battle room without a limit, and the
/// placements that make it.
pub fn tetris_seed() -> (u32, Vec<Vec<Button>>) {
    // What a battle room without a limit deals (`minotty_engine::versus::RoomSettings::mode`).
    let mode = Mode::custom(0, true, None);
    (1..500)
        .find_map(|seed| tetris_plan(mode.clone(), seed).map(|p| (seed, p)))
        .expect("a seed with a tetris")
}

/// Hard-drops the falling piece (Space).
pub async fn drop_piece(s: &mut PtySession) {
    s.send(&kitty_tap(KittyKey::Char(' '))).await.expect("send");
}

/// In a two-seat room `host` created: `guest` joins by `code` (from wherever it is connected),
/// readies up, the host starts, and both wait until they play.
pub async fn start_match(
    host: &mut PtySession,
    guest: &mut PtySession,
    code: &str,
) -> anyhow::Result<()> {
    join_room(guest, code, false).await?;
    guest.send(&kitty_tap(KittyKey::Char('r'))).await?;
    host.wait_for_text("READY", WAIT).await?;
    host.send(&kitty_tap(K_ENTER)).await?;
    wait_for_play(host).await?;
    wait_for_play(guest).await
}

/// Waits until the player's own stats show `lines` sent.
pub async fn wait_for_sent(s: &mut PtySession, lines: u32) -> anyhow::Result<()> {
    let want = lines.to_string();
    s.wait_until("the lines sent", WAIT, |s| {
        let text = s.contents();
        text.find("SENT ")
            .and_then(|at| text[at + 5..].split_whitespace().next())
            == Some(want.as_str())
    })
    .await
}

/// Plays `plans` one piece at a time: the taps, then wait until the stack changed (the piece
/// locked) and the next piece shows at the top.
pub async fn play(s: &mut PtySession, plans: &[Vec<Button>]) -> anyhow::Result<()> {
    for (i, plan) in plans.iter().enumerate() {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let before = loop {
            if let Some(b) = stack(s) {
                break b;
            }
            if tokio::time::Instant::now() >= deadline {
                bail!(
                    "no readable board before piece {i}; screen:\n{}",
                    s.contents()
                );
            }
            s.pump_for(Duration::from_millis(10)).await;
        };
        s.send(&taps(plan)).await?;
        loop {
            s.pump_for(Duration::from_millis(10)).await;
            let locked = stack(s).is_some_and(|now| now != before);
            let next = fields(s.screen())
                .first()
                .is_some_and(|f| f.rows.iter().take(3).flatten().filter(|&&c| c).count() >= 2);
            if locked && (next || i + 1 == plans.len()) {
                break;
            }
            if tokio::time::Instant::now() >= deadline {
                bail!("piece {i} did not lock; screen:\n{}", s.contents());
            }
        }
    }
    Ok(())
}

/// Reads whatever the channel says until it closes (for exec replies).
pub async fn exec_output(conn: &Connection, command: &str) -> anyhow::Result<String> {
    let mut channel = conn.handle.channel_open_session().await?;
    channel.exec(true, command).await?;
    let mut out = Vec::new();
    while let Ok(Some(msg)) = tokio::time::timeout(WAIT, channel.wait()).await {
        match msg {
            ChannelMsg::Data { data } | ChannelMsg::ExtendedData { data, .. } => {
                out.extend_from_slice(&data);
            }
            ChannelMsg::Close | ChannelMsg::Eof => break,
            _ => {}
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}
