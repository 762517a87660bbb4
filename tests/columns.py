#!/usr/bin/python3
# columns.py FILE HEADER COLUMN...: checks that a text table's rows stay
# under its header (issue 29: show --latency's numbers drifted one place
# a column from their header, compare's columns broke on bonnie's op
# names). HEADER is a regular expression the header line starts with
# (Python's re.match); the table's rows are the
# lines after it up to the first empty one. Each COLUMN is NAME:L (a
# left-aligned column: every row's cell starts where NAME starts), NAME:R
# (right-aligned: every cell ends where NAME ends), with a trailing ? when
# a row may leave the cell empty. A cell starts (ends) where a character
# follows (precedes) a space or the line's edge. Prints each row that does
# not line up and exits 1; prints how many rows it checked.
import re
import sys


def main():
    path, head, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    starts = [i for i, l in enumerate(lines) if re.match(head, l)]
    if not starts:
        print("columns.py: no header starting %r in %s" % (head, path))
        return 1
    bad = 0
    rows = 0
    for h in starts:
        header = lines[h]
        cols = []
        at = 0
        for spec in specs:
            name, how = spec.rsplit(":", 1)
            pos = header.find(name, at)
            if pos < 0:
                print("columns.py: no column %r in the header %r" % (name, header))
                return 1
            at = pos + len(name)
            cols.append((name, pos, pos + len(name) - 1, how[0], how.endswith("?")))
        for line in lines[h + 1:]:
            if not line.strip():
                break
            rows += 1
            ch = lambda i: line[i] if 0 <= i < len(line) else " "
            for name, first, last, how, optional in cols:
                if how == "L":
                    ok = ch(first) != " " and ch(first - 1) == " " or first == 0 and ch(0) != " "
                    empty = ch(first) == " "
                else:
                    ok = ch(last) != " " and ch(last + 1) == " "
                    empty = ch(last) == " "
                if not ok and not (optional and empty):
                    print("not under %r: %r" % (name, line))
                    print("    header: %r" % header)
                    bad += 1
                    break
    print("# %d rows checked under %d header(s), %d not lined up" % (rows, len(starts), bad))
    return 1 if bad or not rows else 0


sys.exit(main())
