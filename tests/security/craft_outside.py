"""craft_outside.py GOOD.h5 OTHER.h5 DIR: results files whose tables or
provenance lead out of the file (issue 26, attack 5), each a copy of
GOOD.h5 with one change:
  elink-fifo.h5      /rows an external link to DIR/fifo (a FIFO)
  elink-zero.h5      /rows an external link to /dev/zero
  elink-other.h5     /provenance an external link to OTHER.h5's (another
                     results file: its provenance would read as this one's)
  extstore.h5        /rows stored in an external file, DIR/fifo
  vds.h5             /rows a virtual dataset mapping DIR/fifo
pfsbench must refuse each without opening what it names."""
import os
import shutil
import sys

import h5py

good, other, out = sys.argv[1], sys.argv[2], sys.argv[3]
fifo = os.path.join(out, "fifo")


def copy(name):
    path = os.path.join(out, name)
    shutil.copyfile(good, path)
    return h5py.File(path, "r+")


for name, target, obj in (("elink-fifo.h5", fifo, "rows"),
                          ("elink-zero.h5", "/dev/zero", "rows"),
                          ("elink-other.h5", other, "provenance")):
    with copy(name) as f:
        del f[obj]
        f[obj] = h5py.ExternalLink(target, "/" + obj)

with copy("extstore.h5") as f:
    rows = f["rows"][...]
    del f["rows"]
    f.create_dataset("rows", shape=rows.shape, dtype=rows.dtype,
                     external=[(fifo, 0, h5py.h5f.UNLIMITED)])

with copy("vds.h5") as f:
    rows = f["rows"][...]
    del f["rows"]
    layout = h5py.VirtualLayout(shape=rows.shape, dtype=rows.dtype)
    layout[:] = h5py.VirtualSource(fifo, "rows", shape=rows.shape, dtype=rows.dtype)
    f.create_virtual_dataset("rows", layout)
