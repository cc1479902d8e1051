//! Statements of theorems the checker takes on faith, kept here (out of the shared core): the
//! names ([`Theorem`]) and the one list ([`TRUSTED_THEOREMS`]); docs/trusted.md says how each
//! was tested.

/// Seed 000's reductions of two games in convex position to heap games, used by
/// `marking-kayles` certificates; each compared with the exact solver on small instances.
pub const TRUSTED_TRIANGULATION_HEAPS: &str = "Aichholzer et al. Theorems 1 and 2 (reductions): \
the Triangulation Coloring Game on a simple-branching triangulation of points in convex \
position is Kayles on the arrays of the dual without its inner triangles (a hull edge takes its \
triangle, a diagonal the array triangles beside it); Monochromatic Triangle on n points in \
convex position is Dawson's Kayles on a heap of n (a segment takes its two endpoints and splits \
the others by side)";

/// Berlekamp's Nimstring values as the `nimstring-strips` certificates use them
/// ([`crate::triangulations::nimstring_strips`]); tested against the exact compound-move solver
/// on every position of every fan with at most 10 triangles and of sums of two fans.
pub const TRUSTED_NIMSTRING_VALUES: &str = "Nimstring values (Berlekamp, Conway, Guy, Winning \
Ways, chapter 16; Berlekamp, The Dots-and-Boxes Game): in Strings-and-Coins under normal play (a \
player who frees a coin moves again; one who cannot complete a turn loses), (a) a position in \
which a capturable coin (one string left) is tied to a coin of exactly two strings whose other \
string goes to the ground or to a coin of at least two strings is loony: the player to move \
wins it plus any position; (b) otherwise capturing a capturable coin changes the outcome of no \
sum; (c) so a position without capturable coins has the Nimstring value mex, over its cuts that \
leave no loony position, of the nim sum of the values of what the cut leaves after the \
captures, the value of a sum is the nim sum, and the player to move loses iff it is 0; (d) by \
(a), no cut in a run of three or more two-string coins is such a cut, so a strip of coins splits \
there into independent pieces whose end coins keep the run as a string that is never cut and \
makes a loony position once it is the coin's last";

/// A theorem the checker takes on faith, named; its statement is [`Theorem::statement`], an
/// entry of [`TRUSTED_THEOREMS`]. A verdict lists the statements of the ones it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theorem {
    SatVoronoiTheorem3 = 0,
    SatVoronoiCorollary1,
    PathGaps,
    SpragueGrundy,
    OctalPeriodicity,
    TriangulationHeaps,
    CoinDecomposition,
    VertexNimTheorem10,
    VertexNimTheorem6,
    VertexNimTheorem3,
    NimstringValues,
}

impl Theorem {
    /// Every theorem, in the order of [`TRUSTED_THEOREMS`].
    pub const ALL: [Theorem; 11] = [
        Theorem::SatVoronoiTheorem3,
        Theorem::SatVoronoiCorollary1,
        Theorem::PathGaps,
        Theorem::SpragueGrundy,
        Theorem::OctalPeriodicity,
        Theorem::TriangulationHeaps,
        Theorem::CoinDecomposition,
        Theorem::VertexNimTheorem10,
        Theorem::VertexNimTheorem6,
        Theorem::VertexNimTheorem3,
        Theorem::NimstringValues,
    ];

    /// The statement taken on faith.
    pub fn statement(self) -> &'static str {
        TRUSTED_THEOREMS[self as usize]
    }
}

/// Seed 001 (Teramoto, Demaine, Uehara), Theorem 3.
pub const TRUSTED_THEOREM_3: &str = "Teramoto-Demaine-Uehara Theorem 3: for a CNF formula with \
clauses of 1 to 3 literals in which each variable occurs at most three times, B wins the \
one-round game on the sat-voronoi1 graph (W holds u, B places n vertices) iff the formula is \
satisfiable";

/// Seed 001, Corollary 1.
pub const TRUSTED_COROLLARY_1: &str = "Teramoto-Demaine-Uehara Corollary 1: the same for the \
sat-voronoi2 graph (W holds u and n - 1 pendant vertices of P)";

/// The Sprague-Grundy theorem, for impartial games under normal play.
pub const TRUSTED_SPRAGUE_GRUNDY: &str = "Sprague-Grundy theorem: under normal play, the Grundy \
value of a disjunctive sum of impartial games is the nim sum (XOR) of the components' values, \
and a position is a second-player win iff its value is 0";

/// The periodicity theorem for octal games (Guy and Smith 1956; Winning Ways, chapter 4), used
/// when a heap labelling claims a period.
pub const TRUSTED_OCTAL_PERIODICITY: &str = "octal periodicity theorem (Guy-Smith): for an \
octal game whose code has first digit 0 and last non-zero digit in position t, if G(n + p) = \
G(n) for all n with n0 <= n < 2 n0 + p + t, then G(n + p) = G(n) for every n >= n0";

