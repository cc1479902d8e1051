//! Command-line names for the library's choices: each mirrors a library enum variant for
//! variant (the library has no clap types) and converts into it. Enums whose names the library
//! defines itself (the SAT backends) get a value parser over those names instead.
//!
//! And the one value parser of every numeric flag, [`ranged`] (issue 40): each flag states its
//! range where it is declared, chosen from what the flag drives (an allocation, a loop, a table
//! size, a budget) so that every value in range ends in bounded memory and time; any other text
//! is bad input (clap's usage error, exit 2) naming the flag and the range. The flag's help
//! states the same range; `tests/it/flags.rs` walks every command's flags and holds both to it.

use gamecert::base::sat::Backend;

/// Defines a `clap::ValueEnum` with the same variants as a library enum, and the conversion.
macro_rules! mirror {
    ($(#[$meta:meta])* $name:ident => $target:ty { $($(#[$vmeta:meta])* $variant:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl From<$name> for $target {
            fn from(value: $name) -> $target {
                match value {
                    $($name::$variant => <$target>::$variant,)*
                }
            }
        }
    };
}

mirror! {
    /// How `solve` solves an instance.
    Method => gamecert::base::method::Method {
        /// The default: the method that fits the instance. One-round Voronoi games: `reduction`
        /// when the instance records its source formula, `direct` otherwise; multi-round: the
        /// DNF reduction's maps, `kary`, `median` or `exact` as they apply; other kinds: their
        /// one solver or the paper's strategy where one applies.
        Auto,
        /// One-round Voronoi games: solve the checker's own CNF encoding of "B wins" (a
        /// witness, or an LRAT refutation trusting only the game's rules).
        Direct,
        /// One-round Voronoi games built by `reduce`: solve the recorded formula (a witness by
        /// the forward map, or an LRAT refutation appealing to Theorem 3 or Corollary 1).
        Reduction,
        /// Multi-round Voronoi games of one round on a tree: the linear-time median rule.
        Median,
        /// Multi-round games on complete k-ary trees: seed 001's strategies (Algorithm 1, the
        /// key-level Algorithm 2, B's symmetric strategy).
        Kary,
        /// The exact solver: multi-round Voronoi games (at most 128 vertices), marking games (at
        /// most 26 edges) and the games with scores or ties on points and triangulations.
        Exact,
        /// `bichromatic-coloring`: Lemma 4's balanced colouring with no monochromatic face (a
        /// `balanced-colouring` witness, not the game's value).
        Lemma4,
        /// Marking games in convex position: seed 000's Theorems 1 and 2 as sums of Kayles or
        /// Dawson's Kayles heaps (a `marking-kayles` certificate), at any size.
        Heaps,
        /// Vertex NimG (weight-0 vertices allowed): every position below the start labelled N
        /// or P (a `vertexnim-outcomes` certificate, relabelled by the checker).
        Outcomes,
        /// Nimstring on a triangulation whose dual is a path (fans, serpentine), any size:
        /// Nimstring values of strips (a `nimstring-strips` certificate).
        Strips,
        /// Proof search (depth-first, with a transposition table of --memory): triangle
        /// avoidance, the Winner's proof (a triangle-strategy, or with -o and n >= 13 or
        /// --stream a triangle-stream); multi-round Voronoi games on trees, the outcome (W
        /// wins, tie or B wins) by two threshold tests (a voronoi-strategy, or a voronoi-value
        /// of 0 for a tie).
        Prove,
        /// The same proof search by df-pn (proof-number search) instead of depth-first: kept
        /// for comparison (`gamecert bench prove`); slower on every family measured.
        Dfpn,
        /// Multi-round Voronoi games on a graph with an automorphism of order 2 without fixed
        /// points that swaps the start's colours (even paths and cycles, grids with an even
        /// side, hypercubes): B's mirror strategy, B at least ties (a `voronoi-mirror`, checked
        /// in time linear in the graph).
        Mirror,
        /// Multi-round Voronoi games on a path from an empty start: W plays rule U (ideal
        /// vertices, the two ends first, then the greedy move; issue 49), W at least ties (a
        /// `voronoi-path-rule`, whose moves the checker computes and replays).
        Rule,
        /// The same with B playing rule U: B at least ties (on odd paths).
        RuleBlack,
    }
}

