#!/usr/bin/python3
"""answers.py: what the pictures say against what pfsbench's other
commands say, for tests/plot/answers.sh. Reads the gnuplot script plot
handed gnuplot (a copy kept by a wrapper), so it checks the numbers drawn,
not the pixels.

  answers.py flags SCRIPT ANALYSIS RATES_SVG TIMELINE_SVG
      the red bars of the rates picture (node, test, op, factor) are the
      slow (test, op)s of the nodes `show --analyze` names (ANALYSIS: its
      output), each labelled with the factor in analyze's words in the SVG;
      the timeline marks '(late)' the nodes analyze says leave barriers
      late. Prints the flags; exit 1 on a difference.
  answers.py compare SCRIPT CSV
      the comparison picture's bars (each run's rate), whiskers (the
      interval of the ratio, times the first run's rate) and call-outs are
      those `compare --csv` gives, line by line and run by run, in the same
      lines. Exit 1 on a difference.
  answers.py heatmap SCRIPT REPORT
      the heatmap's cells are the matrix `pfsbench show` prints (the
      report's first lines, perf_matrix's %.2f). Exit 1 on a difference.
  answers.py analysis HTML SHOW
      the page's Analysis is the text `show --analyze` prints after the
      report and its blank line. Exit 1 on a difference.
"""
import csv
import html
import math
import re
import sys


def blocks(script):
    """Data blocks by name: lists of lines split into fields."""
    out = {}
    for m in re.finditer(r"^(\$d\d+_\d+) << EOD\n(.*?)^EOD$", script, re.M | re.S):
        out[m.group(1)] = [l.split() for l in m.group(2).splitlines() if l.strip()]
    return out


def picture(script, name):
    """The part of the script that draws NAME.svg (from its set output
    to the next picture's)."""
    start = script.index("set output '%s.svg'" % name)
    nxt = script.find("set output '", start + 1)
    while nxt >= 0 and script[nxt:].startswith("set output '%s." % name):
        nxt = script.find("set output '", nxt + 1)
    return script[start:nxt if nxt >= 0 else len(script)]


def tics(part, axis):
    """{index: label} of a 'set Xtics ("label" i, ...)' line."""
    m = re.search(r"^set %s \((.*)\)$" % axis, part, re.M)
    return {int(i): l for l, i in re.findall(r"\"([^\"]*)\" (\d+)", m.group(1))}


def words(f):
    """A factor as show --analyze writes it."""
    if math.isinf(f) or f >= 1e300:
        return "stalled"
    return ("%.1fx" if f < 10 else "%.0fx") % f


def analysis_named(text):
    """{node: (ops [(test, op, words)], late)} of analyze's named nodes."""
    named = {}
    section = text[text.index("Slow nodes (docs/methodology.md):"):]
    for line in section.splitlines()[1:]:
        m = re.match(r"^ (\S+): (.*)$", line)
        if not m:
            break
        node, rest = m.groups()
        ops = []
        head = rest.split(" slower than the median node")[0] if " slower than" in rest else ""
        head = re.sub(r" and \d+ more ops?$", "", head)
        for item in filter(None, (x.strip() for x in head.split(","))):
            test, op, f = item.rsplit(" ", 2)
            ops.append((test, op, f))
        named[node] = (ops, "leaves barriers" in rest)
    return named


def flags(script_path, analysis_path, rates_svg, timeline_svg):
    script = open(script_path).read()
    analysis = open(analysis_path).read()
    data = blocks(script)
    part = picture(script, "rates")
    lanes = tics(part, "xtics")
    drawn = set()
    for title, blk in re.findall(r'^set title "([^"]*)"\n.*?^plot (\$d\d+_\d+) ', part,
                                 re.M | re.S):
        test, op = title.split(" ", 1)
        for lane, _rate, _colour, factor in data[blk]:
            if float(factor) > 0:
                node = lanes[int(lane)].split(" ")[0]
                drawn.add((node, test, op, words(float(factor))))
    named = analysis_named(analysis)
    said = {(n, t, o, f) for n, (ops, _) in named.items() for t, o, f in ops}
    ok = True
    for flag in sorted(drawn):
        print("drawn: %s %s %s %s slower" % flag)
    # analyze describes at most 4 ops of a node; every one of those is drawn
    if not said <= drawn or {d[0] for d in drawn} != {n for n, (ops, _) in named.items() if ops}:
        print("the rates picture flags %s, show --analyze names %s" % (sorted(drawn), sorted(said)))
        ok = False
    svg = open(rates_svg).read()
    for node, test, op, f in drawn:
        label = f if f == "stalled" else f + " slower"
        if ">%s<" % label not in svg:
            print("rates.svg lacks the label %r" % label)
            ok = False
    late = {n for n, (_, l) in named.items() if l}
    tl = open(timeline_svg).read()
    marked = set(re.findall(r">(\S+) w\d+ \(late\)<", tl))
    if marked != late:
        print("the timeline marks late %s, show --analyze %s" % (sorted(marked), sorted(late)))
        ok = False
    return ok


