//! The rules that need a board to judge: renju's forbidden points. (The rule values and what
//! counts as a five are ground types, in `crate::types`.)

pub mod renju;
