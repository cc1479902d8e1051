"""Type stubs of gamecert's native module (python/src/lib.rs); the package re-exports it."""

import os
from typing import Any, Dict, Hashable, List, Mapping, Optional, Sequence, Tuple, Union

_Path = Union[str, "os.PathLike[str]"]
#: A position for ``Certificate.move``: the game's notation, each side's holdings
#: (``{"W": [nodes], "B": [nodes]}``), or the moves played from the start (a heap game's heap
#: sizes, a coin game's heads).
_Position = Union[str, Mapping[Any, Sequence[Any]], Sequence[Any]]

class BadInput(ValueError):
    """Input gamecert cannot use; the message names the file, line and column."""

class Rejected(ValueError):
    """The checker rejected a certificate where an accepted one is needed; the message is the
    verdict."""

class Instance:
    """A game instance, read and validated as every gamecert command reads one."""

    @staticmethod
    def load(path: _Path) -> Instance:
        """Read and validate an instance file (JSON, DNF text, edge list; compressed too)."""
    @staticmethod
    def loads(text: str, name: str = "<string>") -> Instance:
        """Read and validate an instance from a file's text."""
    @property
    def kind(self) -> str:
        """The instance kind: ``voronoi-one-round``, ``voronoi``, ``heap-game``, ..."""
    @property
    def name(self) -> str:
        """What messages call the instance: its file, or the name given with its text."""
    @property
    def notes(self) -> List[str]:
        """What ``gamecert reduce`` printed while building it (empty when read)."""
    def to_json(self) -> str:
        """The instance as gamecert's JSON file format."""
    def save(self, path: _Path) -> None:
        """Write the instance's JSON file."""
    def svg(self, certificate: Optional[Certificate] = None) -> str:
        """The SVG ``gamecert render`` draws (with a certificate, the last position of its
        play, once the checker accepts it); ``BadInput`` for a kind without a picture."""
    def _repr_svg_(self) -> Optional[str]: ...
    @property
    def labels(self) -> Optional[Dict[str, Any]]:
        """The user's node for each vertex name (a new dict) of an instance ``voronoi`` built
        from a graph of Python objects; None for one read from a file or text."""
    def label(self, name: str) -> Any:
        """The user's node that the vertex ``name`` stands for (``name`` itself without
        labels)."""
    def vertex(self, node: Hashable) -> str:
        """The vertex name of the user's ``node`` (in the file and the game's notation); a
        string that is no node is taken as a name."""

class Certificate:
    """A witness, refutation, strategy or labelling for an instance."""

    @staticmethod
    def load(path: _Path) -> Certificate:
        """Read a certificate file (JSON; gzip, xz and bzip2 decompressed)."""
    @staticmethod
    def loads(text: str, name: str = "<string>") -> Certificate:
        """Read a certificate from its JSON text."""
    @property
    def kind(self) -> str:
        """The certificate kind: ``witness``, ``refutation``, ``voronoi-value``, ..."""
    @property
    def claim(self) -> str:
        """What the certificate claims (established once the checker accepts it)."""
    @property
    def summary(self) -> Optional[str]:
        """``gamecert solve``'s one-line report, for a certificate ``solve`` made."""
    @property
    def verdict(self) -> Optional[Verdict]:
        """The checker's verdict when ``solve`` made the certificate."""
    @property
    def instance(self) -> Optional[Instance]:
        """The instance ``solve`` made the certificate for."""
    def to_json(self) -> str:
        """The certificate as gamecert's JSON file format."""
    def save(self, path: _Path) -> None:
        """Write the certificate's JSON file."""
    def move(
        self,
        position: Optional[_Position] = None,
        instance: Optional[Instance] = None,
        *,
        notation: bool = False,
    ) -> Any:
        """The certified strategy's move at ``position``, as ``gamecert hint`` gives it; None
        where the certificate gives no move. ``position``: None (the start), the game's
        notation, a dict of each side's holdings (``{"W": [nodes], "B": [nodes]}``), or a list
        of the moves played from the start (a heap game's heap sizes, a coin game's heads), in
        the instance's own nodes. A Voronoi game's move is a node; elsewhere, and with
        ``notation=True``, the notation. Checks the certificate first; raises Rejected if the
        checker rejects it, BadInput for a certificate without a strategy or a position that
        does not read, TypeError for a position of another type."""
    def model(self, instance: Optional[Instance] = None) -> Optional[List[int]]:
        """The SAT user's own answer, for a certificate of an instance made by
        ``reduce("sat-voronoi1" or "sat-voronoi2", cnf)``: a model of the user's formula, one
        signed literal per variable of its header (``3`` true, ``-3`` false; PySAT's
        ``get_model()`` shape), read off B's winning placement and checked against every clause
        of the user's formula as given; None for a refutation (the formula is unsatisfiable).
        Checks the certificate first; raises Rejected if the checker rejects it, BadInput for an
        instance that records no formula of the user's or a certificate that settles the game but
        not the formula (a direct refutation)."""
    def _repr_svg_(self) -> Optional[str]: ...

class Verdict:
    """The checker's answer on a certificate."""

    accepted: bool
    """Whether the checker accepted the certificate."""
    outcome: str
    """`"accepted"`, `"rejected"` (the certificate is wrong) or `"not-checked"` (the check's
    budget ran out before it could decide: nothing found wrong, nothing established)."""
    claim: str
    """What the certificate claims (established when accepted)."""
    reason: str
    """Why it was accepted, or the first position or proof step that failed."""
    trusted: List[str]
    """The theorems taken on faith for this verdict."""
    work: Dict[str, Any]
    """What the checker did: positions, leaves, LRAT steps, ``work_units``, ..."""
    def __bool__(self) -> bool: ...

def load(path: _Path) -> Instance: ...
def loads(text: str, name: str = "<string>") -> Instance: ...
def reduce(kind: str, text: str, name: str = "<string>") -> Instance: ...
def solve(instance: Instance, method: Optional[str] = None, sat: Optional[str] = None) -> Certificate: ...
def verify(instance: Instance, certificate: Certificate, max_work: Optional[int] = None) -> Verdict: ...
def table(name: str, options: Dict[str, Any]) -> Dict[str, Any]: ...
def graph6(text: str) -> Tuple[List[str], List[Tuple[str, str]]]: ...
def _with_labels(instance: Instance, labels: Dict[str, Any]) -> Instance: ...
