#!/bin/bash
# pfsbench clean on what killed runs really leave: a create-unlink, a tree
# and a bonnie run, each killed with SIGKILL in the middle of creating its
# files (as mpirun kills ranks a second after SIGTERM, or as a node dies).
# While a run is alive, clean leaves its directory alone. --dry-run lists
# and removes nothing; clean removes every file and directory the runs
# made, and only those: a stranger's file, a symbolic link to a file
# outside (which must survive), a name of ours with the wrong type, and a
# directory pfsbench.x without a marker are listed and left, with the
# directories that hold them and their run's marker, so a second clean
# finishes the job once they are gone. Runs that end normally leave no
# marker; a tree -C run leaves one, and clean removes its trees, 256
# levels deep too, but not a deeper chain someone made of our names. Bad input
# exits 2 and touches nothing; a DIR with nothing to clean says so, exit 0.
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/d
mkdir "$D"
echo "someone else's" >"$D/foreign" # not pfsbench.*: never looked at
echo secret >"$SCRATCH/target"      # outside DIR: must survive

# clean ARGS...: pfsbench clean, stdout in $OUT, stderr in $ERR, status in $RC.
clean() {
	OUT=$SCRATCH/clean.out ERR=$SCRATCH/clean.err
	timeout 300 "$PFSBENCH" clean "$@" >"$OUT" 2>"$ERR"
	RC=$?
}

listing() {
	(cd "$D" && find . | sort)
}

# killed_run MIN RULES WORKLOAD ARGS...: runs pfsbench WORKLOAD on 2 ranks
# in the background under the fault injector's RULES (a delay that keeps
# the run creating), in a directory of its own, $K (set by the caller), waits until the run
# has made MIN files in its workers' directories, checks
# that clean leaves the live run alone, kills every rank with SIGKILL and
# moves what the run left into DIR.
killed_run() {
	local min=$1 rules=$2 wl=$3 exe n i pids
	shift 2
	mkdir "$K"
	exe=$(faulty "$rules")
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np 2 "$exe" "$@") \
		>"$SCRATCH/bg.out" 2>&1 &
	local bg=$!
	for ((i = 0; i < 1200; i++)); do
		n=$(find "$K" -mindepth 3 -type f 2>/dev/null | head -n "$min" | wc -l)
		[ "$n" -ge "$min" ] && break
		sleep 0.05
	done
	check "$wl: the run made $min files before the kill" test "$n" -ge "$min"
	clean "$K"
	check "$wl: clean leaves a live run alone (exit 1, 'in use')" \
		eval 'test "$RC" -eq 1 && grep -q "in use: a pfsbench run holds its marker" "$OUT"'
	pids=$(pgrep -f "^$T_PFSBENCH $wl .*$K")
	check "$wl: its ranks found" test -n "$pids"
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill -KILL $pids
	wait "$bg"
	n=$(find "$K" -path "*/pfsbench.*" | wc -l)
	check "$wl: the killed run left its directory ($n items)" test "$n" -ge "$min"
	mv "$K"/pfsbench.* "$D/" && rmdir "$K"
}

K=$SCRATCH/k-cu
killed_run 20000 "delay openat 2ms after=15000" create-unlink \
	-m "$K" -f 300000 -F 2 -s 4k -t pa --no-drop-caches --results "$SCRATCH/cu.h5"
K=$SCRATCH/k-tree
killed_run 2000 "delay write 2ms after=1500" tree \
	-o "$K" -l 12 -d 2 -f 2 -s 1 --no-drop-caches --results "$SCRATCH/tree.h5"
K=$SCRATCH/k-bonnie
killed_run 20000 "delay openat 1ms after=15000" bonnie \
	-d "$K" -s 0 -n 200:0:0:8 -r 1024 --results "$SCRATCH/bonnie.h5"
check "three run directories, each with its marker" \
	test "$(find "$D" -maxdepth 2 -name .pfsbench-run | wc -l)" -eq 3

