#!/usr/bin/python3
"""bonnie-calls.py: system calls per item of each bonnie++ column, from
`strace -ff -ttt -o DIR/t` of a bonnie++ run and of a pfsbench bonnie run
(bench/run-bench-bonnie-calls.sh runs them).

count TOOL DIR: prints "column call count" for every call of each column.
  bonnie++ (TOOL b, run without -q): its one thread's calls are split at
  the lines it writes to stderr before each test ("Writing intelligently",
  "start 'em", ...); its seeker threads' calls are the seeks'. The calls
  between a test's line and the next one's are counted in the test: its
  fixed calls (opening the file, fsync, close) cancel out in `compare`.
  pfsbench (TOOL p): every test runs in threads of its own, so a thread's
  calls are its test's and MPI's (the main thread and MPI's own threads)
  are left out: the I/O tests' threads (unshare, then Bonnie.io) in their
  order, putc, put_block, rewrite, getc, get_block (without the per-char
  tests when there are 3), the seekers (Bonnie.io without unshare), the
  file tests' threads (unshare, then Bonnie.files) in their order. What
  the main thread does for the seeks as bonnie++'s parent does (open the
  file, write the tickets, fsync, close) is fixed, as bonnie++'s is.

compare SMALL_B BIG_B SMALL_P BIG_P ITEMS_SMALL ITEMS_BIG: the four count
  files, and each column's items in the smaller and bigger runs
  ("putc=0,put_block=512,..."): per item = (big - small) / (items big -
  items small), which leaves out each test's fixed calls; a table of
  every call made at least once per 100 items by either tool, and the
  bytes per item of the calls that move data, with DIFFERENT where the
  calls differ by more than 0.01 per item (0.03 for seeks, whose 1 in 10
  rewrites both tools draw at random), or the bytes by more than 1 % or
  what that tolerance of calls moves.
  Exit status 1 when any call differs.
"""
import collections
import glob
import os
import re
import sys

COLUMNS = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks", "seq_create",
           "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
# bonnie++'s lines before each test, as its one thread writes them to stderr.
MARKERS = [("Writing a byte at a time", "putc"), ("Writing intelligently", "put_block"),
           ("Rewriting", "rewrite"), ("Reading a byte at a time", "getc"),
           ("Reading intelligently", "get_block"), ("start 'em", "seeks"),
           ("Create files in sequential order", "seq_create"),
           ("Stat files in sequential order", "seq_stat"),
           ("Delete files in sequential order", "seq_del"),
           ("Create files in random order", "ran_create"),
           ("Stat files in random order", "ran_stat"),
           ("Delete files in random order", "ran_del")]
CALL = re.compile(r"^(\d+\.\d+) (\w+)\((.*)")
RET = re.compile(r"\) += (\d+)$")
# Calls whose return is bytes moved: their bytes are counted too.
DATA = {"read", "write", "pread64", "pwrite64"}
# bonnie++ names files by their path from its working directory, pfsbench
# by a directory's descriptor and a name: unlink(p) is unlinkat(AT_FDCWD,
# p, 0), the same call, and so on.
SAME = {"unlink": "unlinkat", "open": "openat", "stat": "newfstatat", "lstat": "newfstatat",
        "mkdir": "mkdirat", "fstat": "newfstatat"}


def calls(path):
    """(time, call, rest of line) of each call a thread started; resumed
    halves and signals are not calls."""
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = CALL.match(line)
            if m:
                out.append((float(m.group(1)), m.group(2), m.group(3)))
    return out


def threads(d):
    """Each thread's calls, in the order the threads started."""
    ts = [calls(p) for p in glob.glob(os.path.join(d, "t.*"))]
    return sorted((t for t in ts if t), key=lambda t: t[0][0])


def add(counter, call, rest):
    """One call into a column's counter, and its bytes as "call bytes"."""
    call = SAME.get(call, call)
    counter[call] += 1
    m = RET.search(rest) if call in DATA else None
    if m:
        counter[call + " bytes"] += int(m.group(1))


def count_bonnie(d):
    ts = threads(d)
    counts = collections.defaultdict(collections.Counter)
    main = next(t for t in ts if any(c == "execve" for _, c, _ in t))
    col = None
    for _, call, rest in main:
        if call == "write" and rest.startswith("2, "):
            for text, name in MARKERS:
                if text in rest:
                    col = name
        if col:
            add(counts[col], call, rest)
    for t in ts:
        if t is not main:
            for _, call, rest in t:
                add(counts["seeks"], call, rest)
    return counts


