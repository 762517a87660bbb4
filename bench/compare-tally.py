#!/usr/bin/python3
"""compare-tally.py: the counting of bench/run-bench-compare.sh, apart from
the runs. Reads `pfsbench compare --json` in both of its shapes (runs as
replicates: "sides"; the older one: "runs", of which the first run of each
side is compared) and the rows of runs (`pfsbench export --csv`); appends
to the CSVs in OUT and writes OUT/summary.md. Standard library only, so
that it runs under /usr/bin/python3 of a bare Debian.

  peritem TEST OP NODE CSV...       median over the runs of NODE's
                                    elapsed_us / items (NODE "all": every node)
  error OUT KIND COND ITERS ID NA JSON
                                    one comparison of runs of one configuration
  trial OUT SCENARIO TRIAL NA SLOWED EXPECT JSON -- A.csv... -- B.csv...
                                    one trial of a known slowdown; SLOWED a node
                                    or "all", EXPECT test:op,... the lines it slows
  report OUT                        OUT/summary.md from the CSVs
"""
import csv
import json
import math
import os
import statistics
import sys


def norm(path, na):
    """(lines, runs) of a compare document, whatever its shape. lines: dicts
    of test, op, ratio, low, high, called_out, verdict, text for side 2
    against side 1; runs: (side, k, path, judged, [node names])."""
    with open(path) as f:
        doc = json.load(f)
    lines, runs = [], []
    if "sides" in doc:
        for s in doc["sides"]:
            for r in s["runs"]:
                sn = r.get("slow_nodes") or {}
                runs.append((s["side"], r["run"], r.get("path", ""), bool(sn.get("judged")),
                             [n["node"] for n in sn.get("nodes", [])]))
        for ln in doc["lines"]:
            b = [s for s in ln["sides"] if s["side"] == 2][0]
            lines.append(dict(test=ln["test"], op=ln["op"], ratio=b.get("ratio"), low=b.get("low"),
                              high=b.get("high"), called_out=bool(b.get("called_out")),
                              verdict=b.get("verdict") or "", text=b.get("text") or "",
                              node=b.get("node") or "", by_node=bool(b.get("by_node")),
                              node_ratio=b.get("node_ratio"), node_low=b.get("node_low"),
                              node_high=b.get("node_high")))
    else:
        # The older compare: every run in one list; side 1 is runs 1..na,
        # side 2 the rest, and its first run's column (against run 1) is the
        # comparison.
        for r in doc["runs"]:
            sn = r.get("slow_nodes") or {}
            side, k = (1, r["run"]) if r["run"] <= na else (2, r["run"] - na)
            runs.append((side, k, r.get("path", ""), bool(sn.get("judged")),
                         [n["node"] for n in sn.get("nodes", [])]))
        for ln in doc["lines"]:
            b = [r for r in ln["runs"] if r["run"] == na + 1][0]
            lines.append(dict(test=ln["test"], op=ln["op"], ratio=b.get("ratio"), low=b.get("low"),
                              high=b.get("high"), called_out=bool(b.get("called_out")),
                              verdict=b.get("verdict") or "", text=b.get("change") or "", node="",
                              by_node=False, node_ratio=None, node_low=None, node_high=None))
    return lines, runs


def rows(path):
    with open(path, newline="") as f:
        out = []
        for r in csv.DictReader(line.replace("\r", "") for line in f):
            for k in ("iteration", "step", "start_us", "elapsed_us", "items"):
                r[k] = int(r[k])
            out.append(r)
        return out


def peritem_run(rs, test, op, node):
    """NODE's (or every node's) elapsed_us / items in (TEST, OP) of one run."""
    sel = [r for r in rs if r["test"] == test and r["op"] == op and node in ("all", r["node"])]
    items = sum(r["items"] for r in sel)
    return sum(r["elapsed_us"] for r in sel) / items if items else float("nan")


def peritem(test, op, node, paths):
    return statistics.median(peritem_run(rows(p), test, op, node) for p in paths)


def line_time(rs, test, op, scale):
    """The time compare's rate divides by, for one run: per iteration the sum
    over the op's steps of (latest end - earliest start), each row's
    elapsed_us multiplied by scale(row); the median over the iterations of
    time / items, the time of one item of the line."""
    its = {}
    for r in rs:
        if r["test"] == test and r["op"] == op:
            its.setdefault(r["iteration"], {}).setdefault(r["step"], []).append(r)
    per = []
    for steps in its.values():
        t = items = 0
        for st in steps.values():
            t += max(r["start_us"] + r["elapsed_us"] * scale(r) for r in st) - min(r["start_us"] for r in st)
            items += sum(r["items"] for r in st)
        per.append(t / items)
    return statistics.median(per)


