//! The search's inner loop of the net: a point's activation `h = clamp(own + opp, 0, top)` over
//! two i16 table rows, added to (or taken from) a view's i32 sums. Every stone changes tens of
//! points in two views, so this runs about a hundred times a move; AVX2 does a row of 32 in a
//! few instructions. The scalar version is the definition: both give the same sums, bit for
//! bit (tested), because i16 saturation before the clamp cannot change a clamped result while
//! `top` fits i16.

/// Width of the accumulators the search keeps: a net of D = 32 fills them, one of D = 16 their
/// first half (half the work a move; other widths run only the reference pass).
pub const DIM: usize = 32;

/// Whether the search's kernels take rows of `dim` numbers.
pub fn supports(dim: usize) -> bool {
    dim == DIM || dim == DIM / 2
}

/// One view's sums of `h` over the board's points.
pub type Sums = [i32; DIM];

/// Which implementation runs; chosen once per net from what the processor has.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        Kernel::Scalar
    }

    /// `sums += h(add) - h(sub)` over the first D sums, each `h` from an (own row, opp row)
    /// pair of D numbers, D one that `supports` allows.
    #[inline]
    pub fn replace(self, sums: &mut Sums, add: (&[i16], &[i16]), sub: (&[i16], &[i16]), top: i16) {
        let dim = add.0.len();
        assert!(supports(dim) && [add.1, sub.0, sub.1].iter().all(|r| r.len() == dim));
        match self {
            Kernel::Scalar => replace_scalar(sums, add, sub, top),
            // Safety: `Avx2` is only chosen where the processor has AVX2; every row holds D
            // numbers, sixteen for each half (asserted), and `sums` holds DIM >= D.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if dim == DIM => unsafe { replace_avx2::<2>(sums, add, sub, top) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { replace_avx2::<1>(sums, add, sub, top) },
        }
    }

    /// `out[j] = sum over d of x[d] * w[j * D + d]` for every row j of `w` (the value's
    /// first layer), D = `x.len()` one that `supports` allows, exact in i32: the caller keeps
    /// every such sum within i32 (`Gnn::check_bounds`), and so are its partial sums, whatever
    /// their order.
    #[inline]
    pub fn dots(self, x: &[i16], w: &[i16], out: &mut [i32]) {
        let dim = x.len();
        assert!(supports(dim) && w.len() >= out.len() * dim);
        match self {
            Kernel::Scalar => dots_scalar(x, w, out),
            // Safety: as for `replace`; `w` holds a row of D numbers for every output.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if dim == DIM => unsafe { dots_avx2::<2>(x, w, out) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { dots_avx2::<1>(x, w, out) },
        }
    }
}

fn dots_scalar(x: &[i16], w: &[i16], out: &mut [i32]) {
    let dim = x.len();
    for (j, o) in out.iter_mut().enumerate() {
        *o = x.iter().zip(&w[j * dim..(j + 1) * dim]).map(|(&a, &b)| i32::from(a) * i32::from(b)).sum();
    }
}

/// `dots` for D = 16 `HALVES`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dots_avx2<const HALVES: usize>(x: &[i16], w: &[i16], out: &mut [i32]) {
    use std::arch::x86_64::*;
    let x0 = _mm256_loadu_si256(x.as_ptr() as *const __m256i);
    let x1 = if HALVES == 2 { _mm256_loadu_si256(x.as_ptr().add(16) as *const __m256i) } else { x0 };
    for (j, o) in out.iter_mut().enumerate() {
        let row = w.as_ptr().add(j * 16 * HALVES);
        // Pairs of products summed in i32 (no pair reaches 2^31: |x| <= 2^14).
        let s = _mm256_madd_epi16(x0, _mm256_loadu_si256(row as *const __m256i));
        let s = if HALVES == 2 {
            _mm256_add_epi32(s, _mm256_madd_epi16(x1, _mm256_loadu_si256(row.add(16) as *const __m256i)))
        } else {
            s
        };
        let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        *o = _mm_cvtsi128_si32(s);
    }
}

/// A point's activation in one unit.
#[inline]
pub fn activation(own: i16, opp: i16, top: i16) -> i32 {
    (i32::from(own) + i32::from(opp)).clamp(0, i32::from(top))
}

