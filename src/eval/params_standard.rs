/// Standard (exact five) weights: for now the freestyle set; `pbrain-gorin tune` on teacher
/// positions judged under rule 1 prints its replacement.
pub const STANDARD: Weights = FREESTYLE;
