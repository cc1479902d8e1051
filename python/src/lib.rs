//! `gamecert._gamecert`: the native half of the Python package, a thin layer over
//! [`gamecert::api`]. It converts arguments and results and maps errors: bad input raises
//! `gamecert.BadInput` (a `ValueError`) with the command line's message, any other failure a
//! `RuntimeError`; a rejected certificate is a `Verdict`, never an exception. The Python
//! modules beside it (`gamecert/__init__.py`) add the networkx conversions and keyword options.
//!
//! Labels: an instance built from a graph of Python objects (`gamecert.voronoi`) carries the
//! user's node for each vertex name the file uses (the package's `_names` picks the names), so
//! that `Certificate.move` reads positions given as those nodes and answers with them;
//! `to_networkx` uses the same map. An instance read from a file or text has none: its names
//! stand for themselves.

use gamecert::api::{self, BadInput as BadInputError, Loaded, Method, RenderError};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use std::path::PathBuf;

create_exception!(
    _gamecert,
    Rejected,
    PyValueError,
    "The checker rejected a certificate where an accepted one is needed (Certificate.move); the message is the verdict."
);

create_exception!(
    _gamecert,
    BadInput,
    PyValueError,
    "Input gamecert cannot use; the message names the file, line and column as the command line does."
);

/// A Python exception for an error of the library: `BadInput` for bad input, else
/// `RuntimeError` with the whole chain of causes.
fn raise(err: anyhow::Error) -> PyErr {
    match err.downcast_ref::<BadInputError>() {
        Some(bad) => BadInput::new_err(bad.0.clone()),
        None => PyRuntimeError::new_err(format!("{err:#}")),
    }
}

fn bad(err: BadInputError) -> PyErr {
    BadInput::new_err(err.0)
}

/// A JSON value as the Python object `json.loads` makes of it.
fn to_python(py: Python<'_>, value: &serde_json::Value) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (value.to_string(),))?.unbind())
}

/// A game instance, read and validated as every gamecert command reads one.
#[pyclass(module = "gamecert", frozen)]
struct Instance {
    loaded: Loaded,
    /// What `gamecert reduce` printed while building it (empty for a loaded instance).
    notes: Vec<String>,
    /// The user's node for each vertex name, for an instance built from a graph of Python
    /// objects (`gamecert.voronoi`), and the name of each such node; `None` when the names
    /// stand for themselves.
    labels: Option<Labels>,
}

/// The two directions of an instance's labels.
struct Labels {
    /// Vertex name -> the user's node.
    nodes: Py<PyDict>,
    /// The user's node -> vertex name.
    names: Py<PyDict>,
}

impl Instance {
    fn new(loaded: Loaded, notes: Vec<String>) -> Instance {
        Instance { loaded, notes, labels: None }
    }

    /// The user's node named `name` (the name itself when the instance has no labels).
    fn node_of(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        if let Some(labels) = &self.labels {
            if let Some(node) = labels.nodes.bind(py).get_item(name)? {
                return Ok(node.unbind());
            }
        }
        Ok(PyString::new(py, name).into_any().unbind())
    }

    /// The vertex name of the user's `node` in the game's notation. With labels, a node of
    /// the graph gives its name and a string is taken as a name; without, a string is a name,
    /// a pair `(a, b)` an edge `a-b` (the games on points), anything else its `str`.
    fn word_of(&self, node: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Some(labels) = &self.labels {
            // An unhashable object is no node: the lookup's TypeError means "not there".
            if let Ok(Some(name)) = labels.names.bind(node.py()).get_item(node) {
                return name.extract();
            }
        }
        if let Ok(text) = node.cast::<PyString>() {
            return Ok(text.to_cow()?.into_owned());
        }
        if self.labels.is_some() {
            return Err(BadInput::new_err(format!(
                "{} is not a node of the instance's graph",
                node.repr()?
            )));
        }
        if node.is_instance_of::<PyTuple>() || node.is_instance_of::<PyList>() {
            let ends: Vec<Bound<'_, PyAny>> = node.try_iter()?.collect::<PyResult<_>>()?;
            if let [a, b] = &ends[..] {
                return Ok(format!("{}-{}", a.str()?, b.str()?));
            }
        }
        Ok(node.str()?.to_cow()?.into_owned())
    }

