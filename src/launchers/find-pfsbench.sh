# find-pfsbench.sh: how a launcher finds the pfsbench it runs. Not a
# shellcheck shell=bash
# script: make puts it into each launcher (src/launchers/*.in) in place of
# its @FIND_PFSBENCH@ line, so an installed launcher needs no file beside it.
#
# find_pfsbench: sets pfsbench to an absolute path (the same on every host
# of an mpirun, as a relative one would not be) of the first of
#   $PFSBENCH, when set (a path, or a name looked up on the PATH); else
#   the pfsbench beside this launcher (installed together, or a copy
#     staged under a DESTDIR);
#   the build tree's (this launcher in src/launchers/, pfsbench in src/);
#   the installed @bindir@/pfsbench;
#   the first pfsbench on the PATH.
# When none is a program that can be started, it says so in one line and
# returns 1 (the launcher exits 2: nothing ran), rather than leaving exec's
# "No such file or directory" (127) or mpirun's "status 132" to say it.
find_pfsbench() {
    local here built c
    if [ -n "${PFSBENCH:-}" ]; then
        c=$PFSBENCH
        [[ $c == */* ]] || c=$(command -v -- "$c") || c=$PFSBENCH
        startable "$c" && return 0
        pfsbench=$PFSBENCH
        echo "$prog: PFSBENCH='$PFSBENCH' is not a program that can be started: set it to pfsbench's path, or unset it" >&2
        return 1
    fi
    here=$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")
    built=
    [[ $here != */src/launchers ]] || built=${here%/launchers}/pfsbench
    for c in "$here/pfsbench" "$built" "@bindir@/pfsbench" "$(command -v pfsbench || true)"; do
        startable "$c" && return 0
    done
    pfsbench=@bindir@/pfsbench
    echo "$prog: no pfsbench beside '$here', in @bindir@ or on the PATH: install it (make install), or set PFSBENCH to its path" >&2
    return 1
}

# startable FILE: FILE is a program that can be started; pfsbench is then
# its absolute path.
startable() {
    [ -n "$1" ] && [ -f "$1" ] && [ -x "$1" ] || return 1
    if [[ $1 == /* ]]; then pfsbench=$1; else pfsbench=$PWD/$1; fi
}
