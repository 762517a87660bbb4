#!/usr/bin/python3
"""table.py: the one table of bench-table (bench/run-bench-table.sh).

  table.py RAW [CALLS]
  table.py --short RAW FS NP WANT

RAW holds the rounds' lines, "FS NP ROUND SIDE WORKLOAD KEY VALUE" (a
rate; "+++++" where bonnie++'s CSV has no figure), "FS NP ROUND SIDE
WORKLOAD job WALL CPU" (one whole job's seconds), "FS NP ROUND SIDE
WORKLOAD seat N" (the side's place in the round, 0 first) and "FS NP ROUND
SIDE WORKLOAD probe US CPU" (the machine's speed before or after a job:
the CPU microseconds of the same plain C loop every time, on that CPU;
without CPU, one CPU). CALLS, optional, is
bench-calls' output (bench/run-bench-calls.sh): the calls on the files per
item of each side, op by op, at 1 rank.

Prints, per workload and column, pfsbench's rate over the peer's, median
[p25-p75] of the rounds' ratios (each round's pfsbench run against the
same round's peer run), each order apart (see by_order), over the
rounds in which the machine kept its speed (see steady), for every
filesystem and rank count; a cell below
0.95 is flagged SLOWER and one above 1.05 FASTER ("check like for like");
then each side's median rate; then bonnie's CPU seconds an item,
pfsbench's over bonnie++'s (from the CSV lines' %CP); then per workload
the whole jobs' wall and CPU, pfsbench's over the peer's, and pfsbench's
CPU seconds; then the calls per item from CALLS; then the cells whose two
orders differ by more than ORDER_GAP; then the probes and the rounds each
workload left out. Quantiles are the nearest rank, as
bench/lib.sh's stats.

--short prints the workloads that have fewer than WANT such rounds on FS
at NP ranks, or fewer than half their rounds: run-bench-table.sh runs
more rounds of those (TOPUP).
"""
import collections
import math
import re
import sys

LOW, HIGH = 0.95, 1.05
# A cell whose two orders' medians differ by more than this factor is
# listed under the tables with each order's figures.
ORDER_GAP = 1.10
# by_order takes the two orders apart only where each has this many rounds.
MIN_ORDER = 3
# A workload's round counts only if its probes of each CPU (before and
# after every job of both sides) lie within this factor of one another:
# beyond it the machine changed speed between or during the sides' jobs,
# and the round's ratio would measure the machine (docs/benchmarks.md, "A
# machine that changes speed": the development machine's CPUs ran the
# probe at about 41,500 or 59,900 us, 1.44x apart, and 90 % of either
# speed's probes lay within 1.12x and 1.17x). Rounds of both orders and of
# either outcome go alike.
STEADY = 1.25

# The columns in the order of each tool's report; the bench-calls op that
# counts each one's calls (None where bench-calls has none).
COLUMNS = {
    "cu": ("create-unlink", [("Create", "create-unlink Create"), ("Stat", "create-unlink Stat"),
                             ("Unlink", "create-unlink Unlink")]),
    "tree": ("tree", [("Mkdir", "tree Mkdir"), ("Create", "tree Create"),
                      ("Unlink", "tree Unlink+Rmdir"), ("Rmdir", "tree Unlink+Rmdir")]),
    "stream": ("stream", [("Write", "stream Write"), ("Read", "stream Read")]),
    "matrix": ("matrix", []),  # Write_<bytes>, Read_<bytes>: from the data
    "bonnie": ("bonnie", [(t, None) for t in (
        "putc", "put_block", "rewrite", "getc", "get_block", "seeks", "seq_create",
        "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del")]),
}
PEER = {"cu": "mdtest", "tree": "mdtest", "stream": "dd", "matrix": "dd", "bonnie": "bonnie++"}


def quantiles(values):
    """(median, p25, p75) by nearest rank, as bench/lib.sh's stats."""
    v = sorted(values)
    if not v:
        return None

    def at(p):
        i = max(1, math.ceil(p * len(v) - 1e-6))
        return v[i - 1]
    return at(0.5), at(0.25), at(0.75)


