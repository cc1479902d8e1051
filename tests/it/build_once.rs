//! Build once (issue 42, item 1): `cargo test --workspace --release` and `pip install ./python`
//! reuse what `cargo build --release` (the demo's build) compiled. Cargo compiles a crate again,
//! and every crate above it, when a build asks it for other features; with resolver 2 the
//! tests' dev-dependencies and the Python package's pyo3 take part in that choice. So every crate
//! the product build compiles must get the same features in the test build, and every crate the
//! Python build shares with the product build the product's features. `cargo tree` resolves
//! features exactly as those builds do (without dev-dependencies, `-e no-dev`, as `cargo build`
//! does), in about a second and without compiling.
//!
//! When this fails: ask for the feature named in the root Cargo.toml, where it adds no crate to
//! the product (its "Build once" comment; syn's are in `[build-dependencies]`), or drop the
//! dependency that asks for it.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Every package `cargo tree ARGS` resolves, with each feature set it is compiled with (two for
/// a crate compiled for the host and the target with different features).
fn features(args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--locked", "--prefix", "none", "--format", "{p} [{f}]"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cargo tree {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let mut packages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in text.lines() {
        let (Some(open), Some(close)) = (line.rfind('['), line.rfind(']')) else { continue };
        let package = line.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        packages.entry(package).or_default().insert(line[open + 1..close].to_string());
    }
    packages
}

/// The packages of `first` that `second` resolves too, whose feature sets in `first` are not
/// all among those in `second`: each with both.
fn compiled_again(
    first: &BTreeMap<String, BTreeSet<String>>,
    second: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    first
        .iter()
        .filter_map(|(package, sets)| {
            let other = second.get(package)?;
            (!sets.is_subset(other)).then(|| format!("{package}: {sets:?} against {other:?}"))
        })
        .collect()
}

#[test]
fn the_tests_and_the_python_package_reuse_the_release_build() {
    let product = features(&["-e", "no-dev", "-p", "gamecert"]);
    let tests = features(&["--workspace"]);
    let python = features(&["-e", "no-dev", "-p", "gamecert-python"]);
    assert!(product.contains_key("gamecert v0.1.0") && product.len() > 50, "{product:?}");
    assert!(python.keys().any(|p| p.starts_with("pyo3 ")), "{python:?}");
    let again = compiled_again(&product, &tests);
    assert!(
        again.is_empty(),
        "the test build asks for other features than the release build: {again:#?}"
    );
    let again = compiled_again(&python, &product);
    assert!(
        again.is_empty(),
        "the Python package asks for other features than the release build: {again:#?}"
    );
    // Nothing only the tests use is compiled into the product.
    for test_only in ["criterion", "proptest", "insta", "nimber", "ciborium"] {
        assert!(
            !product.keys().any(|p| p.split(' ').next() == Some(test_only)),
            "{test_only} is in the product's build"
        );
    }
}
