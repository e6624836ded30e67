use std::collections::HashMap;
use std::time::Duration;

use super::*;

/// One sample of the text format: name, labels, value.
type Sample = (String, Vec<(String, String)>, f64);

/// A strict reader of the Prometheus text exposition format 0.0.4 as this server writes it:
/// every line a `# HELP`, a `# TYPE` or a sample; every sample's family declared by a TYPE
/// line before it (histograms as `_bucket`, `_sum`, `_count`); names and label names of the
/// allowed characters, label values quoted, values numbers. Returns the types and samples.
fn parse(text: &str) -> Result<(HashMap<String, String>, Vec<Sample>), String> {
    fn name_ok(s: &str) -> bool {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    }
    if !text.ends_with('\n') {
        return Err("the text must end with a line feed".into());
    }
    let mut types = HashMap::new();
    let mut samples = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').ok_or(line)?;
            if !name_ok(name) || !["counter", "gauge", "histogram"].contains(&kind) {
                return Err(format!("bad TYPE line {line:?}"));
            }
            if types.insert(name.to_owned(), kind.to_owned()).is_some() {
                return Err(format!("{name} declared twice"));
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').ok_or(line)?;
            if !name_ok(name) || help.is_empty() || help.contains('\\') {
                return Err(format!("bad HELP line {line:?}"));
            }
            continue;
        }
        let (series, value) = line.rsplit_once(' ').ok_or(line)?;
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            v => v.parse().map_err(|_| format!("bad value in {line:?}"))?,
        };
        let (name, labels) = match series.split_once('{') {
            None => (series, Vec::new()),
            Some((name, rest)) => {
                let body = rest.strip_suffix('}').ok_or(line)?;
                let mut labels = Vec::new();
                for pair in body.split(',') {
                    let (k, v) = pair.split_once('=').ok_or(line)?;
                    let v = v
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .ok_or(line)?;
                    if !name_ok(k) || v.contains(['"', '\\', '\n']) {
                        return Err(format!("bad label in {line:?}"));
                    }
                    labels.push((k.to_owned(), v.to_owned()));
                }
                (name, labels)
            }
        };
        if !name_ok(name) {
            return Err(format!("bad name in {line:?}"));
        }
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| {
                name.strip_suffix(s)
                    .filter(|f| types.get(*f).is_some_and(|t| t == "histogram"))
            })
            .unwrap_or(name);
        if !types.contains_key(family) {
            return Err(format!("{name} has no TYPE before it"));
        }
        samples.push((name.to_owned(), labels, value));
    }
    Ok((types, samples))
}

fn value(samples: &[Sample], name: &str, label: Option<(&str, &str)>) -> Option<f64> {
    samples
        .iter()
        .find(|(n, labels, _)| {
            n == name && label.is_none_or(|(k, v)| labels.iter().any(|(lk, lv)| lk == k && lv == v))
        })
        .map(|s| s.2)
}

/// Checks every histogram (each label set of a family on its own): buckets in increasing
/// `le`, cumulative counts that never go down, `+Inf` last and equal to `_count`, a `_sum`.
fn check_histograms(types: &HashMap<String, String>, samples: &[Sample]) -> Result<(), String> {
    type Labels = Vec<(String, String)>;
    let exact = |name: &str, labels: &Labels| {
        samples
            .iter()
            .find(|(n, l, _)| n == name && l == labels)
            .map(|s| s.2)
    };
    for (family, _) in types.iter().filter(|(_, t)| *t == "histogram") {
        let bucket = format!("{family}_bucket");
        let mut groups: Vec<(Labels, (f64, f64))> = Vec::new();
        for (_, labels, v) in samples.iter().filter(|s| s.0 == bucket) {
            let le = labels
                .iter()
                .find(|(k, _)| k == "le")
                .map(|(_, v)| v.as_str())
                .ok_or("bucket without le")?;
            let le: f64 = if le == "+Inf" {
                f64::INFINITY
            } else {
                le.parse().map_err(|_| format!("bad le {le}"))?
            };
            let rest: Labels = labels.iter().filter(|(k, _)| k != "le").cloned().collect();
            let at = match groups.iter().position(|(l, _)| *l == rest) {
                Some(at) => at,
                None => {
                    groups.push((rest, (f64::NEG_INFINITY, 0.0)));
                    groups.len() - 1
                }
            };
            let last = &mut groups[at].1;
            if le <= last.0 || *v < last.1 {
                return Err(format!("{family}: bucket le={le} out of order"));
            }
            *last = (le, *v);
        }
        if groups.is_empty() {
            return Err(format!("{family}: no buckets"));
        }
        for (labels, last) in &groups {
            let count = exact(&format!("{family}_count"), labels).ok_or("no _count")?;
            if last.0 != f64::INFINITY || last.1 != count {
                return Err(format!(
                    "{family}{labels:?}: +Inf bucket {} != count {count}",
                    last.1
                ));
            }
            exact(&format!("{family}_sum"), labels).ok_or("no _sum")?;
        }
    }
    Ok(())
}

