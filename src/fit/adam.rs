//! The Adam step that every fitting command (`tune`, `tune-net`, `tune-policy`,
//! `tune-rank`) takes on its weights.

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;

/// Moment estimates of each weight and the step count.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    c1: f64,
    c2: f64,
    eps: f64,
}

impl Adam {
    /// State for `n` weights; `eps` keeps the step finite where the gradient was always 0.
    pub fn new(n: usize, eps: f64) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0, c1: 1.0, c2: 1.0, eps }
    }

    /// Begins a step: the bias corrections of the moments move on.
    pub fn next_step(&mut self) {
        self.t += 1;
        self.c1 = 1.0 - BETA1.powi(self.t);
        self.c2 = 1.0 - BETA2.powi(self.t);
    }

    /// Moves weight `w` (number `q`) against gradient `g`, at most about `rate`.
    #[inline]
    pub fn update(&mut self, q: usize, g: f64, rate: f64, w: &mut f64) {
        self.m[q] = BETA1 * self.m[q] + (1.0 - BETA1) * g;
        self.v[q] = BETA2 * self.v[q] + (1.0 - BETA2) * g * g;
        *w -= rate * (self.m[q] / self.c1) / ((self.v[q] / self.c2).sqrt() + self.eps);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_about_the_rate_and_find_a_minimum() {
        // The first step of Adam is the rate times the gradient's sign.
        let mut adam = Adam::new(1, 1e-9);
        let mut w = 3.0;
        adam.next_step();
        adam.update(0, 10.0, 0.1, &mut w);
        assert!((w - 2.9).abs() < 1e-6, "{w}");
        // On (w - 1)^2 it settles near 1.
        for _ in 0..2000 {
            adam.next_step();
            let g = 2.0 * (w - 1.0);
            adam.update(0, g, 0.01, &mut w);
        }
        assert!((w - 1.0).abs() < 0.01, "{w}");
    }
}
