#!/usr/bin/env python3
"""recall-bench.py — line-level recall of sunset on legacy lines Paddle itself removed.

The truth file (testdata/recall/truth.tsv, written by hand) lists, per commit of Paddle's
history that removed fluid-era executor code, the removed lines judged legacy: the commit, the
path, the line number in the commit's parent and the line's text. For every commit this script
extracts the parent's version of each file the commit modified or deleted (git objects only, no
checkout) into a temporary directory, scans it with sunset, and counts a truth line as caught
when a finding's range (line..end_line, widened to its "statement") covers it. The text column guards the truth against a
wrong revision: a line whose text differs from the parent's is an error, not a miss.

    scripts/recall-bench.py --repo PADDLE_GIT_DIR [--sunset build/sunset] [--truth FILE] [-v]

Prints recall per commit and in total; -v lists every missed line. Exit 0, or 2 on bad input.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True,
                          capture_output=True).stdout


def load_truth(path):
    truth = collections.OrderedDict()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t", 3)
            if len(parts) != 4 or not parts[2].isdigit():
                sys.exit(f"{path}:{n}:1: expected commit<TAB>path<TAB>line<TAB>text")
            truth.setdefault(parts[0], []).append((parts[1], int(parts[2]), parts[3], n))
    return truth


def scan(sunset, tree):
    out = subprocess.run([sunset, "scan", "--no-config", "--no-cache", "-f", "json", tree],
                         capture_output=True)
    if out.returncode not in (0, 1):
        sys.exit(f"sunset failed on {tree}: {out.stderr.decode(errors='replace')}")
    covered = collections.defaultdict(set)
    for f in json.loads(out.stdout)["findings"]:
        st = f.get("statement") or {}
        first = min(f["line"], st.get("line", f["line"]))
        last = max(f.get("end_line", f["line"]), st.get("end_line", 0))
        for ln in range(first, last + 1):
            covered[f["path"]].add(ln)
    return covered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", required=True, help="Paddle git directory (a mirror is enough)")
    ap.add_argument("--sunset", default="build/sunset")
    ap.add_argument("--truth", default="testdata/recall/truth.tsv")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    truth = load_truth(a.truth)
    total = caught = 0
    misses = []
    with tempfile.TemporaryDirectory(prefix="sunset-recall-") as tmp:
        for commit, rows in truth.items():
            tree = os.path.join(tmp, commit)
            names = git(a.repo, "diff", "--name-only", "--diff-filter=MD", "-z",
                        f"{commit}^", commit).decode().split("\0")
            for name in filter(None, names):
                dst = os.path.join(tree, name)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(dst, "wb") as f:
                    f.write(git(a.repo, "show", f"{commit}^:{name}"))
            covered = scan(a.sunset, tree)
            hit = 0
            for path, ln, text, tl in rows:
                with open(os.path.join(tree, path), encoding="utf-8", errors="replace") as f:
                    lines = f.read().split("\n")
                if ln > len(lines) or lines[ln - 1] != text:
                    sys.exit(f"{a.truth}:{tl}:1: {path}:{ln} at {commit}^ is not the line given")
                if ln in covered.get(path, ()):
                    hit += 1
                else:
                    misses.append((commit, path, ln, text))
            total += len(rows)
            caught += hit
            print(f"{commit}  {hit:4d}/{len(rows):<4d} {100.0 * hit / len(rows):6.1f}%")
    print(f"total       {caught:4d}/{total:<4d} {100.0 * caught / total:6.1f}%")
    if a.verbose:
        for c, p, ln, t in misses:
            print(f"miss {c} {p}:{ln}: {t.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