    /// A position given as a dict of each side's holdings, in the game's notation: `{"W":
    /// [...], "B": [...]}` (or `white`, `black`) in a Voronoi game, else `KEY: a, b` per key
    /// (`{1: [1, 4], 2: [2]}` in the DNF game, `{"green": [(0, 1)]}` on points).
    fn dict_notation(&self, dict: &Bound<'_, PyDict>) -> PyResult<String> {
        let voronoi = matches!(self.loaded.instance.kind(), "voronoi" | "voronoi-one-round");
        let mut parts: Vec<(String, String)> = Vec::new();
        for (key, items) in dict.iter() {
            let key = key.str()?.to_cow()?.into_owned();
            let key = match (voronoi, key.to_lowercase().as_str()) {
                (true, "w" | "white") => "W".to_string(),
                (true, "b" | "black") => "B".to_string(),
                (true, _) => {
                    return Err(BadInput::new_err(format!(
                        "a Voronoi position is a dict {{'W': [nodes], 'B': [nodes]}}, not one \
                         with the key '{key}'"
                    )))
                }
                (false, _) => key,
            };
            if items.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(format!(
                    "position['{key}'] is a string: give a list of nodes"
                )));
            }
            let words: Vec<String> =
                items.try_iter()?.map(|item| self.word_of(&item?)).collect::<PyResult<_>>()?;
            parts.push((key, words.join(", ")));
        }
        if voronoi {
            for side in ["W", "B"] {
                if !parts.iter().any(|(k, _)| k == side) {
                    parts.push((side.to_string(), String::new()));
                }
            }
        }
        Ok(parts.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("  "))
    }
}

#[pymethods]
impl Instance {
    /// Reads and validates an instance file (as `gamecert.load`).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Instance> {
        load(py, path)
    }

    /// Reads and validates an instance from a file's text (as `gamecert.loads`).
    #[staticmethod]
    #[pyo3(signature = (text, name="<string>"))]
    fn loads(py: Python<'_>, text: &str, name: &str) -> PyResult<Instance> {
        loads(py, text, name)
    }

    /// The instance kind (`voronoi-one-round`, `voronoi`, `heap-game`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.loaded.instance.kind()
    }

    /// What messages call the instance: its file, or the name given with its text.
    #[getter]
    fn name(&self) -> String {
        self.loaded.name.clone()
    }

    /// What `gamecert reduce` prints while building the instance: warnings, the
    /// normalisation, the sizes (empty for an instance read from a file or text).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The instance as gamecert's JSON file format.
    fn to_json(&self) -> String {
        self.loaded.instance.to_json()
    }

    /// Writes the instance's JSON file to `path`.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.to_json())
            .map_err(|e| BadInput::new_err(format!("cannot write {}: {e}", path.display())))
    }

    /// The SVG picture `gamecert render` draws of the instance (with `certificate`, the last
    /// position of its play, drawn only once the checker accepts it). Raises `BadInput` for an
    /// instance kind that has no picture.
    #[pyo3(signature = (certificate=None))]
    fn svg(&self, py: Python<'_>, certificate: Option<&Certificate>) -> PyResult<String> {
        let title = api::picture_title(&self.loaded);
        let drawn =
            py.detach(|| api::svg(&self.loaded, certificate.map(|c| &c.certificate), &title));
        drawn.map_err(|e| match e {
            RenderError::Bad(err) => bad(err),
            RenderError::Rejected(verdict) => BadInput::new_err(format!(
                "the checker rejected the certificate, so its play is not drawn: {}",
                verdict.reason
            )),
        })
    }

    /// Jupyter's picture of the instance (`None` for a kind without one).
    fn _repr_svg_(&self, py: Python<'_>) -> Option<String> {
        self.svg(py, None).ok()
    }

    /// The user's node for each vertex name (a new dict), for an instance `gamecert.voronoi`
    /// built from a graph of Python objects; `None` for one read from a file or text, whose
    /// names stand for themselves.
    #[getter]
    fn labels(&self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        self.labels.as_ref().map(|l| Ok(l.nodes.bind(py).copy()?.unbind())).transpose()
    }

    /// The user's node that the vertex `name` stands for (`name` itself without labels).
    fn label(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        self.node_of(py, name)
    }

    /// The vertex name (as in the instance's file and the game's notation) of the user's
    /// `node`; a string that is no node is taken as a name.
    fn vertex(&self, node: &Bound<'_, PyAny>) -> PyResult<String> {
        self.word_of(node)
    }

    fn __repr__(&self) -> String {
        format!("<gamecert.Instance {} from {}>", self.kind(), self.loaded.name)
    }
}

