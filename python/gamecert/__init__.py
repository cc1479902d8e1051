"""gamecert: certified solvers and reductions for combinatorial games on graphs.

Every answer comes with a certificate that gamecert's small, independent checker verifies:
``solve`` returns a certificate only once the checker has accepted it, and ``verify`` runs the
checker on any instance and certificate. The functions are those of the ``gamecert`` command
line (``load``, ``reduce``, ``solve``, ``verify``, ``table``), with the same messages::

    import gamecert
    instance = gamecert.reduce("sat-voronoi1", "p cnf 4 2\\n-1 2 3 0\\n-2 -3 -4 0\\n")
    certificate = gamecert.solve(instance)
    gamecert.verify(instance, certificate).accepted      # True

Bad input raises ``gamecert.BadInput`` (a ``ValueError``) whose message names the file, line
and column; a rejected certificate is a ``Verdict`` with ``accepted == False``.

Node labels: ``voronoi(graph)`` keeps the graph's own nodes (ints, tuples, any hashable
object). The instance's file names each vertex by ``str(node)`` when that is a usable name
(non-empty, printable, no whitespace and none of ``, : ; #``, and no other node has the same
``str``), else by a generated ``v0``, ``v1``, ... that no other vertex uses; ``instance.labels``
maps the names back. ``Certificate.move`` reads positions given as those nodes and answers
with them, and ``to_networkx`` returns them. An instance read from a file or text has no
labels: its names stand for themselves.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from ._gamecert import BadInput, Certificate, Instance, Rejected, Verdict
from ._gamecert import _with_labels
from ._gamecert import graph6 as _graph6
from ._gamecert import load as _load
from ._gamecert import loads as _loads
from ._gamecert import reduce as _reduce
from ._gamecert import solve as _solve
from ._gamecert import table as _table
from ._gamecert import verify as _verify

__all__ = [
    "BadInput",
    "Rejected",
    "Certificate",
    "Instance",
    "Verdict",
    "load",
    "loads",
    "reduce",
    "solve",
    "verify",
    "table",
    "voronoi",
    "to_networkx",
]

#: The reductions ``reduce`` knows (``gamecert reduce NAME``).
REDUCTIONS = ("sat-voronoi1", "sat-voronoi2", "posdnf-voronoi", "posdnf-game")


def load(path: Union[str, "os.PathLike[str]"]) -> Instance:
    """Read and validate an instance file, as every gamecert command reads one.

    The file may be JSON (``gamecert-instance``), a positive DNF text (``*.dnf`` or a
    ``p dnf`` header) or the edge-list text of a one-round Voronoi game; gzip, xz and bzip2
    files are decompressed (told by their first bytes). Raises ``BadInput`` naming the file,
    line and column.
    """
    return _load(os.fspath(path))


def loads(text: str, name: str = "<string>") -> Instance:
    """Read and validate an instance from the text of a file.

    ``name`` stands for the file in error messages (a name ending in ``.dnf`` reads a DNF text
    without its ``p dnf`` header, as a file of that name would). Raises ``BadInput``.
    """
    return _loads(text, name)


def reduce(kind: str, text: str, name: str = "<string>") -> Instance:
    """Build an instance from a formula by one of the papers' reductions.

    ``kind`` is one of ``REDUCTIONS``: ``sat-voronoi1`` and ``sat-voronoi2`` take a DIMACS CNF
    text (seed 001, Theorem 3 and Corollary 1), ``posdnf-voronoi`` and ``posdnf-game`` a
    positive DNF text. The instance's ``notes`` are what ``gamecert reduce`` prints. Raises
    ``BadInput`` for an unknown kind or a formula that does not parse.
    """
    return _reduce(kind, text, name)


def solve(instance: Instance, method: Optional[str] = None, sat: Optional[str] = None) -> Certificate:
    """Solve an instance and return a certificate the checker has accepted.

    Exactly ``gamecert solve``: the certificate is checked with the budget ``verify`` gives,
    and ``certificate.verdict`` is that verdict; ``certificate.summary`` is the command's
    one-line report. ``method`` is ``solve --method`` (``auto`` when ``None``: ``direct``,
    ``reduction``, ``median``, ``kary``, ``exact``, ``lemma4``, ``heaps``); ``sat`` picks the
    SAT solver of a one-round game (``cadical``, the default, or ``varisat``). Raises
    ``BadInput`` when the method does not apply or the instance is too large.
    """
    return _solve(instance, method, sat)


def verify(instance: Instance, certificate: Certificate, max_work: Optional[int] = None) -> Verdict:
    """Run the checker on ``certificate`` for ``instance``; return its ``Verdict``.

    The budget is the one ``gamecert verify`` gives the two files (``max_work`` units when
    given). A rejected certificate is a verdict with ``accepted == False`` whose ``reason``
    names the position or proof step that failed, not an exception.
    """
    return _verify(instance, certificate, max_work)


def table(name: str, **options: Any) -> List[Dict[str, Any]]:
    """Compute a table of ``gamecert table NAME`` and return its rows, one dict each.

    Options are the command's, with ``_`` for ``-`` (``table("voronoi-paths",
    max_vertices=12)``); an unknown table or option raises ``BadInput``. The rows are those of
    the command's ``--json`` output (for a nim-sequence, ``{"n", "g"}`` per heap size), ready
    for ``pandas.DataFrame(rows)``. ``table_details`` returns the whole output.
    """
    return table_details(name, **options)["rows"]


def table_details(name: str, **options: Any) -> Dict[str, Any]:
    """``table`` with everything the command prints: ``rows``, ``fields`` (the ``--json``
    output's fields: OEIS references, periods, ...), ``verdict`` (``accepted`` when every value
    was certified, ``unchecked`` when they are the solver's word), ``summary`` and ``text``."""
    return _table(name, options)


#: Characters a vertex name kept from ``str(node)`` may not hold: the game's notation splits
#: positions on them (``W: a, b  B: c``) and the edge-list format on whitespace.
_SEPARATORS = frozenset(",:;#")


def _usable(name: str) -> bool:
    """Whether ``name`` can stand for a vertex in files and in the game's notation as it is."""
    return (
        name != ""
        and name.isprintable()
        and not any(c.isspace() or c in _SEPARATORS for c in name)
    )


def _names(nodes: Sequence[Any]) -> Dict[Any, str]:
    """The vertex name of each node: ``str(node)`` when it is usable and no other node has the
    same ``str``, else the first of ``v0``, ``v1``, ... that no vertex uses."""
    shown = [str(node) for node in nodes]
    counts: Dict[str, int] = {}
    for text in shown:
        counts[text] = counts.get(text, 0) + 1
    kept = {text for text in shown if counts[text] == 1 and _usable(text)}
    names: Dict[Any, str] = {}
    generated = 0
    for node, text in zip(nodes, shown):
        if text in kept:
            names[node] = text
            continue
        while f"v{generated}" in kept:
            generated += 1
        names[node] = f"v{generated}"
        generated += 1
    return names


def _graph_lists(graph: Any) -> "tuple[List[Any], List[Any]]":
    """The nodes and edges of a networkx graph or a list of edges (pairs of nodes), in order."""
    if hasattr(graph, "nodes") and hasattr(graph, "edges"):
        if graph.is_directed() or graph.is_multigraph():
            raise BadInput("a Voronoi game is played on a simple undirected graph (networkx.Graph)")
        return list(graph.nodes), [(a, b) for a, b in graph.edges]
    try:
        edges = list(graph)
    except TypeError:
        raise TypeError(
            "a Voronoi game's graph is a networkx.Graph, a graph6 line or a list of edges "
            f"(pairs of nodes), not {type(graph).__name__}"
        ) from None
    nodes: Dict[Any, None] = {}
    pairs = []
    for k, edge in enumerate(edges):
        ends = list(edge) if isinstance(edge, (tuple, list)) else None
        # networkx's (u, v, data) edges carry a dict of attributes, which the game ignores.
        if ends is not None and len(ends) == 3 and isinstance(ends[2], dict):
            ends = ends[:2]
        if ends is None or len(ends) != 2:
            raise TypeError(f"edge {k} of the list, {edge!r}, is not a pair of nodes")
        for node in ends:
            nodes.setdefault(node, None)
        pairs.append((ends[0], ends[1]))
    return list(nodes), pairs


def voronoi(
    graph: Any,
    *,
    rounds: Optional[int] = None,
    white: Optional[Iterable[Any]] = None,
    black_count: Optional[int] = None,
    start: Optional[Dict[str, Sequence[Any]]] = None,
    name: Optional[str] = None,
) -> Instance:
    """A Voronoi game on ``graph``: a ``networkx.Graph``, a list of edges (pairs of nodes; the
    graph has no isolated vertex then), or one graph6 line (vertices ``v0``, ``v1``, ... as
    ``gamecert gen graph`` names them).

    Nodes are any hashable objects (ints, tuples, strings with spaces); the instance keeps them
    (``instance.labels``), so ``Certificate.move`` and ``to_networkx`` give them back. In the
    instance's file, a node is named ``str(node)`` when that is non-empty, printable, free of
    whitespace and of ``, : ; #`` and no other node has the same ``str``, else ``v0``, ``v1``,
    ... (names no other vertex takes).

    With ``rounds``, the multi-round game (``voronoi``: W and B alternate, ``rounds`` moves
    each, optionally from ``start = {"white": [...], "black": [...]}``, nodes). With ``white``
    and ``black_count``, the one-round game (``voronoi-one-round``: W holds ``white``, B places
    ``black_count`` vertices). The instance is validated as a file would be; ``BadInput``
    otherwise, ``TypeError`` for a graph of none of the three forms.

    ``name`` stands for the graph in messages and heads its pictures (``svg``), as a file's
    name does on the command line; by default the ``networkx.Graph``'s own ``name`` (such as
    ``path_graph(6)``), else the picture says what the graph is ("voronoi on a graph of 5
    vertices and 4 edges").
    """
    if name is None:
        name = str(getattr(graph, "name", "") or "") or "<graph>"
    if isinstance(graph, bytes):
        graph = graph.decode("ascii")
    labelled = not isinstance(graph, str)
    if labelled:
        nodes, edges = _graph_lists(graph)
        names = _names(nodes)
    else:
        vertices, graph6_edges = _graph6(graph)
        nodes, edges = list(vertices), [tuple(e) for e in graph6_edges]
        names = {v: v for v in nodes}

    def named(node: Any) -> str:
        # A node of the graph by its name; anything else by its str, for the checker to refuse.
        try:
            return names[node]
        except (KeyError, TypeError):
            return str(node)

    def named_all(given: Iterable[Any], what: str) -> List[str]:
        if isinstance(given, (str, bytes)):
            raise TypeError(f"{what} is a list of nodes, not a string")
        return [named(v) for v in given]

    document: Dict[str, Any] = {"format": "gamecert-instance", "version": 1}
    graph_spec = {
        "vertices": [names[v] for v in nodes],
        "edges": [[names[a], names[b]] for a, b in edges],
    }
    if rounds is not None:
        if white is not None or black_count is not None:
            raise BadInput("give rounds (the multi-round game) or white and black_count (one round), not both")
        document.update(kind="voronoi", graph=graph_spec, rounds=rounds)
        if start is not None:
            sides = {str(key).lower(): value for key, value in start.items()}
            unknown = set(sides) - {"white", "black", "w", "b"}
            if unknown:
                raise BadInput(f"start is {{'white': [...], 'black': [...]}}, not one with {sorted(unknown)}")
            document["start"] = {
                "white": named_all(sides.get("white", sides.get("w", [])), "start['white']"),
                "black": named_all(sides.get("black", sides.get("b", [])), "start['black']"),
            }
    elif white is not None and black_count is not None:
        if start is not None:
            raise BadInput("start applies to the multi-round game (give rounds)")
        document.update(
            kind="voronoi-one-round",
            graph=graph_spec,
            white=named_all(white, "white"),
            black_count=black_count,
        )
    else:
        raise BadInput("give rounds (the multi-round game) or white and black_count (one round)")
    instance = loads(json.dumps(document), name)
    if not labelled:
        return instance
    return _with_labels(instance, {text: node for node, text in names.items()})


def to_networkx(instance: Instance) -> Any:
    """The graph of a Voronoi instance as a ``networkx.Graph``, with the nodes it was built from.

    Nodes are the instance's labels (the graph ``voronoi`` was given), or the vertex names of
    an instance read from a file. The game's parameters are graph attributes: ``kind``, and
    ``rounds`` (with ``start``, ``{"white": [...], "black": [...]}``) or ``white`` and
    ``black_count``, in the same nodes. Raises ``BadInput`` for an instance without a graph.
    """
    import networkx

    document = json.loads(instance.to_json())
    if document["kind"] not in ("voronoi", "voronoi-one-round"):
        raise BadInput(f"a {document['kind']} instance is not a Voronoi game on a graph")
    labels = instance.labels or {}

    def node(name: str) -> Any:
        return labels.get(name, name)

    graph = networkx.Graph(kind=document["kind"])
    graph.add_nodes_from(node(v) for v in document["graph"]["vertices"])
    graph.add_edges_from((node(a), node(b)) for a, b in document["graph"]["edges"])
    if "rounds" in document:
        graph.graph["rounds"] = document["rounds"]
    if "start" in document:
        graph.graph["start"] = {side: [node(v) for v in held] for side, held in document["start"].items()}
    if "white" in document:
        graph.graph["white"] = [node(v) for v in document["white"]]
    if "black_count" in document:
        graph.graph["black_count"] = document["black_count"]
    return graph
