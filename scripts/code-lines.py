#!/usr/bin/env python3
"""Counts code lines of Rust sources: lines that are neither blank nor comments (`//`, `///`,
`//!`, `/* .. */`), leaving out each file's `#[cfg(test)] mod tests` block (the tests beside the
code). This is how issue 16's limit on the checker is measured:

    scripts/code-lines.py certificates/src          # per file, then the total
    scripts/code-lines.py --total certificates/src  # the total only
"""
import os
import sys


def code_lines(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.strip() == "#[cfg(test)]" and i + 1 < len(lines) and "mod tests" in lines[i + 1]:
            lines = lines[:i]
            break
    count, in_block = 0, False
    for line in lines:
        s = line.strip()
        if in_block:
            in_block = "*/" not in s
            continue
        if not s or s.startswith("//"):
            continue
        if s.startswith("/*"):
            in_block = "*/" not in s
            continue
        count += 1
    return count


def main(args):
    total_only = "--total" in args
    paths = []
    for arg in (a for a in args if a != "--total"):
        if os.path.isfile(arg):
            paths.append(arg)
        for root, _, files in os.walk(arg):
            paths += [os.path.join(root, f) for f in files if f.endswith(".rs")]
    total = 0
    for path in sorted(paths):
        n = code_lines(path)
        total += n
        if not total_only:
            print(f"{n:6} {path}")
    print(total if total_only else f"{total:6} total")


if __name__ == "__main__":
    main(sys.argv[1:])
