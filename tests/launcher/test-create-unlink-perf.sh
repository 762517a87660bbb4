#!/bin/bash
# test-create-unlink-perf.sh - the create_unlink_perf launcher's command
# line: the exact mpirun command --dry-run prints (host order, ranks per
# host, -i, pass-through, PFSBENCH_MPIRUN_ARGS, quoting), and exit status 2
# with a clear message for each kind of bad input. Runs no MPI job.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cup=${CREATE_UNLINK_PERF:-$here/../../src/launchers/create_unlink_perf}
[ -x "$cup" ] || { echo "SKIP: no launcher at '$cup' (run make first)"; exit 77; }
passed=0 failed=0

# expect NAME STATUS EXPECTED-OUTPUT ARGS...: runs the launcher with ARGS,
# stdout and stderr together, in a known environment
expect() {
    local name=$1 want_rc=$2 want=$3 got rc=0
    shift 3
    got=$(env -u PFSBENCH_MPIRUN_ARGS -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM MPIRUN=mpirun PFSBENCH=/opt/pfs/bin/pfsbench \
        ${EXTRA_ENV:+"$EXTRA_ENV"} "$cup" "$@" 2>&1) || rc=$?
    if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ]; then
        passed=$((passed + 1)); echo "ok - $name"
    else
        failed=$((failed + 1))
        printf 'not ok - %s\n  expected (status %s): %s\n  got (status %s): %s\n' \
            "$name" "$want_rc" "$want" "$rc" "$got"
    fi
}
run="/opt/pfs/bin/pfsbench create-unlink"
hint="Try 'create_unlink_perf --help'."

expect "dry run: defaults, one worker per host, hosts in the order given" 0 \
    "mpirun --host n3,n1,n2 -np 3 --map-by seq $run -m /mnt/gfs2 -i 1" \
    -n -m /mnt/gfs2 n3 n1 n2
expect "dry run: -i2 -w 2 as in the Red Hat article, long options" 0 \
    "mpirun --host lp01,lp01,lp02,lp02 -np 4 --map-by seq $run -m /mnt/gfs2 -i 2" \
    -i2 --workers=2 --dry-run --mount /mnt/gfs2 lp01 lp02
expect "dry run: options after the hosts; pfsbench options after --" 0 \
    "mpirun --host a,a,a -np 3 --map-by seq $run -m /x -i 5 -f 100 -t se,ua --no-drop-caches" \
    -m/x a -w3 -i 5 -n -- -f 100 -t se,ua --no-drop-caches
expect "dry run: odd characters are quoted for the shell" 0 \
    "mpirun --host h.example.com -np 1 --map-by seq $run -m '/mnt/my gfs2' -i 1 --results 'it'\\''s.h5'" \
    -n -m "/mnt/my gfs2" h.example.com -- --results "it's.h5"
EXTRA_ENV="PFSBENCH_MPIRUN_ARGS=--mca plm_rsh_agent /x/agent --mca btl tcp,self" \
expect "dry run: PFSBENCH_MPIRUN_ARGS go right after mpirun" 0 \
    "mpirun --mca plm_rsh_agent /x/agent --mca btl tcp,self --host a,b -np 2 --map-by seq $run -m /x -i 1" \
    -n -m /x a b
EXTRA_ENV="MPIRUN=mpiexec.mpich" \
expect "dry run under MPICH's Hydra: a -hosts list of HOST:WORKERS, in the order given" 0 \
    "mpiexec.mpich -hosts lp02:2,lp01:2 -np 4 $run -m /mnt/gfs2 -i 2" -n -i2 -w 2 -m /mnt/gfs2 lp02 lp01
EXTRA_ENV="MPIRUN=/usr/local/openmpi/bin/mpirun" \
expect "dry run: MPIRUN names the mpirun" 0 \
    "/usr/local/openmpi/bin/mpirun --host a -np 1 --map-by seq $run -m /x -i 1" -n -m /x a

