//! Finds the playfield on a screen: rows of two-column cells (" ·" empty, "██" block, "░░"
//! ghost; "[]", " .", "::" in ASCII graphics; a hard drop's fading trail counts as empty)
//! between two vertical border characters. A board the game drew larger (terminals with room
//! get cells of k columns by k half rows) is read back cell by cell into that same form.

/// What was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Screen rows of the playfield, top to bottom.
    pub rows: Vec<u16>,
    /// The playfield's text per row (between the borders).
    pub lines: Vec<String>,
    /// Whether a falling piece or its ghost is visible.
    pub has_piece: bool,
}

const EMPTY: [&str; 2] = [" ·", " ."];
const BLOCK: [&str; 2] = ["██", "[]"];
const GHOST: [&str; 2] = ["░░", "::"];
/// A hard drop's trail, for a moment after the drop.
const TRAIL: [&str; 6] = ["▓▓", "▒▒", "░░", "||", "!!", "''"];
const VERTICAL: [char; 5] = ['│', '┃', '║', '|', '▕'];

impl Board {
    /// The bottom row's text.
    pub fn bottom(&self) -> &str {
        self.lines.last().map_or("", String::as_str)
    }

    /// Whether the bottom row has a locked or falling block in it.
    pub fn bottom_has_block(&self) -> bool {
        BLOCK.iter().any(|b| self.bottom().contains(b))
    }
}

/// The 10 two-column cells of a board row: the longest run of cells between vertical borders.
fn board_segment(line: &[char]) -> Option<(usize, String)> {
    let mut best: Option<(usize, String)> = None;
    for (start, &c) in line.iter().enumerate() {
        if !VERTICAL.contains(&c) {
            continue;
        }
        let inner: String = line[start + 1..]
            .iter()
            .take_while(|c| !VERTICAL.contains(c))
            .collect();
        let cells: Vec<String> = inner
            .chars()
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|c| c.iter().collect())
            .collect();
        let is_cell = |s: &String| {
            EMPTY.contains(&s.as_str())
                || BLOCK.contains(&s.as_str())
                || GHOST.contains(&s.as_str())
                || TRAIL.contains(&s.as_str())
        };
        if cells.len() == 10 && cells.iter().all(is_cell) {
            best = Some((start, inner));
            break;
        }
    }
    best
}

/// Finds the playfield: the longest run of consecutive rows with a 10-cell segment in the
/// same column.
pub fn find(screen: &vt100::Screen) -> Option<Board> {
    find_one(screen).or_else(|| find_scaled(screen))
}

/// The characters on screen row `y` (one per column).
fn row_chars(screen: &vt100::Screen, y: u16, cols: u16) -> Vec<char> {
    (0..cols)
        .map(|x| {
            screen
                .cell(y, x)
                .and_then(|c| c.contents().chars().next())
                .unwrap_or(' ')
        })
        .collect()
}

/// A board drawn at a larger scale: its frame's top edge is 10k columns wide (k from 3 to
/// 6), its cells k columns by k half rows. Each cell is read on a row that is wholly its
/// own: for even k its last row (the glyph stretched, "[[]]" for "[]"; an empty cell's dot at
/// its bottom right), for odd k (half blocks) the row holding its middle half row. A cell
/// that reads as none of these (a countdown or a dialog over the board) means no board.
fn find_scaled(screen: &vt100::Screen) -> Option<Board> {
    let (rows, cols) = screen.size();
    let cols = cols.get();
    for y in 0..rows.get() {
        let line = row_chars(screen, y, cols);
        for (x, &c) in line.iter().enumerate() {
            let (fill, close) = match c {
                '┌' => ('─', '┐'),
                '+' => ('-', '+'),
                _ => continue,
            };
            let run = line[x + 1..].iter().take_while(|&&c| c == fill).count();
            if line.get(x + 1 + run) != Some(&close) || run % 10 != 0 || !(30..=60).contains(&run) {
                continue;
            }
            return read_scaled(screen, x + 1, usize::from(y) + 1, run / 10);
        }
    }
    None
}

/// The 20 x 10 cells of a board at scale `k` whose cells start at (`left`, `top`).
fn read_scaled(screen: &vt100::Screen, left: usize, top: usize, k: usize) -> Option<Board> {
    let (_, cols) = screen.size();
    let mut board_rows = Vec::new();
    let mut lines = Vec::new();
    for cy in 0..20 {
        let r = if k.is_multiple_of(2) {
            top + cy * (k / 2) + k / 2 - 1
        } else {
            top + (cy * k + k / 2) / 2
        };
        let r = u16::try_from(r).ok()?;
        let chars = row_chars(screen, r, cols.get());
        let mut text = String::new();
        for cx in 0..10 {
            let cell = chars.get(left + cx * k..left + cx * k + k)?;
            text.push_str(scaled_cell(cell)?);
        }
        board_rows.push(r);
        lines.push(text);
    }
    let has_piece = lines
        .iter()
        .any(|l| BLOCK.iter().chain(GHOST.iter()).any(|p| l.contains(p)));
    Some(Board {
        rows: board_rows,
        lines,
        has_piece,
    })
}

