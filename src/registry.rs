//! The solver side's registry, the counterpart of the checker's `registry!`
//! (`gamecert_certificates::format`): every instance kind registers here, once, what gamecert
//! can do with it — its solve methods (in the order `--method auto` tries them, each with when
//! it applies), its size estimate, the `gen` families that make it, the `table`s built on it,
//! what `render` draws of it, and which certificate kinds `hint` and `play` can follow.
//!
//! Every front end goes through it: `gamecert solve` and the Python package by
//! [`crate::api::solve`], the demo and the tests by [`solve`]; `gamecert kinds` prints it;
//! `render` and `play` refuse what it does not list for a kind; and tests/it/registry.rs checks
//! that it names every kind the checker knows, once and in its order, and every `gen` family and
//! `table` of the command line (a table under one kind). Adding a game kind: ARCHITECTURE.md,
//! "Adding a game kind".

use crate::base::io::BadInput;
use crate::base::method::Method;
pub use crate::base::solved::{Checked, Options, SolvedGame, Solver};
use gamecert_certificates::format::Instance;

/// One way to solve a kind.
pub struct SolveMethod {
    /// Its name for `--method`; `Method::Auto` for a method only auto tries (it has no name).
    pub method: Method,
    /// Whether `--method auto` tries it (in the kind's order).
    pub auto: bool,
    /// When it applies and what it gives, in words (`gamecert kinds`, the docs).
    pub applies: &'static str,
    pub solve: Solver,
}

/// Everything gamecert does with one instance kind.
pub struct Kind {
    /// The instance's `kind` field.
    pub instance: &'static str,
    /// Which paper, in words.
    pub paper: &'static str,
    pub methods: &'static [SolveMethod],
    /// The size of an instance for its largest solver, in words (`None`: no estimate).
    pub estimate: Option<fn(&Instance) -> Option<String>>,
    /// The `gamecert gen` families that write this kind.
    pub generators: &'static [&'static str],
    /// The `gamecert table`s computed over this kind.
    pub tables: &'static [&'static str],
    /// What `gamecert render` draws (empty: nothing).
    pub pictures: &'static str,
    /// The certificate kinds `hint` and `play` follow for this kind.
    pub strategies: &'static [&'static str],
}

impl Kind {
    /// The methods `--method` may name for this kind, in order (auto first).
    pub fn method_names(&self) -> Vec<&'static str> {
        let mut names = vec![Method::Auto.name()];
        for m in self.methods {
            if m.method != Method::Auto && !names.contains(&m.method.name()) {
                names.push(m.method.name());
            }
        }
        names
    }
}

/// A method tried by auto only.
const AUTO: Method = Method::Auto;

