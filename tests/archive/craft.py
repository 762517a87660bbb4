"""craft.py GOOD.h5 DIR: results files that are not good ones, made with
h5py from a good one, into DIR: tests/archive/bad-input.sh checks that
show, compare and export refuse or ignore each in one line, and
tests/fuzz/make-seeds.sh gives them to the fuzz target as seeds.
  other.h5          another program's HDF5 file
  v3.h5             schema version 3
  version-array.h5  schema_version holds 1000 numbers
  schema-array.h5   schema holds 1000 strings
  ranks-array.h5    a provenance attribute holds 1000 numbers
  files-array.h5    a parameter holds 1000 numbers
  rows-claim.h5     /rows claims 10^8 rows
  nodes-claim.h5    /nodes claims 10^8 nodes
  rows-wide.h5      /rows' records claim 1 GiB each (HDF5 converts one
                    record at least at a time), 2 of them
  nodes-gzip.h5     /nodes compressed (h5repack -f GZIP does that): good
  nodes-short.h5    /nodes compressed, its chunk inflating to 100 bytes
                    fewer than the chunk's rows take (HDF5 1.10 copied
                    past its buffer on that)
  nodes-short-raw.h5  /nodes not compressed, its chunk stored 100 bytes short
  committed-text.h5   the root's committed is a string, not 4 numbers
  committed-one.h5    the root's committed says 1 row (of the good file's)
"""
import shutil
import sys
import zlib

import h5py
import numpy as np

good, d = sys.argv[1], sys.argv[2]

with h5py.File(f"{d}/other.h5", "w") as f:
    f.attrs["schema"] = "someone-elses"
    f["data"] = [1, 2, 3]


def crafted(name, change):
    shutil.copy(good, f"{d}/{name}.h5")
    with h5py.File(f"{d}/{name}.h5", "a") as f:
        change(f)


def array_attr(loc, key, value):
    del loc.attrs[key]
    loc.attrs[key] = value


crafted("v3", lambda f: f.attrs.modify("schema_version", 3))
# Attributes that hold arrays where pfsbench writes one value, and tables
# that claim far more rows than the file could hold (issue 10).
crafted("version-array", lambda f: array_attr(f, "schema_version", np.arange(1000, dtype=np.uint64)))
crafted("schema-array", lambda f: array_attr(f, "schema", np.array([b"pfsbench-results"] * 1000)))
crafted("ranks-array", lambda f: array_attr(f["provenance"], "ranks", np.arange(1000, dtype=np.uint64)))
crafted("files-array", lambda f: array_attr(f["parameters"], "files", np.arange(1000, dtype=np.uint64)))


def claim(f, name):
    """name claims 10^8 records that were never written. pfsbench's tables
    take a chunk's space when they grow into it (early allocation), so a
    resize of its own table writes every chunk: the table is made again
    with HDF5's default, late allocation, its records and attributes kept."""
    old = f[name]
    records, attrs = old[...], dict(old.attrs)
    del f[name]
    # The claim stands in the committed counts too, which would otherwise
    # bound what is read.
    if "committed" in f.attrs:
        f.attrs["committed"] = np.full(4, 10**8, dtype=np.uint64)
    ds = f.create_dataset(name, shape=(10**8,), maxshape=(None,), chunks=old.chunks,
                          dtype=records.dtype)
    ds[: len(records)] = records
    for key, value in attrs.items():
        ds.attrs[key] = value


crafted("rows-claim", lambda f: claim(f, "rows"))
crafted("nodes-claim", lambda f: claim(f, "nodes"))


def chunk_nodes(f, cut, gzip=True):
    nodes = f["nodes"][...]
    del f["nodes"]
    ds = f.create_dataset("nodes", shape=nodes.shape, maxshape=(None,), chunks=(64,),
                          dtype=nodes.dtype, compression="gzip" if gzip else None)
    chunk = np.zeros(64, dtype=nodes.dtype)
    chunk[: len(nodes)] = nodes
    data = chunk.tobytes()[: chunk.nbytes - cut]
    ds.id.write_direct_chunk((0,), zlib.compress(data) if gzip else data)


crafted("nodes-gzip", lambda f: chunk_nodes(f, 0))
crafted("nodes-short", lambda f: chunk_nodes(f, 100))
crafted("nodes-short-raw", lambda f: chunk_nodes(f, 100, gzip=False))


def wide_rows(f):
    """2 records of 1 GiB, none written: a small file, 2 GiB to read."""
    rows = f["rows"]
    names = list(rows.dtype.names)
    wide = np.dtype({"names": names, "formats": [rows.dtype.fields[n][0] for n in names],
                     "offsets": [rows.dtype.fields[n][1] for n in names], "itemsize": 1 << 30})
    del f["rows"]
    f.create_dataset("rows", shape=(2,), maxshape=(None,), chunks=(1,), dtype=wide)


crafted("rows-wide", wide_rows)


def committed_one(f):
    n = f.attrs["committed"].copy()
    n[0] = 1
    f.attrs["committed"] = n


crafted("committed-text", lambda f: array_attr(f, "committed", "four numbers"))
crafted("committed-one", committed_one)
