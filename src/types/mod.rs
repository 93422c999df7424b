//! The ground floor: the vocabulary every other module shares — a stone's colour, a point of
//! the board, the rule of the game and what counts as a five under it. Nothing here imports
//! anything else of the crate.

mod color;
mod pos;
mod rule;

pub use color::Color;
pub use pos::Pos;
pub use rule::{End, FiveRule, Rule};
