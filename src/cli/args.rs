//! Command-line names for the library's choices: each mirrors a library enum variant for
//! variant (the library has no clap types) and converts into it. Enums whose names the library
//! defines itself (the SAT backends) get a value parser over those names instead.

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
        /// Proof search (df-pn with a transposition table of --memory): triangle avoidance,
        /// the Winner's proof (a triangle-strategy, or with -o and n >= 13 or --stream a
        /// triangle-stream); multi-round Voronoi games on trees, the outcome (W wins, tie or B
        /// wins) by two threshold tests (a voronoi-strategy, or a voronoi-value of 0 for a tie).
        Prove,
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
