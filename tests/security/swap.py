#!/usr/bin/env python3
"""swap.py: the unprivileged attacker of tests/security/*.sh, run as
another user with runuser. It waits for a name pfsbench makes, then keeps
swapping things onto it until STOP exists or 60 s pass.

  swap.py results D NAME VICTIM TARGET STOP
      once D/NAME exists (the run's results file), renames in turn an
      empty file of ours, a symbolic link to VICTIM and one to
      TARGET/new.h5 onto D/NAME (issue 26, attack 2)
  swap.py files D NAME A B STOP
      renames in turn a fresh copy of A and one of B onto D/NAME, from
      the start until STOP exists or 600 s pass: a results file swapped
      while root reads it (attack 4)

The run directory's attacker (attack 3) is tests/security/rundir_race.c:
it must swap the moment inotify reports the run directory's events, which
a loop in Python polling with glob did not (0 of 40 tries won on 5cdb329).
"""
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
    else:
        files(*sys.argv[2:7])
