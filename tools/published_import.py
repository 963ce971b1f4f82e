#!/usr/bin/env python3
"""Writes tests/data/published/ from the puzzle files of dclamage/SudokuVariantSolverJS: one
f-puzzles JSON document per puzzle (the compressed `puzzle` of each entry, decompressed, with the
entry's `solution` under the document's `"solution"` key when the document lacks it; checked
equal when it has one), and the file table of tests/data/published/SOURCES.md, written to
tests/data/published/SOURCES.md.files to paste in. Entries without a licence are left out.

usage: python3 tools/published_import.py GIT_DIR [COMMIT]
  GIT_DIR: a clone of https://github.com/dclamage/SudokuVariantSolverJS (its .git directory or
  work tree); COMMIT defaults to 06eaf432bdf56eae47b2a1816e3f23d3996897a3.
needs: pip install lzstring
"""
import json
import pathlib
import re
import subprocess
import sys

import lzstring

REPO = "dclamage/SudokuVariantSolverJS"
COMMIT = "06eaf432bdf56eae47b2a1816e3f23d3996897a3"
FILES = [
    "puzzles/puzzles.json",
    "puzzles/puzzles-ci.json",
    "puzzles/puzzles-timeout.json",
    "puzzles/lubaf-coloring-book.json",
]
OUT = pathlib.Path("tests/data/published")
CC_BY = "Creative Commons Attribution 4.0 International (CC BY 4.0)"


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def md(text):
    return text.replace("|", "\\|")


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    git_dir, commit = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else COMMIT
    lz = lzstring.LZString()
    seen, names, rows = set(), set(), []
    for path in FILES:
        text = subprocess.check_output(["git", "-C", git_dir, "show", f"{commit}:{path}"])
        for entry in json.loads(text):
            if not entry.get("license") or entry["puzzle"] in seen:
                continue
            seen.add(entry["puzzle"])
            doc = json.loads(lz.decompressFromBase64(entry["puzzle"]))
            digits = [int(c) for c in entry["solution"]]
            if doc.get("solution"):
                assert [int(v) for v in doc["solution"]] == digits, entry["title"]
                where = "document"
            else:
                doc["solution"] = digits
                where = "entry"
            name = slug(entry["title"])
            if name in names:
                name = f"{name}-{slug(entry['author'])}"
            assert name not in names, name
            names.add(name)
            (OUT / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False) + "\n")
            rows.append((name, path, entry, where))
    with open(OUT / "SOURCES.md.files", "w") as f:
        f.write("| file | path in the repository (entry title) | setter | licence | solution from |\n")
        f.write("|---|---|---|---|---|\n")
        for name, path, e, where in sorted(rows):
            licence = e["license"].replace(CC_BY, "CC BY 4.0")
            f.write(
                f"| `{name}.json` | `{path}` ({md(e['title'])}) | {md(e['author'])} "
                f"| {licence} | {where} |\n"
            )
    print(f"{len(rows)} puzzles from {REPO} at {commit}", file=sys.stderr)


if __name__ == "__main__":
    main()