/// Every instance kind, in the checker's registry order.
pub static KINDS: &[Kind] = &[
    Kind {
        instance: "voronoi-one-round",
        paper: "seed 001: the one-round Voronoi game (Theorem 3, Corollary 1)",
        methods: &[
            SolveMethod {
                method: Method::Reduction,
                auto: true,
                applies: "the instance records its source formula: solve the formula, appeal \
                          to Theorem 3 (a witness, or an LRAT refutation of the formula)",
                solve: crate::voronoi::solve::one_round,
            },
            SolveMethod {
                method: Method::Direct,
                auto: true,
                applies: "any one-round instance: the checker's own CNF encoding (a witness, \
                          or an LRAT refutation of the encoding)",
                solve: crate::voronoi::solve::one_round,
            },
        ],
        estimate: Some(crate::voronoi::solve::one_round_estimate),
        generators: &[],
        tables: &[],
        pictures: "the graph, W's stones and, with a witness, B's placement (DOT or SVG)",
        strategies: &[],
    },
    Kind {
        instance: "voronoi",
        paper: "seed 001: the multi-round Voronoi game (Theorems 1, 2 and 4)",
        methods: &[
            SolveMethod {
                method: AUTO,
                auto: true,
                applies: "the image of the positive-DNF reduction of its recorded formula: the \
                          forward maps (Theorem 4)",
                solve: crate::voronoi::solve::forward_maps,
            },
            SolveMethod {
                method: Method::Kary,
                auto: true,
                applies: "a complete k-ary tree from `gen kary-tree`: the paper's strategies \
                          (Algorithms 1 and 2, B's symmetric strategy), kept when they check",
                solve: crate::voronoi::solve::kary,
            },
            SolveMethod {
                method: Method::Median,
                auto: true,
                applies: "one round on a tree from an empty start: the linear-time median rule",
                solve: crate::voronoi::solve::median,
            },
            SolveMethod {
                method: AUTO,
                auto: true,
                applies: "a path from an empty start (up to 200 vertices): the gap-state solver \
                          (a voronoi-path-value)",
                solve: crate::voronoi::solve::path_gaps,
            },
            SolveMethod {
                method: Method::Exact,
                auto: true,
                applies: "any instance up to 128 vertices: the exact solver, both players' \
                          strategies (a voronoi-value)",
                solve: crate::voronoi::solve::exact,
            },
            SolveMethod {
                method: Method::Prove,
                auto: false,
                applies: "a tree (up to 128 vertices) from an empty start: the outcome by two \
                          threshold tests of depth-first proof search (a voronoi-strategy for W \
                          or B, a voronoi-value of 0 for a tie)",
                solve: crate::voronoi::tree_prove::solve_instance,
            },
            SolveMethod {
                method: Method::Dfpn,
                auto: false,
                applies: "as prove, by df-pn proof search",
                solve: crate::voronoi::tree_prove::solve_instance,
            },
            SolveMethod {
                method: Method::Mirror,
                auto: false,
                applies: "a graph with an automorphism of order 2 without fixed points that swaps \
                          the start's colours (even paths and cycles, grids with an even side, \
                          hypercubes): B's mirror, B at least ties (a voronoi-mirror, checked in \
                          linear time)",
                solve: crate::voronoi::solve::mirror,
            },
            SolveMethod {
                method: Method::Rule,
                auto: false,
                applies: "a path from an empty start: W plays rule U (issue 49), W at least ties \
                          (a voronoi-path-rule, the rule's moves computed and replayed by the \
                          checker)",
                solve: crate::voronoi::solve::rule_white,
            },
            SolveMethod {
                method: Method::RuleBlack,
                auto: false,
                applies: "a path from an empty start: B plays rule U (issue 49), B at least ties \
                          (on odd paths; a voronoi-path-rule)",
                solve: crate::voronoi::solve::rule_black,
            },
        ],
        estimate: Some(crate::voronoi::solve::estimate),
        generators: &["path", "kary-tree", "tree", "graph"],
        tables: &["voronoi-kary", "voronoi-paths", "voronoi-graphs"],
        pictures: "the graph and a strategy's principal line, frame by frame (DOT or SVG)",
        strategies: &["voronoi-strategy", "voronoi-value", "voronoi-path-value"],
    },
    Kind {
        instance: "posdnf-game",
        paper: "seed 001: the positive-DNF game (Theorem 4's source)",
        methods: &[SolveMethod {
            method: Method::Exact,
            auto: true,
            applies: "any formula: the exact solver over the variables taken (a dnf-strategy)",
            solve: crate::voronoi::solve::dnf_game,
        }],
        estimate: Some(crate::voronoi::solve::dnf_estimate),
        generators: &[],
        tables: &[],
        pictures: "the formula's start, or a dnf-strategy's play move by move (SVG)",
        strategies: &["dnf-strategy"],
    },
    Kind {
        instance: "coin-game",
        paper: "seed 003: coin-turning games (Winning Ways, chapter 14)",
        methods: &[SolveMethod {
            method: AUTO,
            auto: true,
            applies: "closed forms and the tartan theorem, labels checked by mex (a \
                      coin-labelling)",
            solve: crate::impartial::coins::solve,
        }],
        estimate: None,
        generators: &[],
        tables: &[],
        pictures: "the board (heads and tails) and a coin-labelling's play, move by move (SVG)",
        strategies: &["coin-labelling"],
    },
    Kind {
        instance: "heap-game",
        paper:
            "seeds 000 and 003: octal games (Kayles, Dawson's Kayles) and Grundy's game on heaps",
        methods: &[SolveMethod {
            method: AUTO,
            auto: true,
            applies: "the nim-sequence by the rare/common method (a heap-labelling)",
            solve: crate::impartial::octal::solve_instance,
        }],
        estimate: None,
        generators: &[],
        tables: &["kayles", "dawson-kayles", "grundy", "octal"],
        pictures: "the heaps as rows of tokens and a heap-labelling's play, move by move (SVG)",
        strategies: &["heap-labelling"],
    },
    Kind {
        instance: "triangle-avoidance",
        paper: "seed 002: one-colour triangle avoidance",
        methods: &[
            SolveMethod {
                method: AUTO,
                auto: true,
                applies: "n <= 12: the game digraph over unlabelled graphs (a triangle-strategy); \
                      `solve -o FILE` writes a triangle-stream from disk for n up to 16",
                solve: crate::triangle_avoidance::solver::solve_instance,
            },
            SolveMethod {
                method: Method::Prove,
                auto: false,
                applies: "depth-first proof search: only the Winner's proof, not the whole game \
                          digraph (a triangle-strategy; with -o FILE for n >= 13 or --stream a \
                          triangle-stream)",
                solve: crate::triangle_avoidance::prove::solve_instance,
            },
            SolveMethod {
                method: Method::Dfpn,
                auto: false,
                applies: "as prove, by df-pn proof search",
                solve: crate::triangle_avoidance::prove::solve_instance,
            },
        ],
        estimate: Some(crate::triangle_avoidance::external::estimate),
        generators: &[],
        tables: &["triangle-avoidance"],
        pictures: "the n nodes at the start, or a triangle-strategy's play edge by edge (SVG)",
        strategies: &["triangle-strategy"],
    },
    Kind {
        instance: "marking-game",
        paper: "seed 000: the marking and constructing games on triangulations",
        methods: &[
            SolveMethod {
                method: AUTO,
                auto: true,
                applies: "games with scores or ties (2.1.1-2.1.4, 2.3.2): the paper's program \
                          where it applies (Theorems 3 and 6), else the exact solver",
                solve: crate::triangulations::solve::construct,
            },
            SolveMethod {
                method: Method::Exact,
                auto: true,
                applies: "any game on a small board: the exact solver (a marking-strategy or \
                          construct-strategy)",
                solve: crate::triangulations::solve::marking_exact,
            },
            SolveMethod {
                method: Method::Exact,
                auto: false,
                applies: "games with scores or ties: the exact solver, whatever the paper's \
                          programs",
                solve: crate::triangulations::solve::construct,
            },
            SolveMethod {
                method: Method::Strips,
                auto: true,
                applies: "nimstring (normal play) on a triangulation whose dual is a path (fans, \
                          serpentine), any size: Nimstring values of strips",
                solve: crate::triangulations::solve::strips,
            },
            SolveMethod {
                method: Method::Heaps,
                auto: true,
                applies: "coloring and monochromatic-triangle in convex position, any size: \
                          Theorems 1 and 2 as sums of Kayles or Dawson's Kayles heaps",
                solve: crate::triangulations::solve::heaps,
            },
            SolveMethod {
                method: Method::Lemma4,
                auto: false,
                applies: "bichromatic-coloring: Lemma 4's balanced colouring (a witness that \
                          bounds the score, not the game's value)",
                solve: crate::triangulations::solve::lemma4,
            },
        ],
        estimate: None,
        generators: &["triangulation"],
        tables: &["nimstring-fans", "bichromatic-construct"],
        pictures: "the points and triangulation, a marking-strategy's play, the heaps of a \
                   marking-kayles (SVG)",
        strategies: &["marking-strategy", "construct-strategy"],
    },
    Kind {
        instance: "flip-game",
        paper: "seed 000: the flipping games",
        methods: &[
            SolveMethod {
                method: AUTO,
                auto: true,
                applies: "Theorem 9 in convex position, the reduced solver for flipping to a \
                          triangle on a convex polygon, the solitaire games' sequences, else \
                          the exact solver",
                solve: crate::triangulations::solve::flip,
            },
            SolveMethod {
                method: Method::Exact,
                auto: false,
                applies: "the exact solver (at most 16 points), whatever the theorems",
                solve: crate::triangulations::solve::flip,
            },
        ],
        estimate: None,
        generators: &["triangulation"],
        tables: &["flipping", "serpentine-mft", "green-wins"],
        pictures: "the triangulation and a flip-value's or flip-sequence's flips (SVG)",
        strategies: &["flip-value"],
    },
    Kind {
        instance: "vertexnim",
        paper: "seed 004: vertex nim",
        methods: &[
            SolveMethod {
                method: AUTO,
                auto: true,
                applies: "the exact solver (a vertexnim-strategy), else a theorem's labelling (a \
                      vertexnim-labelling), else, for NimG, the outcome of every position below \
                      the start (a vertexnim-outcomes)",
                solve: crate::vertexnim::solver::solve_instance,
            },
            SolveMethod {
                method: Method::Outcomes,
                auto: false,
                applies: "Vertex NimG (variant nimg), weight-0 vertices allowed: every position \
                      below the start labelled N or P (a vertexnim-outcomes; at most 100 million \
                      positions: the product of (weight + 1) over the vertices, times their count)",
                solve: crate::vertexnim::outcomes::solve_instance,
            },
        ],
        estimate: None,
        generators: &["vertexnim"],
        tables: &["vertex-nimg"],
        pictures:
            "the weighted graph and the token at the start, or a vertexnim-strategy's play (SVG)",
        strategies: &["vertexnim-strategy"],
    },
];

