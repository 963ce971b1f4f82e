#!/usr/bin/env python3
"""Writes tests/data/published/ from public repositories that ship f-puzzles documents with their
setters' solutions, and the file table of tests/data/published/SOURCES.md (written to
tests/data/published/SOURCES.md.files, to paste in).

usage: python3 tools/published_import.py SOURCE GIT_DIR
  SOURCE svs: GIT_DIR is a clone of https://github.com/dclamage/SudokuVariantSolverJS; each
    entry of its puzzle files (CC BY 4.0) gives one document: its compressed `puzzle`,
    decompressed, with the entry's `solution` under `"solution"` when the document has none
    (checked equal when it has one). Entries without a licence are left out.
  SOURCE kaji: GIT_DIR is a clone of https://github.com/kinnison/kaji (MIT); each f-puzzles
    document of `sample-puzzles/` set by the repository's author (Kinnison) is copied unchanged.
needs: pip install lzstring (svs)
"""
import json
import pathlib
import re
import subprocess
import sys

OUT = pathlib.Path("tests/data/published")
CC_BY = "Creative Commons Attribution 4.0 International (CC BY 4.0)"
SOURCES = {
    "svs": (
        "dclamage/SudokuVariantSolverJS",
        "06eaf432bdf56eae47b2a1816e3f23d3996897a3",
    ),
    "kaji": ("kinnison/kaji", "221c6a49d182e09178d99cb341d3b087754300eb"),
}
SVS_FILES = [
    "puzzles/puzzles.json",
    "puzzles/puzzles-ci.json",
    "puzzles/puzzles-timeout.json",
    "puzzles/lubaf-coloring-book.json",
]


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def md(text):
    return text.replace("|", "\\|")


def show(git_dir, commit, path):
    return subprocess.check_output(["git", "-C", git_dir, "show", f"{commit}:{path}"])


def svs(git_dir, commit):
    """(name, text, path, title, setter, licence, where the solution comes from) per puzzle."""
    import lzstring

    lz = lzstring.LZString()
    seen, names = set(), set()
    for path in SVS_FILES:
        for entry in json.loads(show(git_dir, commit, path)):
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
            text = json.dumps(doc, ensure_ascii=False) + "\n"
            licence = entry["license"].replace(CC_BY, "CC BY 4.0")
            yield name, text, path, entry["title"], entry["author"], licence, where


def kaji(git_dir, commit):
    listing = subprocess.check_output(
        ["git", "-C", git_dir, "ls-tree", "--name-only", commit, "sample-puzzles/"], text=True
    )
    for path in listing.split():
        text = show(git_dir, commit, path).decode()
        doc = json.loads(text)
        if "grid" not in doc or doc.get("author") != "Kinnison":
            continue
        assert doc.get("solution"), path
        name = pathlib.Path(path).stem
        yield name, text, path, doc["title"], doc["author"], "MIT", "document"


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in SOURCES:
        raise SystemExit(__doc__)
    source, git_dir = sys.argv[1], sys.argv[2]
    repo, commit = SOURCES[source]
    rows = []
    for name, text, path, title, setter, licence, where in globals()[source](git_dir, commit):
        target = OUT / f"{name}.json"
        assert not target.exists() or target.read_text() == text, f"{target} exists"
        target.write_text(text)
        rows.append(
            f"| `{name}.json` | {repo} | `{path}` ({md(title)}) | {md(setter)} | {licence} "
            f"| {where} |\n"
        )
    with open(OUT / "SOURCES.md.files", "a") as f:
        f.writelines(sorted(rows))
    print(f"{len(rows)} puzzles from {repo} at {commit}", file=sys.stderr)


if __name__ == "__main__":
    main()
