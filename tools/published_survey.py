#!/usr/bin/env python3
"""Surveys tests/data/published/: per f-puzzles key, how many documents use it, and whether the
lab reads them today. Each document is run through `sudoku-lab unique --backend dfs` (a count up
to 2, with a time limit); a document the reader refuses shows the refusal, one it reads shows
its count and whether the one solution is the setter's.

usage: cargo build --release && python3 tools/published_survey.py [SECONDS]   (default 10)
prints two Markdown tables: per document, then per key: how many documents use it, what the
reader does with the key alone (read, ignored as drawing, refused), how many of those documents
it reads whole, and how many it refuses by that key (the first key it does not know).
"""
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

BIN = "target/release/sudoku-lab"
DIR = "tests/data/published"


def used_keys(doc):
    """The keys that carry something, with pseudo-keys for what `grid` and `size` hold."""
    keys = {k for k, v in doc.items() if v not in (None, False, "", [], {})}
    cells = [c for row in doc.get("grid", []) for c in row]
    if any(c.get("givenPencilMarks") for c in cells):
        keys.add("grid: givenPencilMarks")
    if any("region" in c for c in cells):
        keys.add("grid: region")
    keys.add(f"size {doc['size']}")
    return keys


def refused_key(message):
    """The key a refusal names (`grid: givenPencilMarks` for pencil marks in a cell)."""
    if "given pencil marks" in message:
        return "grid: givenPencilMarks"
    return message.split('"')[1] if message.startswith('f-puzzles: "') else message


def probe(key, doc):
    """What the reader does with `key` alone: the document's size and givens (pencil marks
    dropped, except for the `grid: givenPencilMarks` probe) and that key's content."""
    grid = [[dict(c) for c in row] for row in doc["grid"]]
    if key != "grid: givenPencilMarks":
        for c in (c for row in grid for c in row):
            c.pop("givenPencilMarks", None)
    alone = {"size": doc["size"], "grid": grid}
    if key in doc and key not in alone:
        alone[key] = doc[key]
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(alone, f)
        f.flush()
        cmd = [BIN, "unique", f.name, "--backend", "dfs", "--timeout", "1"]
        err = subprocess.run(cmd, capture_output=True, text=True).stderr
    if "error: " in err:
        return "refused"
    return "ignored (drawing)" if "warning: ignored" in err else "read"


def run(path, seconds):
    cmd = [BIN, "unique", path, "--backend", "dfs", "--timeout", str(seconds), "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    errors = [l.split("error: ", 1)[1] for l in p.stderr.splitlines() if "error: " in l]
    if errors:
        return "refused", errors[0]
    rec = json.loads(p.stdout.splitlines()[0])
    return rec["status"], rec


def main():
    seconds = sys.argv[1] if len(sys.argv) > 1 else "10"
    uses, reads, refused = collections.Counter(), collections.Counter(), collections.Counter()
    messages, probes = collections.defaultdict(set), {}
    rows = []
    for path in sorted(glob.glob(f"{DIR}/*.json")):
        with open(path) as f:
            doc = json.load(f)
        solution = "".join(str(v) for v in doc["solution"])
        status, what = run(path, seconds)
        keys = used_keys(doc)
        uses.update(keys)
        for k in keys - probes.keys():
            probes[k] = probe(k, doc)
        if status == "refused":
            key = refused_key(what)
            refused[key] += 1
            messages[key].add(what.split(": ")[-1])
            note = what
        else:
            reads.update(keys)
            ms = what.get("time_us", 0) / 1000
            same = "setter's solution" if what.get("solution") == solution else "another grid"
            note = f"{status}, {same}, {ms:.1f} ms" if status == "unique" else f"{status}, {ms:.1f} ms"
        rows.append((os.path.basename(path), status, note))
    print("| file | dfs, count up to 2 |\n|---|---|")
    for name, _, note in rows:
        print(f"| `{name}` | {note.replace('|', '/')} |")
    print()
    print("| key | puzzles | the key alone | documents read | refused by this key | the refusal |")
    print("|---|---:|---|---:|---:|---|")
    for k, n in sorted(uses.items(), key=lambda kv: (-kv[1], kv[0])):
        why = "; ".join(sorted(messages[k])).replace("|", "/")
        print(f"| `{k}` | {n} | {probes[k]} | {reads[k]} | {refused[k]} | {why} |")
    counts = collections.Counter(s for _, s, _ in rows)
    print(f"\n{len(rows)} documents: " + ", ".join(f"{c} {s}" for s, c in sorted(counts.items())))


if __name__ == "__main__":
    main()