/// A certificate: a witness, refutation, strategy or labelling for an instance.
#[pyclass(module = "gamecert", frozen)]
struct Certificate {
    certificate: gamecert_certificates::format::Certificate,
    /// The instance it was solved for, when `solve` made it (for its picture).
    instance: Option<Py<Instance>>,
    /// `gamecert solve`'s note on it, when `solve` made it.
    summary: Option<String>,
    /// The checker's verdict when `solve` made it.
    verdict: Option<Py<Verdict>>,
    /// A refutation `solve` made: its binary certificate file (issue 47: the proof streams to
    /// disk as CaDiCaL runs, never held), of which `certificate` holds the header's fields.
    proof_file: Option<std::sync::Arc<gamecert::base::solved::ProofFile>>,
}

impl Certificate {
    /// The instance a method is asked of: `given`, else the one `solve` made this certificate
    /// of; a loaded certificate needs `instance=`.
    fn instance_for<'a>(&'a self, given: &'a Option<Py<Instance>>) -> PyResult<&'a Instance> {
        match given.as_ref().or(self.instance.as_ref()) {
            Some(instance) => Ok(instance.get()),
            None => Err(BadInput::new_err(
                "this certificate was loaded, not solved: pass instance= (the instance it is for)",
            )),
        }
    }
}