def by_order(values):
    """(median, p25, p75) of values given as (value, first): first is True
    where pfsbench ran before its peer in the round, False where after,
    None where the raw lines say nothing of the order (the rounds pooled).

    On a machine whose memory or disk answers the first of two runs faster
    than the second (docs/benchmarks.md: the ext4's stream Read gave 1.12x
    to 8.81x in the rounds where pfsbench read first, 0.12x to 0.20x where
    dd did), the median of all rounds follows whichever order had more
    rounds (5 of 9), and even with as many of each it lands on one order's
    figures. So each order's rounds give their own median, p25 and p75,
    and the cell is the geometric mean of the two orders' figures: an order
    effect that multiplies one order's ratios by k and the other's by 1/k
    cancels, and an order that has no effect gives the median of all
    rounds, near enough. Each order needs MIN_ORDER rounds for its own
    median: with the rounds a machine's change of speed left out (see
    steady), one order can keep 5 rounds and the other 1, and that one
    round would weigh as much as the five. With fewer, or with no order
    known, all rounds' figures. None for no values."""
    a, b = order_groups(values)
    if len(a) >= MIN_ORDER and len(b) >= MIN_ORDER:
        return tuple(math.sqrt(x * y) for x, y in zip(quantiles(a), quantiles(b)))
    return quantiles([v for v, _ in values])


def order_groups(values):
    """The values of (value, first) pairs where pfsbench ran first, and
    where it ran after its peer."""
    return [v for v, f in values if f is True], [v for v, f in values if f is False]


def order_split(values):
    """((pfsbench first q, n), (pfsbench after q, n)) when both orders have
    rounds and their medians differ by more than ORDER_GAP, else None."""
    a, b = order_groups(values)
    if not a or not b:
        return None
    qa, qb = quantiles(a), quantiles(b)
    if qa[0] > 0 and qb[0] > 0 and max(qa[0] / qb[0], qb[0] / qa[0]) <= ORDER_GAP:
        return None
    return (qa, len(a)), (qb, len(b))


def fmt(x):
    """2-3 significant figures."""
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return "%.0f" % x
    if abs(x) >= 10:
        return "%.1f" % x
    return "%.2f" % x


def cell(q):
    return "%s [%s-%s]" % (fmt(q[0]), fmt(q[1]), fmt(q[2]))


def ratio_fmt(x):
    """fmt, or 3 decimals where 2 would put a ratio on the other side of a
    flag's line: 0.9479, SLOWER, is 0.948, not 0.95."""
    s = fmt(x)
    if (x < LOW) != (float(s) < LOW) or (x > HIGH) != (float(s) > HIGH):
        return "%.3f" % x
    return s


def ratio_cell(q):
    return "%s [%s-%s]" % (ratio_fmt(q[0]), ratio_fmt(q[1]), ratio_fmt(q[2]))


def size_name(b):
    b = int(float(b))
    for unit, shift in (("m", 20), ("k", 10)):
        if b >= 1 << shift and b % (1 << shift) == 0:
            return "%d%s" % (b >> shift, unit)
    return str(b)


def read_raw(path):
    rates = collections.defaultdict(dict)  # (fs, np, wl, key) -> {(side, round): value}
    jobs = collections.defaultdict(lambda: [0.0, 0.0])  # (fs, np, wl, side, round) -> [wall, cpu]
    seats = {}  # (fs, np, wl, side, round) -> place in the round
    probes = collections.defaultdict(list)  # (fs, np, wl, round) -> [(cpu, us)]
    confs = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 7:
                continue
            fs, np_, rnd, side, wl, key = w[:6]
            if (fs, np_) not in confs:
                confs.append((fs, np_))
            if key == "job":
                j = jobs[fs, np_, wl, side, rnd]
                j[0] += float(w[6])
                j[1] += float(w[7])
            elif key == "seat":
                seats[fs, np_, wl, side, rnd] = int(w[6])
            elif key == "probe":
                probes[fs, np_, wl, rnd].append((w[7] if len(w) > 7 else "", float(w[6])))
            else:
                rates[fs, np_, wl, key][side, rnd] = w[6]
    return rates, jobs, seats, probes, confs


def held(probes, fs, n, wl, x):
    """True where round x of the workload kept the machine's speed: its
    probes of each CPU lie within STEADY of one another (a round without
    probes counts)."""
    by_cpu = collections.defaultdict(list)
    for cpu, us in probes.get((fs, n, wl, x), []):
        by_cpu[cpu].append(us)
    return all(max(v) <= STEADY * min(v) for v in by_cpu.values())


def steady(probes, fs, n, wl, rounds):
    """(the rounds to use, how many were left out): the rounds that kept
    the machine's speed (held). When fewer than half the rounds are
    steady, all of them, so that a machine that never held still gives the
    figures of every round rather than of a few; the caller says so."""
    keep = [x for x in rounds if held(probes, fs, n, wl, x)]
    if len(keep) * 2 < len(rounds):
        return list(rounds), len(rounds) - len(keep)
    return keep, len(rounds) - len(keep)


