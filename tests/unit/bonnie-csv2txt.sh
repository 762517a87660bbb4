#!/bin/bash
# bonnie-csv2txt.sh - Debian's own bon_csv2txt and bon_csv2html (package
# bonnie++) read the CSV lines bonniefmt writes and print the same figures
# as bonniefmt's text tables: every rate, %CPU and latency in its column.
# The cases (tests/unit/bonnie_cases.c) cover +++++, blanks, huge rates,
# widened columns, latency units at their edges, links, -s 0 and options.
# Where the tools themselves are wrong, the test says so and expects it:
#   - bon_csv2txt shows a block test's +++++ as "0k" (its convSpd takes
#     "+++++" for the number 0), and bon_csv2html shows it as 0 MiB/s;
#   - both show the directory count one column late, where bonnie++'s
#     header puts file_chunk_size (bonnie++ writes it there);
#   - bon_csv2txt's size column joins size:chunk:seeks:seekers from the
#     CSV, not bonnie++'s size:chunk:concurrency:seeks:seekers;
#   - bon_csv2html reads rates with atoi: past 2^31 KiB/s they wrap.
# With a FILE argument, the 1.98 lines of FILE (pfsbench bonnie's CSV
# output) are checked the same way instead of the cases.
# Installs bonnie++ when missing (root); skips (77) when it cannot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR
. "$here/../cluster/lib.sh"
cases=${BONNIE_CASES:-$here/bonnie_cases}
[ -x "$cases" ] || skip "no '$cases' (make check builds it)"
have_tools() { command -v bon_csv2txt >/dev/null && command -v bon_csv2html >/dev/null; }
have_tools || need_pkg bonnie++
have_tools || skip "bon_csv2txt or bon_csv2html missing after installing bonnie++"
# Both tools read only their own CSV format: 1.98, written by 1.98 to 2.00a.
ver=$(dpkg-query -W -f='${Version}' bonnie++ 2>/dev/null || echo unknown)
case $ver in
    1.98* | 2.00*) ;;
    *) skip "bonnie++ $ver reads another CSV format than 1.98" ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() {
    failed=$((failed + 1))
    printf 'not ok - %s\n  want: %s\n  got:  %s\n' "$1" "$2" "$3"
}
check() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$@"; fi; }

# after PATTERN N FILE: the N-th line after the first line matching PATTERN
after() { awk -v re="$1" -v n="$2" 'hit && ++k == n { print; exit } !hit && $0 ~ re { hit = 1 }' "$3"; }

# same_table NAME OURS_HEAD THEIRS_HEAD FIGURE: below the header rows
# OURS_HEAD and THEIRS_HEAD of our text and bon_csv2txt's, the data lines
# match from column 20 on (a "0k" rate with "+++" is bon_csv2txt's +++++),
# bon_csv2txt's first 19 columns hold FIGURE, and the Latency lines match.
same_table() {
    local ours theirs desc
    ours=$(after "$2" 1 "$tmp/ours.txt" | cut -c20-)
    theirs=$(after "$3" 1 "$tmp/theirs.txt" | sed 's/    0k +++/ +++++ +++/g' | cut -c20-)
    check "$1 figures" "$ours" "$theirs"
    desc=$(after "$3" 1 "$tmp/theirs.txt" | cut -c1-19)
    case $desc in
        *" $4"* | "$4"*) ok "$1 first column has $4" ;;
        *) not_ok "$1 first column" "$4" "$desc" ;;
    esac
    check "$1 latencies" "$(after "$2" 2 "$tmp/ours.txt")" "$(after "$3" 2 "$tmp/theirs.txt")"
}

