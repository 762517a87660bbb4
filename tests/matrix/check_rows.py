#!/usr/bin/python3
"""check_rows.py - a pfsbench matrix run, checked from its rows by an
independent reading of docs/matrix.md: every row is a cell of the plan
(passes over the cells, transfer sizes outer, request sizes inner, a cell
whose request exceeds its transfer never run) and moved exactly its bytes,
ceil(transfer / request) requests; every step has one row per rank; the
outlier rule's marks are the rule's (population standard deviation of the
cell's repetitions, kept within one of their mean); and the report's first
lines are perf_matrix's matrix of the kept repetitions' mean rates, " %.2f"
a cell, followed by a blank line and the labelled matrix.

    check_rows.py ROWS.csv REPORT --req 4096,65536 --xfer 65536,262144
                  --iter 3 --ranks 2 --op Write

ROWS.csv is `pfsbench export RUN.h5 --csv`. Prints what is wrong; exit 1
then, 0 when all is right."""
import argparse
import csv
import math
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rows")
    ap.add_argument("report")
    ap.add_argument("--req", required=True)
    ap.add_argument("--xfer", required=True)
    ap.add_argument("--iter", type=int, required=True)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--op", required=True)
    a = ap.parse_args()
    req = [int(x) for x in a.req.split(",")]
    xfer = [int(x) for x in a.xfer.split(",")]
    cells = [(r, c) for r in range(len(xfer)) for c in range(len(req)) if req[c] <= xfer[r]]
    nsteps = 1 + len(cells) * a.iter
    bad = []

    with open(a.rows, newline="") as f:
        rows = list(csv.DictReader(f))
    steps = {}
    for i, row in enumerate(rows):
        step = int(row["step"])
        if row["op"] != a.op or row["unit"] != "bytes" or row["test"] != "matrix":
            bad.append("row %d: %s %s %s" % (i + 1, row["test"], row["op"], row["unit"]))
            continue
        if not 1 <= step < nsteps:
            bad.append("row %d: step %d is no cell" % (i + 1, step))
            continue
        r, c = cells[(step - 1) % len(cells)]
        want_items = (xfer[r] + req[c] - 1) // req[c]
        if int(row["bytes"]) != xfer[r] or int(row["items"]) != want_items:
            bad.append("row %d: %s bytes in %s requests, want %d in %d"
                       % (i + 1, row["bytes"], row["items"], xfer[r], want_items))
        steps.setdefault(step, []).append(row)
    for step in range(1, nsteps):
        got = steps.get(step, [])
        ranks = sorted(int(x["rank"]) for x in got)
        if ranks != list(range(a.ranks)):
            bad.append("step %d: rows of ranks %s, want one of each of %d" % (step, ranks, a.ranks))
        if len({x["discarded"] for x in got}) > 1:
            bad.append("step %d: its rows disagree on discarded" % step)

    def rate(step):
        got = steps[step]
        lo = min(int(x["start_us"]) for x in got)
        hi = max(int(x["start_us"]) + int(x["elapsed_us"]) for x in got)
        amount = sum(int(x["bytes"]) for x in got)
        return float(amount) * 1e6 / float(hi - lo if hi > lo else 1) / (1024.0 * 1024.0)

    value = {}
    for k, (r, c) in enumerate(cells):
        reps = [1 + rep * len(cells) + k for rep in range(a.iter)]
        x = [rate(s) for s in reps]
        mean = sum(x) / len(x)
        sd = math.sqrt(sum((v - mean) ** 2 for v in x) / len(x))
        kept = []
        for s, v in zip(reps, x):
            marked = steps[s][0]["discarded"] == "1"
            d = abs(v - mean)
            if abs(d - sd) > 1e-9 * max(x) and marked != (d > sd):
                bad.append("step %d: %.6f MiB/s, %.6f from the mean, sd %.6f, but %s"
                           % (s, v, d, sd, "discarded" if marked else "kept"))
            if not marked:
                kept.append(v)
        if not kept:
            bad.append("cell %d, %d: no repetition kept" % (r, c))
            kept = [0.0]
        value[(r, c)] = sum(kept) / len(kept)

    with open(a.report) as f:
        report = f.read().split("\n")
    want = ["".join(" %.2f" % value.get((r, c), 0.0) for c in range(len(req)))
            for r in range(len(xfer))]
    shape = re.compile(r"^( [0-9]+\.[0-9]{2}){%d}$" % len(req))
    for r in range(len(xfer)):
        line = report[r] if r < len(report) else "(none)"
        if not shape.match(line):
            bad.append("report line %d is not %d numbers: %r" % (r + 1, len(req), line))
        if line != want[r]:
            bad.append("report line %d: %r, the rows say %r" % (r + 1, line, want[r]))
    if report[len(xfer):len(xfer) + 2] != ["", "MiB/s by transfer size (rows) and request size (columns)"]:
        bad.append("no blank line and labelled matrix after the matrix: %r"
                   % report[len(xfer):len(xfer) + 2])
    for b in bad[:20]:
        print("# " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
