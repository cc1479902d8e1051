//! Statements of theorems the checker takes on faith, kept here (out of the shared core) and
//! listed in [`crate::TRUSTED_THEOREMS`]; docs/trusted.md says how each was tested.

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
