#!/bin/bash
# test-hosts-shift.sh - create-unlink --shift 1 across 3 namespace hosts x 1
# worker, on an ext3 filesystem (a loop device mounted once, which every
# host sees, as they share the mount namespace) and on a GlusterFS volume
# (tests/fs/gluster-lib.sh: its own glusterd; the whole test runs in a
# private mount namespace for it). On each: host k opens the files of host
# k+1 mod 3 and no other host's (the fault injector logs every open), the
# reads succeed and are counted in the rows, the header says so, every file
# is unlinked once by the host after its owner, and nothing is left. The
# read rates with and without --shift are printed for the closing note.
# Exit 77 = skipped.
. "$(dirname "$0")/hosts-test-lib.sh"
# shellcheck source=../fs/gluster-lib.sh
. "$here/../fs/gluster-lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
[ -x "$PFSBENCH" ] || skip "no pfsbench binary at '$PFSBENCH' (run make first)"
# The cluster lock is taken here, outside: in the private mount namespace
# /run/lock is masked, and hosts_begin's lock there is the namespace's own.
[ -n "${PFS_GLUSTER_NAMESPACE:-}" ] || pfs_cluster_lock
gluster_isolate "$0"

hosts_begin 3

# A pfsbench that logs the opens and unlinks of the run's files into
# $SCRATCH/log.RANK (one file a rank: mpirun mixes the ranks' stderr).
W=$SCRATCH/logging-pfsbench
printf '#!/bin/bash\nexec 2>>%q/log.%s\nPFSBENCH_FAULT_LOG=1 LD_PRELOAD=%q PFSBENCH_FAULT=%q exec %q "$@"\n' \
    "$SCRATCH" "$RANK_OF" "$PFSFAULT" "delay openat 0ns path=/pfsbench.; delay unlinkat 0ns path=/pfsbench." \
    "$PFSBENCH" >"$W"
chmod +x "$W"

# calls LOG SYSCALL: "host dirhost file" for each call the delay rules made
calls() {
    sed -n "s|^pfsfault: rank [0-9]* node \([^:]*\): $2 #[0-9]* '.*/pfsbench\.[^/]*/\([^/.]*\)\.1/\(f[0-9]*\)': delayed 0 ns$|\1 \2 \3|p" "$1"
}

# read_rates FILE: "se R pa R", the Read rates of a results file.
read_rates() {
    "$PFSBENCH" compare "$1" "$1" --csv |
        awk -F, '$2 == "Read" && $4 == 1 {printf "%s %.0f ", $1, $6}' | sed 's/ $//'
}

# shift_on NAME DIR FILES ITERATIONS: the plain run and the --shift 1 run
# on DIR, of FILES files a worker (20 of them read) and ITERATIONS.
shift_on() {
    local name=$1 dir=$2 files=$3 iters=$4 log=$SCRATCH/$1.log foreign unlinks start
    local ARGS=(-f "$files" -F 20 -s 64k -t se,pa -i "$iters") nrows=$((3 * 2 * $4)) opens=$((20 * 2 * $4))
    snapshot "$dir"
    start=$SECONDS
    hosts_run 1 create-unlink -m "$dir" "${ARGS[@]}" --results "$SCRATCH/$name-own.h5"
    check "$name: without --shift: exit 0" test "$RC" -eq 0
    rm -f "$SCRATCH"/log.*
    PFSBENCH=$W hosts_run 1 create-unlink -m "$dir" "${ARGS[@]}" --shift 1 \
        --results "$SCRATCH/$name-shift.h5"
    cat "$SCRATCH"/log.* >"$log" 2>/dev/null || true
    rm -f "$SCRATCH"/log.*
    echo "# $name: both runs took $((SECONDS - start)) s"
    ran_ok 3 1
    check "$name: the header says how Read and Unlink shift" grep -qx \
        "Shift 1: in se, pa and ub, node k reads and unlinks the files of node (k+1) mod 3" "$OUT"
    check "$name: $nrows Read rows of 20 files of 64 KiB, none failed" test "$(rows |
        awk '$5 == "Read" && $7 == 20' | wc -l)" -eq "$nrows"
    check "$name: the results file's Read rows count 20 x 64 KiB each" test "$("$PFSBENCH" export \
        "$SCRATCH/$name-shift.h5" --csv | awk -F, '$7 == "Read" && $12 == 20 && $14 == 1310720' |
        wc -l)" -eq "$nrows"
    # (awk, not a shell loop: thousands of lines on a loaded machine)
    foreign=$(calls "$log" openat | awk '$1 != $2 {print $1, $2}' | sort | uniq -c | xargs)
    check "$name: host k opened the files of host k+1, 20 x (se, pa) x $iters iterations ($foreign)" \
        test "$foreign" = "$opens pfsh1 pfsh2 $opens pfsh2 pfsh3 $opens pfsh3 pfsh1"
    unlinks=$(calls "$log" unlinkat | awk '{
        next_host = "pfsh" (substr($1, 5) % 3 + 1)
        print ($2 == next_host) ? "next" : $1 " unlinked " $2 "'"'"'s " $3 }' | sort | uniq -c | xargs)
    check "$name: every unlink by the host after the owner: $files x 3 hosts x 2 tests x $iters ($unlinks)" \
        test "$unlinks" = "$((files * 3 * 2 * iters)) next"
    check "$name: no file unlinked twice: each (host, file) once a test iteration" test \
        "$(calls "$log" unlinkat | awk '{print $2, $3}' | sort | uniq -c |
            awk -v n=$((2 * iters)) '$1 != n' | wc -l)" -eq 0
    check "$name: nothing of the runs is left" dir_unchanged "$dir"
    echo "# $name: Read rates (files/s), own files: $(read_rates "$SCRATCH/$name-own.h5")"
    echo "# $name: Read rates (files/s), --shift 1:  $(read_rates "$SCRATCH/$name-shift.h5")"
    "$PFSBENCH" compare "$SCRATCH/$name-own.h5" "$SCRATCH/$name-shift.h5" | grep -E '^(Test|se|pa) ' |
        sed "s/^/# $name: /"
    [ "$T_FAILED" -eq 0 ] || show_run
}

command -v mkfs.ext3 >/dev/null || need_pkg e2fsprogs
if loop_fs ext3 ext3 256M noatime mkfs.ext3 -q -F; then
    shift_on ext3 "$M" 200 3
fi

# Fewer files and iterations on GlusterFS: its runs took over the 120 s that
# hosts_run allows at a load of 22.
if gluster_up pfsbench 2; then
    echo keep >"$M/foreign"
    shift_on glusterfs "$M" 100 2
fi
finish
