#!/usr/bin/python3
"""calls.py: system calls per item, from `strace -f -qq -y` traces (bench-calls).

  calls.py count SIDE TRACE DIR MODE OPS >>TABLE
  calls.py report TABLE

count cuts the calls of one traced run into ops and appends one line per
(side, op, kind, call) to TABLE: "side op items kind call count". A call is
on the files when its arguments or its result name DIR (strace -y prints
the path behind every descriptor). Kinds:
  files   calls on the benchmark's files, in the op, by the thread doing it
  thread  other calls of that thread in the op (a clock, /proc reads, the
          peer's source /dev/zero): the op's own overhead
  others  calls of every other thread and process during the op (MPI's
          progress threads, mpirun): not the workload's
  outside calls on the files outside any op (setup, cleanup: untimed)
MODE says where ops begin and end:
  rusage  at the getrusage calls of the thread with the most calls on the
          files: pfsbench's engine reads its CPU time with getrusage when
          an op starts (pfs_op_start) and when its clock stops
          (pfs_op_done; for an op without one, after it returns:
          pfs_worker_end_op); the C loops (bench/baseline_*.c) around
          every phase. Every stretch between two
          of them (or before the first, or after the last) that touches the
          files is one op; pfsbench's untimed stretches (setup, a stream's
          Open, what an op does after its clock stops, cleanup) are named "-"
  span    one op per process: from its first call on the files to its
          last (dd, fio, a shell loop of dd over files; all its processes
          add up to one op)
OPS names the ops in order, NAME:ITEMS,... ("-" for a stretch that is no
op, e.g. setup); a name given twice adds both stretches' calls into one op.
With MODE span, OPS is one NAME:ITEMS.

report prints, per op, each call's count per item for pfsbench and for
each peer, and flags every difference of the files and thread kinds: DIFF
when it is 0.05 a item or more and more than 4 calls (it grows with the
items), "per op" otherwise (a fixed cost of the op: a few calls whatever
its size).
"""
import collections
import re
import sys

LINE = re.compile(r'^(\d+) +(.*)$')
CALL = re.compile(r'^([a-z_0-9]+)\((.*)$')
RESUMED = re.compile(r'^<\.\.\. ([a-z_0-9]+) resumed>(.*)$')


def calls(path):
    """(tid, name, text) of each finished call, in the order they ended."""
    pending = {}
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.match(line.rstrip('\n'))
            if not m:
                continue
            tid, rest = int(m.group(1)), m.group(2)
            if rest.startswith('---') or rest.startswith('+++'):
                continue
            r = RESUMED.match(rest)
            if r:
                name, text = pending.pop(tid, (r.group(1), ''))
                yield tid, name, text + r.group(2)
                continue
            c = CALL.match(rest)
            if not c:
                continue
            if rest.endswith('<unfinished ...>'):
                pending[tid] = (c.group(1), c.group(2))
                continue
            yield tid, c.group(1), c.group(2)


# Calls whose strings are data, not paths: only their descriptor counts.
DATA = {'read', 'write', 'pread64', 'pwrite64', 'readv', 'writev', 'preadv', 'pwritev',
        'preadv2', 'pwritev2', 'sendto', 'sendmsg', 'recvfrom', 'recvmsg'}


def touches(name, text, target):
    """Whether a call acts on a file under target (execve's arguments
    only name it; a write's buffer may hold its path)."""
    if name == 'execve':
        return False
    if name in DATA:
        text = text.split(',', 1)[0]
    return target in text


def parse_ops(spec):
    ops = []
    for part in spec.split(','):
        name, _, items = part.rpartition(':')
        ops.append((name, int(items)))
    return ops