#[pymethods]
impl Certificate {
    /// Reads a certificate file (JSON, gzip, xz and bzip2 decompressed; or the binary refutation
    /// `gamecert solve -o` writes).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Certificate> {
        if let Some((certificate, file)) = api::binary_refutation(&path).map_err(bad)? {
            let proof_file = Some(file);
            return Ok(Certificate {
                certificate,
                instance: None,
                summary: None,
                verdict: None,
                proof_file,
            });
        }
        let read = py.detach(|| gamecert::base::io::read_certificate(&path));
        Ok(Certificate {
            certificate: read.map_err(bad)?,
            instance: None,
            summary: None,
            verdict: None,
            proof_file: None,
        })
    }

    /// Reads a certificate from its JSON text (`name` stands for its file in messages).
    #[staticmethod]
    #[pyo3(signature = (text, name="<string>"))]
    fn loads(text: &str, name: &str) -> PyResult<Certificate> {
        let certificate = api::certificate_from_text(text, name).map_err(bad)?;
        Ok(Certificate {
            certificate,
            instance: None,
            summary: None,
            verdict: None,
            proof_file: None,
        })
    }

    /// The certificate kind (`witness`, `refutation`, `voronoi-value`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.certificate.kind()
    }

    /// What the certificate claims (established only once `verify` accepts it).
    #[getter]
    fn claim(&self) -> String {
        self.certificate.claim()
    }

    /// `gamecert solve`'s one-line report, for a certificate `solve` made.
    #[getter]
    fn summary(&self) -> Option<String> {
        self.summary.clone()
    }

    /// The checker's verdict on the certificate when `solve` made it (`solve` returns only
    /// accepted certificates).
    #[getter]
    fn verdict(&self, py: Python<'_>) -> Option<Py<Verdict>> {
        self.verdict.as_ref().map(|v| v.clone_ref(py))
    }

    /// The instance `solve` made the certificate for.
    #[getter]
    fn instance(&self, py: Python<'_>) -> Option<Py<Instance>> {
        self.instance.as_ref().map(|i| i.clone_ref(py))
    }

    /// The certificate as gamecert's JSON file format (a refutation `solve` made: its proof
    /// turned into text LRAT, which may be large).
    fn to_json(&self) -> PyResult<String> {
        let Some(file) = &self.proof_file else { return Ok(self.certificate.to_json()) };
        let mut out = Vec::new();
        file.write_json(&self.certificate, &mut out).map_err(BadInput::new_err)?;
        String::from_utf8(out).map_err(|e| BadInput::new_err(e.to_string()))
    }

    /// Writes the certificate to `path`: its JSON file, or for a refutation `solve` made, the
    /// binary certificate `gamecert solve -o` writes (docs/formats.md), copied as it is.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        let cannot =
            |e: std::io::Error| BadInput::new_err(format!("cannot write {}: {e}", path.display()));
        match &self.proof_file {
            Some(file) => std::fs::copy(file.path(), &path).map(drop).map_err(cannot),
            None => std::fs::write(&path, self.to_json()?).map_err(cannot),
        }
    }

    /// The certified strategy's move at `position`: what `gamecert hint --position` prints.
    /// `position` is `None` (the start), a string in the game's notation (as `gamecert hint
    /// --position` takes it), a dict of each side's holdings (`{"W": [nodes], "B": [nodes]}` in
    /// a Voronoi game; `KEY: [...]` per key of the notation elsewhere, `{1: [1, 4], 2: [2]}`,
    /// `{"green": [(0, 1)]}`), or a list: the moves played from the start, in order (nodes in
    /// a Voronoi game, variables, edges `(a, b)`, or notation strings), except in a heap game
    /// (the heap sizes) and a coin game (the heads). Nodes are the instance's own labels
    /// (`gamecert.voronoi`'s graph). In a Voronoi game the move is the node; elsewhere, and
    /// with `notation=True`, the game's notation. The certificate is checked first, exactly
    /// as `verify` does. `None` when the certificate gives no move there (the other side is to
    /// move, or the position is not one the strategy reaches); `BadInput` for a certificate
    /// that holds no strategy (a witness, a refutation), a position that does not read, or a
    /// finished game; `Rejected` when the checker rejects the certificate. Needs the instance:
    /// a certificate `solve` made knows it, else pass `instance=`.
    #[pyo3(signature = (position=None, instance=None, *, notation=false))]
    fn r#move(
        &self,
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
        instance: Option<Py<Instance>>,
        notation: bool,
    ) -> PyResult<Option<Py<PyAny>>> {
        use gamecert::play::{PlayError, Strategy};
        let instance = self.instance_for(&instance)?;
        let certificate = &self.certificate;
        let limits = instance.loaded.sizes.verify_limits(certificate.to_json().len() as u64);
        let checked =
            py.detach(|| Strategy::checked(&instance.loaded.instance, certificate, &limits));
        let strategy = match checked {
            Ok(strategy) => strategy,
            Err(PlayError::Rejected { decision, claim, reason }) => {
                let heading = gamecert_certificates::verify::verdict_heading(decision, &claim);
                return Err(Rejected::new_err(format!("{heading}: {reason}")));
            }
            Err(PlayError::NoStrategy(why) | PlayError::BadInput(why)) => {
                return Err(BadInput::new_err(why))
            }
        };
        let kind = instance.loaded.instance.kind();
        let read = |text: String| {
            strategy
                .parse_position(&text)
                .map_err(|why| BadInput::new_err(format!("position '{text}': {why}")))
        };
        let at = match position {
            None => strategy.start(),
            Some(given) if given.is_instance_of::<PyString>() => read(given.extract()?)?,
            Some(given) if given.is_instance_of::<PyDict>() => {
                read(instance.dict_notation(given.cast::<PyDict>()?)?)?
            }
            Some(given)
                if given.is_instance_of::<PyList>() || given.is_instance_of::<PyTuple>() =>
            {
                let items: Vec<Bound<'_, PyAny>> = given.try_iter()?.collect::<PyResult<_>>()?;
                if matches!(kind, "heap-game" | "coin-game") {
                    // The position itself: heap sizes, or the coins showing heads.
                    let words = items
                        .iter()
                        .map(|item| {
                            if item.is_instance_of::<PyTuple>() || item.is_instance_of::<PyList>() {
                                let parts: Vec<String> = item
                                    .try_iter()?
                                    .map(|x| Ok(x?.str()?.to_cow()?.into_owned()))
                                    .collect::<PyResult<_>>()?;
                                Ok(format!("({})", parts.join(",")))
                            } else {
                                Ok(item.str()?.to_cow()?.into_owned())
                            }
                        })
                        .collect::<PyResult<Vec<String>>>()?;
                    read(words.join(" "))?
                } else {
                    let mut at = strategy.start();
                    for (i, item) in items.iter().enumerate() {
                        let word = instance.word_of(item)?;
                        let mv = at.parse_move(&word).map_err(|why| {
                            BadInput::new_err(format!(
                                "move {} of the position, '{word}': {why}",
                                i + 1
                            ))
                        })?;
                        at = at.apply(&mv);
                    }
                    at
                }
            }
            Some(other) => {
                return Err(PyTypeError::new_err(format!(
                    "a position is None, a string in the game's notation, a dict of each side's \
                     holdings or a list of the moves played, not {}",
                    other.get_type().name()?
                )))
            }
        };
        if let Some(outcome) = at.outcome() {
            return Err(BadInput::new_err(format!(
                "the game is over at '{}' ({}): there is no move to give",
                at.notation(),
                outcome.result
            )));
        }
        let Some(reply) = strategy.reply(&at) else { return Ok(None) };
        if !notation && kind == "voronoi" {
            return instance.node_of(py, reply.notation()).map(Some);
        }
        Ok(Some(PyString::new(py, reply.notation()).into_any().unbind()))
    }

    /// The SAT user's own answer, for a certificate of an instance made by
    /// `reduce("sat-voronoi1"|"sat-voronoi2", cnf)`: a model of the user's formula as a list of
    /// signed literals, one per variable of its header (`3` true, `-3` false; the shape of
    /// PySAT's `get_model()`), read off B's winning placement and checked against every clause
    /// of the user's formula as given; `None` for a refutation (the formula is unsatisfiable).
    /// The certificate is checked first, as `verify` does (`Rejected` when the checker rejects
    /// it). `BadInput` for an instance that records no formula of the user's, or a certificate
    /// that settles the game but not the formula (a direct refutation; the message says why).
    /// Needs the instance: a certificate `solve` made knows it, else pass `instance=`.
    #[pyo3(signature = (instance=None))]
    fn model(&self, py: Python<'_>, instance: Option<Py<Instance>>) -> PyResult<Option<Vec<i32>>> {
        // A certificate `solve` made, asked of its own instance, was accepted already (unless
        // its check ran out of budget: then it is checked again here).
        let accepted =
            instance.is_none() && self.verdict.as_ref().is_some_and(|v| v.get().accepted);
        let instance = self.instance_for(&instance)?;
        let (loaded, certificate) = (&instance.loaded, &self.certificate);
        if !accepted {
            let verdict = py.detach(|| api::verify(loaded, certificate, None));
            if !verdict.accepted() {
                let heading =
                    gamecert_certificates::verify::verdict_heading(verdict.outcome, &verdict.claim);
                return Err(Rejected::new_err(format!("{heading}: {}", verdict.reason)));
            }
        }
        let answer = py.detach(|| api::sat_answer(loaded, certificate));
        match answer {
            Some(api::SatAnswer::Satisfiable(model)) => Ok(Some(model)),
            Some(api::SatAnswer::Unsatisfiable) => Ok(None),
            Some(api::SatAnswer::Unknown(why)) => {
                Err(BadInput::new_err(format!("no answer for the user's formula: {why}")))
            }
            None => Err(BadInput::new_err(format!(
                "{} records no formula of the user's: model() answers for instances made by \
                 reduce(\"sat-voronoi1\" or \"sat-voronoi2\", cnf)",
                loaded.name
            ))),
        }
    }

    /// Jupyter's picture: the play `gamecert render --certificate` draws, for a certificate
    /// `solve` made of an instance with a picture (else `None`).
    fn _repr_svg_(&self, py: Python<'_>) -> Option<String> {
        let instance = self.instance.as_ref()?.get();
        instance.svg(py, Some(self)).ok()
    }

    fn __repr__(&self) -> String {
        format!("<gamecert.Certificate {}: {}>", self.kind(), self.claim())
    }
}

