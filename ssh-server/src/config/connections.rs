//! The connection limits as configured (`--max-connections`, `--max-startups`, ...): settings
//! only; `crate::ssh::limits` applies them before the SSH handshake.

/// The limits, as configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    pub max_total: usize,
    /// Per IPv4 address and per IPv6 /64.
    pub max_per_address: usize,
    /// Per IPv4 /24 and per IPv6 /56.
    pub max_per_subnet: usize,
    /// Per IPv6 /48.
    pub max_per_site: usize,
    /// Connections not logged in yet: from `start` on, a new one is refused with a probability
    /// rising linearly from `rate` % to 100 % at `full`.
    pub startups: Startups,
    /// New connections per source: a burst, then this many a minute.
    pub connects_burst: u32,
    pub connects_per_minute: u32,
}

/// OpenSSH's `MaxStartups start:rate:full`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Startups {
    pub start: usize,
    pub rate: u32,
    pub full: usize,
}

impl Startups {
    /// Parses `start:rate:full` (or a single number: a hard cap).
    pub fn parse(s: &str) -> Result<Startups, String> {
        let bad = || format!("{s:?} is not START:RATE:FULL (e.g. 20:30:100) or a number");
        let parts: Vec<&str> = s.split(':').collect();
        let num = |p: &str| p.trim().parse::<usize>().map_err(|_| bad());
        let startups = match parts.as_slice() {
            [full] => Startups {
                start: num(full)?,
                rate: 100,
                full: num(full)?,
            },
            [start, rate, full] => Startups {
                start: num(start)?,
                rate: u32::try_from(num(rate)?).map_err(|_| bad())?,
                full: num(full)?,
            },
            _ => return Err(bad()),
        };
        if startups.start == 0 || startups.start > startups.full || startups.rate > 100 {
            return Err(format!("{s:?}: need 0 < START <= FULL and RATE <= 100"));
        }
        Ok(startups)
    }
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            max_total: 4096,
            max_per_address: 16,
            max_per_subnet: 64,
            max_per_site: 256,
            startups: Startups {
                start: 20,
                rate: 30,
                full: 100,
            },
            connects_burst: 20,
            connects_per_minute: 30,
        }
    }
}
