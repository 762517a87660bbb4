# pfsbench's Spack recipe (docs/packaging.md). Copy this directory into a
# Spack package repository as packages/pfsbench/ (or `spack repo add` a
# repository that holds it), put the release tarball (make dist) where
# Spack can fetch it, and run `spack install pfsbench`.
# tests/package/recipes.sh runs this file's directives and configure_args
# against a stand-in for Spack; no real Spack has run it yet (the reason is
# in docs/packaging.md).

from spack.package import *


class Pfsbench(AutotoolsPackage):
    """MPI benchmark for shared, cluster and local filesystems. Every rank
    runs the workload at once, between barriers, with caches dropped before
    each phase; reports keep the format of the tools pfsbench replaces
    (create_unlink_perf, fdtree, dm and dd, perf_matrix, bonnie++) and every
    run writes an HDF5 results file that show, compare, export, plot and
    report read."""

    # The project publishes no download address yet: Spack takes the
    # tarball from a source mirror (docs/packaging.md says how), and the
    # release's sha256 goes beside its version once the tarball is
    # published; until then, spack install --no-checksum.
    homepage = "https://pfsbench.invalid/"
    url = "https://pfsbench.invalid/releases/pfsbench-0.1.0.tar.gz"

    version("0.1.0")

    variant(
        "gnuplot",
        default=False,
        description="gnuplot at run time, for the pictures of plot and report",
    )

    # Spack 0.23 and later treat the compiler as a dependency; pfsbench is C.
    depends_on("c", type="build")
    depends_on("pkgconfig", type="build")
    # The compiler is the MPI's wrapper (configure takes MPICC) and
    # configure wants the MPI's mpirun or mpiexec.
    depends_on("mpi")
    # Only rank 0 opens results files, through HDF5's serial API (no
    # MPI-IO driver), so an hdf5 with or without +mpi does; Debian's
    # serial libhdf5-dev (1.10) is what CI builds with. configure finds it
    # with pkg-config (hdf5.pc), as it finds zlib.
    depends_on("hdf5@1.10:")
    depends_on("zlib-api")
    # configure stops without cmocka (the unit tests' framework), so it is
    # needed to build, not only to test.
    depends_on("cmocka@1.1:", type=("build", "test"))
    depends_on("gnuplot", type="run", when="+gnuplot")

    def configure_args(self):
        args = ["MPICC={0}".format(self.spec["mpi"].mpicc)]
        if self.spec.satisfies("+gnuplot"):
            args.append("GNUPLOT={0}".format(join_path(self.spec["gnuplot"].prefix.bin, "gnuplot")))
        return args

    def check(self):
        # `spack install --test=root`: the unit tests only. The rest of
        # make check needs root, namespaces, daemons and virtual machines,
        # which a Spack build has not; CI runs it on the same sources.
        make("check", "TESTS=$(UNIT_TESTS)")
