#!/bin/bash
# test-netns-mpi.sh - smoke test of netns-hosts.sh + rsh-agent.sh +
# mpirun-hosts.sh: 3 namespace hosts x 2 ranks; `hostname` must show 3
# distinct names, and a throw-away MPI program (built in a temp dir, not
# kept) does MPI_Barrier + MPI_Allgather of host names. Owns: the hosts it
# brings up (torn down by trap) and its temp dir. Exit 77 = skipped.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=netns-hosts.sh
. "$here/netns-hosts.sh"
command -v mpicc >/dev/null || need_pkg libopenmpi-dev openmpi-bin
pfs_cluster_lock

tmp=$(mktemp -d /tmp/pfs-netns-test.XXXXXX)
trap 'pfs_hosts_down; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
pfs_hosts_up 3

pass=0 fail=0
check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then pass=$((pass + 1)); echo "ok - $1"
    else fail=$((fail + 1)); printf 'not ok - %s\n  expected: %s\n  got: %s\n' "$1" "$2" "$3"; fi
}

out=$("$here/mpirun-hosts.sh" 2 hostname)
check "hostname: 6 ranks" 6 "$(wc -l <<<"$out")"
check "hostname: 3 hosts" "pfsh1 pfsh2 pfsh3" "$(sort -u <<<"$out" | xargs)"

cat >"$tmp/allgather.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    char name[64] = {0}, all[64 * 64];
    int rank, size, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gethostname(name, sizeof name - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allgather(name, 64, MPI_CHAR, all, 64, MPI_CHAR, MPI_COMM_WORLD);
    if (rank == 0 && size <= 64)
        for (i = 0; i < size; i++) printf("%d %s\n", i, all + 64 * i);
    MPI_Finalize();
    return 0;
}
C
mpicc -o "$tmp/allgather" "$tmp/allgather.c"
out=$("$here/mpirun-hosts.sh" 2 "$tmp/allgather")
check "allgather: rank->host" "0 pfsh1 1 pfsh1 2 pfsh2 3 pfsh2 4 pfsh3 5 pfsh3" "$(xargs <<<"$out")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