fn replace_scalar(sums: &mut Sums, add: (&[i16], &[i16]), sub: (&[i16], &[i16]), top: i16) {
    for (d, sum) in sums.iter_mut().take(add.0.len()).enumerate() {
        *sum += activation(add.0[d], add.1[d], top) - activation(sub.0[d], sub.1[d], top);
    }
}

/// `replace` for D = 16 `HALVES`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn replace_avx2<const HALVES: usize>(
    sums: &mut Sums,
    add: (&[i16], &[i16]),
    sub: (&[i16], &[i16]),
    top: i16,
) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(top);
    let h = |own: *const i16, opp: *const i16| {
        let x = _mm256_adds_epi16(
            _mm256_loadu_si256(own as *const __m256i),
            _mm256_loadu_si256(opp as *const __m256i),
        );
        _mm256_min_epi16(_mm256_max_epi16(x, zero), top)
    };
    // Two halves of sixteen units: the difference of two activations fits i16, then it is
    // widened to i32 eight at a time.
    for half in 0..HALVES {
        let at = 16 * half;
        let delta = _mm256_sub_epi16(
            h(add.0.as_ptr().add(at), add.1.as_ptr().add(at)),
            h(sub.0.as_ptr().add(at), sub.1.as_ptr().add(at)),
        );
        let lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(delta));
        let hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(delta));
        let out = sums.as_mut_ptr().add(at) as *mut __m256i;
        _mm256_storeu_si256(out, _mm256_add_epi32(_mm256_loadu_si256(out), lo));
        let out = out.add(1);
        _mm256_storeu_si256(out, _mm256_add_epi32(_mm256_loadu_si256(out), hi));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(seed: &mut u64, dim: usize) -> Vec<i16> {
        (0..dim)
            .map(|_| {
                *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // The whole i16 range, so that saturation and both clamps are exercised.
                (*seed >> 48) as i16
            })
            .collect()
    }

    #[test]
    fn every_kernel_agrees_with_the_scalar_definition() {
        let kernel = Kernel::detect();
        for dim in [DIM, DIM / 2] {
            let mut seed = 7u64;
            let (mut scalar, mut fast) = ([0i32; DIM], [0i32; DIM]);
            for round in 0..2000 {
                let r: Vec<Vec<i16>> = (0..4).map(|_| rows(&mut seed, dim)).collect();
                let top = [1024, 1, 16384, 32767][round % 4];
                replace_scalar(&mut scalar, (&r[0], &r[1]), (&r[2], &r[3]), top);
                kernel.replace(&mut fast, (&r[0], &r[1]), (&r[2], &r[3]), top);
                assert_eq!(scalar, fast, "D {dim} round {round} with {kernel:?}");
            }
            assert!(scalar[..dim].iter().all(|&s| s != 0), "D {dim}: some sums never moved");
            assert!(scalar[dim..].iter().all(|&s| s == 0), "D {dim}: a sum beyond D moved");
        }
    }

    #[test]
    fn every_kernel_computes_the_scalar_dot_products() {
        let kernel = Kernel::detect();
        let mut seed = 3u64;
        for round in 0..1000 {
            let dim = [DIM, DIM / 2][round % 2];
            // Inputs of [0, 2^14] as the value's means are, at the ends now and then.
            let noise = rows(&mut seed, dim);
            let x: Vec<i16> = (0..dim)
                .map(|d| match (round + d) % 9 {
                    0 => 0,
                    1 => 1 << 14,
                    _ => (noise[d] as u16 % (1 << 14)) as i16,
                })
                .collect();
            // Weights of up to 2^10, so that no sum leaves i32 (as `check_bounds` ensures).
            let w: Vec<i16> = (0..5).flat_map(|_| rows(&mut seed, dim)).map(|v| v >> 5).collect();
            let (mut scalar, mut fast) = ([0i32; 5], [0i32; 5]);
            dots_scalar(&x, &w, &mut scalar);
            kernel.dots(&x, &w, &mut fast);
            assert_eq!(scalar, fast, "D {dim} round {round} with {kernel:?}");
            assert!(scalar.iter().any(|&s| s != 0));
        }
    }

    #[test]
    fn activation_clips_to_its_range() {
        assert_eq!(activation(-5, 3, 1024), 0);
        assert_eq!(activation(600, 600, 1024), 1024);
        assert_eq!(activation(i16::MAX, i16::MAX, 1024), 1024);
        assert_eq!(activation(100, 23, 1024), 123);
    }
}
