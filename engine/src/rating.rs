//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013) for ranked 1v1.
//!
//! Pure arithmetic over `f64`; the server stores the three numbers per account and calls
//! [`Rating::update`] once per rating period (here: once per ranked match).

/// Glicko's scale factor between the Glicko and Glicko-2 scales.
const SCALE: f64 = 173.7178;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A player's rating, rating deviation and volatility, on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// The standard defaults for a new player: 1500, RD 350, volatility 0.06.
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One game of a rating period: the opponent's rating before the period and the score
/// (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub opponent: Rating,
    pub score: f64,
}

/// The system constant τ: how fast volatility may change. Glickman suggests 0.3 to 1.2.
pub const DEFAULT_TAU: f64 = 0.5;

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The rating after a period with these games, with system constant `tau`.
    pub fn update(&self, games: &[Outcome], tau: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            return Rating {
                deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
                ..*self
            };
        }
        let mut inv_v = 0.0;
        let mut delta_sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - 1500.0) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            inv_v += gj * gj * e * (1.0 - e);
            delta_sum += gj * (game.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * delta_sum;
        let sigma = new_volatility(phi, sigma, v, delta, tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * delta_sum;
        Rating {
            rating: SCALE * mu_new + 1500.0,
            deviation: SCALE * phi_new,
            volatility: sigma,
        }
    }
}

/// Step 5 of the paper: the Illinois variant of regula falsi on f(x).
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    let mut guard = 0;
    while (big_b - big_a).abs() > EPSILON && guard < 200 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
        guard += 1;
    }
    (big_a / 2.0).exp()
}