# Strangers in the run directories.
CU=$(grep -l '^workload create-unlink$' "$D"/pfsbench.*/.pfsbench-run | xargs dirname)
TREE=$(grep -l '^workload tree$' "$D"/pfsbench.*/.pfsbench-run | xargs dirname)
BON=$(grep -l '^workload bonnie$' "$D"/pfsbench.*/.pfsbench-run | xargs dirname)
W=$(find "$CU" -mindepth 1 -maxdepth 1 -type d | head -1)
echo x >"$W/stranger"
ln -s "$SCRATCH/target" "$W/f9999999999"      # a create-unlink name, as a symbolic link
mkdir "$TREE/$(basename "$W")x"                # not a worker's name
TW=$(find "$TREE" -mindepth 1 -maxdepth 1 -type d | head -1)
mkdir "$TW/LEVEL0/d0/f7"                       # a file's name, as a directory
ln -s "$SCRATCH" "$TW/LEVEL0/d1/d9"            # a directory's name, as a link to one
mkdir "$D/pfsbench.x"                          # no marker
echo y >"$D/pfsbench.x/f0000000000"
# Every path below is inside DIR, or the test stops here.
for v in "$CU" "$TREE" "$BON" "$W" "$TW"; do
	case $v in
	"$D"/pfsbench.*) ;;
	*) not_ok "a run directory or worker directory not found"; finish ;;
	esac
done
listing >"$SCRATCH/before"
STRANGERS=("$W/stranger" "$W/f9999999999" "$TREE/$(basename "$W")x" "$TW/LEVEL0/d0/f7"
	"$TW/LEVEL0/d1/d9" "$D/pfsbench.x")

all_listed() {
	local s
	for s in "${STRANGERS[@]}"; do
		grep -qF "left '$s': " "$OUT" || return 1
	done
}

clean --dry-run "$D"
check "dry run: exit 1, something would stay" test "$RC" -eq 1
check "dry run: removes nothing" diff -q <(listing) "$SCRATCH/before"
check "dry run: lists every stranger" all_listed
check "dry run: one line per run directory, counts" \
	test "$(grep -Ec "': [a-z-]+ run of .*: would remove [0-9]+ files?, [0-9]+ director(y|ies); would leave [0-9]+$" "$OUT")" -eq 3
check "dry run: the bonnie run would go whole" \
	grep -Eq "^'$BON': bonnie run of .*would remove [1-9][0-9]* files, [1-9][0-9]* directories; would leave 0$" "$OUT"
check "dry run: pfsbench.x is not pfsbench's" \
	grep -qF "left '$D/pfsbench.x': no marker .pfsbench-run: not a pfsbench run directory" "$OUT"
check "dry run: the symbolic link named as a file of ours" \
	grep -qF "left '$W/f9999999999': a symbolic link, where create-unlink makes a regular file" "$OUT"
[ "$T_FAILED" -eq 0 ] || { cat "$OUT" "$ERR"; }

clean "$D"
check "clean: exit 1, something stayed" test "$RC" -eq 1
check "clean: lists every stranger" all_listed
check "clean: the bonnie run is gone" test ! -e "$BON"
check "clean: the symbolic link's target survives" test "$(cat "$SCRATCH/target")" = secret
check "clean: the links survive, and what they point to" \
	test -L "$W/f9999999999" -a -L "$TW/LEVEL0/d1/d9" -a -d "$SCRATCH/t"
check "clean: pfsbench.x untouched" test "$(cat "$D/pfsbench.x/f0000000000")" = y
check "clean: foreign file untouched" test "$(cat "$D/foreign")" = "someone else's"
# Left: the strangers, what holds them, and their runs' markers; nothing else.
find "$D" | sort >"$SCRATCH/after"
expect() {
	local s p
	for s in "$D" "$D/foreign" "${STRANGERS[@]}" "$D/pfsbench.x/f0000000000" \
		"$CU/.pfsbench-run" "$TREE/.pfsbench-run"; do
		p=$s
		while [ "$p" != "$D" ] && [ "$p" != / ]; do
			echo "$p"
			p=$(dirname "$p")
		done
	done
	echo "$D"
}
check "clean: only the strangers, their directories and markers stay" \
	diff <(expect | sort -u) "$SCRATCH/after"
