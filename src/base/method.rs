//! How `gamecert solve` should solve an instance ([`Method`]), shared by every family.

/// Which refutation method to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Each method the kind registers for auto, in order, until one applies
    /// ([`crate::registry`]).
    #[default]
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
    /// Vertex NimG: the outcome of every position below the start (a `vertexnim-outcomes`
    /// certificate, every position relabelled by the checker).
    Outcomes,
    /// Nimstring on a triangulation whose dual is a path (fans, serpentine): Nimstring values
    /// of strips (a `nimstring-strips` certificate), beyond the exact solver's boards.
    Strips,
    /// Proof search ([`crate::base::proof`]) by its depth-first engine: triangle avoidance (the
    /// Winner's proof), multi-round Voronoi games on trees (the outcome by threshold tests).
    Prove,
    /// The same proof search by df-pn (proof and disproof numbers) instead.
    Dfpn,
    /// Multi-round Voronoi games: B's mirror, an automorphism of order 2 without fixed points
    /// swapping the start's colours (a `voronoi-mirror` certificate: B at least ties).
    Mirror,
    /// Multi-round Voronoi games on a path from an empty start: W plays rule U of issue 49 (a
    /// `voronoi-path-rule` certificate: W at least ties).
    Rule,
    /// The same with B playing rule U (B at least ties; it holds on odd paths).
    RuleBlack,
}

impl Method {
    /// Every method, in the command line's order.
    pub const ALL: [Method; 15] = [
        Method::Auto,
        Method::Direct,
        Method::Reduction,
        Method::Median,
        Method::Kary,
        Method::Exact,
        Method::Lemma4,
        Method::Heaps,
        Method::Outcomes,
        Method::Strips,
        Method::Prove,
        Method::Dfpn,
        Method::Mirror,
        Method::Rule,
        Method::RuleBlack,
    ];

    /// Its name on the command line (`solve --method NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Method::Auto => "auto",
            Method::Direct => "direct",
            Method::Reduction => "reduction",
            Method::Median => "median",
            Method::Kary => "kary",
            Method::Exact => "exact",
            Method::Lemma4 => "lemma4",
            Method::Heaps => "heaps",
            Method::Outcomes => "outcomes",
            Method::Strips => "strips",
            Method::Prove => "prove",
            Method::Dfpn => "dfpn",
            Method::Mirror => "mirror",
            Method::Rule => "rule",
            Method::RuleBlack => "rule-black",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    fn from_str(name: &str) -> Result<Method, String> {
        crate::base::by_name(&Method::ALL, Method::name, "method", name)
    }
}

#[cfg(test)]
mod tests {
    use super::Method;

    #[test]
    fn every_method_reads_back_from_its_name() {
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
        }
        assert!("fast".parse::<Method>().unwrap_err().contains("known: auto, direct"));
    }
}
