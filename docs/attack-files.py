# Attack files of at most about 2 MB, each driving one family of the checker to its work limit
# (docs/checker-limits.md). Usage: python3 docs/attack-files.py [path/to/gamecert]; then
# gamecert-check NAME.inst.json NAME.cert.json for each NAME printed.
import json
H_I = {"format": "gamecert-instance", "version": 1}
H_C = {"format": "gamecert-certificate", "version": 1}
def w(name, inst, cert):
    a = json.dumps({**H_I, **inst}); b = json.dumps({**H_C, **cert})
    open(name + ".inst.json", "w").write(a); open(name + ".cert.json", "w").write(b)
    print(name, len(a) + len(b))
def path(n):
    return {"vertices": ["p%d" % i for i in range(n)], "edges": [["p%d" % (i - 1), "p%d" % i] for i in range(1, n)]}
# 1. one round on a long path: every reply a final position (quadratic region work)
n = 60001
w("path-one-round", {"kind": "voronoi", "graph": path(n), "rounds": 1},
  {"kind": "voronoi-strategy", "player": "white", "claim": "at-least-ties", "moves": [["." * n, "p30000"]]})
# 2. vertex nim, a huge weight
w("vertexnim-weight", {"kind": "vertexnim", "directed": False, "variant": "vertexnim", "play": "normal",
   "vertices": [{"name": "a", "weight": 10**15}, {"name": "b", "weight": 1}], "edges": [["a", "b"]], "token": "a"},
  {"kind": "vertexnim-strategy", "winner": "second", "moves": []})
# 3. positive DNF with many variables and one winning move table entry
nv = 1_000_000
w("posdnf-wide", {"kind": "posdnf-game", "num_vars": nv, "terms": [[1, 2]]},
  {"kind": "dnf-strategy", "player": "second", "claim": "wins", "moves": [["1" + "." * (nv - 1), 2]]})
# 4. LRAT: a 100,000-literal clause added once, then hinted by every later step (each hint scans
# it). The instance is the sat-voronoi1 image of a small unsatisfiable formula, made by gamecert.
import subprocess, sys
gamecert = sys.argv[1] if len(sys.argv) > 1 else "gamecert"
open("contra.cnf", "w").write("p cnf 3 4\n1 2 0\n-1 3 0\n-2 3 0\n-3 0\n")
subprocess.run([gamecert, "-q", "reduce", "sat-voronoi1", "contra.cnf", "-o", "contra.json"], check=True)
contra = json.load(open("contra.json"))
lines = ["5 " + " ".join(["-3"] * 100000) + " 0 4 0"]
k = 6
while sum(len(l) + 1 for l in lines) < 1_900_000:
    lines.append("%d -3 0 5 0" % k)
    k += 1
contra.pop("format"); contra.pop("version")
w("lrat-long-hints", contra,
  {"kind": "refutation", "claim": "black-cannot-win", "method": "reduction", "reduction": "sat-voronoi1",
   "formula": contra["source"]["formula"], "lrat": "\n".join(lines) + "\n"})
# 5. Kayles labels to the largest heap: 2^16 heaps' moves
w("heaps-large", {"kind": "heap-game", "game": "0.7777777777777777", "heaps": [65536]},
  {"kind": "heap-labelling", "claim": "second-player-wins", "values": [0] * 65537})
# 6. coin product, moves listed
w("coins-product", {"kind": "coin-game", "rule": {"game": "product", "x": {"game": "mock-turtles"}, "y": {"game": "mock-turtles"}}, "board": [600, 600], "heads": [[0, 0]]},
  {"kind": "coin-labelling", "claim": "second-player-wins", "value": 0, "values": [[0] * 600] * 600})
# 7. generators repeated
leaves = 2000
verts = ["a", "b"] + ["l%d" % i for i in range(leaves)]
edges = [["a", "l%d" % i] for i in range(leaves)] + [["b", "l%d" % i] for i in range(leaves)]
w("generators-repeated", {"kind": "voronoi", "graph": {"vertices": verts, "edges": edges}, "rounds": 1},
  {"kind": "voronoi-strategy", "player": "white", "claim": "wins", "moves": [["." * (leaves + 2), "a"]],
   "generators": [[["a", "b"], ["b", "a"]]] * 75000})
# 8. a star's twin class, every leaf listed (first-empty per class once per position)
k = 100000
verts = ["c"] + ["l%d" % i for i in range(k)]
w("twins-star", {"kind": "voronoi", "graph": {"vertices": verts, "edges": [["c", v] for v in verts[1:]]}, "rounds": 1},
  {"kind": "voronoi-strategy", "player": "white", "claim": "wins", "moves": [["." * (k + 1), "c"]], "twin_classes": [verts[1:]]})
# Issue 24. 9. vertex nim, the other player's 4 * 10^7 moves (listed before they were charged)
w("vertexnim-listing", {"kind": "vertexnim", "directed": False, "variant": "vertexnim", "play": "normal",
   "vertices": [{"name": "a", "weight": 40_000_000}, {"name": "b", "weight": 1}], "edges": [["a", "b"]], "token": "a"},
  {"kind": "vertexnim-strategy", "winner": "second", "moves": []})
# 10. vertex nim, a star of 3,000 leaves whose emptied centre joins them into a clique
k = 3000
w("vertexnim-clique", {"kind": "vertexnim", "directed": False, "variant": "vertexnim", "play": "normal",
   "vertices": [{"name": "c", "weight": 1}] + [{"name": "v%d" % i, "weight": 1} for i in range(k)],
   "edges": [["c", "v%d" % i] for i in range(k)], "token": "c"},
  {"kind": "vertexnim-strategy", "winner": "second", "moves": []})
# 11. coins: offset sets that never fit, looked at for every coin (charged nothing before)
w("coins-offsets", {"kind": "coin-game", "rule": {"game": "offsets", "sets": [[10**12]] * 100000}, "board": [100000], "heads": []},
  {"kind": "coin-labelling", "claim": "second-player-wins", "value": 0, "values": [0] * 100000})
# 12. coins: subsets of every size, a count per size for every coin
w("coins-subsets", {"kind": "coin-game", "rule": {"game": "subsets", "min_others": 0, "max_others": 10**18}, "board": [300000], "heads": []},
  {"kind": "coin-labelling", "claim": "second-player-wins", "value": 0, "values": [0] * 300000})
# 13. compressed inputs (run with gamecert verify, which decompresses): 100 MB of blanks in a
# bzip2 certificate of a few hundred bytes, and 640 MiB of zeros as 40 concatenated xz streams.
import bz2, lzma
subprocess.run([gamecert, "-q", "gen", "path", "--vertices", "7", "--rounds", "1", "-o", "padded.inst.json"], check=True)
subprocess.run([gamecert, "-q", "solve", "padded.inst.json", "-o", "padded.plain.json"], check=True)
text = open("padded.plain.json").read().rstrip()
open("padded.cert.json.bz2", "wb").write(bz2.compress((text[:-1] + " " * 100_000_000 + "}").encode()))
print("padded (verify padded.inst.json padded.cert.json.bz2)")
open("bomb.cnf.xz", "wb").write(lzma.compress(bytes(16 << 20)) * 40)
print("bomb (reduce sat-voronoi1 bomb.cnf.xz)")
