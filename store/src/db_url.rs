//! Database URLs: another database on the same server (what the tests' throwaway databases
//! and the end-to-end tests' fresh ones are opened by).

/// `url` with its database (the path) replaced by `name`, its query kept.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let base = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_of_a_url_is_replaced() {
        assert_eq!(
            with_database("postgres://u:p@host:5432/postgres", "x"),
            "postgres://u:p@host:5432/x"
        );
        assert_eq!(
            with_database("postgres://u@host/postgres?sslmode=disable", "x"),
            "postgres://u@host/x?sslmode=disable"
        );
        assert_eq!(with_database("postgres://host", "x"), "postgres://host/x");
    }
}