#[test]
fn the_reader_refuses_what_the_format_forbids() {
    for bad in [
        "x 1\n",
        "# TYPE x gauge\nx one\n",
        "# TYPE x gauge\nx{a=b} 1\n",
        "# TYPE x gauge\n9x 1\n",
        "# TYPE x summary\nx 1\n",
        "# TYPE x gauge\nx 1",
    ] {
        assert!(parse(bad).is_err(), "{bad:?}");
    }
    assert!(parse("# HELP x a thing\n# TYPE x gauge\nx{a=\"b\"} 1.5\n").is_ok());
}

#[test]
fn every_metric_renders_in_the_text_format() {
    let m = Metrics::new();
    m.sessions_open.add(3);
    m.solo_players.add(2);
    m.versus_players.add(1);
    m.bytes_sent.add(12_345);
    for us in [100, 500, 501, 20_000, 7_000_000] {
        m.input_to_frame.observe(Duration::from_micros(us));
    }
    m.nats_rtt_last_us.set(1_250);
    m.db_write_matches.observe(Duration::from_millis(3));
    m.db_queue_games.add(4);
    m.sockets_open.add(5);
    m.connections_open.add(2);
    let health = Health::new();
    health.set_serving();
    let text = render_with(&m, &health);
    let (types, samples) = parse(&text).expect(&text);
    check_histograms(&types, &samples).expect(&text);
    for (name, kind) in [
        ("minotty_up", "gauge"),
        ("minotty_sessions_open", "gauge"),
        ("minotty_sessions_total", "counter"),
        ("minotty_players_in_game", "gauge"),
        ("minotty_rooms_open", "gauge"),
        ("minotty_matches_running", "gauge"),
        ("minotty_frames_sent_total", "counter"),
        ("minotty_bytes_sent_total", "counter"),
        ("minotty_input_to_frame_seconds", "histogram"),
        ("minotty_db_write_seconds", "histogram"),
        ("minotty_db_queue", "gauge"),
        ("minotty_nats_rtt_seconds", "histogram"),
        ("minotty_nats_rtt_last_seconds", "gauge"),
        ("minotty_sockets_open", "gauge"),
        ("minotty_connections_open", "gauge"),
    ] {
        assert_eq!(types.get(name).map(String::as_str), Some(kind), "{name}");
    }
    let v = |n, l| value(&samples, n, l);
    assert_eq!(v("minotty_up", None), Some(1.0));
    assert_eq!(v("minotty_sessions_open", None), Some(3.0));
    assert_eq!(v("minotty_sockets_open", None), Some(5.0));
    assert_eq!(v("minotty_connections_open", None), Some(2.0));
    assert_eq!(
        v("minotty_players_in_game", Some(("mode", "solo"))),
        Some(2.0)
    );
    assert_eq!(
        v("minotty_players_in_game", Some(("mode", "versus"))),
        Some(1.0)
    );
    assert_eq!(v("minotty_bytes_sent_total", None), Some(12_345.0));
    assert_eq!(v("minotty_nats_rtt_last_seconds", None), Some(0.00125));
    // 100 and 500 us are in le=0.0005; 501 in le=0.001; 20 ms in le=0.025; 7 s only in +Inf.
    let h = "minotty_input_to_frame_seconds_bucket";
    assert_eq!(v(h, Some(("le", "0.0005"))), Some(2.0));
    assert_eq!(v(h, Some(("le", "0.001"))), Some(3.0));
    assert_eq!(v(h, Some(("le", "0.016"))), Some(3.0));
    assert_eq!(v(h, Some(("le", "0.025"))), Some(4.0));
    assert_eq!(v(h, Some(("le", "5"))), Some(4.0));
    assert_eq!(v(h, Some(("le", "+Inf"))), Some(5.0));
    assert_eq!(
        v("minotty_input_to_frame_seconds_sum", None),
        Some(7.021101)
    );
    // Nothing measured: an empty histogram, zeros everywhere.
    assert_eq!(v("minotty_nats_rtt_seconds_count", None), Some(0.0));
    // A family of two: the game writer's, empty, and the match recorder's, with one write.
    let db = |writer: &str, le: &str| {
        samples
            .iter()
            .find(|(n, l, _)| {
                n == "minotty_db_write_seconds_bucket"
                    && l.iter().any(|(k, v)| k == "writer" && v == writer)
                    && l.iter().any(|(k, v)| k == "le" && v == le)
            })
            .map(|s| s.2)
    };
    assert_eq!(db("games", "+Inf"), Some(0.0));
    assert_eq!(db("matches", "0.0025"), Some(0.0));
    assert_eq!(db("matches", "0.005"), Some(1.0));
    assert_eq!(db("matches", "+Inf"), Some(1.0));
    assert_eq!(
        v("minotty_db_write_seconds_sum", Some(("writer", "matches"))),
        Some(0.003)
    );
    assert_eq!(v("minotty_db_queue", Some(("writer", "games"))), Some(4.0));
    assert_eq!(
        v("minotty_db_queue", Some(("writer", "matches"))),
        Some(0.0)
    );
    health.set_draining();
    let (_, samples) = parse(&render_with(&m, &health)).expect("parses");
    assert_eq!(value(&samples, "minotty_up", None), Some(0.0));
}