/// The checker's answer on a certificate.
#[pyclass(module = "gamecert", frozen, get_all)]
struct Verdict {
    /// Whether the checker accepted the certificate.
    accepted: bool,
    /// `"accepted"`, `"rejected"` (the certificate is wrong) or `"not-checked"` (the check's
    /// budget ran out before it could decide: raise `max_work`).
    outcome: &'static str,
    /// What the certificate claims (established when accepted).
    claim: String,
    /// Why it was accepted, or the first thing that failed (a position or proof step).
    reason: String,
    /// The theorems taken on faith for this verdict (empty when only the rules were).
    trusted: Vec<String>,
    /// What the checker did: positions, leaves, LRAT steps, work units, ...
    work: Py<PyAny>,
}

#[pymethods]
impl Verdict {
    fn __bool__(&self) -> bool {
        self.accepted
    }

    fn __repr__(&self) -> String {
        let heading = self.heading();
        format!("<gamecert.Verdict {heading}: {}>", self.reason)
    }
}

impl Verdict {
    fn heading(&self) -> String {
        use gamecert_certificates::check::Decision;
        let decision = match self.outcome {
            "accepted" => Decision::Accepted,
            "rejected" => Decision::Rejected,
            _ => Decision::NotChecked,
        };
        gamecert_certificates::verify::verdict_heading(decision, &self.claim)
    }

