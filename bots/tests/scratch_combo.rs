use minotty_bots::combo::{ComboModel, Well};
use minotty_engine::{Piece, Ruleset, RulesetId};

#[test]
fn scratch() {
    let m = ComboModel::new(Ruleset::get(RulesetId::Standard));
    let start = m.id(Well::START).unwrap();
    println!("wells {}", m.len());
    for a in Piece::ALL {
        for b in Piece::ALL {
            let ok = m.transitions(start, a).iter().any(|t| !m.transitions(t.to, b).is_empty());
            if !ok { println!("broken {:?} {:?} first-moves {}", a, b, m.transitions(start, a).len()); }
        }
    }
    for w in 0..m.len() as u16 {
        let well = m.well(w);
        if well.height() <= 2 && well.cells() == 3 {
            let mut bad = vec![];
            for a in Piece::ALL { for b in Piece::ALL { if a==b {continue;}
                let ok = m.transitions(w, a).iter().any(|t| !m.transitions(t.to, b).is_empty());
                if !ok { bad.push(format!("{}{}", a.letter(), b.letter())); } } }
            println!("{:?} bad {}: {:?}", well.to_ascii(), bad.len(), bad);
        }
    }
}
