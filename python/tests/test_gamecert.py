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
    assert certificate.verdict.accepted and certificate.claim == "black-wins"
    assert "accepted by the checker" in certificate.summary
    verdict = gamecert.verify(instance, certificate)
    assert verdict.accepted and bool(verdict)
    assert verdict.claim == "black-wins"
    assert verdict.work["vertices"] == 43 and verdict.work["work_units"] > 0
    assert isinstance(verdict.trusted, list)


def test_an_unsatisfiable_formula_gets_a_refutation_by_either_method_and_backend():
    instance = gamecert.reduce("sat-voronoi2", UNSAT)
    for method, sat in [(None, None), ("direct", "varisat"), ("reduction", "cadical")]:
        certificate = gamecert.solve(instance, method=method, sat=sat)
        assert certificate.kind == "refutation"
        verdict = gamecert.verify(instance, certificate)
        assert verdict.accepted, verdict.reason
        assert verdict.claim == "black-cannot-win"


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
    # A heap game has no picture: Jupyter falls back to the text.
    heaps = gamecert.load(FIXTURES / "heap-labelling" / "instance.json")
    assert heaps._repr_svg_() is None
    with pytest.raises(gamecert.BadInput, match="has no picture"):
        heaps.svg()
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
    assert gamecert.solve(one).claim == "black-wins"
    assert gamecert.to_networkx(one).graph["white"] == ["1"]
    from_g6 = gamecert.voronoi("Dhc", rounds=1)
    assert sorted(gamecert.to_networkx(from_g6).nodes) == ["v0", "v1", "v2", "v3", "v4"]
    started = gamecert.voronoi(path, rounds=2, start={"white": [0], "black": [5]})
    assert gamecert.to_networkx(started).graph["start"] == {"white": ["0"], "black": ["5"]}
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
