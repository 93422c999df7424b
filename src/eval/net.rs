//! The evaluation's net: one hidden layer of ReLUs on top of the linear evaluation, fitted by
//! `pbrain-gorin tune-net` (`netfit`). Its inputs are the same per-point features as the
//! linear part, so a point's first-layer contribution depends on its shape alone: one row per
//! (role, shape), which the board sums over its empty points as stones come and go (integer
//! sums, so make and undo restore them exactly). Evaluating applies the hidden layer only.
//! Each weight set of `params` has its own net (`Weights::net`), since each is a correction
//! to that set's linear value: freestyle's is in `net_params.rs`.

use super::SHAPE_COUNT;

pub const NET_HIDDEN: usize = 16;
/// Output buckets by stones on the board: the hidden layer's weights to the output differ
/// between the opening, the middle game and the later game, where the same shapes mean
/// different things (an early open two is a plan, a late one is often dead).
pub const NET_BUCKETS: usize = 3;
/// The shape of a point without any value (renju black's forbidden points): a zero row.
pub const NO_SHAPE: u16 = u16::MAX;
/// Fixed-point scales of the rows and hidden biases, and of the output weights.
pub const ROW_SCALE: i64 = 1024;
pub const OUT_SCALE: i64 = 64;

/// One weight set's net: the first-layer rows of every (role, shape), role-major, the hidden
/// biases, and per output bucket the output weights and bias, all fixed-point.
pub struct NetWeights {
    pub rows: &'static [i16; 2 * SHAPE_COUNT * NET_HIDDEN],
    pub bias: [i32; NET_HIDDEN],
    pub out: [[i32; NET_HIDDEN]; NET_BUCKETS],
    pub out_bias: [i32; NET_BUCKETS],
}

include!("net_params.rs");

/// One shape's rows for both roles side by side (as the side to move, then as the opponent),
/// so that an update reads one place.
pub type Row = [i32; 2 * NET_HIDDEN];

/// The rows of every shape of `net`, in shape order, then the zero row of `NO_SHAPE`
/// (`params::net_rows` keeps them once per weight set).
pub fn expand_rows(net: &NetWeights) -> Vec<Row> {
    let mut rows = vec![[0; 2 * NET_HIDDEN]; SHAPE_COUNT + 1];
    for (s, row) in rows.iter_mut().enumerate().take(SHAPE_COUNT) {
        for role in 0..2 {
            let at = (role * SHAPE_COUNT + s) * NET_HIDDEN;
            for j in 0..NET_HIDDEN {
                row[role * NET_HIDDEN + j] = net.rows[at + j] as i32;
            }
        }
    }
    rows
}

/// Where a point's shape is in `expand_rows`'s rows.
#[inline]
pub fn row_index(shape: u16) -> usize {
    if shape == NO_SHAPE {
        SHAPE_COUNT
    } else {
        shape as usize
    }
}

/// The output bucket of a position with `stones` stones.
#[inline]
pub fn bucket(stones: usize) -> usize {
    match stones {
        0..=13 => 0,
        14..=29 => 1,
        _ => 2,
    }
}

/// The correction (evaluation units) of `net` from the side to move's sums and the opponent's.
#[inline]
pub fn output(net: &NetWeights, own: &Row, opp: &Row, stones: usize) -> i32 {
    let b = bucket(stones);
    let mut sum: i64 = 0;
    for j in 0..NET_HIDDEN {
        let h = net.bias[j] + own[j] + opp[NET_HIDDEN + j];
        if h > 0 {
            sum += net.out[b][j] as i64 * h as i64;
        }
    }
    (sum / (ROW_SCALE * OUT_SCALE)) as i32 + net.out_bias[b]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_shape_has_a_zero_row_and_rows_fit_the_table() {
        let rows = expand_rows(&FREESTYLE_NET);
        assert_eq!(rows.len(), SHAPE_COUNT + 1);
        assert!(rows[row_index(NO_SHAPE)].iter().all(|&x| x == 0));
        assert!(rows[..SHAPE_COUNT].iter().any(|r| r.iter().any(|&x| x != 0)), "a net with no weights");
    }

    #[test]
    fn buckets_cover_every_stone_count_in_order() {
        let buckets: Vec<usize> = (0..=32 * 32).map(bucket).collect();
        assert_eq!(buckets[0], 0);
        assert_eq!(*buckets.last().unwrap(), NET_BUCKETS - 1);
        assert!(buckets.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
    }
}
