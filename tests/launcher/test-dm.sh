#!/bin/bash
# test-dm.sh - the dm launcher's command line: dm's long options become
# pfsbench stream's, short ones and pfsbench's own pass unchanged, dm's
# network and size options are refused with exit 2. PFSBENCH is a stand-in
# that prints what it was given; runs no MPI job (tests/stream/run.sh runs
# the launcher for real).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dm=${DM:-$here/../../src/launchers/dm}
[ -x "$dm" ] || { echo "SKIP: no launcher at '$dm' (run make first)"; exit 77; }
LAUNCHER=$dm
# shellcheck source-path=SCRIPTDIR source=stand-in.sh
. "$here/stand-in.sh"
hint="Try 'dm --help'."

expect "the seed's command line passes as it is" 0 \
    "[stream][-a][0][-b][1M][-s][500M][-y][-m][-p][-o][/mnt/dummy/dummy-out]" \
    -a 0 -b 1M -s 500M -y -m -p -o /mnt/dummy/dummy-out
expect "the seed's read, -o /dev/null and -k" 0 \
    "[stream][-o][/dev/null][-b][1M][-s][500M][-m][-p][-k][7G][-i][/dev/drbd9]" \
    -o /dev/null -b 1M -s 500M -m -p -k 7G -i /dev/drbd9
expect "dm's long options become pfsbench's" 0 \
    "[stream][-a][0xff][-i][in][-o][out][-b][4k][-k][1s][-l][2g][-s][8M][-w][1000][-x][-y][-m][-p][-d][-h]" \
    --input-pattern 0xff --input-file in --output-file=out --buffer-size 4k --seek-input=1s \
    --seek-output 2g --size=8M --bandwidth 1000 --o_direct --sync --progress --performance \
    --dialog --help
expect "clusters and pfsbench's own options pass unchanged" 0 \
    "[stream][-ympa0][-o][/x][--shared][--force][--results][r.h5]" \
    -ympa0 -o /x --shared --force --results r.h5
expect "a long option without its value" 2 "dm: option '--size' needs a value
$hint" -o /x --size
expect "dm's network output is refused" 2 \
    "dm: dm's network output (-c) is not in pfsbench stream: it streams to files
$hint" -c 10.0.0.1 -P 54321
expect "dm's -z is refused" 2 \
    "dm: dm's --show-input-size is not in pfsbench stream: 'stat -c %s FILE' says a file's size
$hint" --show-input-size -i /dev/sdb

done_testing
