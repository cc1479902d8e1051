//! How `gamecert solve` should solve an instance ([`Method`]), shared by every family.

/// Which refutation method to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `reduction` when the instance records its source formula, `direct` otherwise.
    Auto,
    /// Solve the checker's own CNF encoding of the instance.
    Direct,
    /// Solve the recorded source formula and appeal to the paper's theorem.
    Reduction,
    /// Multi-round games, one round on a tree: the linear-time median rule.
    Median,
    /// Multi-round games on complete k-ary trees: seed 001's strategies (Algorithm 1, the
    /// key-level Algorithm 2, B's symmetric strategy).
    Kary,
    /// Multi-round games: the exact solver (at most 128 vertices).
    Exact,
    /// `bichromatic-coloring`: Lemma 4's balanced colouring with no monochromatic face (a
    /// `balanced-colouring` witness, not the game's value).
    Lemma4,
    /// Marking games in convex position: seed 000's Theorems 1 and 2 as sums of Kayles or
    /// Dawson's Kayles heaps (a `marking-kayles` certificate), at any size.
    Heaps,
}