# An option given twice, in either spelling, is refused: it silently took
# the last value.
expect "-m twice" 2 "create_unlink_perf: -m/--mount is given twice
$hint" -n -m /a h --mount=/b
expect "-i, then --iterations" 2 "create_unlink_perf: -i/--iterations is given twice
$hint" -n -m /a -i 2 --iterations 3 h
expect "-w twice, one joined" 2 "create_unlink_perf: -w/--workers is given twice
$hint" -n -m /a -w2 -w 3 h
expect "-n, then --dry-run" 2 "create_unlink_perf: -n/--dry-run is given twice
$hint" -n -m /a --dry-run h
expect "no hosts" 2 "create_unlink_perf: no hosts: name the hosts to run on, e.g. node{1..3}
$hint" -m /x
expect "no -m" 2 "create_unlink_perf: no directory: -m DIR is required
$hint" a b
expect "-m without its value" 2 "create_unlink_perf: option '-m' needs a value
$hint" a -m
expect "-w 0" 2 "create_unlink_perf: -w: '0' is not a whole number from 1 to 999999999
$hint" -w 0 -m /x a
expect "-i two" 2 "create_unlink_perf: -i: 'two' is not a whole number from 1 to 999999999
$hint" -itwo -m /x a
expect "--workers=-1" 2 "create_unlink_perf: --workers: '-1' is not a whole number from 1 to 999999999
$hint" --workers=-1 -m /x a
expect "a host given twice" 2 "create_unlink_perf: host 'a' is given twice
$hint" -m /x a b a
expect "a host list instead of hosts" 2 "create_unlink_perf: 'a,b' is not a host name
$hint" -m /x a,b
expect "a pfsbench option before --" 2 "create_unlink_perf: unknown option '-f' (pfsbench options go after '--')
$hint" -m /x -f 10 a
expect "more ranks than a --host list holds" 2 \
    "create_unlink_perf: more ranks than one --host list holds; use mpirun --hostfile with --map-by seq (docs/cluster.md)
$hint" -n -w 30000 -m /x host1 host2
# A dry run never waits: -w at its largest is refused from its length
# alone (it built the list a name at a time and ran for minutes). timeout
# is the hang guard (status 124), not a bound on the time.
rc=0
out=$(timeout 10 "$cup" -n -w 999999999 -m /x h1 2>&1) || rc=$?
if [ "$rc" = 2 ] && [ "$out" = "create_unlink_perf: more ranks than one --host list holds; use mpirun --hostfile with --map-by seq (docs/cluster.md)
$hint" ]; then
    passed=$((passed + 1)); echo "ok - dry run with -w 999999999: refused at once"
else
    failed=$((failed + 1)); echo "not ok - dry run with -w 999999999 (status $rc, 124: still running after 10 s): $out"
fi
EXTRA_ENV="MPIRUN=/nonexistent/mpirun" \
expect "mpirun missing" 2 \
    "create_unlink_perf: '/nonexistent/mpirun' not found: install Open MPI (Debian: apt-get install openmpi-bin) or set MPIRUN (MPICH: MPIRUN=mpiexec.mpich)" \
    -m /x a
if [ "$(id -u)" -eq 0 ]; then
    EXTRA_ENV="MPIRUN=$(command -v true)" \
    expect "as root without Open MPI's permission: exit 2 before mpirun" 2 \
        "create_unlink_perf: running as root: Open MPI refuses root unless OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set; set both, or run as a user" \
        -m /x a
else
    echo "# not root: the launcher's root check is not exercised"
fi
expect "-h: the usage" 0 "$("$cup" --help)" -h
first=$("$cup" --help | sed -n 1p)
if [ "$first" = "Usage: create_unlink_perf [-i N] [-w WORKERS] [-n] -m DIR HOST... [-- PFSBENCH-OPTIONS...]" ]; then
    passed=$((passed + 1)); echo "ok - --help starts with the usage line"
else
    failed=$((failed + 1)); echo "not ok - --help starts with: $first"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
