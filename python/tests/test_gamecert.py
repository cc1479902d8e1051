"""Tests of the gamecert Python package: every function, its errors, and the files it shares
with the command line."""

import bz2
import gzip
import json
import lzma
import pathlib

import pytest

import gamecert

FIGURE_3 = "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n"
UNSAT = "p cnf 1 2\n1 0\n-1 0\n"
ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "certificates" / "tests" / "fixtures"


def test_reduce_solve_verify_a_satisfiable_formula():
    instance = gamecert.reduce("sat-voronoi1", FIGURE_3, "fig3.cnf")
    assert instance.kind == "voronoi-one-round"
    assert any(note.startswith("sat-voronoi1: 43 vertices") for note in instance.notes)
    certificate = gamecert.solve(instance)
    assert certificate.kind == "witness"
    assert certificate.verdict.accepted and certificate.claim == "B wins the one-round game"
    assert "accepted by the checker" in certificate.summary
    verdict = gamecert.verify(instance, certificate)
    assert verdict.accepted and bool(verdict)
    assert verdict.claim == "B wins the one-round game"
    assert verdict.work["vertices"] == 43 and verdict.work["work_units"] > 0
    assert isinstance(verdict.trusted, list)


def satisfies(model, cnf):
    """Whether the signed literals of ``model`` satisfy every clause of the DIMACS text ``cnf``."""
    true = {literal for literal in model}
    numbers = [int(t) for line in cnf.splitlines() if line[:1] not in "cp" for t in line.split()]
    clauses, clause = [], []
    for number in numbers:
        if number == 0:
            clauses.append(clause)
            clause = []
        else:
            clause.append(number)
    return all(any(literal in true for literal in clause) for clause in clauses)


def test_the_sat_users_model_satisfies_the_users_clauses(tmp_path):
    # Variable 1 occurs five times (split into copies), a tautology, a duplicate clause, a
    # repeated literal, variable 5 unused, a clause of five literals.
    cnf = "p cnf 6 7\n1 2 0\n1 -2 0\n-1 3 0\n1 -1 4 0\n1 1 -3 0\n1 -3 0\n2 3 4 -6 -1 0\n"
    for kind in ["sat-voronoi1", "sat-voronoi2"]:
        instance = gamecert.reduce(kind, cnf)
        certificate = gamecert.solve(instance)
        model = certificate.model()
        assert [abs(literal) for literal in model] == [1, 2, 3, 4, 5, 6]
        assert satisfies(model, cnf), model
    # The direct encoding (the Voronoi game itself to SAT) on a small formula: on the one above
    # (185 vertices, B places 15) CaDiCaL needs minutes; here a fraction of a second.
    small = "p cnf 4 4\n1 2 0\n-1 3 0\n2 -3 4 0\n1 1 -4 0\n"
    direct = gamecert.solve(gamecert.reduce("sat-voronoi1", small), method="direct")
    assert [abs(literal) for literal in direct.model()] == [1, 2, 3, 4]
    assert satisfies(direct.model(), small), direct.model()
    # A loaded certificate (the last of the loop, sat-voronoi2's) needs its instance, and is
    # checked first.
    path = tmp_path / "c.json"
    certificate.save(path)
    loaded = gamecert.Certificate.load(path)
    with pytest.raises(gamecert.BadInput, match="pass instance="):
        loaded.model()
    assert satisfies(loaded.model(instance=instance), cnf)
    # A refutation: the formula is unsatisfiable, no model.
    unsat = gamecert.reduce("sat-voronoi1", UNSAT)
    assert gamecert.solve(unsat).model() is None
    with pytest.raises(gamecert.BadInput, match="direct refutation"):
        gamecert.solve(unsat, method="direct").model()
    # An instance that records no formula of the user's.
    heaps = gamecert.load(FIXTURES / "heap-labelling" / "instance.json")
    labelling = gamecert.Certificate.load(FIXTURES / "heap-labelling" / "accept.json")
    with pytest.raises(gamecert.BadInput, match="records no formula"):
        labelling.model(instance=heaps)


