/* runmark.c: the run directory's marker file (include/pfsbench/core/runmark.h):
 * its text, writing it, and reading it back where anyone may have put
 * anything under its name. */
#include "pfsbench/core/runmark.h"

#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIRST_LINE "pfsbench-run"

/* The marker's keys, with the field each fills: one table for writing and
 * reading. */
static const struct {
	const char *key;
	size_t off, size;
	bool required;
} fields[] = {
#define F(key, field, req) { key, offsetof(struct pfs_runmark, field), \
			     sizeof(((struct pfs_runmark *)0)->field), req }
	F("run", run, true),
	F("workload", workload, true),
	F("started", started, false),
	F("node0", node0, false),
	F("job", job, false),
	F("version", version, false),
#undef F
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static bool is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

int pfs_runmark_format(const struct pfs_runmark *m, char *buf, size_t len)
{
	size_t at;

	if (pfs_format(buf, len, FIRST_LINE " %u\n", PFS_RUNMARK_FORMAT))
		return -ENAMETOOLONG;
	at = strlen(buf);
	for (size_t i = 0; i < NFIELDS; i++) {
		const char *v = (const char *)m + fields[i].off;
		size_t start;

		if (!v[0])
			continue;
		if (pfs_format(buf + at, len - at, "%s %.*s\n", fields[i].key,
			       (int)strnlen(v, fields[i].size), v))
			return -ENAMETOOLONG;
		start = at + strlen(fields[i].key) + 1;
		at += strlen(buf + at);
		for (size_t k = start; k < at - 1; k++)
			if (is_control(buf[k]))
				buf[k] = '_';
	}
	return 0;
}

int pfs_runmark_parse(const char *buf, size_t len, struct pfs_runmark *m, char *err,
		      size_t errlen)
{
	bool seen[NFIELDS] = { false };
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;

	memset(m, 0, sizeof(*m));
	if (memchr(buf, '\0', len))
		return pfs_refuse(err, errlen, -EINVAL, "it holds a NUL byte");
	if (!len || buf[len - 1] != '\n')
		return pfs_refuse(err, errlen, -EINVAL, "its last line does not end");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;
		size_t n = (size_t)(nl - p), i;

		lineno++;
		for (const char *c = p; c < nl; c++)
			if (is_control(*c))
				return pfs_refuse(err, errlen, -EINVAL,
						  "line %u holds a control character", lineno);
		sp = memchr(p, ' ', n);
		if (!sp || sp == p || sp + 1 == nl)
			return pfs_refuse(err, errlen, -EINVAL, "line %u is not 'key value'", lineno);
		if (lineno == 1) {
			uint64_t v;
			char num[24];

			if ((size_t)(sp - p) != strlen(FIRST_LINE) || memcmp(p, FIRST_LINE, strlen(FIRST_LINE)) ||
			    (size_t)(nl - sp - 1) >= sizeof(num))
				return pfs_refuse(err, errlen, -EINVAL,
						  "it does not start with '" FIRST_LINE " N'");
			memcpy(num, sp + 1, (size_t)(nl - sp - 1));
			num[nl - sp - 1] = '\0';
			if (pfs_parse_u64(num, &v) || v != PFS_RUNMARK_FORMAT)
				return pfs_refuse(err, errlen, -EINVAL,
						  "its format '%s' is not %u, the one this pfsbench reads",
						  num, PFS_RUNMARK_FORMAT);
			m->format = (unsigned)v;
			p = nl + 1;
			continue;
		}
		for (i = 0; i < NFIELDS; i++)
			if ((size_t)(sp - p) == strlen(fields[i].key) &&
			    !memcmp(p, fields[i].key, (size_t)(sp - p)))
				break;
		/* A key of a later pfsbench of the same format: not ours to judge. */
		if (i < NFIELDS) {
			char *v = (char *)m + fields[i].off;

			if (seen[i])
				return pfs_refuse(err, errlen, -EINVAL, "'%s' comes twice",
						  fields[i].key);
			if ((size_t)(nl - sp - 1) >= fields[i].size)
				return pfs_refuse(err, errlen, -EINVAL, "'%s' is too long",
						  fields[i].key);
			memcpy(v, sp + 1, (size_t)(nl - sp - 1));
			v[nl - sp - 1] = '\0';
			seen[i] = true;
		}
		p = nl + 1;
	}
	for (size_t i = 0; i < NFIELDS; i++)
		if (fields[i].required && !seen[i])
			return pfs_refuse(err, errlen, -EINVAL, "it has no '%s'", fields[i].key);
	return 0;
}

