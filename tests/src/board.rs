//! Finds the playfield on a screen: rows of two-column cells (" ·" empty, "██" block, "░░"
//! ghost; "[]", " .", "::" in ASCII graphics) between two vertical border characters.

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
