/* fsprobe.c: the filesystem's own counters around each step: GFS2's sbstats
 * deltas, GlusterFS's incremental profile. See include/pfsbench/target/fsprobe.h. */
#include "pfsbench/target/fsprobe.h"
#include "pfsbench/core/util.h"
#include "pfsbench/target/fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

/* The gluster CLI: a profile of a busy volume arrives in well under a
 * second; a glusterd that does not answer must not hold up a step for
 * more than GLUSTER_STEP_TIMEOUT. The first call, once before the run,
 * may take longer on a loaded client. */
#define GLUSTER_STEP_TIMEOUT "10"
#define GLUSTER_OPEN_TIMEOUT "30"
#define GLUSTER_OUTPUT_MAX (4u << 20)

static int put(struct pfs_fscounter *out, size_t cap, size_t *n, const char *name,
	       uint64_t value)
{
	if (!value)
		return 0;
	if (*n >= cap)
		return -ENOSPC;
	if (pfs_format(out[*n].name, sizeof(out[*n].name), "%s", name))
		return -ENAMETOOLONG;
	out[(*n)++].value = value;
	return 0;
}

/* ---- GlusterFS's profile --------------------------------------------------- */

/* A profile line of a fop: "%-latency avg unit min unit max unit calls FOP". */
static bool fop_line(const char *line, char *fop, size_t foplen, uint64_t *calls)
{
	double pct, avg, min, max;
	char u1[8], u2[8], u3[8], name[32];
	unsigned long long c;

	if (sscanf(line, " %lf %lf %7s %lf %7s %lf %7s %llu %31s", &pct, &avg, u1, &min, u2, &max,
		   u3, &c, name) != 9)
		return false;
	if (pfs_format(fop, foplen, "%s", name))
		return false;
	*calls = c;
	return true;
}

int pfs_gluster_profile_parse(const char *text, struct pfs_fscounter *out, size_t cap, size_t *n)
{
	const char *line = text;
	unsigned brick = 0;
	char name[PFS_FSCOUNTER_NAME_MAX], fop[32];
	int rc = 0;

	*n = 0;
	while (line && *line && !rc) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[512];
		unsigned long long bytes;
		uint64_t calls;

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = 0;
			if (!strncmp(buf, "Brick: ", 7)) {
				brick++;
			} else if (brick && fop_line(buf, fop, sizeof(fop), &calls)) {
				rc = pfs_format(name, sizeof(name), "b%u.%s.calls", brick, fop)
					     ? -ENAMETOOLONG
					     : put(out, cap, n, name, calls);
			} else if (brick && sscanf(buf, " Data Read: %llu bytes", &bytes) == 1) {
				snprintf(name, sizeof(name), "b%u.read_bytes", brick);
				rc = put(out, cap, n, name, bytes);
			} else if (brick && sscanf(buf, " Data Written: %llu bytes", &bytes) == 1) {
				snprintf(name, sizeof(name), "b%u.written_bytes", brick);
				rc = put(out, cap, n, name, bytes);
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!rc && !brick)
		return -EPROTO;
	return rc;
}

/* Runs `gluster volume profile VOL info incremental` and returns its output
 * (free() it), or NULL. The CLI gets no standard input and at most timeout
 * seconds. */