def steady_note(rounds, used, out):
    """A cell's note on the rounds left out, or on a machine that moved
    in too many for any to be left out."""
    if not out:
        return ""
    if len(used) == len(rounds):
        return " (machine unsteady in %d of %d rounds: all used)" % (out, len(rounds))
    return " (%d of %d rounds left out: machine unsteady)" % (out, len(rounds))


def first_of(seats, fs, n, wl, rnd):
    """True where pfsbench ran before its peer in the round, False where
    after, None where the raw lines give no seats."""
    a, b = seats.get((fs, n, wl, "pfsbench", rnd)), seats.get((fs, n, wl, "peer", rnd))
    return None if a is None or b is None else a < b


def calls_per_item(path):
    """bench-calls' report: {(fs, op): {side: {call: per item}}} of kind files."""
    out = collections.defaultdict(lambda: collections.defaultdict(dict))
    head = re.compile(r"^(\w+):(\S+ \S+): calls per item")
    cur = None
    sides = []
    with open(path) as f:
        for line in f:
            m = head.match(line)
            if m:
                cur = m.group(1), m.group(2)
                continue
            w = line.split()
            if cur and w[:2] == ["kind", "call"]:
                sides = w[2:]
                if sides and sides[-1] == "flag":
                    sides = sides[:-1]
                continue
            if cur and len(w) >= 2 + len(sides) and w[0] == "files":
                for i, s in enumerate(sides):
                    out[cur][s][w[1]] = float(w[2 + i])
            elif not line.strip():
                cur = None
    return out


def calls_text(calls, op, want):
    """'pfsbench 2 / peer 2' with the calls that differ, at tmpfs's counts;
    the peer is want (the table's) when bench-calls counted it, else the
    first it counted (a C loop of the same calls)."""
    if not calls or op is None or ("tmpfs", op) not in calls:
        return "-"
    c = calls["tmpfs", op]
    names = list(c)
    if "pfsbench" not in c or len(names) < 2:
        return "-"
    peer = want if want in c else [n for n in names if n != "pfsbench"][0]
    p, q = c["pfsbench"], c[peer]
    diff = [k for k in sorted(set(p) | set(q)) if abs(p.get(k, 0) - q.get(k, 0)) >= 0.05]
    text = "%s / %s %s" % (fmt(sum(p.values())), peer, fmt(sum(q.values())))
    if diff:
        text += " (" + ", ".join("%s %s/%s" % (k, fmt(p.get(k, 0)), fmt(q.get(k, 0))) for k in diff) + ")"
    return text


def short(path, fs, n, want):
    """`table.py --short RAW FS NP WANT` (run-bench-table.sh's top-up):
    the workloads run on FS at NP ranks with fewer than WANT rounds that
    kept the machine's speed, or fewer than half their rounds (then steady
    counts them all), one line, in the order of COLUMNS."""
    rates, _, _, probes, _ = read_raw(path)
    out = []
    for wl in COLUMNS:
        rounds = set()
        for (f, m, w, key), by_round in rates.items():
            if (f, m, w) == (fs, n, wl):
                rounds.update(rnd for (_side, rnd) in by_round)
        used, left = steady(probes, fs, n, wl, sorted(rounds))
        # steady's own fallback (every round used though some moved) is
        # the other way to be short: the rule lives there, once.
        if rounds and (len(rounds) - left < want or (left and len(used) == len(rounds))):
            out.append(wl)
    print(" ".join(out))


