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
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from ._gamecert import BadInput, Certificate, Instance, Rejected, Verdict
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


def _graph_lists(graph: Any) -> "tuple[List[str], List[List[str]]]":
    """Vertex names and edges of a networkx graph or a graph6 string."""
    if isinstance(graph, bytes):
        graph = graph.decode("ascii")
    if isinstance(graph, str):
        vertices, edges = _graph6(graph)
        return list(vertices), [list(e) for e in edges]
    if graph.is_directed() or graph.is_multigraph():
        raise BadInput("a Voronoi game is played on a simple undirected graph (networkx.Graph)")
    vertices = [str(v) for v in graph.nodes]
    return vertices, [[str(a), str(b)] for a, b in graph.edges]


def voronoi(
    graph: Any,
    *,
    rounds: Optional[int] = None,
    white: Optional[Iterable[Any]] = None,
    black_count: Optional[int] = None,
    start: Optional[Dict[str, Sequence[Any]]] = None,
    name: str = "<graph>",
) -> Instance:
    """A Voronoi game on ``graph``: a ``networkx.Graph`` (vertices named by ``str``) or one
    graph6 line (vertices ``v0``, ``v1``, ... as ``gamecert gen graph`` names them).

    With ``rounds``, the multi-round game (``voronoi``: W and B alternate, ``rounds`` moves
    each, optionally from ``start = {"white": [...], "black": [...]}``). With ``white`` and
    ``black_count``, the one-round game (``voronoi-one-round``: W holds ``white``, B places
    ``black_count`` vertices). The instance is validated as a file would be; ``BadInput``
    otherwise.
    """
    vertices, edges = _graph_lists(graph)
    document: Dict[str, Any] = {"format": "gamecert-instance", "version": 1}
    graph_spec = {"vertices": vertices, "edges": edges}
    if rounds is not None:
        if white is not None or black_count is not None:
            raise BadInput("give rounds (the multi-round game) or white and black_count (one round), not both")
        document.update(kind="voronoi", graph=graph_spec, rounds=rounds)
        if start is not None:
            document["start"] = {
                "white": [str(v) for v in start.get("white", [])],
                "black": [str(v) for v in start.get("black", [])],
            }
    elif white is not None and black_count is not None:
        if start is not None:
            raise BadInput("start applies to the multi-round game (give rounds)")
        document.update(
            kind="voronoi-one-round",
            graph=graph_spec,
            white=[str(v) for v in white],
            black_count=black_count,
        )
    else:
        raise BadInput("give rounds (the multi-round game) or white and black_count (one round)")
    return loads(json.dumps(document), name)


def to_networkx(instance: Instance) -> Any:
    """The graph of a Voronoi instance as a ``networkx.Graph``.

    The game's parameters are graph attributes: ``kind``, and ``rounds`` (with ``start``) or
    ``white`` and ``black_count``. Raises ``BadInput`` for an instance without a graph.
    """
    import networkx

    document = json.loads(instance.to_json())
    if document["kind"] not in ("voronoi", "voronoi-one-round"):
        raise BadInput(f"a {document['kind']} instance is not a Voronoi game on a graph")
    graph = networkx.Graph(kind=document["kind"])
    graph.add_nodes_from(document["graph"]["vertices"])
    graph.add_edges_from(document["graph"]["edges"])
    for key in ("rounds", "start", "white", "black_count"):
        if key in document:
            graph.graph[key] = document[key]
    return graph