mirror! {
    /// The shape of a generated triangulation.
    Kind => gamecert::triangulations::generate::Kind {
        /// A random triangulation of the convex polygon.
        Convex,
        /// The convex polygon, every triangle at point 0.
        Fan,
        /// A random triangulation of the convex polygon whose dual is a path.
        Serpentine,
        /// A random convex one in which no two inner triangles share an edge.
        SimpleBranching,
        /// n - 1 points in convex position around one inner centre, every triangle at it.
        Wheel,
        /// n - inner points in convex position and --inner random points inside.
        Points,
    }
}

mirror! {
    /// The flipping games of seed 000, 2.2.
    FlipGameArg => gamecert_certificates::triangulations::flipping::FlipGame {
        /// 2.2.1, normal play.
        MonochromaticFlipping,
        /// 2.2.2 (MFT): whoever completes a green triangle wins; a tie if nobody does.
        FlippingToTriangle,
        /// 2.2.3: red against blue, score red minus blue.
        BichromaticFlipping,
        /// 2.2.4, solitaire: as many green edges as possible.
        AllGreen,
        /// 2.2.5, solitaire: more green than black edges.
        GreenWins,
    }
}

mirror! {
    /// The games of seed 002 the triangle-avoidance solver plays.
    TriangleRules => gamecert::triangle_avoidance::rules::Rules {
        /// One-colour triangle avoidance (the paper's main game).
        TriangleAvoidance,
        /// One-colour triangle achievement.
        TriangleAchievement,
        /// Odd-cycle avoidance (the paper's Theorem 1).
        OddCycleAvoidance,
        /// Connected triangle avoidance (Seress).
        ConnectedAvoidance,
    }
}

/// The values of `--sat`: the library's backend names ([`Backend::name`]), parsed by the
/// library.
pub fn sat_backend() -> impl clap::builder::TypedValueParser<Value = Backend> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Backend::ALL.map(Backend::name))
        .try_map(|name| name.parse::<Backend>())
}

/// The value parser of a numeric flag: a number from `lo` to `hi`, inclusive. Any other text
/// (a negative number, a number past `u64` such as 2^64 = 18446744073709551616, a fraction
/// where a whole number is wanted, a word) is refused with the range named: clap then reports
/// `invalid value '4294967296' for '--point-sets <N>': expected a whole number from 0 to 10^5`
/// and exits 2. Whole numbers are read by the checker's own rule
/// ([`gamecert_certificates::base::command_line::whole_number`], which `gamecert-check
/// --max-work` uses too): digits, `_` allowed between them.
pub fn ranged<T: Number>(lo: T, hi: T) -> impl clap::builder::TypedValueParser<Value = T> {
    move |text: &str| T::read(text, lo, hi)
}

/// A type a numeric flag holds: the whole number types and `f64`.
pub trait Number: Copy + Clone + Send + Sync + 'static {
    /// `text` as a number from `lo` to `hi`, or the message naming the range.
    fn read(text: &str, lo: Self, hi: Self) -> Result<Self, String>;
}

macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl Number for $t {
            fn read(text: &str, lo: Self, hi: Self) -> Result<Self, String> {
                use gamecert_certificates::base::command_line::whole_number;
                let (low, high) = (lo as u64, hi as u64);
                let number = whole_number(text, low, high)?;
                // In range, so it fits: the bounds are of this type.
                Self::try_from(number).map_err(|_| {
                    gamecert_certificates::base::command_line::expected_whole(low, high)
                })
            }
        }
    )*};
}

whole_numbers!(u16, u32, u64, usize);

impl Number for f64 {
    /// Decimal digits with at most one point and a leading `-` (no exponent, `inf` or `nan`).
    fn read(text: &str, lo: f64, hi: f64) -> Result<f64, String> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let decimal = digits.bytes().any(|b| b.is_ascii_digit())
            && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && digits.bytes().filter(|&b| b == b'.').count() <= 1;
        decimal
            .then(|| text.parse::<f64>().ok())
            .flatten()
            .filter(|x| (lo..=hi).contains(x))
            .ok_or_else(|| format!("expected a number from {lo} to {hi}"))
    }
}