/// The registry's entry for an instance kind.
pub fn kind(instance_kind: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.instance == instance_kind)
}

/// Solves `instance` as its kind registers: with `Method::Auto` every method auto tries, in
/// order, until one applies; with a named method the kind's methods of that name, in order.
/// A method the kind does not have is a [`BadInput`] naming the ones it has. The caller checks
/// the certificate (unless the method did, [`SolvedGame::checked`]).
pub fn solve(instance: &Instance, options: &Options) -> anyhow::Result<SolvedGame> {
    let kind = kind(instance.kind()).ok_or_else(|| {
        anyhow::anyhow!("internal error: the {} kind is not registered", instance.kind())
    })?;
    let tried: Vec<&SolveMethod> = match options.method {
        Method::Auto => kind.methods.iter().filter(|m| m.auto).collect(),
        named => kind.methods.iter().filter(|m| m.method == named).collect(),
    };
    if tried.is_empty() {
        return Err(BadInput(format!(
            "--method {} does not apply to a {} instance; it takes {}",
            options.method.name(),
            kind.instance,
            kind.method_names().join(", ")
        ))
        .into());
    }
    for method in &tried {
        if let Some(solved) = (method.solve)(instance, options)? {
            return Ok(solved);
        }
    }
    let applies: Vec<&str> = tried.iter().map(|m| m.applies).collect();
    Err(BadInput(format!(
        "no method of {} applies to this instance; they take: {}",
        kind.instance,
        applies.join("; ")
    ))
    .into())
}

