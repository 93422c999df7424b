//! The line classes a lines net (`FLAG_LINES`) reads: each empty point's four line windows,
//! its four neighbours on each side along a direction (8 cells of 2 bits: 0 empty, 1 the
//! viewer's stone, 2 the other side's, 3 off the board), from the side to move's view, named
//! by a class shared by a window and its mirror image. Rapfi's mix nets read the same kind of
//! input; a point's line class sees the stones and gaps that a shape index (four 4-bit
//! patterns) sums up, so the net learns what they are worth instead.
//!
//! Class 0 names no window (an occupied point's rows beyond its stone row, a zero row); the
//! classes of the 65,536 windows are 1.. in the order of their smaller image. The trainer never
//! numbers them itself: it reads them from the files `pbrain-gorin line-features` writes.

use std::sync::OnceLock;

/// Cells on each side of a point that its window holds.
pub const REACH: usize = 4;
/// Windows (8 cells of 2 bits).
const WINDOWS: usize = 1 << (4 * REACH);
/// Classes: the windows up to mirror image (their number is (4^8 + 4^4) / 2), plus class 0.
pub const CLASS_COUNT: usize = (WINDOWS + (1 << (2 * REACH))) / 2 + 1;

/// The window with its cells in the opposite order.
pub fn mirror(window: u16) -> u16 {
    (0..2 * REACH).fold(0, |out, j| out | ((window >> (2 * j)) & 3) << (2 * (2 * REACH - 1 - j)))
}

/// The window as the other side sees it: its stones change owner, walls stay.
pub fn swap_sides(window: u16) -> u16 {
    ((window & 0x5555) << 1) | ((window >> 1) & 0x5555)
}

/// Per window of a board's code (black = 1): its class from black's view and from white's.
pub fn classes() -> &'static [[u16; 2]] {
    static TABLE: OnceLock<Vec<[u16; 2]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut class = vec![0u16; WINDOWS];
        let mut next = 1u16;
        for w in 0..WINDOWS {
            let m = usize::from(mirror(w as u16));
            if m >= w {
                class[w] = next;
                class[m] = next;
                next += 1;
            }
        }
        debug_assert_eq!(usize::from(next), CLASS_COUNT);
        (0..WINDOWS).map(|w| [class[w], class[usize::from(swap_sides(w as u16))]]).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_number_the_windows_up_to_mirror_image() {
        let t = classes();
        let most = t.iter().map(|c| c[0]).max().unwrap();
        assert_eq!(usize::from(most), CLASS_COUNT - 1);
        assert!(t.iter().all(|c| c[0] >= 1 && c[1] >= 1));
        // A window and its mirror share a class, a window and its colour swap generally not.
        let w = 0b01_00_00_00_10_00_00_11u16;
        assert_eq!(mirror(mirror(w)), w);
        assert_eq!(t[usize::from(w)][0], t[usize::from(mirror(w))][0]);
        assert_ne!(t[usize::from(w)][0], t[usize::from(w)][1]);
        assert_eq!(t[usize::from(w)][1], t[usize::from(swap_sides(w))][0]);
        // The first windows in order: all empty is class 1, one own stone at the far left 2.
        assert_eq!(t[0][0], 1);
        assert_eq!(t[1][0], 2);
        assert_eq!(swap_sides(0b11_10_01_00), 0b11_01_10_00);
    }
}
