//! Gorin: a Gomoku / Renju engine for the Gomocup brain protocol.

pub mod app;
pub mod bench;
pub mod board;
pub mod cpu;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod fit;
pub mod pattern;
pub mod play;
pub mod protocol;
pub mod review;
pub mod rules;
pub mod search;
pub mod solve;
pub mod types;
