#!/bin/bash
# tests/launcher/shellcheck.sh: the shell scripts users run: the job scripts (jobs/) and
# the launchers as built (src/launchers/*, find-pfsbench.sh put in), checked
# by shellcheck; and their arrays that may be empty expanded as
# ${a[@]+"${a[@]}"}: bash before 4.4 (RHEL and CentOS 7 ship 4.2) takes a
# plain "${a[@]}" of an empty array for an unbound variable under set -u,
# and no bash here is that old to run them. Skips (77), saying why, without
# shellcheck (Debian: apt-get install shellcheck; build.sh check installs it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${SRCDIR:-$here/../..}
build=$(dirname "${DM:-$src/src/launchers/dm}")
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }

scripts=("$src"/jobs/*/*)
for l in create_unlink_perf dm perf_matrix; do
    [ -f "$build/$l" ] || { echo "SKIP: no launcher at '$build/$l' (run make first)"; exit 77; }
    scripts+=("$build/$l")
done

if command -v shellcheck >/dev/null; then
    for s in "${scripts[@]}"; do
        if out=$(shellcheck -s bash "$s" 2>&1); then ok "shellcheck ${s#"$src"/}"
        else not_ok "shellcheck ${s#"$src"/}"; printf '%s\n' "$out" | sed 's/^/# /'; fi
    done
else
    echo "SKIP: shellcheck is not installed (apt-get install shellcheck): the scripts are not checked by it"
    [ "${PFSBENCH_REQUIRE_SHELLCHECK:-}" != 1 ] || exit 1
    skipped=1
fi

# "${a[@]}" (not after +) of an array that may be empty. Arrays that are
# never empty where they are expanded: hosts (checked first), cmd and
# target (built with words). Comments are not code.
for s in "${scripts[@]}"; do
    bad=$(grep -nE '(^|[^+])"\$\{[A-Za-z_]+\[@\]' "$s" |
        grep -vE '^[0-9]+:[[:space:]]*#|"\$\{(hosts|cmd|target)\[@\]' || true)
    if [ -z "$bad" ]; then ok "bash 4.2: no bare expansion of a possibly empty array in ${s#"$src"/}"
    else not_ok "bash 4.2: bare expansions in ${s#"$src"/}"; printf '# %s\n' "$bad"; fi
done
# ... and the check finds one.
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
printf 'a=()\necho "${a[@]}"\n' >"$probe"
if grep -qE '(^|[^+])"\$\{[A-Za-z_]+\[@\]' "$probe"; then ok "the bash 4.2 check finds a bare \"\${a[@]}\""
else not_ok "the bash 4.2 check misses a bare \"\${a[@]}\""; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
[ -z "${skipped:-}" ] || exit 77