check "clean: the runs' lines say what went and what stayed" \
	eval "grep -Eq \"^'\$CU': create-unlink run of .*: removed [1-9][0-9]* files, [0-9]+ director(y|ies); left 2\$\" \"\$OUT\""

# Once the strangers are gone, a second clean finishes.
rm -rf "$W/stranger" "$W/f9999999999" "$TREE/$(basename "$W")x" "$TW/LEVEL0/d0/f7" \
	"$TW/LEVEL0/d1/d9" "$D/pfsbench.x"
clean "$D"
check "second clean: exit 0" test "$RC" -eq 0
check "second clean: DIR holds only the foreign file" test "$(listing | tr '\n' ' ')" = ". ./foreign "
clean "$D"
check "nothing to clean: exit 0, and said" \
	eval 'test "$RC" -eq 0 && grep -qxF "nothing to clean in '"'$D'"'" "$OUT"'

# A run that ends leaves no marker; tree -C leaves its trees, marked.
pfs 2 create-unlink -m "$D" -f 100 -F 2 -s 4k --no-drop-caches --results "$SCRATCH/ok.h5"
check "a complete run: exit 0 and nothing left" \
	eval 'test "$RC" -eq 0 && test "$(listing | tr "\n" " ")" = ". ./foreign "'
pfs 2 tree -o "$D" -l 3 -d 3 -f 2 -s 1 -C --no-drop-caches --results "$SCRATCH/c.h5"
check "tree -C: its directory is marked" test -f "$D/pfsbench.tree.l3.d3.f2.s1/.pfsbench-run"
clean "$D"
check "tree -C: clean removes the trees (exit 0)" \
	eval 'test "$RC" -eq 0 && test "$(listing | tr "\n" " ")" = ". ./foreign "'

# The deepest tree pfsbench makes goes whole; a deeper chain of our names,
# beyond any run's depth, stays and is listed (one descriptor a level).
pfs 1 tree -o "$D" -l 256 -d 1 -f 1 -s 1 -C --no-drop-caches --results "$SCRATCH/deep.h5"
clean "$D"
check "tree -l 256: clean removes it (exit 0)" \
	eval 'test "$RC" -eq 0 && test "$(listing | tr "\n" " ")" = ". ./foreign "'
pfs 1 tree -o "$D" -l 1 -d 1 -f 1 -s 1 -C --no-drop-caches --results "$SCRATCH/deeper.h5"
(cd "$D"/pfsbench.tree.*/*/LEVEL0/d0 && for ((i = 0; i < 400; i++)); do mkdir d0 && cd d0 || exit; done)
clean "$D"
check "a chain deeper than any run: exit 1, listed, not removed" \
	eval 'test "$RC" -eq 1 && grep -q "deeper than any pfsbench run makes" "$OUT" &&
		test "$(find "$D" -type d -name d0 | wc -l)" -eq 401'
rm -rf "$D"/pfsbench.tree.*

# Bad input: one message, exit 2, nothing touched.
listing >"$SCRATCH/before"
for args in "$SCRATCH/missing" "$D/foreign" "--bogus $D" "$D $D" ""; do
	# shellcheck disable=SC2086
	clean $args
	check "bad input '$args': exit 2, one line on stderr, nothing on stdout" \
		eval 'test "$RC" -eq 2 && test -s "$ERR" && test ! -s "$OUT"'
done
check "bad input: DIR unchanged" diff -q <(listing) "$SCRATCH/before"
check "bad input: nothing created" test ! -e "$SCRATCH/missing"

finish
