//! A point of the board, as the board's grid numbers it.

/// A point, as an index into the padded grid of one board size. Index 0 is always padding,
/// so `Pos::NONE` never names a playable point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Pos(pub u16);

impl Pos {
    pub const NONE: Pos = Pos(0);

    pub fn index(self) -> usize {
        self.0 as usize
    }
}
