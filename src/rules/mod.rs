//! The rules that need a board to judge: renju's forbidden points, and the tournament opening
//! rules (where opening stones go, which offered fifth moves are the same). (The rule values
//! and what counts as a five are ground types, in `crate::types`.)

pub mod opening;
pub mod renju;