def fmt(v, spec=".3f"):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def load():
    """The machine's load (1-minute average) as the comparison is counted,
    right after its runs."""
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def append(path, header, rowlist):
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(header)
        w.writerows(rowlist)


ERR_LINES = ["kind", "cond", "iters", "id", "test", "op", "ratio", "low", "high", "called_out", "verdict", "text"]
ERR_RUNS = ["cond", "iters", "id", "side", "run", "judged", "named", "load"]


def cmd_error(out, kind, cond, iters, ident, na, js):
    lines, runs = norm(js, int(na))
    append(os.path.join(out, "error-lines.csv"), ERR_LINES,
           [[kind, cond, iters, ident, ln["test"], ln["op"], fmt(ln["ratio"], ".4f"), fmt(ln["low"], ".4f"),
             fmt(ln["high"], ".4f"), int(ln["called_out"]), ln["verdict"], ln["text"]] for ln in lines])
    if kind == "pair":  # a group is made of the pairs' runs: counted once, there
        append(os.path.join(out, "error-runs.csv"), ERR_RUNS,
               [[cond, iters, ident, s, k, int(j), " ".join(n), load()] for s, k, _, j, n in runs])


POWER = ["scenario", "trial", "slowed", "test", "op", "node_factor", "added_us", "line_factor", "ratio", "low", "high",
         "called_out", "verdict", "right", "inside", "runs_naming", "runs_b", "wrong_named", "false_calls", "load",
         "line_node", "by_node", "node_ratio", "node_low", "node_high", "node_inside"]


def cmd_trial(out, scenario, trial, na, slowed, expect, js, a_csvs, b_csvs):
    lines, runs = norm(js, int(na))
    now = load()
    ra = [rows(p) for p in a_csvs]
    rb = [rows(p) for p in b_csvs]
    exp = [tuple(e.split(":")) for e in expect.split(",")]
    false = ["%s %s %s" % (ln["test"], ln["op"], ln["verdict"]) for ln in lines
             if ln["called_out"] and (ln["test"], ln["op"]) not in exp]
    b_runs = [r for r in runs if r[0] == 2]
    naming = sum(1 for r in b_runs if slowed in r[4]) if slowed != "all" else ""
    wrong = sorted({n for r in runs for n in r[4] if n != slowed})
    out_rows = []
    for test, op in exp:
        ln = next((x for x in lines if x["test"] == test and x["op"] == op), None)
        # The truth, from the rows, not from what was asked of the injector:
        # the slowed node's own time an item, slowed against unslowed...
        fa = statistics.median(peritem_run(r, test, op, slowed) for r in ra)
        fb = statistics.median(peritem_run(r, test, op, slowed) for r in rb)
        nf = fb / fa
        # ...and what that makes of the line: the unslowed runs' steps with
        # that node's rows lengthened by its factor (the other nodes as
        # they were), in compare's formula.
        lf = statistics.median(line_time(r, test, op, lambda x: nf if slowed in ("all", x["node"]) else 1)
                               / line_time(r, test, op, lambda x: 1) for r in ra)
        if ln is None:
            out_rows.append([scenario, trial, slowed, test, op, fmt(nf), fmt(fb - fa), fmt(lf)] + [""] * 6
                            + [naming, len(b_runs), " ".join(wrong), "; ".join(false), now, ""] + [""] * 5)
            continue
        right = int(ln["called_out"] and ln["verdict"] == "SLOWER")
        inside = int(ln["low"] is not None and ln["high"] is not None and ln["low"] <= 1 / lf <= ln["high"])
        # The node's own factor in its own interval (the node judged is
        # the surest one: when it is not the slowed node, this is 0).
        ninside = int(ln["node_low"] is not None and ln["node_high"] is not None
                      and ln["node_low"] <= 1 / nf <= ln["node_high"])
        out_rows.append([scenario, trial, slowed, test, op, fmt(nf), fmt(fb - fa), fmt(lf), fmt(ln["ratio"], ".4f"),
                         fmt(ln["low"], ".4f"), fmt(ln["high"], ".4f"), int(ln["called_out"]), ln["verdict"],
                         right, inside, naming, len(b_runs), " ".join(wrong), "; ".join(false), now,
                         ln["node"] if ln["called_out"] else "", int(ln["by_node"]),
                         fmt(ln["node_ratio"], ".4f"), fmt(ln["node_low"], ".4f"), fmt(ln["node_high"], ".4f"),
                         ninside if ln["node_ratio"] is not None else ""])
    append(os.path.join(out, "power.csv"), POWER, out_rows)
    for r in out_rows:
        print("  %s trial %s %s %s: node x%s (+%s us an item) line x%s, ratio %s (%s-%s) %s%s, load %s" %
              (scenario, trial, r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[12] or "-",
               ", false: " + r[18] if r[18] else "", now))


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def spread(vals):
    vals = [float(v) for v in vals if v not in ("", None)]
    return "%.1f-%.1f" % (min(vals), max(vals)) if vals else "-"