static char *gluster_profile(const char *volume, const char *timeout)
{
	int fds[2];
	pid_t pid;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int status = 0;

	if (pipe(fds))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);

		dup2(fds[1], STDOUT_FILENO);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDERR_FILENO);
		}
		execlp("timeout", "timeout", timeout, "gluster", "--mode=script", "volume",
		       "profile", volume, "info", "incremental", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t r;

		if (len + 4096 + 1 > cap) {
			char *nb = cap >= GLUSTER_OUTPUT_MAX ? NULL : realloc(buf, cap = cap * 2 + 8192);

			if (!nb)
				break;
			buf = nb;
		}
		r = read(fds[0], buf + len, 4096);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf || !WIFEXITED(status) || WEXITSTATUS(status)) {
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

/* ---- the probe ------------------------------------------------------------- */

static void open_gfs2(struct pfs_fsprobe *p, const struct pfs_fsinfo *fs)
{
	struct pfs_fsstats st;
	int rc;

	if (pfs_format(p->where, sizeof(p->where), "%s/%s", PFS_GFS2_DEBUGFS, fs->locktable)) {
		snprintf(p->desc, sizeof(p->desc), "none: GFS2 lock table name too long");
		return;
	}
	rc = pfs_fsstats_snapshot(p->where, &st);
	if (rc || !(st.have & PFS_FSSTATS_SBSTATS)) {
		(void)pfs_format(p->desc, sizeof(p->desc), "none: cannot read '%.120s/sbstats': %s "
				 "(debugfs mounted, as root?)", p->where, strerror(rc ? -rc : ENOENT));
		return;
	}
	p->kind = PFS_FSPROBE_GFS2;
	(void)pfs_format(p->desc, sizeof(p->desc), "gfs2 sbstats of %s", fs->locktable);
}

static void open_gluster(struct pfs_fsprobe *p, const struct pfs_fsinfo *fs)
{
	const char *vol = strstr(fs->mount_source, ":/");
	struct pfs_fscounter c[PFS_FSPROBE_MAX];
	size_t n;
	char *text;

	if (!vol || !vol[2]) {
		(void)pfs_format(p->desc, sizeof(p->desc), "none: no volume in mount source '%.120s'",
				 fs->mount_source);
		return;
	}
	snprintf(p->where, sizeof(p->where), "%s", vol + 2);
	text = gluster_profile(p->where, GLUSTER_OPEN_TIMEOUT);
	if (!text || pfs_gluster_profile_parse(text, c, PFS_FSPROBE_MAX, &n) == -EPROTO) {
		(void)pfs_format(p->desc, sizeof(p->desc),
				 "none: no profile of volume %.60s (gluster volume profile %.60s start; "
				 "the gluster CLI must reach glusterd)", p->where, p->where);
		free(text);
		return;
	}
	free(text);
	p->kind = PFS_FSPROBE_GLUSTER;
	(void)pfs_format(p->desc, sizeof(p->desc), "gluster profile of volume %.200s", p->where);
}

void pfs_fsprobe_open(struct pfs_fsprobe *p, const struct pfs_fsinfo *fs, bool first_node)
{
	memset(p, 0, sizeof(*p));
	p->kind = PFS_FSPROBE_NONE;
	if (!strcmp(fs->fstype, "GFS2") && fs->locktable[0])
		open_gfs2(p, fs);
	else if (!strcmp(fs->fstype, "FUSE.GLUSTERFS") && !first_node)
		(void)pfs_format(p->desc, sizeof(p->desc), "the volume's profile, read on node 0 only");
	else if (!strcmp(fs->fstype, "FUSE.GLUSTERFS"))
		open_gluster(p, fs);
	else
		snprintf(p->desc, sizeof(p->desc), "none: %s keeps no counters pfsbench reads",
			 fs->fstype[0] ? fs->fstype : "this filesystem");
}

static int fs_begin(struct pfs_fsprobe *p)
{
	char *text;

	switch (p->kind) {
	case PFS_FSPROBE_GFS2:
		return pfs_fsstats_snapshot(p->where, &p->before);
	case PFS_FSPROBE_GLUSTER:
		/* The incremental profile starts counting again from here. */
		text = gluster_profile(p->where, GLUSTER_STEP_TIMEOUT);
		free(text);
		return text ? 0 : -EIO;
	case PFS_FSPROBE_NONE:
		break;
	}
	return 0;
}

static int fs_end(struct pfs_fsprobe *p, struct pfs_fscounter *out, size_t cap, size_t *n)
{
	struct pfs_fsstats after, delta;
	char name[PFS_FSCOUNTER_NAME_MAX], *text;
	int rc = 0;

	*n = 0;
	switch (p->kind) {
	case PFS_FSPROBE_GFS2:
		rc = pfs_fsstats_snapshot(p->where, &after);
		if (!rc)
			rc = pfs_fsstats_delta(&p->before, &after, &delta);
		for (unsigned t = 0; !rc && t < PFS_GLOCK_TYPES; t++) {
			snprintf(name, sizeof(name), "%s.dlm_requests", pfs_glock_type_name(t));
			rc = put(out, cap, n, name, (uint64_t)delta.sb[t].dlm_requests);
			snprintf(name, sizeof(name), "%s.queued", pfs_glock_type_name(t));
			if (!rc)
				rc = put(out, cap, n, name, (uint64_t)delta.sb[t].queued);
		}
		return rc;
	case PFS_FSPROBE_GLUSTER:
		text = gluster_profile(p->where, GLUSTER_STEP_TIMEOUT);
		if (!text)
			return -EIO;
		rc = pfs_gluster_profile_parse(text, out, cap, n);
		free(text);
		return rc;
	case PFS_FSPROBE_NONE:
		break;
	}
	return 0;
}

/* ---- the block device ------------------------------------------------------ */

#define SYSFS_DEV_BLOCK "/sys/dev/block"

static int read_drbd(unsigned minor, struct pfs_drbd *d)
{
	char *text;
	int rc = pfs_read_text(PFS_DRBD_PROC, &text);

	if (rc)
		return rc;
	rc = pfs_drbd_parse(text, minor, d);
	free(text);
	return rc;
}

static void open_drbd(struct pfs_fsprobe *p, const char *name, dev_t dev)
{
	char state[128];
	int rc = read_drbd(minor(dev), &p->drbd_before);

	if (!rc && pfs_drbd_state_text(&p->drbd_before, state, sizeof(state)))
		rc = -ENAMETOOLONG;
	if (rc == -ENOENT && !access(PFS_DRBD_PROC, R_OK)) {
		(void)pfs_format(p->blk_desc, sizeof(p->blk_desc), "%s (%u:%u); drbd: minor %u is not "
				 "in %s (DRBD 9 has its counters in drbdsetup events2, which pfsbench "
				 "does not read)", name, major(dev), minor(dev), minor(dev), PFS_DRBD_PROC);
		return;
	}
	if (rc) {
		(void)pfs_format(p->blk_desc, sizeof(p->blk_desc), "%s (%u:%u); drbd: cannot read "
				 "minor %u of %s: %s", name, major(dev), minor(dev), minor(dev),
				 PFS_DRBD_PROC, strerror(-rc));
		return;
	}
	p->drbd = p->drbd_before.configured;
	p->drbd_minor = minor(dev);
	(void)pfs_format(p->blk_desc, sizeof(p->blk_desc), "%s (%u:%u); drbd 8.4 %s", name,
			 major(dev), minor(dev), state);
}

/* A device-mapper device's own name ("vg00-mirror": LVM's VG-LV), from
 * its dm/name, into buf; "" for any other device. */
static void dm_name(dev_t dev, char *buf, size_t len)
{
	char path[96], *text = NULL;

	buf[0] = 0;
	if (pfs_format(path, sizeof(path), "%s/%u:%u/dm/name", SYSFS_DEV_BLOCK, major(dev),
		       minor(dev)) ||
	    pfs_read_text(path, &text))
		return;
	text[strcspn(text, "\n")] = 0;
	(void)pfs_format(buf, len, "%s", text);
	free(text);
}

void pfs_fsprobe_open_blk(struct pfs_fsprobe *p, const char *path)
{
	char name[64], dm[128];
	dev_t dev = 0;
	int rc = pfs_blkdev_find(path, SYSFS_DEV_BLOCK, &dev, name, sizeof(name), p->blk_stat,
				 sizeof(p->blk_stat));

	p->blk = p->drbd = false;
	if (!rc)
		rc = pfs_blkstats_read(p->blk_stat, &p->blk_before);
	if (rc == -ENODEV) {
		(void)pfs_format(p->blk_desc, sizeof(p->blk_desc), "none: device %u:%u is no block "
				 "device %s knows", major(dev), minor(dev), SYSFS_DEV_BLOCK);
		return;
	}
	if (rc) {
		(void)pfs_format(p->blk_desc, sizeof(p->blk_desc), "none: cannot read the block "
				 "device's counters of '%.120s': %s", path, strerror(-rc));
		return;
	}
	p->blk = true;
	dm_name(dev, dm, sizeof(dm));
	if (major(dev) == PFS_DRBD_MAJOR)
		open_drbd(p, name, dev);
	else
		(void)pfs_format(p->blk_desc, sizeof(p->blk_desc), "%s (%u:%u)%s%.100s", name,
				 major(dev), minor(dev), dm[0] ? " dm " : "", dm);
}

bool pfs_fscounter_is_gauge(const char *name)
{
	for (unsigned i = 0; i < PFS_BLK_FIELDS; i++)
		if (!strncmp(name, "blk.", 4) && !strcmp(name + 4, pfs_blkstat_name(i)))
			return pfs_blkstat_is_gauge(i);
	for (unsigned i = 0; i < PFS_DRBD_FIELDS; i++)
		if (!strncmp(name, "drbd.", 5) && !strcmp(name + 5, pfs_drbd_name(i)))
			return pfs_drbd_is_gauge(i);
	return false;
}

static int blk_begin(struct pfs_fsprobe *p)
{
	int rc = p->blk ? pfs_blkstats_read(p->blk_stat, &p->blk_before) : 0;

	if (!rc && p->drbd)
		rc = read_drbd(p->drbd_minor, &p->drbd_before);
	return rc;
}

/* prefix + name, value: put. */
static int put_named(struct pfs_fscounter *out, size_t cap, size_t *n, const char *prefix,
		     const char *name, uint64_t value)
{
	char full[PFS_FSCOUNTER_NAME_MAX];

	if (pfs_format(full, sizeof(full), "%s%s", prefix, name))
		return -ENAMETOOLONG;
	return put(out, cap, n, full, value);
}

static int blk_end(struct pfs_fsprobe *p, struct pfs_fscounter *out, size_t cap, size_t *n)
{
	struct pfs_blkstats after = { 0 };
	struct pfs_drbd d;
	uint64_t v;
	int rc = p->blk ? pfs_blkstats_read(p->blk_stat, &after) : 0;

	if (!rc && p->blk && after.nfields != p->blk_before.nfields)
		rc = -ESTALE;
	for (unsigned i = 0; p->blk && !rc && i < after.nfields; i++)
		if (!(rc = pfs_counter_delta(p->blk_before.v[i], after.v[i], pfs_blkstat_is_gauge(i),
					     &v)))
			rc = put_named(out, cap, n, "blk.", pfs_blkstat_name(i), v);
	if (!rc && p->drbd)
		rc = read_drbd(p->drbd_minor, &d);
	for (unsigned i = 0; p->drbd && !rc && i < PFS_DRBD_FIELDS; i++)
		if (!(rc = pfs_counter_delta(p->drbd_before.v[i], d.v[i], pfs_drbd_is_gauge(i), &v)))
			rc = put_named(out, cap, n, "drbd.", pfs_drbd_name(i), v);
	return rc;
}

int pfs_fsprobe_begin(struct pfs_fsprobe *p)
{
	int rc = blk_begin(p);

	return rc ? rc : fs_begin(p);
}

int pfs_fsprobe_end(struct pfs_fsprobe *p, struct pfs_fscounter *out, size_t cap, size_t *n)
{
	int rc = fs_end(p, out, cap, n);

	return rc ? rc : blk_end(p, out, cap, n);
}