/// The largest `--max-work`, 10^15 work units, the checker's own bound
/// ([`gamecert_certificates::base::command_line::MAX_WORK`]: the budget only bounds work, and
/// this one ends within about 15 days at the slowest rate measured).
pub const MAX_WORK: u64 = gamecert_certificates::base::command_line::MAX_WORK;

/// `--max-work`'s parser: 1 to 10^15 work units.
pub fn max_work() -> impl clap::builder::TypedValueParser<Value = u64> {
    ranged(1, MAX_WORK)
}

/// `--seed`'s parser: any seed from 0 to 2^64 - 1 (a seed drives no size).
pub fn seed() -> impl clap::builder::TypedValueParser<Value = u64> {
    ranged(0, u64::MAX)
}

/// `--memory GB`'s parser for the out-of-core engine: 0.01 to 4096 GB (a limit on its buffers,
/// not an allocation).
pub fn memory_gb() -> impl clap::builder::TypedValueParser<Value = f64> {
    ranged(0.01, 4096.0)
}

/// `--max-memory-gb`, flattened into every command that builds what a file's declared sizes
/// ask for (`reduce`, `gen graph`, `solve`, `render`, `export-proof`): the memory allowed,
/// instead of the file's own allowance ([`gamecert::base::limits::Allowance`]).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct MaxMemory {
    /// What a file's declared sizes (a header's `p dnf V T` or `p edge N M`, a recorded
    /// formula's variables) may make gamecert build, in GiB (2^30 bytes), 0.01 to 4096; by
    /// default 1 GiB plus 64 bytes per byte of the file as stored.
    #[arg(long, value_name = "GIB", value_parser = memory_gb())]
    pub max_memory_gb: Option<f64>,
}

impl MaxMemory {
    /// The allowance of a file of `stored` bytes, with this flag.
    pub fn allowance(&self, stored: u64) -> gamecert::base::limits::Allowance {
        gamecert::base::limits::Allowance::of_file(stored).with_flag(self.max_memory_gb)
    }
}

/// `--max-minutes`, flattened into every command whose flags reach runs of hours or days
/// (`table`, `gen`, `check-reduction`, `bench`): the run's time allowance
/// ([`gamecert::base::limits::TimeAllowance`]).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct MaxMinutes {
    /// The longest run allowed, in minutes, 0.01 to 1000000 (default 60): a request estimated
    /// (from figures measured on a 2-core machine) to take longer is refused before it starts,
    /// with the time and memory it would need.
    #[arg(long, value_name = "MINUTES", global = true, value_parser = ranged::<f64>(0.01, 1_000_000.0))]
    pub max_minutes: Option<f64>,
}

impl MaxMinutes {
    /// The allowance.
    pub fn allowance(&self) -> gamecert::base::limits::TimeAllowance {
        gamecert::base::limits::TimeAllowance::of_flag(self.max_minutes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text outside the range, whatever its kind, gets the one message naming the range.
    #[test]
    fn ranges_are_named_for_any_text() {
        let refused = "expected a whole number from 1 to 64";
        for text in ["0", "65", "-1", "4294967296", "18446744073709551616", "1.5", "x", "", "+3"] {
            assert_eq!(usize::read(text, 1, 64), Err(refused.into()), "{text:?}");
            assert_eq!(u16::read(text, 1, 64), Err(refused.into()), "{text:?}");
        }
        assert_eq!(usize::read("64", 1, 64), Ok(64));
        assert_eq!(u64::read("1_000", 1, 1000), Ok(1000));
        assert_eq!(u64::read("18446744073709551615", 0, u64::MAX), Ok(u64::MAX));
        let refused = "expected a number from 0.01 to 4096";
        for text in ["0", "-1", "4096.5", "1e3", "inf", "nan", "NaN", "1..2", ".", "-", "x"] {
            assert_eq!(f64::read(text, 0.01, 4096.0), Err(refused.into()), "{text:?}");
        }
        assert_eq!(f64::read("0.01", 0.01, 4096.0), Ok(0.01));
        assert_eq!(f64::read("4096", 0.01, 4096.0), Ok(4096.0));
        assert_eq!(f64::read(".5", 0.0, 1.0), Ok(0.5));
        assert_eq!(f64::read("-0", 0.0, 1.0), Ok(0.0));
    }
}
