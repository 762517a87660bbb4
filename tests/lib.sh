# lib.sh: what every shell test shares, in one style (sourced; once: a
# second source returns at once, so a test may source two folders' libs).
# Each folder's lib.sh sources it and keeps only what is its own.
#   ok WHAT / not_ok WHAT       one "ok - " or "not ok - " line, counted
#   check WHAT COMMAND...       ok when COMMAND succeeds, else not_ok
#   fail WHAT                   not_ok, then finish: for a step the rest needs
#   finish                      "N passed, M failed"; exits 1 on any failure
#   skip WHY                    "SKIP: WHY", exit 77 (automake's skip)
#   t_scratch                   $SCRATCH, a directory of the test's own with
#                               TMPDIR inside it; at exit T_CLEANUP's
#                               commands run, last first, and remove it
#   need_pkg PKG...             Debian's packages installed (as root), or skip
#   need_deb PACKAGE COMMAND    COMMAND on PATH, installing PACKAGE when it can;
#                               1 with the reason in NEED_WHY when it cannot
[ -n "${T_LIB:-}" ] && return 0
T_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Open MPI refuses root without these; this is the test harness's choice,
# never the product's.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

T_PASSED=0
T_FAILED=0
T_CLEANUP=()

t_cleanup() {
	local i
	for ((i = ${#T_CLEANUP[@]} - 1; i >= 0; i--)); do
		eval "${T_CLEANUP[i]}" || true
	done
}

t_scratch() {
	SCRATCH=$(mktemp -d /tmp/pfsbench-test.XXXXXX)
	T_CLEANUP+=("rm -rf '$SCRATCH'")
	# Open MPI keeps its session directory under TMPDIR; mpiruns started at
	# the same moment race to create a shared one ("mkdir ... File exists").
	mkdir "$SCRATCH/t"
	export TMPDIR=$SCRATCH/t
	trap 't_cleanup' EXIT
}

ok() {
	T_PASSED=$((T_PASSED + 1))
	echo "ok - $*"
}

not_ok() {
	T_FAILED=$((T_FAILED + 1))
	echo "not ok - $*"
}

check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# The closing line automake and CI read; exit status follows it.
finish() {
	echo "$T_PASSED passed, $T_FAILED failed"
	[ "$T_FAILED" -eq 0 ]
	exit $?
}

fail() {
	not_ok "$*"
	finish
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# apt_install PKG...: apt-get install, once more after apt-get update; its
# output in $T_APT_LOG. Fails where it cannot (not root, no apt-get).
T_APT_LOG=/dev/null
apt_install() {
	[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null || return 1
	[ -n "${SCRATCH:-}" ] && T_APT_LOG=$SCRATCH/apt.log
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get install -y -q "$@" || { apt-get update -q && apt-get install -y -q "$@"; }; } \
		>>"$T_APT_LOG" 2>&1
}

need_pkg() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || skip "need root to install ${missing[*]}"
	command -v apt-get >/dev/null || skip "no apt-get to install ${missing[*]}"
	echo "# need_pkg: installing ${missing[*]}" >&2
	apt_install "${missing[@]}" || skip "apt-get install ${missing[*]} failed"
}

need_deb() {
	NEED_WHY=
	command -v "$2" >/dev/null && return 0
	if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
		NEED_WHY="$1 is not installed, and installing it needs apt-get as root"
		return 1
	fi
	echo "# installing Debian's $1"
	apt_install "$1"
	command -v "$2" >/dev/null && return 0
	NEED_WHY="apt-get install $1 failed: $(tail -n 1 "$T_APT_LOG" 2>/dev/null)"
	return 1
}