#[test]
fn seconds_are_written_exactly() {
    assert_eq!(seconds(0), "0");
    assert_eq!(seconds(500), "0.0005");
    assert_eq!(seconds(16_000), "0.016");
    assert_eq!(seconds(2_500_000), "2.5");
    assert_eq!(seconds(5_000_000), "5");
    assert_eq!(seconds(1_000_001), "1.000001");
}

#[test]
fn health_goes_from_starting_to_serving_to_draining_for_good() {
    let h = Health::new();
    assert_eq!((h.is_serving(), h.word()), (false, "starting"));
    h.set_serving();
    assert_eq!((h.is_serving(), h.word()), (true, "ok"));
    h.set_draining();
    h.set_serving();
    assert_eq!((h.is_serving(), h.word()), (false, "draining"));
}

#[test]
fn playing_moves_one_player_between_the_gauges_and_back_on_drop() {
    // The process-wide gauges: other tests' sessions may move them too, so only this test's
    // own difference is compared, through a lock-free read before and after each step.
    let solo = || METRICS.solo_players.get();
    let versus = || METRICS.versus_players.get();
    let mut p = Playing::default();
    let (s0, v0) = (solo(), versus());
    p.set(true, false);
    p.set(true, false);
    assert_eq!((solo() - s0, versus() - v0), (1, 0));
    p.set(true, true);
    assert_eq!((solo() - s0, versus() - v0), (0, 1));
    p.set(false, true);
    assert_eq!((solo() - s0, versus() - v0), (0, 0));
    p.set(true, false);
    drop(p);
    assert_eq!((solo() - s0, versus() - v0), (0, 0));
}

/// Rendered inside a runtime, the scrape counts the runtime's live tasks (soak runs and the
/// socket tests watch it come back to where it started).
#[tokio::test]
async fn the_runtime_s_live_tasks_are_rendered() {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let _ = stopped.await;
    });
    let text = render_with(&Metrics::new(), &Health::new());
    let (types, samples) = parse(&text).expect(&text);
    assert_eq!(
        types.get("minotty_tasks_alive").map(String::as_str),
        Some("gauge")
    );
    let alive = value(&samples, "minotty_tasks_alive", None).expect(&text);
    assert!(alive >= 1.0, "the spawned task is alive: {alive}");
    let _ = stop.send(());
    task.await.unwrap();
    // Outside a runtime there is nothing to count, and no line.
    let text = std::thread::spawn(|| render_with(&Metrics::new(), &Health::new()))
        .join()
        .unwrap();
    assert!(!text.contains("minotty_tasks_alive"), "{text}");
}
