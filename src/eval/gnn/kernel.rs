//! The search's inner loop of the net: a point's activation `h = clamp(own + opp, 0, top)` over
//! two i16 table rows, added to (or taken from) a view's i32 sums. Every stone changes tens of
//! points in two views, about a hundred rows a move, summed in registers and added to the sums
//! once; AVX2 does a row of 16 in a few instructions. The scalar version is the definition: both give the same sums, bit for
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

/// One point's change in both views `v`: the (own, opp) table rows whose `h` it adds
/// (`add[v]`) and those whose `h` it takes away (`sub[v]`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub add: [[u16; 2]; 2],
    pub sub: [[u16; 2]; 2],
}

/// One point's change in both views for a lines net (`FLAG_LINES`): the four rows of one
/// table whose sum's activation it adds (`add[v]`) and the four whose it takes away.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LineChange {
    pub add: [[u16; 4]; 2],
    pub sub: [[u16; 4]; 2],
}

impl LineChange {
    fn last_row(&self) -> usize {
        last_row(&self.add, &self.sub)
    }
}

impl Change {
    fn last_row(&self) -> usize {
        last_row(&self.add, &self.sub)
    }
}

/// The largest table row a change names, in either view.
fn last_row<const N: usize>(add: &[[u16; N]; 2], sub: &[[u16; N]; 2]) -> usize {
    usize::from(add.iter().chain(sub).flatten().copied().max().unwrap_or(0))
}

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

    /// `sums[v] += h(c.add[v]) - h(c.sub[v])` over the first D sums of both views `v`, for
    /// every change `c`, each `h` from an (own, opp) pair of rows of the tables `own` and `opp`
    /// (D numbers a row, D one that `supports` allows). Panics on a row beyond the tables.
    #[inline]
    pub fn apply(
        self,
        sums: &mut [Sums; 2],
        own: &[i16],
        opp: &[i16],
        changes: &[Change],
        dim: usize,
        top: i16,
    ) {
        let rows = own.len() / dim;
        assert!(supports(dim) && own.len() == opp.len() && own.len() == rows * dim);
        assert!(changes.iter().all(|c| c.last_row() < rows), "a row beyond the tables");
        match self {
            Kernel::Scalar => apply_scalar(sums, own, opp, changes, dim, top),
            // Safety: `Avx2` is only chosen where the processor has AVX2; every row named is
            // within the tables (asserted), and a row holds sixteen numbers for each half.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if dim == DIM => unsafe { apply_avx2::<2>(sums, own, opp, changes, top) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { apply_avx2::<1>(sums, own, opp, changes, top) },
        }
    }

    /// `sums[v] += h(c.add[v]) - h(c.sub[v])` as `apply`, each `h` the activation of the sum
    /// of four rows of `table`. The caller keeps every entry within +/-8191 (`Gnn::from_bytes`
    /// refuses a lines net otherwise), so that four of them sum exactly in i16.
    #[inline]
    pub fn apply_lines(
        self,
        sums: &mut [Sums; 2],
        table: &[i16],
        changes: &[LineChange],
        dim: usize,
        top: i16,
    ) {
        let rows = table.len() / dim;
        assert!(supports(dim) && table.len() == rows * dim);
        assert!(changes.iter().all(|c| c.last_row() < rows), "a row beyond the tables");
        match self {
            Kernel::Scalar => apply_lines_scalar(sums, table, changes, dim, top),
            // Safety: as for `apply`.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 if dim == DIM => unsafe { apply_lines_avx2::<2>(sums, table, changes, top) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { apply_lines_avx2::<1>(sums, table, changes, top) },
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
            // Safety: as for `apply`; `w` holds a row of D numbers for every output.
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

fn apply_scalar(sums: &mut [Sums; 2], own: &[i16], opp: &[i16], changes: &[Change], dim: usize, top: i16) {
    let row = |table: &[i16], r: u16, d: usize| table[usize::from(r) * dim + d];
    for c in changes {
        for (v, sums) in sums.iter_mut().enumerate() {
            let ([a_own, a_opp], [s_own, s_opp]) = (c.add[v], c.sub[v]);
            for (d, sum) in sums.iter_mut().take(dim).enumerate() {
                *sum += activation(row(own, a_own, d), row(opp, a_opp, d), top)
                    - activation(row(own, s_own, d), row(opp, s_opp, d), top);
            }
        }
    }
}

/// A lines net's activation in unit `d` of the rows `r` of `table`.
#[inline]
pub fn line_activation(table: &[i16], r: [u16; 4], dim: usize, d: usize, top: i16) -> i32 {
    r.iter().map(|&r| i32::from(table[usize::from(r) * dim + d])).sum::<i32>().clamp(0, i32::from(top))
}

fn apply_lines_scalar(sums: &mut [Sums; 2], table: &[i16], changes: &[LineChange], dim: usize, top: i16) {
    for c in changes {
        for (v, sums) in sums.iter_mut().enumerate() {
            for (d, sum) in sums.iter_mut().take(dim).enumerate() {
                *sum += line_activation(table, c.add[v], dim, d, top)
                    - line_activation(table, c.sub[v], dim, d, top);
            }
        }
    }
}

/// `apply_lines` for D = 16 `HALVES`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_lines_avx2<const HALVES: usize>(
    sums: &mut [Sums; 2],
    table: &[i16],
    changes: &[LineChange],
    top: i16,
) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let cap = _mm256_set1_epi16(top);
    let dim = 16 * HALVES;
    let row = |r: u16, at: usize| {
        _mm256_loadu_si256(table.as_ptr().add(usize::from(r) * dim + at) as *const __m256i)
    };
    // Four entries within +/-8191 sum exactly in i16.
    let h = |r: [u16; 4], at: usize| {
        let x = _mm256_add_epi16(
            _mm256_add_epi16(row(r[0], at), row(r[1], at)),
            _mm256_add_epi16(row(r[2], at), row(r[3], at)),
        );
        _mm256_min_epi16(_mm256_max_epi16(x, zero), cap)
    };
    add_deltas_avx2::<HALVES, _>(sums, changes, top, |c: &LineChange, v, at| {
        _mm256_sub_epi16(h(c.add[v], at), h(c.sub[v], at))
    });
}

