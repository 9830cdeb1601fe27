//! The simulations' randomness: a seeded generator (splitmix64 to seed, xoshiro256** to draw) and the
//! few distributions they need. `ln` and `exp` are written here from +, -, * and / only, because the
//! platform's (glibc natively, Rust's libm port in Wasm) may differ in the last bit, and one differing
//! bit can reorder two events: the native suite and the Wasm must give the same numbers for a seed.

/// splitmix64: turns one seed into a stream of well-mixed 64-bit words (used to seed, not to draw).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// xoshiro256**: the generator every draw comes from.
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator for `seed`; `stream` keeps independent uses of one seed apart (arrivals, flakes...).
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut sm = SplitMix64::new(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let s = [sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()];
        Rng { s }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1), 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Exponential with mean `mean` (the gap between Poisson arrivals).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -ln(1.0 - self.unit()) * mean
    }

    /// Standard normal, Marsaglia's polar method (only ln and sqrt, both portable here).
    pub fn normal(&mut self) -> f64 {
        loop {
            let u = 2.0 * self.unit() - 1.0;
            let v = 2.0 * self.unit() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * (-2.0 * ln(s) / s).sqrt();
            }
        }
    }

    /// Log-normal with the given median and shape (sigma of the underlying normal).
    pub fn lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        median * exp(sigma * self.normal())
    }
}

const LN2: f64 = std::f64::consts::LN_2;

/// Natural logarithm of x > 0 (NaN otherwise), to about 1e-16 relative, from basic operations only.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    // x = m * 2^e with m in [1, 2); subnormals are scaled up first.
    let (mut x, mut e) = (x, 0i64);
    if x < f64::MIN_POSITIVE {
        x *= (1u64 << 54) as f64;
        e -= 54;
    }
    let bits = x.to_bits();
    e += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    // ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172: the series converges fast.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 40.0 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * LN2
}

/// e^x, from basic operations only: x = k ln 2 + r, |r| <= ln 2 / 2, e^r by its series.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.0 {
        return f64::INFINITY;
    }
    if x < -708.0 {
        return 0.0;
    }
    // ln 2 in two parts (fdlibm's): k * LN2_HI is exact, so r keeps its precision for large k.
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let k = (x / LN2).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let mut term = 1.0;
    let mut sum = 1.0;
    let mut n = 1.0;
    while n < 25.0 {
        term *= r / n;
        sum += term;
        n += 1.0;
    }
    sum * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_and_exp_agree_with_the_platform_to_rounding() {
        for &x in &[
            1e-300, 1e-10, 0.001, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 10.0, 123.456, 1e10, 1e300,
        ] {
            let (ours, theirs) = (ln(x), x.ln());
            assert!(
                (ours - theirs).abs() <= 4.0 * f64::EPSILON * theirs.abs().max(1.0),
                "ln({x}): {ours} vs {theirs}"
            );
        }
        for &x in &[-700.0, -20.0, -1.0, -0.3, 0.0, 0.3, 1.0, 2.5, 20.0, 700.0] {
            let (ours, theirs) = (exp(x), x.exp());
            assert!(
                (ours - theirs).abs() <= 8.0 * f64::EPSILON * theirs,
                "exp({x}): {ours} vs {theirs}"
            );
        }
        assert!(ln(0.0).is_nan() && ln(-1.0).is_nan());
    }

    #[test]
    fn the_same_seed_draws_the_same_numbers_and_streams_differ() {
        let a: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7, 1);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..5)
            .map({
                let mut r = Rng::new(7, 1);
                move |_| r.next_u64()
            })
            .collect();
        let c = Rng::new(7, 2).next_u64();
        assert_eq!(a, b);
        assert_ne!(a[0], c);
    }

    #[test]
    fn distributions_have_their_means() {
        let mut r = Rng::new(42, 0);
        let n = 200_000;
        let mean = |f: &mut dyn FnMut() -> f64| (0..n).map(|_| f()).sum::<f64>() / n as f64;
        let e = mean(&mut || r.exponential(20.0));
        assert!((e - 20.0).abs() < 0.3, "exponential mean {e}");
        let mut r = Rng::new(43, 0);
        let l = mean(&mut || r.lognormal(15.0, 0.5));
        // median * exp(sigma^2 / 2) = 17.0
        assert!((l - 15.0 * exp(0.125)).abs() < 0.15, "lognormal mean {l}");
        let mut r = Rng::new(44, 0);
        let z = mean(&mut || r.normal());
        assert!(z.abs() < 0.01, "normal mean {z}");
    }
}
