/* worker.c: what a workload's ops call (include/pfsbench/engine/worker.h): the
 * start and end of an op and the row it becomes, the CPU and latency it is
 * measured with, failures, and the stonewall that may stop and resume it.
 *
 * Stonewall with wear-out, as IO500 defines it: in a step marked
 * PFS_STEP_STONEWALL with --stonewall S, every working rank stops its op S
 * seconds after it left the step's barrier, or ends it first by finishing.
 * All ranks then agree on the largest count reached (one Iallreduce in
 * which idle ranks count 0), and every rank carries on to that count, so
 * that later phases find the same items on every rank. A row keeps both
 * counts: stonewall_items at the deadline, items after wear-out. */
#include "internal.h"

#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int pfs_schedstat_open(void)
{
	return open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

/* The time the thread whose schedstat fd is has spent runnable but waiting
 * for a CPU, in nanoseconds: the second number of
 * /proc/thread-self/schedstat (Linux's run_delay, kept where the kernel has
 * CONFIG_SCHED_INFO); 0 without it. */
static uint64_t wait_now_ns(int fd)
{
	char buf[96];
	ssize_t n;
	unsigned long long run_ns, wait_ns;

	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run_ns, &wait_ns) != 2)
		return 0;
	return wait_ns;
}

int pfs_wait_meter_open(void)
{
	return pfs_schedstat_open();
}

uint64_t pfs_wait_meter_ns(int fd)
{
	return wait_now_ns(fd);
}

uint64_t pfs_wait_meter_since(int fd, uint64_t start_ns)
{
	uint64_t now = wait_now_ns(fd);

	return now > start_ns ? now - start_ns : 0;
}

