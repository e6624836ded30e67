//! A room's settings in words, as the results and the match replay viewer show what a match
//! was played under: every setting that is not the default's, one (name, value) row each.

use super::series::SeriesSettings;
use super::settings::{RoomLimit, RoomSettings};

/// A stock in words: "no extra lives", "1 extra life", "3 extra lives".
pub fn stock_text(stock: u8) -> String {
    match stock {
        0 => "no extra lives".to_owned(),
        1 => "1 extra life".to_owned(),
        n => format!("{n} extra lives"),
    }
}

impl RoomSettings {
    /// The limit, the series and stock, the game settings and the garbage settings that
    /// differ from a room's defaults (the kind and the seats are the match's own facts, shown
    /// beside it), in the settings screen's order.
    pub fn describe_changed(&self) -> Vec<(&'static str, String)> {
        let mut rows = Vec::new();
        match self.limit() {
            RoomLimit::None => {}
            RoomLimit::Lines(n) => rows.push(("Limit", format!("first to {n} lines"))),
            RoomLimit::Seconds(t) => rows.push(("Limit", format!("{}:{:02}", t / 60, t % 60))),
        }
        let series = self.series();
        let plain = SeriesSettings::default();
        if series.first_to() != plain.first_to() {
            rows.push(("First to", series.first_to().to_string()));
        }
        if series.win_by() != plain.win_by() {
            rows.push(("Win by", series.win_by().to_string()));
        }
        if series.stock() != plain.stock() {
            rows.push(("Stock", stock_text(series.stock())));
        }
        rows.extend(self.game().describe_changed());
        rows.extend(self.garbage().describe_changed());
        rows
    }

    /// [`RoomSettings::describe_changed`] in one line of at most `width` characters ("Stock
    /// 2 extra lives, Ruleset tetrs, ..."; "default settings" when nothing differs), cut at a
    /// row with "..." when they do not fit.
    pub fn changed_line(&self, width: usize) -> String {
        let rows = self.describe_changed();
        if rows.is_empty() {
            return "default settings".to_owned();
        }
        let mut out = String::new();
        for (i, (name, value)) in rows.iter().enumerate() {
            let part = format!("{}{name} {value}", if i == 0 { "" } else { ", " });
            if out.len() + part.len() + if i + 1 < rows.len() { 5 } else { 0 } > width {
                out.push_str(", ...");
                break;
            }
            out.push_str(&part);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RulesetId;
    use crate::versus::{GameDraft, GameSettings, GarbageDraft, GarbageSettings, MatchKind};

    #[test]
    fn only_what_differs_is_described() {
        let plain = RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None);
        assert!(plain.describe_changed().is_empty());
        assert_eq!(plain.changed_line(60), "default settings");
        let s = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::Seconds(90))
            .with_series(SeriesSettings::new(3, 2, 1))
            .with_game(GameSettings::new(GameDraft {
                ruleset: RulesetId::Tetrs,
                ..GameDraft::DEFAULT
            }))
            .with_garbage(GarbageSettings::new(GarbageDraft {
                messiness: 30,
                ..GarbageDraft::default()
            }));
        let names: Vec<&str> = s.describe_changed().iter().map(|r| r.0).collect();
        assert_eq!(
            names,
            [
                "Limit",
                "First to",
                "Win by",
                "Stock",
                "Ruleset",
                "Messiness"
            ]
        );
        assert_eq!(
            s.changed_line(200),
            "Limit 1:30, First to 3, Win by 2, Stock 1 extra life, Ruleset tetrs, Messiness 30%"
        );
        let short = s.changed_line(40);
        assert!(short.len() <= 40 && short.ends_with(", ..."), "{short}");
    }
}
