#!/usr/bin/python3
"""bonnie-figures.py REPORT ROWS NAME RANKS NODE:WORKERS... -- checks a run
of pfsbench bonnie against its own rows, independently of pfsbench's code:

  REPORT  the run's stdout (its CSV lines are read; tables are ignored)
  ROWS    its rows, as `pfsbench export FILE --csv` writes them
  NAME    the aggregate line's expected name; RANKS its concurrency
  NODE:WORKERS  each node, in order, with its number of ranks

Every iteration has one CSV line for all ranks, then one per node, and each
line's every figure is what bonnie++'s rule makes of the rows it covers
(docs/bonnie.md): work / (latest end - earliest start), work in KiB for the
five I/O tests, seeks, or files; %CPU = CPU time of the rows / that time x
100, cut; +++++ under 0.5 s; blank when no row; latency = the rows' largest
lat_max_ns in bonnie++'s units. Every rank has a row of every test that
ran. Prints one line per problem; exit status 1 when there is one."""
import csv
import sys

TESTS = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
problems = []


def latency_text(ns):
    """bonnie++'s print_latency, as src/formats/bonniefmt.c writes it."""
    if ns == 0:
        return ""
    if ns > 99999999000:
        return "%ds" % (ns // 1000000000)
    if ns > 99999000:
        return "%dms" % (ns // 1000000)
    return "%dus" % (ns // 1000)


def figure(test, rows):
    """The (rate, %CPU, latency) fields bonnie++ would print for rows."""
    if not rows:
        return "", "", ""
    start = min(r["start_us"] for r in rows)
    end = max(r["start_us"] + r["elapsed_us"] for r in rows)
    elapsed = max(end - start, 1)
    lat = latency_text(max((r["lat_max_ns"] for r in rows if r["lat_count"]), default=0))
    if elapsed < 500000:
        return "+++++", "+++", lat
    t = TESTS.index(test)
    work = sum(r["bytes"] for r in rows) / 1024.0 if t < 5 else float(sum(r["items"] for r in rows))
    rate = work / (elapsed / 1e6)
    cpu = sum(r["cpu_us"] for r in rows) * 100 // elapsed
    if test == "seeks":
        text = "%.0f" % rate if rate >= 1000.0 else "%.1f" % rate
    else:
        text = "%d" % int(rate)
    return text, "%d" % cpu, lat


def fields_of(line):
    """rate, %CPU and latency fields of each test in a CSV line."""
    f = line.split(",")
    shift = 2 if f[0] == "1.98" else 0
    io, files, lat = 7 + shift, 24 + shift, 36 + shift
    out = {}
    for t, name in enumerate(TESTS):
        i = io + 2 * t if t < 6 else files + 2 * (t - 6)
        out[name] = (f[i], f[i + 1], f[lat + t])
    return f, out


def main():
    report, rows_csv, name, ranks = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    nodes = [(n.rsplit(":", 1)[0], int(n.rsplit(":", 1)[1])) for n in sys.argv[5:]]
    with open(rows_csv, newline="") as fp:
        rows = list(csv.DictReader(fp))
    for r in rows:
        for k in ("iteration", "node_index", "rank", "start_us", "elapsed_us", "items", "bytes",
                  "cpu_us", "lat_count", "lat_max_ns"):
            r[k] = int(r[k])
    lines = [l.rstrip("\n") for l in open(report) if l.startswith(("1.96,", "1.98,"))]
    iterations = sorted({r["iteration"] for r in rows})
    per = 1 + len(nodes)
    if len(lines) != per * len(iterations) or not iterations:
        problems.append("%d CSV lines for %d iterations of %d nodes" %
                        (len(lines), len(iterations), len(nodes)))
        return
    ran = [t for t in TESTS if any(r["op"] == t for r in rows)]
    for it_i, it in enumerate(iterations):
        its = [r for r in rows if r["iteration"] == it]
        for t in ran:
            have = sorted(r["rank"] for r in its if r["op"] == t)
            if have != list(range(ranks)):
                problems.append("iteration %d %s: rows of ranks %s, not one of each of %d" %
                                (it, t, have, ranks))
        for k in range(per):
            f, got = fields_of(lines[it_i * per + k])
            want_name, want_conc = (name, ranks) if k == 0 else nodes[k - 1]
            if f[2] != want_name or f[3] != str(want_conc):
                problems.append("line %d: name %s, concurrency %s; want %s, %d" %
                                (it_i * per + k + 1, f[2], f[3], want_name, want_conc))
            for t in TESTS:
                sel = [r for r in its if r["op"] == t and (k == 0 or r["node_index"] == k - 1)]
                want = figure(t, sel)
                if got[t] != want:
                    problems.append("iteration %d %s %s: printed %s, the rows give %s" %
                                    (it, want_name, t, got[t], want))


main()
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