def main():
    if sys.argv[1] == "--short":
        short(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
        return
    rates, jobs, seats, probes, confs = read_raw(sys.argv[1])
    calls = calls_per_item(sys.argv[2]) if len(sys.argv) > 2 else None
    heads = ["%s, %s rank%s" % (fs, n, "" if n == "1" else "s") for fs, n in confs]
    flags = []
    orders = []  # the cells whose two orders differ by more than ORDER_GAP
    print("\npfsbench's rate over the peer's, median [p25-p75] of the rounds' ratios, "
          "the rounds where pfsbench ran first and those where its peer did taken apart and "
          "their figures' geometric mean given (every figure below is so), over the rounds "
          "where the machine kept its speed (probes within %.2fx: below) "
          "(SLOWER < %.2f, FASTER > %.2f: check like for like; +++++: a side's test took under "
          "0.5 s, bonnie++'s format gives no rate)\n" % (STEADY, LOW, HIGH))
    print("| workload | column | peer | " + " | ".join(heads) + " | calls on the files per item, pfsbench / peer (bench-calls, 1 rank, tmpfs) |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in heads) + " | --- |")
    side_rows = []
    for wl, (name, cols) in COLUMNS.items():
        keys = [k for (f, n, w, k) in rates if w == wl]
        if not keys:
            continue
        if wl == "matrix":
            sizes = sorted({int(float(k.split("_")[1])) for k in keys})
            cols = [("%s_%d" % (op, b), "matrix %s-%s" % (op, {4096: "4KiB", 65536: "64KiB"}.get(b, "")))
                    for op in ("Write", "Read") for b in sizes]
        for key, op in cols:
            label = key.replace("_", " ") if wl != "matrix" else "%s %s" % (key.split("_")[0], size_name(key.split("_")[1]))
            out = []
            for fs, n in confs:
                r = rates.get((fs, n, wl, key))
                if not r:
                    out.append("-")
                    continue
                rounds = sorted({rnd for (_, rnd) in r})
                used, left = steady(probes, fs, n, wl, rounds)
                pairs = [(r.get(("pfsbench", x)), r.get(("peer", x)), first_of(seats, fs, n, wl, x))
                         for x in used]
                # bonnie's +++++ (a test under 0.5 s): a round with one on
                # either side has no ratio; a cell needs half its rounds.
                timed = [(p, q, f) for p, q, f in pairs if p and q and "+++++" not in (p, q)]
                if len(timed) * 2 < len(pairs):
                    plus = ["pfsbench" * any(p == "+++++" for p, _, _ in pairs),
                            "peer" * any(q == "+++++" for _, q, _ in pairs)]
                    out.append("+++++ %s (%d of %d rounds timed)" % ("+".join(x for x in plus if x), len(timed), len(pairs)))
                    continue
                ratios = [(float(p) / float(q), f) for p, q, f in timed if float(q) > 0]
                q = by_order(ratios)
                if q is None:
                    out.append("-")
                    continue
                flag = " SLOWER" if q[0] < LOW else " FASTER" if q[0] > HIGH else ""
                where = "%s %s on %s, %s rank%s" % (name, label, fs, n, "" if n == "1" else "s")
                if flag:
                    flags.append("%s: %s%s" % (where, ratio_cell(q), flag))
                split = order_split(ratios)
                if split:
                    orders.append((where, PEER[wl], split))
                out.append(ratio_cell(q) + (" **" + flag.strip() + "**" if flag else "")
                           + (" (%d of %d rounds timed)" % (len(timed), len(pairs)) if len(timed) < len(pairs) else "")
                           + steady_note(rounds, used, left))
                ps = by_order([(float(p), f) for p, _, f in timed])
                qs = by_order([(float(x), f) for _, x, f in timed])
                side_rows.append((name, label, fs, n, ps, qs, wl))
            print("| %s | %s | %s | %s | %s |" % (name, label, PEER[wl], " | ".join(out),
                                                 "bench-bonnie-calls" if wl == "bonnie" else calls_text(calls, op, PEER[wl])))

    print("\nEach side's own rate, median [p25-p75] (create-unlink, tree, bonnie's file tests: items/s; "
          "stream, matrix: MiB/s; bonnie's I/O tests: KiB/s, seeks/s)\n")
    print("| workload | column | filesystem | ranks | pfsbench | peer |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, label, fs, n, ps, qs, wl in side_rows:
        print("| %s | %s | %s | %s | %s | %s %s |" % (name, label, fs, n, cell(ps), PEER[wl], cell(qs)))

    # bonnie's CPU time an item (run-bench-table.sh's cpu:TEST lines, from
    # each CSV line's %CP over its rate), pfsbench's over bonnie++'s: near
    # 1 where a rate cell is not, the two spent the same CPU on an item and
    # the rate differed in the time off the CPU (waiting for the disk, or
    # for a CPU the machine gave to others); not flagged.
    cpu_keys = sorted({k for (_, _, w, k) in rates if w == "bonnie" and k.startswith("cpu:")},
                      key=lambda k: [t for t, _ in COLUMNS["bonnie"][1]].index(k[4:]))
    if cpu_keys:
        print("\nbonnie: CPU seconds an item (%CP / 100 over the rate, per CSV line), pfsbench's over "
              "bonnie++'s, median [p25-p75] of the rounds' ratios (rounds where both sides gave a rate and a %CP)\n")
        print("| column | " + " | ".join(heads) + " |")
        print("| --- | " + " | ".join("---" for _ in heads) + " |")
        for key in cpu_keys:
            if key == "cpu:seeks":
                # bonnie++ 2.00a's seekers are threads that each add the
                # whole process's CPU time (docs/bonnie.md): not comparable
                print("| seeks | %s |" % " | ".join("- (bonnie++ counts its CPU once a seeker)" for _ in heads))
                continue
            out = []
            for fs, n in confs:
                r = rates.get((fs, n, "bonnie", key), {})
                every, _ = steady(probes, fs, n, "bonnie",
                                  sorted({rnd for (_, rnd) in rates.get((fs, n, "bonnie", key[4:]), {})}))
                ratios = [(float(r["pfsbench", x]) / float(r["peer", x]), first_of(seats, fs, n, "bonnie", x))
                          for x in sorted(every)
                          if ("pfsbench", x) in r and ("peer", x) in r and float(r["peer", x]) > 0]
                q = by_order(ratios)
                out.append("-" if q is None else cell(q) + (" (%d of %d rounds)" % (len(ratios), len(every))
                                                            if len(ratios) < len(every) else ""))
            print("| %s | %s |" % (key[4:].replace("_", " "), " | ".join(out)))

    print("\nWhole jobs (mpirun and all it started; the peer's processes), summed over a workload's "
          "jobs in a round: pfsbench over the peer, median [p25-p75]; pfsbench's CPU seconds\n")
    print("| workload | " + " | ".join("%s wall | %s CPU | %s pfsbench CPU s" % (h, h, h) for h in heads) + " |")
    print("| --- | " + " | ".join("--- | --- | ---" for _ in heads) + " |")
    for wl, (name, _) in COLUMNS.items():
        out = []
        seen = False
        for fs, n in confs:
            rounds, _ = steady(probes, fs, n, wl, sorted({k[4] for k in jobs if k[:3] == (fs, n, wl)}))
            pairs = [(jobs.get((fs, n, wl, "pfsbench", x)), jobs.get((fs, n, wl, "peer", x)),
                      first_of(seats, fs, n, wl, x)) for x in rounds]
            pairs = [(p, q, f) for p, q, f in pairs if p and q]
            if not pairs:
                out += ["-", "-", "-"]
                continue
            seen = True
            out.append(cell(by_order([(p[0] / q[0], f) for p, q, f in pairs])))
            cpu = [(p[1] / q[1], f) for p, q, f in pairs if q[1] > 0]
            out.append(cell(by_order(cpu)) if cpu else "-")
            out.append(cell(by_order([(p[1], f) for p, _, f in pairs])))
        if seen:
            print("| %s | %s |" % (name, " | ".join(out)))

    if orders:
        print("\nCells whose two orders differ by more than %.2fx: the rounds' ratios, median [p25-p75], "
              "where pfsbench ran first and where its peer did (the cells above are the geometric "
              "mean of the two)\n" % ORDER_GAP)
        print("| cell | pfsbench first | peer first |")
        print("| --- | --- | --- |")
        for where, peer, ((qa, na), (qb, nb)) in orders:
            print("| %s | %s (%d rounds) | %s first: %s (%d rounds) |" % (where, cell(qa), na, peer, cell(qb), nb))

    if probes:
        print("\nThe machine's speed: the probes' CPU microseconds (the same plain C loop before and after "
              "every job, on each CPU the jobs used), median [p25-p75] of all CPUs', and the rounds "
              "left out, where a workload's probes of one CPU differed by more than %.2fx\n" % STEADY)
        print("| workload | " + " | ".join("%s probe us | %s rounds left out" % (h, h) for h in heads) + " |")
        print("| --- | " + " | ".join("--- | ---" for _ in heads) + " |")
        for wl, (name, _) in COLUMNS.items():
            out = []
            seen = False
            for fs, n in confs:
                rounds = sorted({k[3] for k in probes if k[:3] == (fs, n, wl)})
                if not rounds:
                    out += ["-", "-"]
                    continue
                seen = True
                used, left = steady(probes, fs, n, wl, rounds)
                out.append(cell(quantiles([us for x in rounds for _, us in probes[fs, n, wl, x]])))
                out.append("%d of %d%s" % (left, len(rounds), " (all used)" if left and len(used) == len(rounds) else ""))
            if seen:
                print("| %s | %s |" % (name, " | ".join(out)))

    print()
    for f in flags:
        print(f)
    print("table: %d cells outside %.2f-%.2f (SLOWER or FASTER: docs/benchmarks.md names the difference)"
          % (len(flags), LOW, HIGH))


if __name__ == "__main__":
    main()