/// The gap abstraction of the game on a path ([`path_game`]); tested against the reference
/// rules on every position of every path with at most 9 vertices.
pub const TRUSTED_PATH_GAPS: &str = "path gaps: scores and moves of the Voronoi game on a path \
depend only on the multiset of typed gaps (maximal runs of empty vertices, typed by the path \
end or stones that bound them)";

/// The coin-turning decomposition (seed 003; Winning Ways, chapter 14).
pub const TRUSTED_COIN_DECOMPOSITION: &str = "Coin-turning decomposition: in a coin-turning game \
(a move turns over a set of coins whose last coin, the rightmost or in a product game the \
south-east corner, goes from heads to tails, and the sets allowed depend only on that last coin), \
a position is equivalent to the disjunctive sum of the positions with a single head, one for \
each of its heads (a tail turned to heads adds a component, a head turned to tails removes one, \
as G + G = 0); so the Grundy value of a single head is the mex over its moves of the nim sum of \
the values of the other coins turned, and a position's value is the nim sum of its heads' values";

/// Seed 004 (Duchene and Renault), Theorem 10, Theorem 13 and Corollary 12 as this project
/// reconstructs them (the seed lost its symbols); compared with an exact solver on every
/// undirected graph with at most 5 vertices and weights at most 3, and more (see the README).
pub const TRUSTED_VERTEXNIM_THEOREM_10: &str = "Duchene-Renault Theorem 10 / 13 / Corollary 12 \
(as reconstructed by gamecert): in undirected vertexnim, if every weight is 1 the first player \
wins iff the number of vertices is odd (even under misere play); a single vertex of weight at \
least 2 is a first-player win (under misere play iff it has a loop); otherwise the first player \
wins iff the token's vertex has weight 1 and its component among the weight-1 vertices has even \
order, or has weight at least 2 and a loop or a weight-1 neighbour, or is labelled N in the \
minimum-weight labelling of G* (vertices of weight >= 2 without loop or weight-1 neighbour: \
a vertex is P iff no neighbour in G* of strictly smaller weight is P); the same holds for \
undirected Vertex NimG under normal play with 0 in place of 1 and a loop deciding for the first \
player";

/// Seed 004, Theorems 6 and 14 with the labelling of Definition 7, as this project reconstructs
/// them; compared with an exact solver on every strongly connected digraph with a loop on each
/// vertex, up to 4 vertices with weights up to 4 and 5 vertices with weights up to 2.
pub const TRUSTED_VERTEXNIM_THEOREM_6: &str = "Duchene-Renault Theorem 6 / 14 (as reconstructed \
by gamecert): in directed vertexnim on a strongly connected digraph with a loop on every vertex, \
if every weight is 1 the first player wins iff the number of vertices is odd (even under misere \
play); otherwise the first player wins iff the token's vertex has weight at least 2 or is \
labelled N by the peeling of Definition 7 (repeatedly, a sink strongly connected component C of \
the unlabelled weight-1 vertices: if |C| is odd, C is P and its unlabelled in-neighbours N; if \
|C| is even, C is N)";

/// Seed 004, Theorem 3 (Adjacent Nim), as this project reconstructs it; compared with an exact
/// solver on every circuit with 2 to 6 vertices and weights from 2 up to 5 (up to 4 vertices) or
/// 4 (1,308 positions).
pub const TRUSTED_VERTEXNIM_THEOREM_3: &str = "Duchene-Renault Theorem 3, Adjacent Nim (as \
reconstructed by gamecert): in directed vertexnim under normal play on a circuit of n >= 2 \
vertices without loops, every weight at least 2, the first player wins if n is odd; if n is even \
she wins iff the first vertex of minimum weight met from the token in play order sits at an odd \
offset (the token's vertex is offset 0)";

/// The one list of theorems the checker may take on faith.
pub const TRUSTED_THEOREMS: &[&str] = &[
    TRUSTED_THEOREM_3,
    TRUSTED_COROLLARY_1,
    TRUSTED_PATH_GAPS,
    TRUSTED_SPRAGUE_GRUNDY,
    TRUSTED_OCTAL_PERIODICITY,
    TRUSTED_TRIANGULATION_HEAPS,
    TRUSTED_COIN_DECOMPOSITION,
    TRUSTED_VERTEXNIM_THEOREM_10,
    TRUSTED_VERTEXNIM_THEOREM_6,
    TRUSTED_VERTEXNIM_THEOREM_3,
    TRUSTED_NIMSTRING_VALUES,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theorem_names_its_own_statement() {
        assert_eq!(Theorem::ALL.len(), TRUSTED_THEOREMS.len());
        for (k, theorem) in Theorem::ALL.iter().enumerate() {
            assert_eq!(*theorem as usize, k);
            assert_eq!(theorem.statement(), TRUSTED_THEOREMS[k]);
        }
    }
}