def close(a, b):
    return abs(a - b) <= 2e-5 * max(abs(a), abs(b))


def compare(script_path, csv_path):
    script = open(script_path).read()
    data = blocks(script)
    part = picture(script, "compare")
    # A tic is "test op", or "test op (unit)" when the lines' units differ.
    lines = {i: re.sub(r" \([^()]*/s\)$", "", l) for i, l in tics(part, "xtics").items()}
    used = sorted({b for b in re.findall(r"(\$d\d+_\d+) using", part)})
    drawn = {}
    for blk in used:
        run = int(blk.split("_")[1]) + 1  # compare numbers the base 1
        for x, rate, base, ratio, low, high, called in data[blk]:
            drawn[(lines[round(float(x))], run)] = (
                float(rate), float(base), float(ratio), low, high, called == "1")
    rows = list(csv.DictReader(open(csv_path, newline="")))
    # A rate of 0 has no bar on a log axis; against a base of 0 there is
    # no ratio (compare prints none), and the base's rate is drawn NaN.
    want = {("%s %s" % (r["test"], r["op"]), int(r["run"])): r for r in rows
            if float(r["rate"]) > 0}
    if set(drawn) != set(want):
        print("the picture draws %s, compare prints %s" % (sorted(drawn), sorted(want)))
        return False
    # The whiskers are drawn on the rate's scale: the base's rate (column
    # 3) x the ratio's bounds (columns 5 and 6), for the runs after the first.
    whisker = re.findall(r"(\$d\d+_(\d+)) using 1:2:\(cmp_clip\(\$3\*\$5\)\):"
                         r"\(cmp_clip\(\$3\*\$6\)\) with yerrorbars", part)
    ok = sorted({int(r) for _, r in whisker}) == list(range(1, len(used)))
    if not ok:
        print("the whiskers are not the base's rate x the interval of the runs after the first")
    intervals = 0
    for key, (rate, base, ratio, low, high, called) in sorted(drawn.items()):
        r = want[key]
        b = want.get((key[0], 1))
        good = close(rate, float(r["rate"])) and (
            close(base, float(b["rate"])) if b else math.isnan(base))
        if key[1] == 1:
            good &= low == "NaN" and high == "NaN" and not called
            print("%s %s run 1: drawn rate %.6g, compare %s" % (
                "ok" if good else "DIFFERS", key[0], rate, r["rate"]))
            ok &= good
            continue
        good &= (close(ratio, float(r["ratio"])) if r["ratio"] else math.isnan(ratio))
        good &= called == (r["called_out"] == "true")
        if r["ratio_low"]:
            intervals += 1
            good &= low != "NaN" and close(float(low), float(r["ratio_low"]))
            good &= high != "NaN" and close(float(high), float(r["ratio_high"]))
        else:
            good &= low == "NaN" and high == "NaN"
        print("%s %s run %d: drawn %.6g, rate %.6g against %.6g (%s-%s)%s, "
              "compare %s, rate %s (%s-%s)%s" % (
                  "ok" if good else "DIFFERS", key[0], key[1], ratio, rate, base, low, high,
                  " *" if called else "", r["ratio"], r["rate"], r["ratio_low"],
                  r["ratio_high"], " called out" if r["called_out"] == "true" else ""))
        ok &= good
    if not intervals:
        print("no line has an interval: nothing about the whiskers was checked")
        ok = False
    return ok


def heatmap(script_path, report_path):
    script = open(script_path).read()
    data = blocks(script)
    part = picture(script, "matrix")
    blk = re.search(r"^plot (\$d\d+_\d+) using", part, re.M).group(1)
    cells = {(int(c), int(r)): v for c, r, v in data[blk]}
    report = open(report_path).read().split("\n\n")[0].splitlines()
    ok = len(report) == 1 + max(r for _, r in cells)
    for r, line in enumerate(report):
        for c, shown in enumerate(line.split()):
            v = cells.get((c, r), "missing")
            good = v != "missing" and (
                (v == "NaN" and shown == "0.00") or
                (v != "NaN" and abs(float(v) - float(shown)) <= 0.0050001))
            if not good:
                print("cell (%d, %d): drawn %s, show prints %s" % (r, c, v, shown))
                ok = False
    print("%d cells drawn as show prints them" % len(cells))
    return ok


def analysis(html_path, show_path):
    page = open(html_path).read()
    show = open(show_path).read()
    m = re.search(r"<h3>Analysis</h3>\n<pre>(.*?)</pre>", page, re.S)
    if not m:
        print("the page has no analysis")
        return False
    tail = show[show.index("\nSlow nodes (docs/methodology.md):") + 1:]
    if html.unescape(m.group(1)) != tail:
        print("the page's analysis differs from show --analyze's")
        return False
    return True


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    ok = {"flags": flags, "compare": compare, "heatmap": heatmap, "analysis": analysis}[cmd](*args)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
