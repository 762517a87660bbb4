#!/bin/bash
# find-pfsbench.sh - which pfsbench the launchers (create_unlink_perf, dm,
# perf_matrix) run, PFSBENCH unset (src/launchers/find-pfsbench.sh): the
# one beside the launcher, else the build tree's, else the installed
# $BINDIR/pfsbench, else the PATH's; and when none can be started, one
# line and exit 2, with mpirun never started (it said "status 132").
# Copies of the built launchers in scratch directories, stand-in pfsbench
# programs that print where they are; the installed one is a directory
# mounted over $BINDIR in a private mount namespace (root; without root
# those cases are skipped, and said so). Runs no MPI job.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
launchers=${CREATE_UNLINK_PERF:-$here/../../src/launchers/create_unlink_perf}
launchers=$(dirname "$launchers")
built=$(cd "$launchers/.." && pwd)/pfsbench
for l in create_unlink_perf dm perf_matrix; do
    [ -x "$launchers/$l" ] || { echo "SKIP: no launcher at '$launchers/$l' (run make first)"; exit 77; }
done
[ -x "$built" ] || { echo "SKIP: no pfsbench at '$built' (run make first)"; exit 77; }
bindir=${BINDIR:?BINDIR: where make install puts pfsbench (set by make check)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset PFSBENCH
# (as root, create_unlink_perf checks Open MPI's permission before pfsbench:
# the test harness's choice, never the product's)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
is() { # WHAT GOT WANT
    if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; printf '#   got:  %s\n#   want: %s\n' "$2" "$3"; fi
}

# A PATH with only what the launchers need besides pfsbench and mpirun, so
# that a pfsbench installed on this machine (/usr/bin, /usr/local/bin) is
# not found by accident.
mkdir "$T/sys"
for c in dirname readlink id sh env; do ln -s "$(command -v "$c")" "$T/sys/$c"; done
# stand-in DIR: a pfsbench in DIR that says where it is and what it got.
stand_in() {
    mkdir -p "$1"
    printf '#!/bin/sh\necho "pfsbench at $0: $*"\n' >"$1/pfsbench"
    chmod +x "$1/pfsbench"
}
# An mpirun that records that it ran.
printf '#!/bin/sh\ntouch "%s/mpirun-ran"\n' "$T" >"$T/sys/mpirun"
chmod +x "$T/sys/mpirun"
# copy DIR: the three launchers in DIR, away from the build tree.
copy() {
    mkdir -p "$1"
    cp "$launchers/create_unlink_perf" "$launchers/dm" "$launchers/perf_matrix" "$1/"
}
# which_one DIR PATH: the pfsbench each launcher in DIR runs with that
# PATH, as "cup dm pm" (the dry run's path for create_unlink_perf, the
# stand-in's for the others).
which_one() {
    local cup dm pm
    cup=$(env PATH="$2" "$1/create_unlink_perf" -n -m /x h1 | awk '{print $(NF - 5)}')
    dm=$(env PATH="$2" "$1/dm" -o /x | sed 's/: .*//; s/^pfsbench at //')
    pm=$(env PATH="$2" "$1/perf_matrix" of=/x | sed 's/: .*//; s/^pfsbench at //')
    echo "$cup $dm $pm"
}
# with_bindir DIR CMD...: CMD with DIR mounted over $bindir (root only).
can_mount=false
if [ "$(id -u)" -eq 0 ] && [ -d "$bindir" ] &&
    unshare -m --propagation private true 2>/dev/null; then can_mount=true; fi
with_bindir() {
    local d=$1
    shift
    unshare -m --propagation private bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
        bash "$d" "$bindir" "$@"
}
export -f which_one

is "the build tree: create_unlink_perf's dry run names src/pfsbench" \
    "$(env PATH="$T/sys" "$launchers/create_unlink_perf" -n -m /x h1 | awk '{print $(NF - 5)}')" "$built"
mkdir -p "$T/build/src"
copy "$T/build/src/launchers"
stand_in "$T/build/src"
stand_in "$T/onpath"
is "the build tree: src/launchers/X runs src/pfsbench, before the PATH's" \
    "$(which_one "$T/build/src/launchers" "$T/onpath:$T/sys")" \
    "$T/build/src/pfsbench $T/build/src/pfsbench $T/build/src/pfsbench"

copy "$T/beside"
stand_in "$T/beside"
is "beside: a launcher runs the pfsbench in its own directory (installed together, or under a DESTDIR)" \
    "$(which_one "$T/beside" "$T/onpath:$T/sys")" \
    "$T/beside/pfsbench $T/beside/pfsbench $T/beside/pfsbench"
mkdir "$T/links"
ln -s "$T/beside/dm" "$T/links/dm"
is "beside: through a symbolic link to the launcher, beside its target" \
    "$(env PATH="$T/sys" "$T/links/dm" -o /x | sed 's/: .*//')" "pfsbench at $T/beside/pfsbench"

copy "$T/alone"
stand_in "$T/installed"
mkdir "$T/empty"
if $can_mount; then
    is "installed: nothing beside, not in a build tree: $bindir/pfsbench, before the PATH's" \
        "$(with_bindir "$T/installed" bash -c 'which_one "$0" "$1"' "$T/alone" "$T/onpath:$T/sys")" \
        "$bindir/pfsbench $bindir/pfsbench $bindir/pfsbench"
    is "the PATH: nothing beside, nothing installed" \
        "$(with_bindir "$T/empty" bash -c 'which_one "$0" "$1"' "$T/alone" "$T/onpath:$T/sys")" \
        "$T/onpath/pfsbench $T/onpath/pfsbench $T/onpath/pfsbench"
elif [ ! -e "$bindir/pfsbench" ]; then
    echo "# not root: the installed case is not exercised ($bindir cannot be replaced)"
    is "the PATH: nothing beside, nothing installed" "$(which_one "$T/alone" "$T/onpath:$T/sys")" \
        "$T/onpath/pfsbench $T/onpath/pfsbench $T/onpath/pfsbench"
else
    echo "# not root and $bindir/pfsbench exists: the installed and PATH cases are not exercised"
fi
mkdir "$T/nonexec"
touch "$T/nonexec/pfsbench"
cp "$launchers/dm" "$T/nonexec/"
is "a pfsbench that cannot be started (not executable) is passed over" \
    "$(env PATH="$T/onpath:$T/sys" "$T/nonexec/dm" -o /x | sed 's/: .*//')" \
    "pfsbench at $T/onpath/pfsbench"
is "PFSBENCH=NAME: the NAME on the PATH, as an absolute path" \
    "$(env PATH="$T/onpath:$T/sys" PFSBENCH=pfsbench "$T/alone/create_unlink_perf" -n -m /x h1 | awk '{print $(NF - 5)}')" \
    "$T/onpath/pfsbench"

# None: one line, exit 2, and mpirun never runs.
none() { # WHAT LINE-PATTERN ENV... -- CMD...
    local what=$1 want=$2 out rc=0
    shift 2
    rm -f "$T/mpirun-ran"
    if $can_mount; then
        out=$(with_bindir "$T/empty" env "$@" 2>&1) || rc=$?
    elif [ ! -e "$bindir/pfsbench" ]; then
        out=$(env "$@" 2>&1) || rc=$?
    else
        echo "# not root and $bindir/pfsbench exists: '$what' is not exercised"
        return 0
    fi
    is "$what: exit 2" "$rc" 2
    if [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && [[ $out =~ $want ]]; then ok "$what: one line: $out"
    else not_ok "$what: one line matching '$want'"; printf '# %s\n' "$out"; fi
    is "$what: mpirun never ran" "$(test -e "$T/mpirun-ran" && echo ran || echo no)" no
}
declare -A args=([create_unlink_perf]="-m /x h1" [dm]="-o /x" [perf_matrix]="of=/x")
for l in create_unlink_perf dm perf_matrix; do
    read -r -a a <<<"${args[$l]}"
    none "$l, no pfsbench anywhere" \
        "^$l: no pfsbench beside '$T/alone', in $bindir or on the PATH: install it \(make install\), or set PFSBENCH to its path\$" \
        PATH="$T/sys" "$T/alone/$l" "${a[@]}"
    none "$l, PFSBENCH names nothing" \
        "^$l: PFSBENCH='$T/nothing' is not a program that can be started: set it to pfsbench's path, or unset it\$" \
        PATH="$T/sys" PFSBENCH="$T/nothing" "$T/beside/$l" "${a[@]}"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
