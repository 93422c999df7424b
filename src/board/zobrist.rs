//! Zobrist keys: one random 64-bit number per (colour, cell index), fixed seed so keys and
//! `bench` are reproducible across runs and machines.

use super::MAX_CELLS;
use std::sync::OnceLock;

pub struct Zobrist {
    pub stones: [Box<[u64]>; 2],
    /// XORed in when white is to move, so a position with unusual stone counts still gets a
    /// key distinct from the same stones with the other side to move.
    pub white_to_move: u64,
}

pub fn zobrist() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        let mut state = 0x6A09_E667_F3BC_C908u64;
        let mut table = || -> Box<[u64]> { (0..MAX_CELLS).map(|_| splitmix64(&mut state)).collect() };
        let black = table();
        let white = table();
        let white_to_move = splitmix64(&mut state);
        Zobrist { stones: [black, white], white_to_move }
    })
}

/// SplitMix64: tiny, well-mixed, and needs no dependency.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
