#!/usr/bin/env python3
"""Finds import cycles between the modules (files) of a Rust crate, and between its top-level
folders, from the paths the code names: `crate::a::b`, `super::x`, `use crate::{a, b::c}`.
Comments are skipped; `mod x;` declarations are not imports; each file's `#[cfg(test)] mod
tests` block is left out (tests may look anywhere). Exits 1 if there is a cycle.

    scripts/import-cycles.py certificates/src       # the checker crate
    scripts/import-cycles.py src                    # the solver library
"""
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def code_of(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "#[cfg(test)]" and i + 1 < len(lines) and "mod tests" in lines[i + 1]:
            lines = lines[:i]
            break
    return "\n".join(l.split("//")[0] if not l.strip().startswith("//") else "" for l in lines)


def expand_group(text, start):
    """The paths of a `{...}` group starting at text[start] == '{', relative to the group."""
    depth, item, items, i = 0, "", [], start
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
            if depth > 1:
                item += c
        elif c == "}":
            depth -= 1
            if depth == 0:
                items.append(item)
                return items, i
            item += c
        elif c == "," and depth == 1:
            items.append(item)
            item = ""
        else:
            item += c
        i += 1
    return items, i


def paths_in(text):
    """Every path that starts with `crate::` or `super::`, groups expanded."""
    out = []
    for m in re.finditer(r"\b(crate|super)((?:::" + IDENT + r")*)(::\{)?", text):
        base = [m.group(1)] + [p for p in m.group(2).split("::") if p]
        if len(base) == 1 and not m.group(3):
            continue  # `pub(crate)`, or `super` alone: not a path to a module
        if m.group(3):
            items, _ = expand_group(text, m.end() - 1)
            for item in items:
                item = item.strip()
                if not item:
                    continue
                if "{" in item:
                    head = item.split("{")[0].strip().strip(":")
                    out.append(base + [p for p in head.split("::") if p])
                else:
                    first = item.split(" as ")[0].strip()
                    out.append(base + [p for p in first.split("::") if p and p != "self"])
        else:
            out.append(base)
    return out


def main(args):
    src = args[0]
    files = []
    for root, _, names in os.walk(src):
        files += [os.path.join(root, n) for n in names if n.endswith(".rs")]
    # The library only: binaries (main.rs, bin/, and the cli/ of a binary) are crates of their own.
    modules = {}
    for f in files:
        rel = os.path.relpath(f, src)
        if rel == "main.rs" or rel.startswith(("bin" + os.sep, "cli" + os.sep)):
            continue
        modules[module_of(src, f)] = f
    edges = {m: set() for m in modules}
    for mod, f in modules.items():
        code = code_of(f)
        paths = [p for p in paths_in(code)]
        # `use child::x` in a module names its own child module.
        for m in re.finditer(r"\buse\s+(" + IDENT + r")::", code):
            if mod + (m.group(1),) in modules:
                paths.append(["self", m.group(1)])
        for path in paths:
            if path[0] == "crate":
                full = tuple(path[1:])
            elif path[0] == "self":
                full = mod + tuple(path[1:])
            else:
                here = mod
                while path and path[0] == "super":
                    here, path = here[:-1], path[1:]
                full = here + tuple(path)
            # The longest prefix that is a module is the target.
            target = next((full[:k] for k in range(len(full), -1, -1) if full[:k] in modules), None)
            if target is not None and target != mod:
                edges[mod].add(target)
    found = report("modules", edges)
    folders = {}
    for mod, targets in edges.items():
        a = mod[:1] or ("<root>",)
        for t in targets:
            b = t[:1] or ("<root>",)
            if a != b:
                folders.setdefault(a, set()).add(b)
            folders.setdefault(b, set())
        folders.setdefault(a, set())
    found |= report("top-level folders", folders)
    sys.exit(1 if found else 0)


def report(what, edges):
    """Prints the strongly connected components with more than one node (Tarjan)."""
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            strong(v)
    name = lambda m: "::".join(m) or "<root>"
    if not sccs:
        print(f"no cycles between {what} ({len(edges)} {what})")
        return False
    for comp in sccs:
        print(f"cycle between {what}: " + ", ".join(sorted(name(m) for m in comp)))
    return True


if __name__ == "__main__":
    main(sys.argv[1:])
