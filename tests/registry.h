/* registry.h: the workloads and the registered outputs by their symbols,
 * for the tests that take one directly (a unit test of a workload's plan,
 * a results file written through the HDF5 output). The product reaches
 * them only through the lists in src/workloads/registry.c and
 * src/outputs/output.c, which alone declare them there. */
#ifndef PFSBENCH_TESTS_REGISTRY_H
#define PFSBENCH_TESTS_REGISTRY_H

#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"

extern const struct pfs_workload pfs_workload_create_unlink;
extern const struct pfs_workload pfs_workload_tree;
extern const struct pfs_workload pfs_workload_stream;
extern const struct pfs_workload pfs_workload_matrix;
extern const struct pfs_workload pfs_workload_bonnie;

extern const struct pfs_output_ops pfs_output_hdf5;

#endif