void pfs_wait_meter_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* User + system CPU time of this process, in microseconds. */
static uint64_t cpu_now_us(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

void pfs_op_start(struct pfs_worker *w, const char *op, enum pfs_unit unit, uint64_t items,
		  unsigned flags)
{
	struct pfs_engine *e = w->engine;

	e->op_name = op;
	e->op_unit = unit;
	w->items = w->bytes = 0;
	w->thread_wait_ns = 0;
	w->thread_waited = false;
	w->target = items;
	/* Look at the clock after the first item, then adapt (progress.c). */
	w->batch = w->countdown = 1;
	e->lat_on = !(flags & PFS_OP_HOT) || e->common->latency;
	w->lat = NULL;
	if (e->lat_on) {
		pfs_hist_init(e->hist[0]);
		pfs_hist_init(e->hist[1]);
		w->lat = e->hist[0];
	}
	e->op_metered = false;
	e->op_cpu_us = cpu_now_us();
	pfs_cgroup_meter_start(&e->throttle);
	e->op_wait_ns = wait_now_ns(e->schedstat_fd);
	e->op_start_us = e->last_clock_us = pfs_now_us();
}

struct pfs_hist *pfs_op_lat2(struct pfs_worker *w)
{
	struct pfs_engine *e = w->engine;

	return e->lat_on ? e->hist[1] : NULL;
}

/* One row from a sample, on this rank's list of the iteration's rows; cpu_us
 * is the rank's CPU time over the op, wait_us its time waiting for a CPU,
 * throttled_us the time its cgroup was throttled over the op. */
static int emit(struct pfs_engine *e, const struct pfs_sample *s, uint64_t start_us,
		uint64_t cpu_us, uint64_t wait_us, uint64_t throttled_us)
{
	struct pfs_row r;

	memset(&r, 0, sizeof(r));
	pfs_row_set_text(r.test, sizeof(r.test), e->test);
	pfs_row_set_text(r.op, sizeof(r.op), s->op);
	pfs_row_set_text(r.node, sizeof(r.node), e->w.node_name);
	pfs_row_set_text(r.unit, sizeof(r.unit), pfs_unit_name(s->unit));
	r.iteration = e->iteration;
	r.node_index = e->w.node;
	r.worker = e->w.worker;
	r.rank = (uint32_t)e->rank;
	r.step = e->step;
	r.sample = e->nsamples++;
	r.start_us = pfs_run_time(e, start_us);
	r.elapsed_us = s->elapsed_us;
	r.items = s->items;
	r.bytes = s->bytes;
	r.cpu_us = cpu_us;
	r.wait_us = wait_us;
	/* The cgroup's counter sums the CPUs it was held back on and is read
	 * just outside the op's clock: it may exceed the row's time, which
	 * bounds what the rank lost. */
	r.throttled_us = throttled_us < s->elapsed_us ? throttled_us : s->elapsed_us;
	if (e->deadline_us) {
		/* An op that ended before the deadline was stopped by nothing:
		 * its count at the deadline is all it did. */
		r.stonewall_items = e->sw_hit ? e->sw_items : s->items;
		r.stonewall_us = e->sw_hit ? e->sw_us : s->elapsed_us;
	}
	if (s->lat && s->lat->n) {
		r.lat_count = s->lat->n;
		r.lat_min_ns = s->lat->min_ns;
		r.lat_max_ns = s->lat->max_ns;
	}
	return pfs_engine_add_row(e, &r, s->lat && s->lat->n ? s->lat : NULL);
}

/* Inside the op, a sample is only noted: the row is built after the op
 * returns (pfs_worker_end_op), so that a phase's time holds the work and
 * nothing of the bookkeeping. */
int pfs_emit(struct pfs_worker *w, const struct pfs_sample *s)
{
	struct pfs_engine *e = w->engine;

	if (e->npending == PFS_MAX_SAMPLES)
		return -ENOSPC;
	e->pending[e->npending] = *s;
	e->pending_start_us[e->npending++] = e->op_start_us;
	return 0;
}

/* The CPU time (user + system, getrusage), the time the op's thread
 * waited for a CPU and the cgroup's throttled time since pfs_op_start,
 * into the engine's op_meter fields. wait_us = growth of the thread's
 * run_delay (or what the op's own threads measured); throttled_us =
 * growth of the throttled time in the cpu.stat of the rank's CPU cgroup,
 * capped at each row's elapsed_us (emit): the cgroup's, whichever thread
 * did the items, so apart from wait_us a cap is told from a busy machine
 * (docs/methodology.md). */
static void op_meters(struct pfs_engine *e)
{
	const struct pfs_worker *w = &e->w;

	e->op_meter_cpu_us = cpu_now_us() - e->op_cpu_us;
	e->op_meter_wait_us = (w->thread_waited ? w->thread_wait_ns
					       : pfs_wait_meter_since(e->schedstat_fd, e->op_wait_ns)) /
			      1000;
	e->op_meter_throttled_us = pfs_cgroup_meter_since(&e->throttle) / 1000;
}

/* The clock stops here, and so do the meters: what the op does after it
 * (closing, truncating: untimed) is in neither its elapsed_us nor its
 * cpu_us, as in a peer that times only its loop. */
int pfs_op_done(struct pfs_worker *w)
{
	struct pfs_engine *e = w->engine;
	struct pfs_sample s = {
		.op = e->op_name,
		.unit = e->op_unit,
		.items = w->items,
		.bytes = w->bytes,
		.elapsed_us = pfs_now_us() - e->op_start_us,
		.lat = w->lat,
	};

	op_meters(e);
	e->op_metered = true;
	return pfs_emit(w, &s);
}

/* The first failure of this rank: recorded, printed, told to the others. */
static int fail_with(struct pfs_worker *w, int err, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static int fail_with(struct pfs_worker *w, int err, const char *fmt, va_list ap)
{
	struct pfs_engine *e = w->engine;
	char what[sizeof(e->failure)];

	/* An op cut short by SIGINT or SIGTERM (pfs_write_all) did not fail:
	 * the run stops as for any signal, and the reason names the signal. */
	if (err == ECANCELED && pfs_interrupted()) {
		pfs_engine_poll(e);
		return -err;
	}
	if (!w->failed) {
		w->failed = true;
		/* Cut when extreme: the message must still be printed. */
		(void)vsnprintf(what, sizeof(what), fmt, ap);
		(void)pfs_format(e->failure, sizeof(e->failure), "node %s worker %u: %s",
				 w->node_name, w->worker, what);
		pfs_error("%s", e->failure);
		if (!w->stopped)
			pfs_stop_send(e);
	}
	return -err;
}

int pfs_failf(struct pfs_worker *w, int err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = fail_with(w, err, fmt, ap);
	va_end(ap);
	return rc;
}

int pfs_fail_in(struct pfs_worker *w, const char *op, const char *dir, const char *name, int err)
{
	return pfs_failf(w, err, "cannot %s '%s%s%s': %s", op, dir, name && *name ? "/" : "",
			 name ? name : "", strerror(err));
}

int pfs_fail(struct pfs_worker *w, const char *op, const char *name, int err)
{
	return pfs_fail_in(w, op, w->dir, name, err);
}

int pfs_fail_path(struct pfs_worker *w, const char *op, const char *path, int err)
{
	return pfs_failf(w, err, "cannot %s '%s': %s (%s)", op, path, strerror(err),
			 pfs_errno_name(err));
}

/* ---- the stonewall ----------------------------------------------------- */

static void stonewall_post(struct pfs_engine *e, uint64_t count)
{
	e->sw_mine = count;
	e->sw_posted = true;
	PFS_MPI(e, MPI_Iallreduce,
		(&e->sw_mine, &e->sw_max, 1, MPI_UINT64_T, MPI_MAX, e->comm, &e->sw_req));
}

/* From the look at the clock that found the deadline passed: stop, agree,
 * wear out. */
static void stonewall_hit(struct pfs_engine *e, uint64_t now_us)
{
	struct pfs_worker *w = &e->w;

	e->sw_hit = true;
	e->sw_items = w->items;
	e->sw_us = now_us - e->op_start_us;
	stonewall_post(e, w->items);
	pfs_engine_wait(e, &e->sw_req);
	/* The largest count of any rank: at least ours, at most the plan. */
	w->target = e->sw_max;
}

/* ---- the clock inside an op ------------------------------------------------ */

/* Ops call pfs_tick once an item (or pfs_batch between batches); every
 * w->batch items the engine reads the clock, and adapts the batch so that it
 * reads it every 1 to 4 ms: a decrement an item, however long the item.
 * At the first reading past each PFS_TICK_US (about 100 ms) comes a tick:
 * stop notices and signals are polled and the rank's progress recorded
 * (progress.c). The deadline of a stonewall is checked at every reading. */
#define BATCH_MAX 65536u
#define CLOCK_EVERY_MIN_US 1000u /* read the clock no more often than this ... */
#define CLOCK_EVERY_MAX_US 4000u /* ... and no less often, once adapted */

/* The countdown also ends when the op reaches its target, so a loop needs
 * no compare of its own: pfs_tick says "stop" then, and w->stopped says
 * whether it was told to or is done. */
bool pfs_engine_tick(struct pfs_worker *w)
{
	struct pfs_engine *e = w->engine;
	uint64_t now = pfs_now_us(), dt = now - e->last_clock_us, left;

	/* At every look at the clock, not only every tick: a signal stops the
	 * op within a batch of items. */
	if (pfs_interrupted())
		pfs_engine_poll(e);

	if (dt < CLOCK_EVERY_MIN_US && w->batch < BATCH_MAX)
		w->batch *= 2;
	else if (dt > CLOCK_EVERY_MAX_US && w->batch > 1)
		w->batch /= 2;
	e->last_clock_us = now;
	if (e->deadline_us && !e->sw_hit && !e->sw_posted && now >= e->deadline_us)
		stonewall_hit(e, now);
	if (now >= e->next_tick_us) {
		e->next_tick_us = now + PFS_TICK_US;
		pfs_engine_poll(e);
		pfs_progress_tick(e, now);
	}
	left = w->target > w->items ? w->target - w->items : 0;
	/* Never 0: the next pfs_tick would wrap it. */
	w->countdown = !left ? 1 : left < w->batch ? (unsigned)left : w->batch;
	return w->stopped || !left;
}

bool pfs_deadline_due(const struct pfs_worker *w)
{
	const struct pfs_engine *e = w->engine;

	return e->deadline_us && !e->sw_hit && !e->sw_posted && pfs_now_us() >= e->deadline_us;
}

void pfs_worker_begin_step(struct pfs_engine *e, bool stonewall, bool working)
{
	e->nsamples = 0;
	e->npending = 0;
	e->sw_hit = e->sw_posted = false;
	e->sw_req = MPI_REQUEST_NULL;
	e->deadline_us = stonewall && e->common->stonewall_s
				 ? e->step_start_us + e->common->stonewall_s * 1000000u
				 : 0;
	e->op_name = NULL;
	/* Idle ranks take part in the agreement with nothing done. */
	if (e->deadline_us && !working)
		stonewall_post(e, 0);
}

/* After the op of this rank's step returned rc. An op that failed without
 * saying why (no pfs_fail) is named here, so no failure goes unreported;
 * an op that ended before the deadline gives its count to the agreement.
 * Returns whether this rank failed. */
int pfs_worker_end_op(struct pfs_engine *e, unsigned op, int rc)
{
	struct pfs_worker *w = &e->w;
	uint64_t cpu_us, wait_us, throttled_us;

	/* An op that emitted its rows itself (pfs_emit) is metered now. */
	if (!e->op_metered)
		op_meters(e);
	e->op_metered = false;
	cpu_us = e->op_meter_cpu_us;
	wait_us = e->op_meter_wait_us;
	throttled_us = e->op_meter_throttled_us;

	/* The rows of a step whose op succeeded. */
	for (size_t i = 0; !rc && i < e->npending; i++)
		if (emit(e, &e->pending[i], e->pending_start_us[i], cpu_us, wait_us, throttled_us))
			rc = -ENOMEM;
	e->npending = 0;
	/* Told to stop, an op returns -ECANCELED; cut short by a signal
	 * inside a helper (pfs_write_all), it may return what the helper's
	 * failure path returns: neither is a failure. */
	if (rc < 0 && !w->failed && !(w->stopped && (rc == -ECANCELED || pfs_interrupted()))) {
		char what[64];
		const char *name = e->op_name;

		if (!name && e->wl->op_names)
			name = e->wl->op_names[op];
		if (!name) {
			snprintf(what, sizeof(what), "op %u", op);
			name = what;
		}
		w->failed = true;
		(void)pfs_format(e->failure, sizeof(e->failure), "node %s worker %u: %s failed: %s",
				 w->node_name, w->worker, name, strerror(-rc));
		pfs_error("%s", e->failure);
		if (!w->stopped)
			pfs_stop_send(e);
	}
	if (e->deadline_us && !e->sw_posted)
		stonewall_post(e, w->items);
	return w->failed;
}

/* At the step's end, on every rank: the agreement is complete. */
void pfs_worker_end_step(struct pfs_engine *e)
{
	if (e->sw_posted && e->sw_req != MPI_REQUEST_NULL)
		pfs_engine_wait(e, &e->sw_req);
	e->deadline_us = 0;
}
