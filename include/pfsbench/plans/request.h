/* request.h: the largest request of sequential I/O (stream's -b, matrix's
 * request sizes): the plans and option tables refuse more, and
 * src/workloads/seqio.c never issues more. Here, below both, so that a
 * plan need not include the workload that carries it out. */
#ifndef PFSBENCH_REQUEST_H
#define PFSBENCH_REQUEST_H

#define PFS_SEQIO_REQ_MAX (1u << 30) /* the largest request */

#endif