def test_an_unsatisfiable_formula_gets_a_refutation_by_either_method_and_backend(tmp_path):
    instance = gamecert.reduce("sat-voronoi2", UNSAT)
    for method, sat in [(None, None), ("direct", "varisat"), ("reduction", "cadical")]:
        certificate = gamecert.solve(instance, method=method, sat=sat)
        assert certificate.kind == "refutation"
        verdict = gamecert.verify(instance, certificate)
        assert verdict.accepted, verdict.reason
        assert verdict.claim == "B cannot win the one-round game"
        # The proof streamed to a binary file: saved as it is, read back, checked again; its
        # JSON form carries the proof as text LRAT.
        path = tmp_path / f"{method}.cert"
        certificate.save(path)
        assert path.read_bytes().startswith(b"GCREFUT1")
        again = gamecert.Certificate.load(path)
        assert again.kind == "refutation"
        assert gamecert.verify(instance, again).accepted
        assert '"lrat": "' in certificate.to_json()
        assert gamecert.verify(instance, gamecert.Certificate.loads(certificate.to_json(), "c.json")).accepted


def test_a_rejected_certificate_is_a_verdict_not_an_exception():
    instance = gamecert.load(FIXTURES / "heap-labelling" / "instance.json")
    wrong = gamecert.Certificate.load(FIXTURES / "heap-labelling" / "reject-wrong-label.json")
    verdict = gamecert.verify(instance, wrong)
    assert verdict.accepted is False and not verdict
    assert verdict.reason
    right = gamecert.Certificate.load(FIXTURES / "heap-labelling" / "accept.json")
    assert gamecert.verify(instance, right).accepted
    # The budget is the checker's: one unit is too few.
    assert not gamecert.verify(instance, right, max_work=1).accepted


def test_every_fixture_instance_loads_and_its_accepted_certificate_verifies():
    checked = 0
    for folder in sorted(FIXTURES.iterdir()):
        accept = folder / "accept.json"
        if not accept.exists() or not (folder / "instance.json").exists():
            continue
        instance = gamecert.load(folder / "instance.json")
        verdict = gamecert.verify(instance, gamecert.Certificate.load(accept))
        assert verdict.accepted, (folder.name, verdict.reason)
        checked += 1
    assert checked >= 15