/// `apply` for D = 16 `HALVES`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_avx2<const HALVES: usize>(
    sums: &mut [Sums; 2],
    own: &[i16],
    opp: &[i16],
    changes: &[Change],
    top: i16,
) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let cap = _mm256_set1_epi16(top);
    let dim = 16 * HALVES;
    let h = |[o, p]: [u16; 2], at: usize| {
        let x = _mm256_adds_epi16(
            _mm256_loadu_si256(own.as_ptr().add(usize::from(o) * dim + at) as *const __m256i),
            _mm256_loadu_si256(opp.as_ptr().add(usize::from(p) * dim + at) as *const __m256i),
        );
        _mm256_min_epi16(_mm256_max_epi16(x, zero), cap)
    };
    add_deltas_avx2::<HALVES, _>(sums, changes, top, |c: &Change, v, at| {
        _mm256_sub_epi16(h(c.add[v], at), h(c.sub[v], at))
    });
}

/// `sums[v] += delta(c, v, at)` over every change `c`, both views `v` and the 16 units from `at`
/// of each half. The changes of a move are summed in registers and added to the sums once: one
/// call a point, each loading and storing the sums, made every point wait for the last one's
/// store. `delta` is a difference of two activations in `0..=top`, so up to `i16::MAX / top` of
/// them sum exactly in i16; they are summed so in blocks of that many and each block's sum is
/// widened to i32 once (the widening was half the work a change).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn add_deltas_avx2<const HALVES: usize, C>(
    sums: &mut [Sums; 2],
    changes: &[C],
    top: i16,
    delta: impl Fn(&C, usize, usize) -> std::arch::x86_64::__m256i,
) {
    use std::arch::x86_64::*;
    // 1..=i16::MAX: `top` is positive (an activation's ceiling).
    let block = (i16::MAX / top.max(1)) as usize;
    // Per view and half: eight i32 sums for the half's low units, eight for its high ones.
    let mut acc = [[[_mm256_setzero_si256(); 2]; 2]; 2];
    for changes in changes.chunks(block) {
        let mut short = [[_mm256_setzero_si256(); 2]; 2];
        for c in changes {
            for (v, view) in short.iter_mut().enumerate() {
                for (half, a) in view.iter_mut().enumerate().take(HALVES) {
                    *a = _mm256_add_epi16(*a, delta(c, v, 16 * half));
                }
            }
        }
        for (view, short) in acc.iter_mut().zip(&short) {
            for (a, &s) in view.iter_mut().zip(short).take(HALVES) {
                a[0] = _mm256_add_epi32(a[0], _mm256_cvtepi16_epi32(_mm256_castsi256_si128(s)));
                a[1] = _mm256_add_epi32(a[1], _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(s)));
            }
        }
    }
    for (sums, view) in sums.iter_mut().zip(&acc) {
        for (half, a) in view.iter().enumerate().take(HALVES) {
            for (k, &a) in a.iter().enumerate() {
                let out = sums.as_mut_ptr().add(16 * half + 8 * k) as *mut __m256i;
                _mm256_storeu_si256(out, _mm256_add_epi32(_mm256_loadu_si256(out), a));
            }
        }
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
            // Tables of 40 rows over the whole i16 range.
            let own: Vec<i16> = (0..40).flat_map(|_| rows(&mut seed, dim)).collect();
            let opp: Vec<i16> = (0..40).flat_map(|_| rows(&mut seed, dim)).collect();
            let (mut scalar, mut fast) = ([[0i32; DIM]; 2], [[0i32; DIM]; 2]);
            for round in 0..500 {
                let r = rows(&mut seed, 16);
                let row = |k: usize| (r[k] as u16) % 40;
                // Batches of 0 to 49 changes, as a move makes.
                let changes: Vec<Change> = (0..round % 50)
                    .map(|i| {
                        let k = i % 2;
                        Change {
                            add: [[row(k), row(k + 2)], [row(k + 4), row(k + 6)]],
                            sub: [[row(k + 8), row(k + 10)], [row(k + 12), row(k + 14)]],
                        }
                    })
                    .collect();
                let top = [1024, 1, 16384, 32767][round % 4];
                apply_scalar(&mut scalar, &own, &opp, &changes, dim, top);
                kernel.apply(&mut fast, &own, &opp, &changes, dim, top);
                assert_eq!(scalar, fast, "D {dim} round {round} with {kernel:?}");
            }
            for view in &scalar {
                assert!(view[..dim].iter().all(|&s| s != 0), "D {dim}: some sums never moved");
                assert!(view[dim..].iter().all(|&s| s == 0), "D {dim}: a sum beyond D moved");
            }
        }
    }

    #[test]
    fn every_lines_kernel_agrees_with_the_scalar_definition() {
        let kernel = Kernel::detect();
        for dim in [DIM, DIM / 2] {
            let mut seed = 11u64;
            // A table of 40 rows within +/-8191, as a lines net's are.
            let table: Vec<i16> = (0..40).flat_map(|_| rows(&mut seed, dim)).map(|v| v / 4).collect();
            let (mut scalar, mut fast) = ([[0i32; DIM]; 2], [[0i32; DIM]; 2]);
            for round in 0..500 {
                let r = rows(&mut seed, 16);
                let row = |k: usize| (r[k % 16] as u16) % 40;
                let changes: Vec<LineChange> = (0..round % 50)
                    .map(|i| LineChange {
                        add: [[0, 1, 2, 3].map(|k| row(i + k)), [4, 5, 6, 7].map(|k| row(i + k))],
                        sub: [[8, 9, 10, 11].map(|k| row(i + k)), [12, 13, 14, 15].map(|k| row(i + k))],
                    })
                    .collect();
                let top = [1024, 1, 16384, 32767][round % 4];
                apply_lines_scalar(&mut scalar, &table, &changes, dim, top);
                kernel.apply_lines(&mut fast, &table, &changes, dim, top);
                assert_eq!(scalar, fast, "D {dim} round {round} with {kernel:?}");
            }
            for view in &scalar {
                assert!(view[..dim].iter().all(|&s| s != 0), "D {dim}: some sums never moved");
                assert!(view[dim..].iter().all(|&s| s == 0), "D {dim}: a sum beyond D moved");
            }
        }
    }

    #[test]
    #[should_panic(expected = "a row beyond the tables")]
    fn a_row_beyond_the_tables_is_refused() {
        let table = vec![0i16; 3 * DIM];
        let change = Change { add: [[0, 1], [2, 3]], sub: [[0, 0], [0, 0]] };
        Kernel::detect().apply(&mut [[0; DIM]; 2], &table, &table, &[change], DIM, 1024);
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