    fn new(py: Python<'_>, verdict: gamecert_certificates::Verdict) -> PyResult<Verdict> {
        let work = serde_json::to_value(&verdict.work).expect("Work serialises");
        Ok(Verdict {
            accepted: verdict.accepted(),
            outcome: verdict.outcome.token(),
            claim: verdict.claim,
            reason: verdict.reason,
            trusted: verdict.trusted,
            work: to_python(py, &work)?,
        })
    }
}

/// Reads and validates an instance file (JSON, a positive DNF text, or an edge list; gzip, xz
/// and bzip2 are decompressed).
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<Instance> {
    let loaded = py.detach(|| api::load(&path)).map_err(bad)?;
    Ok(Instance::new(loaded, Vec::new()))
}

/// Reads and validates an instance from a file's text; `name` stands for the file in messages.
#[pyfunction]
#[pyo3(signature = (text, name="<string>"))]
fn loads(py: Python<'_>, text: &str, name: &str) -> PyResult<Instance> {
    let loaded = py.detach(|| api::loads(text, name)).map_err(bad)?;
    Ok(Instance::new(loaded, Vec::new()))
}

/// `instance` with `labels` (vertex name -> the user's node; every node hashable), for the
/// package's `voronoi`.
#[pyfunction]
fn _with_labels(
    py: Python<'_>,
    instance: &Instance,
    labels: &Bound<'_, PyDict>,
) -> PyResult<Instance> {
    let (nodes, names) = (PyDict::new(py), PyDict::new(py));
    for (name, node) in labels.iter() {
        names.set_item(&node, &name)?;
        nodes.set_item(name, node)?;
    }
    let labels = Labels { nodes: nodes.unbind(), names: names.unbind() };
    let mut labelled = Instance::new(instance.loaded.clone(), instance.notes.clone());
    labelled.labels = Some(labels);
    Ok(labelled)
}

