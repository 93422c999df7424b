//! Offline fitting: the `tune*` commands that fit the evaluation's weights (`tune`), its net
//! (`netfit`, `rankfit`) and the move-ordering policy (`policyfit`) to game records, with the
//! Adam step they share (`adam`). Nothing the engine runs imports this module; it may import
//! the search.

pub mod adam;
pub mod netfit;
pub mod policyfit;
pub mod rankfit;
pub mod tune;
