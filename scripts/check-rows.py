#!/usr/bin/env python3
"""check-rows.py REPORT.json... -- the tracking report's rows add up (issue 31, "Done when").

For every task of every report (sunset report -f json): its count of findings equals the sum
of its items' open counts plus its 其他 row, and equals the length of its "remaining" list;
every item's open count is the length of its own list; items_done counts the done items
measured here. Prints one line per task and exits 1 on the first report with a mismatch.
"""
import json
import sys


def check(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    bad = 0
    for t in doc["tasks"]:
        items = t["items"]
        rows = sum(it["open"] for it in items) + t["other"]["open"]
        done = sum(1 for it in items if it["done"] and not it.get("outside"))
        lists = all(it["open"] == len(it["findings"]) for it in items) and t["other"]["open"] == len(
            t["other"]["findings"])
        ok = rows == t["findings"] == len(t["remaining"]) and lists and done == t["items_done"]
        print("%s: task %d: %d findings, rows sum to %d (%d items + other %d), items done %d/%d: %s" % (
            path, t["number"], t["findings"], rows, len(items), t["other"]["open"], t["items_done"],
            t["items_total"], "ok" if ok else "MISMATCH"))
        bad += not ok
    return bad


def main(argv):
    if len(argv) < 2:
        print("usage: check-rows.py REPORT.json...", file=sys.stderr)
        return 2
    bad = sum(check(p) for p in argv[1:])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