/// [`solve`] with `method` and the default SAT backend.
pub fn solve_game(instance: &Instance, method: Method) -> anyhow::Result<SolvedGame> {
    solve(instance, &Options { method, ..Options::default() })
}

/// `gamecert kinds`: the registry as text, a section per kind.
pub fn describe() -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    for kind in KINDS {
        let _ = writeln!(text, "{} ({})", kind.instance, kind.paper);
        for m in kind.methods {
            let name = if m.method == Method::Auto { "auto only" } else { m.method.name() };
            let tried = if m.auto { "" } else { " (when named)" };
            let _ = writeln!(text, "  solve {name}{tried}: {}", m.applies);
        }
        let list =
            |items: &[&str]| if items.is_empty() { "-".to_string() } else { items.join(", ") };
        let _ = writeln!(text, "  gen: {}", list(kind.generators));
        let _ = writeln!(text, "  table: {}", list(kind.tables));
        let pictures = if kind.pictures.is_empty() { "-" } else { kind.pictures };
        let _ = writeln!(text, "  render: {pictures}");
        let _ = writeln!(text, "  hint and play: {}", list(kind.strategies));
    }
    text
}

/// `gamecert kinds --json`: the registry as JSON, one object per kind.
pub fn to_json() -> serde_json::Value {
    let kinds: Vec<serde_json::Value> = KINDS
        .iter()
        .map(|kind| {
            let methods: Vec<serde_json::Value> = kind
                .methods
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "method": if m.method == Method::Auto { None } else { Some(m.method.name()) },
                        "auto": m.auto,
                        "applies": m.applies,
                    })
                })
                .collect();
            serde_json::json!({
                "kind": kind.instance,
                "paper": kind.paper,
                "methods": methods,
                "generators": kind.generators,
                "tables": kind.tables,
                "pictures": kind.pictures,
                "strategies": kind.strategies,
            })
        })
        .collect();
    serde_json::json!({ "kinds": kinds })
}