def test_bad_input_raises_with_the_command_lines_message(tmp_path):
    with pytest.raises(gamecert.BadInput, match=r"^x\.json:.*format"):
        gamecert.loads('{"kind": "voronoi"}', "x.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "format": "gamecert-instance",\n  "version": 1,\n  "kind": "heap-game",\n  "heps": []\n}\n')
    with pytest.raises(gamecert.BadInput) as raised:
        gamecert.load(broken)
    assert str(raised.value).startswith(f"{broken}:5:"), raised.value
    with pytest.raises(ValueError, match="No such file|not found|os error"):
        gamecert.load(tmp_path / "missing.json")
    with pytest.raises(gamecert.BadInput, match="unknown reduction 'sat-voronoi3'"):
        gamecert.reduce("sat-voronoi3", FIGURE_3)
    with pytest.raises(gamecert.BadInput, match="formula.cnf"):
        gamecert.reduce("sat-voronoi1", "p cnf 1 1\n2 0\n", "formula.cnf")
    with pytest.raises(gamecert.BadInput, match="unknown method 'fast'"):
        gamecert.solve(gamecert.reduce("sat-voronoi1", FIGURE_3), method="fast")
    with pytest.raises(gamecert.BadInput, match="--sat applies to one-round"):
        gamecert.solve(gamecert.load(FIXTURES / "heap-labelling" / "instance.json"), sat="cadical")
    with pytest.raises(gamecert.BadInput, match="certificate.json:"):
        gamecert.Certificate.loads("[]", "certificate.json")


def test_compressed_files_load_as_the_command_line_reads_them(tmp_path):
    text = (FIXTURES / "voronoi-value" / "instance.json").read_bytes()
    for suffix, compress in [("gz", gzip.compress), ("bz2", bz2.compress), ("xz", lzma.compress)]:
        packed = tmp_path / f"instance.json.{suffix}"
        packed.write_bytes(compress(text))
        assert gamecert.load(packed).to_json() == gamecert.loads(text.decode()).to_json()


def test_instances_and_certificates_save_and_load(tmp_path):
    instance = gamecert.reduce("posdnf-game", "p dnf 2 1\n1 2 0\n")
    assert instance.kind == "posdnf-game"
    certificate = gamecert.solve(instance)
    instance.save(tmp_path / "game.json")
    certificate.save(tmp_path / "game.cert.json")
    again = gamecert.Instance.load(tmp_path / "game.json")
    assert again.to_json() == instance.to_json()
    assert gamecert.Instance.loads(instance.to_json()).kind == "posdnf-game"
    read = gamecert.Certificate.load(tmp_path / "game.cert.json")
    assert read.to_json() == certificate.to_json() and read.verdict is None
    assert gamecert.verify(again, read).accepted
    assert json.loads(read.to_json())["format"] == "gamecert-certificate"


def test_pictures_are_the_svg_render_draws():
    instance = gamecert.load(FIXTURES / "voronoi-value" / "instance.json")
    picture = instance._repr_svg_()
    assert picture.startswith("<svg") and "instance.json: the start" in picture
    certificate = gamecert.solve(instance)
    play = certificate._repr_svg_()
    assert play.startswith("<svg") and "move" in play and play != picture
    assert instance.svg(certificate) == play
    # A heap game is drawn as rows of tokens, its start alone or a labelling's play.
    heaps = gamecert.load(FIXTURES / "heap-labelling" / "instance.json")
    start = heaps._repr_svg_()
    assert start.startswith("<svg") and "3 heaps, 21 tokens" in start
    labelling = gamecert.solve(heaps)
    # Its play ends on an empty board, so the picture is the start with the certified move.
    drawn = labelling._repr_svg_()
    assert "the certificate's move" in drawn and drawn != start
    coins = gamecert.load(FIXTURES / "coin-labelling" / "instance.json")
    assert "2 heads" in coins._repr_svg_()
    # A certificate read from a file knows no instance to draw it on.
    assert gamecert.Certificate.loads(certificate.to_json())._repr_svg_() is None


def test_tables_are_lists_of_dicts():
    rows = gamecert.table("kayles", n=12)
    assert [row["g"] for row in rows] == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    paths = gamecert.table("voronoi-paths", max_vertices=6)
    assert {(row["vertices"], row["rounds"]) for row in paths} == {
        (n, rounds) for n in range(2, 7) for rounds in range(1, n // 2 + 1)
    }
    assert all(row["value"] in (0, 1) for row in paths), paths
    details = gamecert.table_details("grundy", n=10)
    assert details["verdict"] == "unchecked" and details["fields"]["oeis"]
    assert details["text"].startswith("Grundy's game")
    triangles = gamecert.table("triangle-avoidance", max_n=5)
    assert [row["vertices"] for row in triangles] == [2, 3, 4, 5]
    census = gamecert.table("voronoi-graphs", max_n=4, rounds=[1])
    # Connected graphs on 2, 3, 4 vertices (one round needs two vertices).
    assert sum(row["graphs"] for row in census) == 1 + 2 + 6
    assert gamecert.table("voronoi-graphs", graph6="Bw\nCF\n", rounds=[1])
    with pytest.raises(gamecert.BadInput, match="unknown field `max_vertex`"):
        gamecert.table("voronoi-paths", max_vertex=6)
    with pytest.raises(gamecert.BadInput, match="unknown variant `no-such-table`"):
        gamecert.table("no-such-table")
    with pytest.raises(gamecert.BadInput, match="--max-vertices must be between 1"):
        gamecert.table("voronoi-paths", max_vertices=0)


def test_voronoi_games_from_networkx_and_graph6_and_back():
    networkx = pytest.importorskip("networkx")
    path = networkx.path_graph(6)
    multi = gamecert.voronoi(path, rounds=2)
    assert multi.kind == "voronoi"
    value = gamecert.solve(multi)
    assert gamecert.verify(multi, value).accepted
    back = gamecert.to_networkx(multi)
    assert networkx.is_isomorphic(back, path) and back.graph["rounds"] == 2
    star = networkx.star_graph(4)
    one = gamecert.voronoi(star, white=[1], black_count=1)
    assert one.kind == "voronoi-one-round"
    assert gamecert.solve(one).claim == "B wins the one-round game"
    assert gamecert.to_networkx(one).graph["white"] == [1]
    from_g6 = gamecert.voronoi("Dhc", rounds=1)
    assert sorted(gamecert.to_networkx(from_g6).nodes) == ["v0", "v1", "v2", "v3", "v4"]
    # A picture's title names the graph: networkx's name (recent networkx leaves path_graph's
    # empty), else its size; never "<graph>".
    assert "voronoi on a graph of 6 vertices and 5 edges" in multi.svg()
    named = networkx.path_graph(6)
    named.name = "six in a row"
    assert "six in a row: the start" in gamecert.voronoi(named, rounds=2).svg()
    assert "voronoi on a graph of 5 vertices and 5 edges" in from_g6.svg()
    assert "&lt;graph&gt;" not in from_g6.svg()
    assert "My path: the start" in gamecert.voronoi(path, rounds=2, name="My path").svg()
    started = gamecert.voronoi(path, rounds=2, start={"white": [0], "black": [5]})
    assert gamecert.to_networkx(started).graph["start"] == {"white": [0], "black": [5]}
    with pytest.raises(gamecert.BadInput, match="unknown vertex|not a vertex|9"):
        gamecert.voronoi(star, white=[9], black_count=1)
    with pytest.raises(gamecert.BadInput, match="not both"):
        gamecert.voronoi(star, rounds=1, white=[1], black_count=1)
    with pytest.raises(gamecert.BadInput, match="graph6"):
        gamecert.voronoi("Dhc\nDhc\n", rounds=1)
    with pytest.raises(gamecert.BadInput, match="not a Voronoi game"):
        gamecert.to_networkx(gamecert.load(FIXTURES / "heap-labelling" / "instance.json"))


def test_the_winning_move_is_the_certificates_in_the_games_notation():
    heaps = gamecert.loads(
        '{"format": "gamecert-instance", "version": 1, "kind": "heap-game", '
        '"game": "0.77", "heaps": [5, 7, 9]}'
    )
    labelling = gamecert.solve(heaps)
    first = labelling.move()
    assert first is not None and ":" in first  # heap:what is left, as gamecert hint writes it
    # The move leaves a position of value 0, where the certificate gives no move.
    heap, left = first.split(":")
    sizes = [5, 7, 9]
    sizes[int(heap) - 1 : int(heap)] = [int(x) for x in left.split("+") if x != "0"]
    assert labelling.move(" ".join(map(str, sizes))) is None
    with pytest.raises(gamecert.BadInput, match="position"):
        labelling.move("five heaps")
    # A loaded certificate needs its instance; a witness has no strategy to ask.
    loaded = gamecert.Certificate.loads(labelling.to_json())
    with pytest.raises(gamecert.BadInput, match="instance="):
        loaded.move()
    assert loaded.move(instance=heaps) == first
    one_round = gamecert.reduce("sat-voronoi1", "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n")
    with pytest.raises(gamecert.BadInput):
        gamecert.solve(one_round).move()
    wrong = gamecert.Certificate.load(FIXTURES / "heap-labelling" / "reject-wrong-label.json")
    with pytest.raises(gamecert.Rejected):
        wrong.move(instance=gamecert.load(FIXTURES / "heap-labelling" / "instance.json"))


def test_tuple_labels_survive_instance_solve_move_and_to_networkx():
    networkx = pytest.importorskip("networkx")
    grid = networkx.grid_2d_graph(2, 3)
    game = gamecert.voronoi(grid, rounds=2)
    # The file names the tuples v0, v1, ... in the graph's order; the instance keeps them.
    assert json.loads(game.to_json())["graph"]["vertices"] == [f"v{i}" for i in range(6)]
    assert game.labels == {f"v{i}": node for i, node in enumerate(grid.nodes)}
    assert game.vertex((0, 1)) == "v1" and game.label("v1") == (0, 1)
    value = gamecert.solve(game)
    assert value.verdict.accepted
    first = value.move()
    assert first in grid and isinstance(first, tuple)
    assert value.move(notation=True) == game.vertex(first)
    # A whole play, each side's certified move given back as a node and read back as one.
    played = []
    for _ in range(4):
        reply = value.move(played)
        assert reply in grid and reply not in played, (played, reply)
        assert value.move(tuple(played)) == reply
        played.append(reply)
    with pytest.raises(gamecert.BadInput, match="the game is over"):
        value.move(played)
    # The same position as a dict of each side's nodes, and in the notation.
    after = played[:2]
    expected = value.move(after)
    assert value.move({"W": [after[0]], "B": [after[1]]}) == expected
    assert value.move({"white": [after[0]], "black": [after[1]]}) == expected
    notation = f"W: {game.vertex(after[0])}  B: {game.vertex(after[1])}"
    assert value.move(notation) == expected
    assert value.move(notation, notation=True) == game.vertex(expected)
    # A certificate read back is played on the labelled instance it is for.
    loaded = gamecert.Certificate.loads(value.to_json())
    assert loaded.move(after, instance=game) == expected
    back = gamecert.to_networkx(game)
    assert set(back.nodes) == set(grid.nodes)
    assert {frozenset(e) for e in back.edges} == {frozenset(e) for e in grid.edges}
    started = gamecert.voronoi(grid, rounds=1, start={"white": [(0, 0)], "black": [(1, 2)]})
    assert gamecert.to_networkx(started).graph["start"] == {"white": [(0, 0)], "black": [(1, 2)]}
    one = gamecert.voronoi(grid, white=[(0, 1)], black_count=1)
    assert gamecert.to_networkx(one).graph["white"] == [(0, 1)]
    with pytest.raises(gamecert.BadInput, match=r"\(9, 9\) is not a node"):
        value.move([(9, 9)])
    with pytest.raises(gamecert.BadInput, match="not one with the key 'R'"):
        value.move({"R": []})


def test_int_labels_stay_ints_and_clashing_strs_get_names_of_their_own():
    networkx = pytest.importorskip("networkx")
    path = networkx.path_graph(6)
    game = gamecert.voronoi(path, rounds=2)
    assert json.loads(game.to_json())["graph"]["vertices"] == ["0", "1", "2", "3", "4", "5"]
    value = gamecert.solve(game)
    first = value.move()
    assert isinstance(first, int) and first in path
    assert value.move(notation=True) == str(first)
    assert value.move([first]) == value.move(f"W: {first}  B: ")
    assert sorted(gamecert.to_networkx(game).nodes) == list(range(6))
    # 1 and "1" have the same str: neither keeps it.
    mixed = networkx.Graph([(1, "1"), ("1", 2)])
    instance = gamecert.voronoi(mixed, rounds=1)
    assert instance.vertex(1) != instance.vertex("1") and "1" not in instance.labels
    assert instance.vertex(2) == "2"
    assert set(gamecert.to_networkx(instance).nodes) == {1, "1", 2}


def test_strings_with_commas_and_spaces_are_labels_too():
    networkx = pytest.importorskip("networkx")
    path = networkx.path_graph(["a, b", "c d", "e", "v0", "x#y", "W: z"])
    game = gamecert.voronoi(path, rounds=3, start={"white": ["x#y"], "black": ["W: z"]})
    names = json.loads(game.to_json())["graph"]["vertices"]
    # Usable strs are kept; the others are named v1, v2, ... (v0 is a node's own).
    assert names == ["v1", "v2", "e", "v0", "v3", "v4"]
    assert json.loads(game.to_json())["start"] == {"white": ["v3"], "black": ["v4"]}
    value = gamecert.solve(game)
    played = []
    while True:
        try:
            reply = value.move(played)
        except gamecert.BadInput as over:
            assert "the game is over" in str(over)
            break
        assert reply in path, reply
        played.append(reply)
    assert len(played) == 4
    assert value.move({"W": ["x#y", "c d"], "B": ["W: z"]}) == value.move(["c d"])
    back = gamecert.to_networkx(game)
    assert set(back.nodes) == set(path.nodes) and back.has_edge("a, b", "c d")
    assert back.graph["start"] == {"white": ["x#y"], "black": ["W: z"]}


def test_a_voronoi_game_on_a_list_of_edges():
    game = gamecert.voronoi([(0, 1), (1, 2), (2, 3)], rounds=1)
    assert game.labels == {"0": 0, "1": 1, "2": 2, "3": 3}
    assert gamecert.solve(game).move() in (0, 1, 2, 3)
    one = gamecert.voronoi([("a", "b"), ["b", "c"]], white=["b"], black_count=1)
    assert one.kind == "voronoi-one-round"
    assert gamecert.voronoi([(0, 1)], rounds=1).kind == "voronoi"
    with pytest.raises(TypeError, match="networkx.Graph, a graph6 line or a list of edges"):
        gamecert.voronoi(5, rounds=1)
    with pytest.raises(TypeError, match="not a pair of nodes"):
        gamecert.voronoi([(0, 1, 2)], rounds=1)
    with pytest.raises(TypeError, match="list of nodes"):
        gamecert.voronoi([(0, 1)], white="0", black_count=1)


def test_positions_as_structures_in_games_whose_moves_are_not_vertices():
    heaps = gamecert.loads(
        '{"format": "gamecert-instance", "version": 1, "kind": "heap-game", '
        '"game": "0.77", "heaps": [5, 7, 9]}'
    )
    labelling = gamecert.solve(heaps)
    # A heap game's list is its heap sizes; the move stays in the notation.
    assert labelling.move([5, 7, 9]) == labelling.move("5 7 9") == labelling.move()
    assert isinstance(labelling.move([5, 7, 9]), str)
    dnf = gamecert.reduce("posdnf-game", "p dnf 3 2\n1 2 0\n2 3 0\n")
    strategy = gamecert.solve(dnf)
    # The DNF game: a list of the variables chosen in turn, or each player's dict.
    assert strategy.move([2, 1]) == strategy.move({1: [2], 2: [1]}) == strategy.move("1: 2  2: 1")
    marking = gamecert.load(FIXTURES / "marking-strategy" / "instance.json")
    edges = gamecert.solve(marking)
    first = edges.move()
    a, b = map(int, first.split("-"))
    assert edges.move({"green": []}) == first
    assert edges.move([(a, b)]) == edges.move(f"green: {first}")
    coins = gamecert.load(FIXTURES / "coin-labelling" / "instance.json")
    coin_labelling = gamecert.Certificate.load(FIXTURES / "coin-labelling" / "accept.json")
    assert coin_labelling.move([(4, 1), (100, 100)], instance=coins) == coin_labelling.move(
        "(4,1) (100,100)", instance=coins
    )
    with pytest.raises(TypeError, match="not float"):
        labelling.move(1.5)


def test_each_error_is_its_promised_class():
    networkx = pytest.importorskip("networkx")
    # A method named that does not apply is bad input, whichever layer says so.
    one_round = gamecert.voronoi(networkx.star_graph(3), white=[0], black_count=1)
    with pytest.raises(gamecert.BadInput, match="needs an instance built by `gamecert reduce`"):
        gamecert.solve(one_round, "reduction")
    with pytest.raises(gamecert.BadInput, match="does not apply to a voronoi instance"):
        gamecert.solve(gamecert.voronoi(networkx.path_graph(4), rounds=1), "reduction")
    with pytest.raises(gamecert.BadInput, match=r"field `format` is 1, expected the string 'gamecert-instance'"):
        gamecert.loads('{"format": 1}')
    with pytest.raises(gamecert.BadInput, match=r"missing field `format`"):
        gamecert.loads('{"version": 1}')
    with pytest.raises(gamecert.BadInput, match=r"field `kind` is 7"):
        gamecert.loads('{"format": "gamecert-instance", "version": 1, "kind": 7}')
    with pytest.raises(gamecert.BadInput, match=r"field `format` is \[\]"):
        gamecert.Certificate.loads('{"format": [], "version": 1}')
    assert issubclass(gamecert.BadInput, ValueError) and issubclass(gamecert.Rejected, ValueError)


def test_help_explains_every_function():
    for name in ["load", "loads", "reduce", "solve", "verify", "table", "voronoi", "to_networkx"]:
        doc = getattr(gamecert, name).__doc__
        assert doc and len(doc) > 80, name
    for cls in [gamecert.Instance, gamecert.Certificate, gamecert.Verdict]:
        assert cls.__doc__, cls
    stubs = pathlib.Path(gamecert.__file__).with_name("_gamecert.pyi")
    assert stubs.exists() and "def solve(" in stubs.read_text()


def test_the_tour_notebook_runs():
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(ROOT / "examples" / "tour.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pictures = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(pictures) >= 3