def count(side, trace, target, mode, spec):
    seq = list(calls(trace))
    on = [touches(name, text, target) for _, name, text in seq]
    ops = parse_ops(spec)
    per = collections.Counter()
    items = {}
    order = []

    def add(op, n, kind, name, k=1):
        if op not in items:
            items[op] = n
            order.append(op)
        per[(op, kind, name)] += k

    if mode == 'span':
        op, n = ops[0]
        spans = {}
        for i, (tid, _, _) in enumerate(seq):
            if on[i]:
                lo, _ = spans.get(tid, (i, i))
                spans[tid] = (lo, i)
        inside = [None] * len(seq)
        for tid, (lo, hi) in spans.items():
            for i in range(lo, hi + 1):
                if seq[i][0] == tid:
                    inside[i] = tid
        for i, (tid, name, _) in enumerate(seq):
            if inside[i] is not None:
                add(op, n, 'files' if on[i] else 'thread', name)
            elif any(lo <= i <= hi for lo, hi in spans.values()):
                add(op, n, 'others', name)
        emit(side, per, items, order)
        return 0

    busy = collections.Counter(seq[i][0] for i in range(len(seq)) if on[i])
    if not busy:
        sys.exit('calls.py: %s: no call on %s' % (trace, target))
    main = busy.most_common(1)[0][0]
    # Stretches of the main thread's calls between its getrusage calls.
    marks = [i for i, (tid, name, _) in enumerate(seq) if tid == main and name == 'getrusage']
    bounds = [-1] + marks + [len(seq)]
    stretches = [(lo, hi) for lo, hi in zip(bounds, bounds[1:])
                 if any(on[i] and seq[i][0] == main for i in range(lo + 1, hi))]
    if len(stretches) != len(ops):
        desc = ['%s...%s' % (next(seq[i][1] for i in range(lo + 1, hi) if on[i]),
                             seq[hi - 1][1] if hi - 1 > lo else '') for lo, hi in stretches]
        sys.exit('calls.py: %s: %d stretches touch the files, OPS names %d: %s' %
                 (trace, len(stretches), len(ops), ' | '.join(desc)))
    for (lo, hi), (op, n) in zip(stretches, ops):
        for i in range(lo + 1, hi):
            tid, name, _ = seq[i]
            if op == '-':
                if on[i]:
                    add('(outside)', 0, 'outside', name)
            elif tid != main:
                add(op, n, 'others', name)
            else:
                add(op, n, 'files' if on[i] else 'thread', name)
    emit(side, per, items, order)
    return 0


def emit(side, per, items, order):
    for op in order:
        for (o, kind, name), k in sorted(per.items()):
            if o == op:
                print(side, op, items[op], kind, name, k)


def report(table):
    rows = collections.OrderedDict()  # (group, op) -> side -> (items, {(kind, call): n})
    with open(table) as f:
        for line in f:
            w = line.split()
            if len(w) != 6:
                continue
            side, op, n, kind, name, k = w[0], w[1], int(w[2]), w[3], w[4], int(w[5])
            group, _, who = side.partition('/')
            d = rows.setdefault((group, op), collections.OrderedDict())
            d.setdefault(who, [n, collections.Counter()])[1][(kind, name)] += k
    flagged = 0
    for (group, op), bys in rows.items():
        if op == '(outside)':
            print('%s: calls on the files outside the ops (setup, untimed opens, cleanup): %s\n' %
                  (group, ', '.join('%s %d' % (s, sum(bys[s][1].values())) for s in bys)))
            continue
        who = list(bys)
        print('%s %s: calls per item (items: %s)' %
              (group, op, ', '.join('%s %d' % (s, bys[s][0]) for s in who)))
        print('  %-8s %-18s' % ('kind', 'call') + ''.join('%14s' % s for s in who) + '  flag')
        keys = sorted(set(k for s in who for k in bys[s][1]),
                      key=lambda k: (['files', 'thread', 'others'].index(k[0]), k[1]))
        for kind, name in keys:
            vals = [bys[s][1].get((kind, name), 0) / max(bys[s][0], 1) for s in who]
            flag = ''
            if kind != 'others' and len(vals) > 1:
                counts = [bys[s][1].get((kind, name), 0) for s in who]
                diff = max(vals) - min(vals)
                if diff >= 0.05 and max(counts) - min(counts) > 4:
                    flag = 'DIFF'
                elif diff > 0:
                    flag = 'per op'
                if flag:
                    flagged += 1
            print('  %-8s %-18s' % (kind, name) + ''.join('%14.3f' % v for v in vals) + '  ' + flag)
        print()
    print('differences flagged: %d' % flagged)
    return 0


def main(argv):
    if len(argv) == 7 and argv[1] == 'count':
        return count(*argv[2:7])
    if len(argv) == 3 and argv[1] == 'report':
        return report(argv[2])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