/// Builds an instance from a formula's text by one of the papers' reductions (its `notes` are
/// what `gamecert reduce` prints).
#[pyfunction]
#[pyo3(signature = (kind, text, name="<string>"))]
fn reduce(py: Python<'_>, kind: &str, text: &str, name: &str) -> PyResult<Instance> {
    let reduction: api::Reduction = kind.parse().map_err(bad)?;
    let reduced =
        py.detach(|| api::reduce(reduction, text, std::path::Path::new(name))).map_err(bad)?;
    let loaded = Loaded::from_instance(reduced.instance, name).map_err(bad)?;
    Ok(Instance::new(loaded, reduced.notes))
}

/// Solves an instance; the certificate is returned only once the checker accepted it.
#[pyfunction]
#[pyo3(signature = (instance, method=None, sat=None))]
fn solve(
    py: Python<'_>,
    instance: Py<Instance>,
    method: Option<&str>,
    sat: Option<&str>,
) -> PyResult<Certificate> {
    let method: Method = method.unwrap_or("auto").parse().map_err(BadInput::new_err)?;
    let sat: Option<api::Backend> =
        sat.map(|name| name.parse()).transpose().map_err(BadInput::new_err)?;
    let loaded = &instance.get().loaded;
    let solved = py.detach(|| api::solve(loaded, method, sat)).map_err(raise)?;
    let verdict = Py::new(py, Verdict::new(py, solved.verdict)?)?;
    Ok(Certificate {
        certificate: solved.certificate,
        instance: Some(instance),
        summary: Some(solved.summary),
        verdict: Some(verdict),
        proof_file: solved.proof_file,
    })
}

/// The checker's verdict on `certificate` for `instance`, with the budget `gamecert verify`
/// gives (or `max_work` units).
#[pyfunction]
#[pyo3(signature = (instance, certificate, max_work=None))]
fn verify(
    py: Python<'_>,
    instance: &Instance,
    certificate: &Certificate,
    max_work: Option<u64>,
) -> PyResult<Verdict> {
    if max_work == Some(0) {
        return Err(BadInput::new_err("max_work must be at least 1"));
    }
    let verdict = match &certificate.proof_file {
        Some(file) => {
            let path = file.path();
            py.detach(|| api::verify_file(&instance.loaded, &path, max_work)).map_err(bad)?
        }
        None => py.detach(|| api::verify(&instance.loaded, &certificate.certificate, max_work)),
    };
    Verdict::new(py, verdict)
}

/// Table `name` with `options` (a dict): its rows, the JSON output's fields, and its text.
#[pyfunction]
fn table(py: Python<'_>, name: &str, options: &Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    let text: String = json.call_method1("dumps", (options,))?.extract()?;
    let options: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text)
        .map_err(|e| BadInput::new_err(format!("table {name}: options: {e}")))?;
    let computed = py.detach(|| api::table(name, options)).map_err(raise)?;
    let result = serde_json::json!({
        "rows": computed.rows(),
        "fields": computed.fields,
        "verdict": computed.verdict,
        "summary": computed.summary,
        "text": computed.text,
    });
    to_python(py, &result)
}

/// A graph as vertex names and edges between them.
type VerticesAndEdges = (Vec<String>, Vec<(String, String)>);

/// The vertex names and edges of the graph of one graph6 line, named as `gamecert gen graph`
/// names them.
#[pyfunction]
fn graph6(text: &str) -> PyResult<VerticesAndEdges> {
    let spec = api::graph6(text).map_err(bad)?;
    Ok((spec.vertices, spec.edges))
}

/// The native module.
#[pymodule]
fn _gamecert(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BadInput", m.py().get_type::<BadInput>())?;
    m.add("Rejected", m.py().get_type::<Rejected>())?;
    m.add_class::<Instance>()?;
    m.add_class::<Certificate>()?;
    m.add_class::<Verdict>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(graph6, m)?)?;
    m.add_function(wrap_pyfunction!(_with_labels, m)?)?;
    Ok(())
}