if [ $# -ge 1 ]; then
    grep '^1\.98,' "$1" >"$tmp/all.csv" || { echo "no 1.98 line in '$1'"; exit 1; }
    n=$(wc -l <"$tmp/all.csv")
else
    "$cases" csv >"$tmp/all.csv"
    n=$("$cases" count)
    [ "$(wc -l <"$tmp/all.csv")" -eq "$n" ] || { echo "bonnie_cases csv: not $n lines"; exit 1; }
fi

for i in $(seq 1 "$n"); do
    sed -n "${i}p" "$tmp/all.csv" >"$tmp/line.csv"
    if [ $# -ge 1 ]; then
        "$cases" text-of "$(cat "$tmp/line.csv")" >"$tmp/ours.txt"
    else
        "$cases" text "$i" >"$tmp/ours.txt"
    fi
    bon_csv2txt <"$tmp/line.csv" >"$tmp/theirs.txt" 2>"$tmp/err.txt"
    check "case $i: bon_csv2txt takes the line" "" "$(cat "$tmp/err.txt")"
    size=$(cut -d, -f6 "$tmp/line.csv") files=$(cut -d, -f22 "$tmp/line.csv")

    if [ -n "$size" ]; then
        same_table "case $i: bon_csv2txt's I/O" '^Name:Size etc' '^Name:Size etc' "$size"
    else
        check "case $i: no I/O table from bon_csv2txt either" "" "$(grep '^Name:Size' "$tmp/theirs.txt" || true)"
    fi
    if [ -n "$files" ]; then
        same_table "case $i: bon_csv2txt's file" '^( *files|files:max)' '^ *files:max:min' "$files"
    fi

    # bon_csv2html: the cells of the line's two rows, as bon_csv2html
    # should show our line's fields: block rates in MiB/s rounded
    # ((KiB + 512) / 1024 in a C int: +++++ and blanks are 0, and past
    # 2^31 KiB/s atoi wraps), optional columns only when set, a filler
    # cell before the second Latency when the file columns are wider
    # than two.
    bon_csv2html <"$tmp/line.csv" >"$tmp/theirs.html" 2>"$tmp/err.txt"
    check "case $i: bon_csv2html takes the line" "" "$(cat "$tmp/err.txt")"
    theirs=$(sed 's/<tr>/\n<tr>/g' "$tmp/theirs.html" |
        awk '/class="rowheader"/ { print; row = 1; next } row && /^<tr>/ { print; exit }' |
        grep -o '<td[^>]*>\(<font[^>]*>\)\?[^<]*</td>' | sed 's/<[^>]*>//g' | paste -sd'|')
    want=$(awk -F, '
        function mib(x) {
            x = (x + 0) % 4294967296
            if (x >= 2147483648) x -= 4294967296
            return int((x + 512) / 1024)
        }
        {
            out = $3
            if ($4 != "1") out = out "|" $4
            out = out "|" $6
            if ($7 != "") out = out "|" $7
            out = out "|" $10 "|" $11 "|" mib($12) "|" $13 "|" mib($14) "|" $15
            out = out "|" $16 "|" $17 "|" mib($18) "|" $19 "|" $20 "|" $21 "|" $22
            mid = 1
            for (f = 23; f <= 26; f++) if ($f != "") { out = out "|" $f; mid++ }
            for (f = 27; f <= 38; f++) out = out "|" $f
            out = out "|Latency"
            for (f = 39; f <= 44; f++) out = out "|" $f
            if (mid - (mid > 1 ? 2 : 1) > 0) out = out "|"
            out = out "|Latency"
            for (f = 45; f <= 50; f++) out = out "|" $f
            print out
        }' "$tmp/line.csv")
    check "case $i: bon_csv2html's cells" "$want" "$theirs"
done

# Debian's tools read no 1.96 line: for them pfsbench must write 1.98.
printf '1.96,1.96,dev,1,1,1G,,50,33,48255,3,1207,0,73,22,114444,9,820.2,5,16,,,,,582,2,2811,3,615,1,566,2,3365,3,419,0,181ms,215ms,261ms,115ms,1734us,684ms,192ms,3348us,204ms,137ms,2276us,403ms\n' |
    bon_csv2txt >/dev/null 2>"$tmp/err.txt"
check "bon_csv2txt refuses a 1.96 line" "Expected 1.98 got 1.96" "$(cut -d' ' -f1-4 "$tmp/err.txt" | tr -d ,)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
