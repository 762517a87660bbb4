#!/bin/bash
# test-hosts-failures.sh - a run across 3 namespace hosts x 2 workers that
# loses a rank (kill -9 of one pfsbench on pfsh2) or a host (pfsh3's link
# set down) mid-run ends within a bounded time with a non-zero status and a
# message naming the failed host; no pfsbench is left running; the results
# file keeps the rows so far and says "aborted"; and what the run left,
# DIR/pfsbench.<stamp>.<host>.<job>/<node>.<worker>/f<10 digits>, is
# removed by rm -rf of that one directory. Exit 77 = skipped.
. "$(dirname "$0")/hosts-test-lib.sh"
hosts_begin 3

# Open MPI notices a silent host by TCP keepalive on its daemons' links:
# after 5 s idle, 3 probes 2 s apart (the job scripts use 10/5/3).
KEEPALIVE=(--mca oob_tcp_keepalive_time 5 --mca oob_tcp_keepalive_intvl 2
    --mca oob_tcp_keepalive_probes 3)
LIMIT=60  # seconds from the failure to mpirun's exit

# start_run NAME: a long run (-i 500: minutes) in the background, in
# $SCRATCH/NAME; returns once every host has finished its se Creates.
start_run() {
    D=$SCRATCH/$1
    mkdir "$D"
    OUT=$SCRATCH/$1.out ERR=$SCRATCH/$1.err
    (cd "$SCRATCH" && exec timeout -k 5 300 "$here/mpirun-hosts.sh" 2 "${KEEPALIVE[@]}" -- \
        "$PFSBENCH" create-unlink -m "$D" -f 200 -F 5 -s 64k -i 500 --no-drop-caches \
        --results "$SCRATCH/$1.h5") >"$OUT" 2>"$ERR" &
    RUN_PID=$!
    local i
    for ((i = 0; i < 300; i++)); do
        [ "$(grep -c '^ se .* Create ' "$OUT")" -ge 6 ] && return 0
        sleep 0.1
    done
    not_ok "$1: the run did not get going in 30 s"; show_run
    finish
}

# end_run NAME: waits for the run; $RC, $TOOK (s since the failure).
end_run() {
    RC=0
    wait "$RUN_PID" || RC=$?
    TOOK=$(((($(date +%s%N) - T0) / 1000000 + 500) / 1000))
    echo "# $1: mpirun ended $TOOK s after the failure, status $RC; it said:"
    grep -v '^ *$' "$ERR" | sed 's/^/#   /'
    if [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ] && [ "$TOOK" -le "$LIMIT" ]; then
        ok "$1: ended within $LIMIT s ($TOOK s), status $RC"
    else
        not_ok "$1: status $RC after $TOOK s (124: killed by the 300 s timeout)"
    fi
}

# left_behind NAME: no pfsbench runs on any host within 30 s; the run
# directory holds only its marker and worker directories of f<10 digits>
# files; pfsbench clean removes all of it and leaves the target as it was.
left_behind() {
    local i h n=1
    for ((i = 0; i < 150 && n > 0; i++)); do
        n=0
        for h in pfsh1 pfsh2 pfsh3; do n=$((n + $(hosts_pfsbench_pids "$h" | wc -l))); done
        [ "$n" -eq 0 ] || sleep 0.2
    done
    check "$1: no pfsbench left running on any host" test "$n" -eq 0
    local runs=("$D"/pfsbench.*.pfsh1.*)
    check "$1: one run directory, named pfsbench.<stamp>.pfsh1.<job>" test ${#runs[@]} -eq 1 -a -d "${runs[0]}"
    check "$1: it holds only its marker and <node>.<worker>/f<10 digits>" test -z \
        "$(cd "${runs[0]}" && find . -mindepth 1 | grep -Ev '^\./(\.pfsbench-run|pfsh[1-3]\.[12](/f[0-9]{10})?)$')"
    echo "# $1: left $(find "${runs[0]}" -type f | wc -l) files in $(basename "${runs[0]}")"
    "$PFSBENCH" show "$SCRATCH/$1.h5" >"$SCRATCH/$1.show" 2>&1 || true
    # Rank 0 prints a block on stdout, then appends it to the results file;
    # the victim dies once the first block (24 se rows) is on stdout, but
    # on a busy machine later iterations may have ended by then, so the
    # file must hold what stdout printed, whatever that was.
    local printed kept
    printed=$(grep -c '^ se ' "$OUT")
    kept=$(grep -c '^ se ' "$SCRATCH/$1.show")
    echo "# $1: stdout printed $printed se rows; show printed $kept and: $(tail -n 1 "$SCRATCH/$1.show")"
    check "$1: the results file keeps the rows so far and says the run was aborted" test \
        "$printed" -ge 24 -a "$kept $(tail -n 1 "$SCRATCH/$1.show" | cut -c1-15)" = "$printed Status: aborted"
    check "$1: pfsbench clean removes it all (exit 0)" "$PFSBENCH" clean "$D"
    check "$1: and leaves the target empty" test -z "$(ls -A "$D")"
}

# -- one rank killed -----------------------------------------------------------
start_run kill
victim=$(hosts_pfsbench_pids pfsh2 | sed -n 1p)
T0=$(date +%s%N)
kill -9 "$victim"
end_run kill
check "kill: the message names the rank's host and the signal" \
    grep -Eq "process rank [0-9]+ with PID $victim on node pfsh2 exited on signal 9" "$ERR"
left_behind kill

# -- one host's link cut ----------------------------------------------------------
start_run cut
T0=$(date +%s%N)
ip -n pfsh3 link set eth0 down
end_run cut
check "cut: the message says a daemon was lost and names pfsh3" \
    grep -Eqz "lost communication with a remote daemon.*Remote daemon: .* on node pfsh3" "$ERR"
ip -n pfsh3 link set eth0 up
left_behind cut
finish