def med(vals):
    vals = [float(v) for v in vals if v not in ("", None)]
    return "%.3f" % statistics.median(vals) if vals else "-"


def report_error(out, w):
    lines, runs = read(os.path.join(out, "error-lines.csv")), read(os.path.join(out, "error-runs.csv"))
    if not lines:
        return
    w("## Error: runs of one configuration\n")
    w("Each comparison is side 2 against side 1 of the same configuration; a line called out is an error.\n")
    w("| comparison | -i | condition | comparisons | with a line called out | lines called out | of lines | said busy | said short | beyond the noise, not called out |")
    w("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    keys = sorted({(l["kind"], l["iters"], l["cond"]) for l in lines}, key=lambda k: (k[0] != "pair", k))
    for kind, iters, cond in keys + [("all", "", "")]:
        sel = [l for l in lines if kind == "all" and l["kind"] == "pair"
               or (l["kind"], l["iters"], l["cond"]) == (kind, iters, cond)]
        ids = {(l["kind"], l["iters"], l["cond"], l["id"]) for l in sel}
        called = [l for l in sel if l["called_out"] == "1"]
        beyond = [l for l in sel if l["called_out"] == "0" and l["low"] and l["high"]
                  and (float(l["low"]) > 1 or float(l["high"]) < 1)]
        name = {"pair": "1 run vs 1", "group": "3 runs vs 3", "all": "**all pairs**"}[kind]
        w("| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d |" % (
            name, iters, cond, len(ids), len({(l["iters"], l["cond"], l["id"]) for l in called}),
            len(called), len(sel), sum(l["verdict"] == "busy" for l in sel),
            sum(l["verdict"] == "short" for l in sel), len(beyond)))
    w("\nTarget: at most 1 line called out in all the pairs.\n")
    called = [l for l in lines if l["called_out"] == "1"]
    if called:
        w("Lines called out:\n")
        for l in called:
            w("- %s -i %s %s %s: %s %s %s (%s-%s)" % (l["kind"], l["iters"], l["cond"], l["id"], l["test"],
                                                       l["op"], l["text"], l["low"], l["high"]))
        w("")
    w("Slow nodes named in runs where no node is slowed (target: at most 1 in 100 runs):\n")
    w("| -i | condition | runs | judged | naming a node | nodes named | load (min-max) |")
    w("| ---: | --- | ---: | ---: | ---: | --- | --- |")
    for iters, cond in sorted({(r["iters"], r["cond"]) for r in runs}) + [("all", "")]:
        sel = [r for r in runs if iters == "all" or (r["iters"], r["cond"]) == (iters, cond)]
        named = [r for r in sel if r["named"]]
        counts = {}
        for r in named:
            for n in r["named"].split():
                counts[n] = counts.get(n, 0) + 1
        w("| %s | %s | %d | %d | %d | %s | %s |" % (
            iters, cond, len(sel), sum(r["judged"] == "1" for r in sel), len(named),
            ", ".join("%s %d" % kv for kv in sorted(counts.items())) or "-", spread(r["load"] for r in sel)))
    w("")


def report_floor(out, w):
    """What moves between runs of one configuration, from the 1-vs-1 pairs:
    d = ln(ratio) of a pair is the difference of two runs' log rates, so
    sqrt(mean(d^2) / 2) estimates the standard deviation of one run's log
    rate (between runs and within them, for -i 1 the whole of it), which
    is what compare's floor (PFS_CMP_RUN_FLOOR) stands for with one run a
    side."""
    lines = [l for l in read(os.path.join(out, "error-lines.csv")) if l["kind"] == "pair" and l["ratio"]]
    if not lines:
        return
    w("## The floor: what moves between runs\n")
    w("sqrt(mean(d^2) / 2), d = ln(ratio) of each 1-vs-1 pair of one configuration: the standard deviation of "
      "one run's log rate. Lines whose steps last under 10 ms are marked by compare (`!`) and are not what "
      "the floor is for.\n")
    w("| test op | -i | condition | pairs | SD of a run's log rate | largest d/sqrt(2) |")
    w("| --- | ---: | --- | ---: | ---: | ---: |")
    for key in sorted({(l["test"], l["op"], l["iters"], l["cond"]) for l in lines}):
        d = [math.log(float(l["ratio"])) for l in lines if (l["test"], l["op"], l["iters"], l["cond"]) == key]
        w("| %s %s | %s | %s | %d | %.3f | %.3f |" % (key[0], key[1], key[2], key[3], len(d),
                                                  math.sqrt(sum(x * x for x in d) / len(d) / 2),
                                                  max(abs(x) for x in d) / math.sqrt(2)))
    w("")


def report_power(out, w):
    rows_ = read(os.path.join(out, "power.csv"))
    if not rows_:
        return
    w("## Power: known slowdowns\n")
    w("k of n trials. node factor: the slowed node's own time an item in that (test, op), slowed runs against "
      "unslowed (median over the runs), measured from the rows, and the time it added an item (a sleep adds "
      "the same time on a busy machine, where the node's own time is longer: the factor falls with the load); line factor: what that factor makes of the "
      "line's rate in compare's formula, the other nodes as they ran unslowed. Inside: the line factor lies in "
      "the printed interval. By node: called out by the node's own rate (3 runs a side or more), the op's whole rate not surely beyond the margin; node inside: the node factor lies in the node's printed interval (of the surest node; 0 when that is another node). Named: runs of the slowed side whose slow_nodes name the slowed node.\n")
    w("| scenario | line | trials | called out SLOWER | inside interval | by node | node inside | line names (called out) | verdicts | node factor (median, min-max) | added us an item (median) | line factor (median) | ratio's interval (median low-high) | slowed runs naming the node | other nodes named (any run, either side) | trials with false call-outs | load (min-max) |")
    w("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: | --- | ---: | --- | ---: | --- |")
    for sc in sorted({r["scenario"] for r in rows_}):
        srows = [r for r in rows_ if r["scenario"] == sc]
        for key in sorted({(r["test"], r["op"]) for r in srows}):
            sel = [r for r in srows if (r["test"], r["op"]) == key]
            verd = {}
            for r in sel:
                verd[r["verdict"] or "none"] = verd.get(r["verdict"] or "none", 0) + 1
            nf = [float(r["node_factor"]) for r in sel if r["node_factor"]]
            naming = [r for r in sel if r["runs_naming"] != ""]
            names = {}
            for r in sel:
                names[r.get("line_node") or "none"] = names.get(r.get("line_node") or "none", 0) + 1
            w("| %s | %s %s | %d | %d | %d | %d | %d | %s | %s | %s (%s-%s) | %s | %s | %s-%s | %s | %s | %d | %s |" % (
                sc, key[0], key[1], len(sel), sum(r["right"] == "1" for r in sel),
                sum(r["inside"] == "1" for r in sel), sum(r.get("by_node") == "1" for r in sel),
                sum(r.get("node_inside") == "1" for r in sel), ", ".join("%s %d" % kv for kv in sorted(names.items())),
                ", ".join("%s %d" % kv for kv in sorted(verd.items())),
                med(nf), fmt(min(nf) if nf else None), fmt(max(nf) if nf else None), med(r["added_us"] for r in sel),
                med(r["line_factor"] for r in sel),
                med(r["low"] for r in sel), med(r["high"] for r in sel),
                "%d of %d" % (sum(int(r["runs_naming"]) for r in naming), sum(int(r["runs_b"]) for r in naming))
                if naming else "n/a (all nodes)",
                ", ".join(sorted({n for r in sel for n in r["wrong_named"].split()})) or "-",
                sum(1 for r in sel if r["false_calls"]), spread(r["load"] for r in sel)))
    falses = sorted({(r["scenario"], r["trial"], r["false_calls"]) for r in rows_ if r["false_calls"]})
    if falses:
        w("\nFalse call-outs (lines the slowdown does not touch, called out):\n")
        for sc, t, f in falses:
            w("- %s trial %s: %s" % (sc, t, f))
    w("")


def cmd_report(out):
    parts = []
    w = parts.append
    head = os.path.join(out, "head.md")
    if os.path.exists(head):
        with open(head) as f:
            w(f.read())
    report_error(out, w)
    report_floor(out, w)
    report_power(out, w)
    tail = os.path.join(out, "tail.md")
    if os.path.exists(tail):
        with open(tail) as f:
            w(f.read())
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(parts) + "\n")


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "peritem":
        print("%.4f" % peritem(args[0], args[1], args[2], args[3:]))
    elif cmd == "error":
        cmd_error(*args)
    elif cmd == "trial":
        i = args.index("--")
        j = args.index("--", i + 1)
        cmd_trial(*args[:i], args[i + 1:j], args[j + 1:])
    elif cmd == "report":
        cmd_report(args[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