/// One cell's row of a scaled board (`k` characters) as its 1x glyph: a two-character glyph
/// stretched (each character k / 2 times), or one character all across (half blocks), or an
/// empty cell (blanks and one dot).
fn scaled_cell(cell: &[char]) -> Option<&'static str> {
    let k = cell.len();
    let (first, second) = cell.split_at(k / 2);
    let all = |part: &[char], c: char| part.iter().all(|&x| x == c);
    let stretched = |a: char, b: char| k.is_multiple_of(2) && all(first, a) && all(second, b);
    let solid = |c: char| all(cell, c) || stretched(c, c);
    if solid('█') {
        return Some("██");
    }
    if stretched('[', ']') {
        return Some("[]");
    }
    if solid('░') {
        return Some("░░");
    }
    if stretched(':', ':') {
        return Some("::");
    }
    // A hard drop's trail, for a moment: empty.
    if ['▓', '▒', '|', '!', '\''].into_iter().any(solid) {
        return Some(" ·");
    }
    let dots = cell.iter().filter(|&&c| c == '·' || c == '.').count();
    let blanks = cell.iter().filter(|&&c| c == ' ').count();
    (dots == 1 && blanks + 1 == k).then_some(" ·")
}

/// The board at 1x: cells of two columns, one row.
fn find_one(screen: &vt100::Screen) -> Option<Board> {
    let (_, cols) = screen.size();
    let mut run: Vec<(u16, usize, String)> = Vec::new();
    let mut best: Vec<(u16, usize, String)> = Vec::new();
    for (y, line) in screen.rows(0, cols.get()).enumerate() {
        let chars: Vec<char> = line.chars().collect();
        match board_segment(&chars) {
            Some((x, seg)) if run.last().is_none_or(|(_, rx, _)| *rx == x) => {
                run.push((u16::try_from(y).unwrap_or(u16::MAX), x, seg));
            }
            Some((x, seg)) => run = vec![(u16::try_from(y).unwrap_or(u16::MAX), x, seg)],
            None => run.clear(),
        }
        if run.len() > best.len() {
            best = run.clone();
        }
    }
    if best.len() < 10 {
        return None;
    }
    let lines: Vec<String> = best.iter().map(|(_, _, s)| s.clone()).collect();
    let has_piece = lines
        .iter()
        .any(|l| BLOCK.iter().chain(GHOST.iter()).any(|p| l.contains(p)));
    Some(Board {
        rows: best.iter().map(|(y, _, _)| *y).collect(),
        lines,
        has_piece,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A screen of `cols` x `rows` showing `text`.
    fn screen(cols: u16, rows: u16, text: &str) -> vt100::Parser {
        let nz = |n: u16| std::num::NonZeroU16::new(n).expect("not zero");
        let mut p = vt100::Parser::new(nz(rows), nz(cols), 0);
        p.process(text.replace('\n', "\r\n").as_bytes());
        p
    }

    #[test]
    fn a_board_drawn_at_one_and_a_half_times_reads_as_at_one() {
        // Cells of three columns by a row and a half: an I at the bottom, an O ghost above.
        let mut rows = vec![format!("┌{}┐", "─".repeat(30))];
        for r in 0..30 {
            let body = match r {
                // Cell row 19 (halves 57..59): rows 28 (halves 56, 57) and 29 (58, 59).
                28 => format!("{}{}{}", " ".repeat(9), "▄".repeat(12), " ".repeat(9)),
                29 => format!("{}{}{}", " · ".repeat(3), "█".repeat(12), " · ".repeat(3)),
                // Cell rows 17 and 18 (halves 51..56) have their middles on rows 26 and 27.
                26 | 27 => format!("{}{}{}", " · ".repeat(4), "░".repeat(6), " · ".repeat(4)),
                _ => " ·  ·  ·  ·  ·  ·  ·  ·  ·  · ".to_string(),
            };
            rows.push(format!("│{body}│"));
        }
        rows.push(format!("└{}┘", "─".repeat(30)));
        let p = screen(40, 34, &rows.join("\n"));
        let b = find(p.screen()).expect("found");
        assert_eq!(b.lines.len(), 20);
        assert_eq!(b.bottom(), " · · ·████████ · · ·");
        assert_eq!(b.lines[18], " · · · ·░░░░ · · · ·");
        assert!(b.bottom_has_block() && b.has_piece);
    }

    #[test]
    fn a_board_drawn_at_twice_reads_as_at_one() {
        let mut rows = vec![format!("+{}+", "-".repeat(40))];
        for r in 0..40 {
            let body = match r {
                38 => format!("{}{}{}", " ".repeat(12), "[[]]".repeat(4), " ".repeat(12)),
                39 => format!(
                    "{}{}{}",
                    "   .".repeat(3),
                    "[[]]".repeat(4),
                    "   .".repeat(3)
                ),
                _ if r % 2 == 1 => "   .".repeat(10),
                _ => " ".repeat(40),
            };
            rows.push(format!("|{body}|"));
        }
        let p = screen(44, 44, &rows.join("\n"));
        let b = find(p.screen()).expect("found");
        assert_eq!(b.bottom(), " · · ·[][][][] · · ·");
        assert_eq!(b.lines[0], " · · · · · · · · · ·");
        assert!(b.bottom_has_block());
    }

    #[test]
    fn a_countdown_over_a_scaled_board_hides_it() {
        let mut rows = vec![format!("┌{}┐", "─".repeat(30))];
        for r in 0..30 {
            let body = if (10..17).contains(&r) {
                format!("{}{}{}", " ·  ·  · ", " ".repeat(12), " ·  ·  · ·  ")
            } else {
                " ·  ·  ·  ·  ·  ·  ·  ·  ·  · ".to_string()
            };
            rows.push(format!("│{body}│"));
        }
        let p = screen(40, 34, &rows.join("\n"));
        assert_eq!(find(p.screen()), None);
    }
}