def count_pfs(d):
    counts = collections.defaultdict(collections.Counter)
    io, seekers, files = [], [], []
    for t in threads(d):
        if any(c == "execve" for _, c, _ in t):
            continue  # the main thread (and MPI's processes): MPI, the clock, bonnie++'s parent
        unshared = any(c == "unshare" for _, c, _ in t)
        if any(c == "openat" and '"Bonnie.io"' in r for _, c, r in t):
            (io if unshared else seekers).append(t)
        elif unshared and any('"Bonnie.files"' in r for _, c, r in t):
            files.append(t)
    names = COLUMNS[:5] if len(io) == 5 else ["put_block", "rewrite", "get_block"]
    if len(io) not in (0, 3, 5) or len(files) not in (0, 6):
        sys.exit("bonnie-calls: %s: %d I/O test threads and %d file test threads, "
                 "not 0, 3 or 5 and 0 or 6" % (d, len(io), len(files)))
    for name, t in list(zip(names, io)) + list(zip(COLUMNS[6:], files)) + \
            [("seeks", t) for t in seekers]:
        for _, call, rest in t:
            add(counts[name], call, rest)
    return counts


def read_counts(path):
    counts = collections.defaultdict(collections.Counter)
    with open(path) as f:
        for line in f:
            parts = line.split()
            counts[parts[0]][" ".join(parts[1:-1])] = int(parts[-1])
    return counts


def items(s):
    d = dict(kv.split("=") for kv in s.split(","))
    return {c: int(d.get(c, 0)) for c in COLUMNS}


def compare(argv):
    sb, bb, sp, bp = (read_counts(p) for p in argv[:4])
    n0, n1 = items(argv[4]), items(argv[5])
    print("%-10s %-12s %20s %24s" % ("", "", "calls per item", "bytes per item"))
    print("%-10s %-12s %10s %9s %12s %11s" % ("column", "call", "bonnie++", "pfsbench",
                                              "bonnie++", "pfsbench"))
    differ = 0
    for col in COLUMNS:
        n = n1[col] - n0[col]
        if n <= 0:
            continue
        # seeks: both tools draw which 1 in 10 rewrite their block
        tol = 0.03 if col == "seeks" else 0.01

        def per(big, small, key):
            return (big[col][key] - small[col][key]) / n
        names = sorted(c for c in set(bb[col]) | set(sb[col]) | set(bp[col]) | set(sp[col])
                       if not c.endswith(" bytes"))
        rows = []
        for call in names:
            b, p = per(bb, sb, call), per(bp, sp, call)
            if abs(b) < 0.01 and abs(p) < 0.01:
                continue
            key = call + " bytes"
            by, py = per(bb, sb, key), per(bp, sp, key)
            data = call in DATA
            # bytes: 1 %, or what the calls' own tolerance moves
            btol = max(0.01 * max(abs(by), abs(py)), tol * max(by / b if b else 0, py / p if p else 0))
            flag = abs(b - p) > tol or (data and abs(by - py) > btol)
            differ += flag
            rows.append("%-10s %-12s %10.3f %9.3f %12s %11s  %s" % (
                col, call, b, p, "%.1f" % by if data else "", "%.1f" % py if data else "",
                "DIFFERENT" if flag else ""))
        print("\n".join(rows) if rows else "%-10s %-12s" % (col, "(none)"))
    print("per item: (the bigger run's - the smaller's) / (its items - the smaller's);"
          " %d difference%s" % (differ, "" if differ == 1 else "s"))
    return 1 if differ else 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "count" and sys.argv[2] in ("b", "p"):
        counts = (count_bonnie if sys.argv[2] == "b" else count_pfs)(sys.argv[3])
        for col in COLUMNS:
            for call, n in sorted(counts[col].items()):
                print(col, call, n)
        return 0
    if len(sys.argv) == 8 and sys.argv[1] == "compare":
        return compare(sys.argv[2:])
    sys.exit("usage: bonnie-calls.py count b|p DIR | compare SMALL_B BIG_B SMALL_P BIG_P "
             "ITEMS_SMALL ITEMS_BIG")


if __name__ == "__main__":
    sys.exit(main())