int pfs_runmark_create(int dirfd, const struct pfs_runmark *m)
{
	char text[PFS_RUNMARK_MAX];
	size_t len, done = 0;
	int fd, rc;

	if ((rc = pfs_runmark_format(m, text, sizeof(text))))
		return rc;
	len = strlen(text);
	fd = openat(dirfd, PFS_RUNMARK_NAME, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return -errno;
	/* Taken before anything is in the run directory, so that a clean
	 * never sees this run's marker unlocked while it runs. Waiting: a
	 * clean may hold it for a moment, to find it empty and leave. A
	 * filesystem without locks still gets its marker. */
	while ((rc = flock(fd, LOCK_EX)) && errno == EINTR)
		;
	if (rc && errno != ENOLCK && errno != EOPNOTSUPP && errno != ENOSYS)
		goto fail;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			goto fail;
		}
		done += (size_t)n;
	}
	return fd;
fail:
	rc = -errno;
	close(fd);
	unlinkat(dirfd, PFS_RUNMARK_NAME, 0);
	return rc;
}

int pfs_runmark_open(int dirfd, struct pfs_runmark *m, char *err, size_t errlen)
{
	char text[PFS_RUNMARK_MAX + 1];
	struct stat st;
	size_t got = 0;
	int fd, rc;

	/* O_NONBLOCK: a FIFO under the marker's name must not hang us. */
	fd = openat(dirfd, PFS_RUNMARK_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP)
			return pfs_refuse(err, errlen, -EINVAL, "it is a symbolic link");
		return pfs_refuse(err, errlen, rc, "%s", strerror(-rc));
	}
	if (fstat(fd, &st)) {
		rc = pfs_refuse(err, errlen, -errno, "%s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = pfs_refuse(err, errlen, -EINVAL, "it is not a regular file");
		goto fail;
	}
	if (st.st_size > PFS_RUNMARK_MAX) {
		rc = pfs_refuse(err, errlen, -EINVAL, "it is larger than %d bytes", PFS_RUNMARK_MAX);
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK) {
			rc = pfs_refuse(err, errlen, -EBUSY, "a pfsbench run still holds it");
			goto fail;
		}
		if (errno != ENOLCK && errno != EOPNOTSUPP && errno != ENOSYS) {
			rc = pfs_refuse(err, errlen, -errno, "cannot lock it: %s", strerror(errno));
			goto fail;
		}
	}
	/* The size stat gave may change under us: read one byte more than a
	 * marker may hold, and no further. */
	while (got < sizeof(text)) {
		ssize_t n = read(fd, text + got, sizeof(text) - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = pfs_refuse(err, errlen, -errno, "cannot read it: %s", strerror(errno));
			goto fail;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	if (got > PFS_RUNMARK_MAX) {
		rc = pfs_refuse(err, errlen, -EINVAL, "it is larger than %d bytes", PFS_RUNMARK_MAX);
		goto fail;
	}
	if ((rc = pfs_runmark_parse(text, got, m, err, errlen)))
		goto fail;
	return fd;
fail:
	close(fd);
	return rc;
}

bool pfs_runmark_worker_name(const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t digits;

	if (!dot || dot == name || !dot[1])
		return false;
	digits = strspn(dot + 1, "0123456789");
	/* "%u": no sign, no leading zero, at most 10 digits */
	if (dot[1 + digits] || digits > 10 || (dot[1] == '0' && digits > 1))
		return false;
	for (const char *c = name; c < dot; c++)
		if (*c == '/' || is_control(*c))
			return false;
	return true;
}
