/* pfsfault.c: a test-only fault injector, loaded with LD_PRELOAD into
 * pfsbench's ranks (or any program): it delays or fails chosen system
 * calls on chosen MPI ranks or nodes, so tests can make a node slow or a
 * disk full. Never linked into pfsbench. It owns the rule grammar, the
 * interposed glibc wrappers and syscall(2), and nothing else: every call
 * no rule selects goes straight to glibc with errno untouched.
 *
 * PFSBENCH_FAULT holds the rules, separated by ';' or newlines:
 *
 *   rule     = action SYSCALL { selector }
 *   action   = "delay" SYSCALL DURATION | "fail" SYSCALL ERRNO
 *   DURATION = an integer and a unit, ns us ms or s: 20ms, 1s
 *   ERRNO    = an errno name (ENOSPC, EIO, EDQUOT, ...) or number
 *   selector = rank=N      only in the process whose rank is N (OMPI_COMM_WORLD_RANK
 *                          under Open MPI, PMI_RANK under MPICH's Hydra)
 *            | node=NAME   only where PFSBENCH_NODENAME (else the host name) is NAME
 *            | after=N     let the first N matching calls through
 *            | count=N     act on at most N calls (after those let through)
 *            | path=TEXT   only calls on a path that contains TEXT
 *
 *   e.g. PFSBENCH_FAULT='delay openat 20ms node=node2; fail write ENOSPC rank=1 after=100'
 *
 * Tokens are separated by blanks, so TEXT holds no blank and no ';'.
 * SYSCALL is a name from `calls` below: the program's calls of that glibc
 * function and its variants, and syscall(2) with the numbers listed there
 * (pfsbench makes its hot calls through syscall(2), include/pfsbench/core/sys.h).
 * A call matches a rule when its name, rank, node and path match; each rule
 * counts its own matching calls, and acts on calls after+1 to after+count.
 * Delays come first (all that apply, one after the other), then the first
 * failing rule in order fails the call without making it: -1 and errno,
 * for glibc's wrappers and syscall(2) alike. A delay is a real sleep
 * (nanosleep, resumed after signals), so a delayed node really is slow.
 *
 * path=: a path call matches on its absolute path (a relative name joined
 * to its directory descriptor's /proc/thread-self/fd link, or to the
 * current directory); a call on a descriptor matches on the descriptor's
 * link (the calling thread's: a thread may have a descriptor table of its
 * own, as pfsbench bonnie's I/O tests do);
 * rename on either name. Rules without path= also select MPI's own calls
 * of the same name in the chosen processes.
 *
 * What it cannot see: calls glibc makes inside its own functions (fopen,
 * opendir, readdir, ...) and calls made with the syscall instruction
 * directly. A rule it cannot read stops the process at start with exit
 * status 2 and a message, so a typo never passes for a run without
 * faults. PFSBENCH_FAULT_LOG=1 prints one line on stderr for every call a
 * rule counts (its number, path and what was done), to choose after=. */
#undef _FORTIFY_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* ---- the calls ------------------------------------------------------------ */

enum call {
	C_OPENAT,
	C_OPEN,
	C_CLOSE,
	C_READ,
	C_WRITE,
	C_PREAD,
	C_PWRITE,
	C_FSYNC,
	C_FDATASYNC,
	C_UNLINKAT,
	C_UNLINK,
	C_MKDIRAT,
	C_MKDIR,
	C_RENAME,
	C_STAT,
	C_GETDENTS64,
	C_GETRUSAGE,
};

/* SYSCALL names: glibc functions interposed; syscall(2) numbers. */
static const struct {
	const char *name;
	enum call call;
} calls[] = {
	{ "openat", C_OPENAT },	    /* openat openat64 __openat_2 __openat64_2; SYS_openat */
	{ "open", C_OPEN },	    /* open open64 __open_2 __open64_2 creat creat64; SYS_open SYS_creat */
	{ "close", C_CLOSE },	    /* close; SYS_close */
	{ "read", C_READ },	    /* read __read_chk; SYS_read */
	{ "write", C_WRITE },	    /* write; SYS_write */
	{ "pread", C_PREAD },	    /* pread pread64 __pread_chk __pread64_chk; SYS_pread64 */
	{ "pwrite", C_PWRITE },	    /* pwrite pwrite64; SYS_pwrite64 */
	{ "fsync", C_FSYNC },	    /* fsync; SYS_fsync */
	{ "fdatasync", C_FDATASYNC }, /* fdatasync; SYS_fdatasync */
	{ "unlinkat", C_UNLINKAT }, /* unlinkat; SYS_unlinkat */
	{ "unlink", C_UNLINK },	    /* unlink; SYS_unlink */
	{ "mkdirat", C_MKDIRAT },   /* mkdirat; SYS_mkdirat */
	{ "mkdir", C_MKDIR },	    /* mkdir; SYS_mkdir */
	{ "rename", C_RENAME },	    /* rename renameat renameat2; SYS_rename SYS_renameat SYS_renameat2 */
	{ "stat", C_STAT },	    /* stat stat64 lstat lstat64 fstatat fstatat64 statx;
				     * SYS_stat SYS_lstat SYS_newfstatat SYS_statx */
	{ "fstatat", C_STAT },	    /* another name for stat */
	{ "getdents64", C_GETDENTS64 }, /* getdents64; SYS_getdents64 */
	/* no path; pfsbench calls it right after a step's barrier, before
	 * its op's clock starts: a delay there makes a node leave barriers
	 * late while its rows stay as they were */
	{ "getrusage", C_GETRUSAGE }, /* getrusage; SYS_getrusage */
};

/* What a call names, for path=: one or two (directory descriptor, name)
 * pairs; a call on a descriptor is (fd, NULL). */
struct target {
	int n;
	int dirfd[2];
	const char *name[2];
};

#define ON_FD(fd) (&(struct target){ 1, { (fd) }, { NULL } })
#define ON_AT(dirfd, name) (&(struct target){ 1, { (dirfd) }, { (name) } })
#define ON_PATH(name) ON_AT(AT_FDCWD, (name))
#define ON_TWO(d1, n1, d2, n2) (&(struct target){ 2, { (d1), (d2) }, { (n1), (n2) } })
#define ON_NOTHING (&(struct target){ 0, { 0 }, { NULL } })

/* ---- the rules ------------------------------------------------------------ */

#define MAX_RULES 32
#define MAX_TEXT 256

struct rule {
	enum call call;
	int fail_errno; /* 0: a delay */
	uint64_t delay_ns;
	uint64_t after, count;
	char path[MAX_TEXT];
	uint64_t seen; /* matching calls so far; atomic */
};

/* Set once, by the constructor, before any thread but the first exists. */
static struct rule rules[MAX_RULES];
static unsigned n_rules;
static unsigned active; /* bit c: some rule here selects call c */
static int log_calls;
static const char *mark;	/* PFSBENCH_FAULT_MARK: a file made when a delay begins */
static char self[64];	/* "rank R node N", for the log */

static long (*real_syscall)(long, ...);

static void *resolve(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "pfsfault: cannot find %s in the libraries after it\n", name);
		_exit(2);
	}
	return f;
}

/* Calls glibc's fn with the arguments given: looked up on first use,
 * since calls can come before the constructor has run. */
#define FORWARD(fn, ...)                                                        \
	do {                                                                    \
		static __typeof__(fn) *real;                                    \
		__typeof__(fn) *f = __atomic_load_n(&real, __ATOMIC_RELAXED);   \
		if (!f) {                                                       \
			f = (__typeof__(fn) *)resolve(#fn);                     \
			__atomic_store_n(&real, f, __ATOMIC_RELAXED);           \
		}                                                               \
		return f(__VA_ARGS__);                                          \
	} while (0)

/* Where a name points: absolute where the process can know it. */
static const char *where(int dirfd, const char *name, char *buf, size_t len)
{
	char link[48];
	ssize_t n;
	size_t used;

	if (name && name[0] == '/')
		return name;
	if (dirfd == AT_FDCWD) {
		if (!getcwd(buf, len))
			return name;
	} else {
		snprintf(link, sizeof(link), "/proc/thread-self/fd/%d", dirfd);
		n = readlink(link, buf, len - 1);
		if (n < 0)
			return name ? name : "";
		buf[n] = '\0';
	}
	used = strlen(buf);
	if (name && *name)
		snprintf(buf + used, len - used, "/%s", name);
	return buf;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static const char *errno_name(int e)
{
	const char *name = strerrorname_np(e);

	return name ? name : "(an errno without a name)";
}

static void log_call(const struct rule *r, uint64_t seen, const char *path, const char *did)
{
	char line[MAX_TEXT + 2 * PATH_MAX];
	int len = snprintf(line, sizeof(line), "pfsfault: %s: %s #%" PRIu64 " '%s': %s\n", self,
			   calls[r->call].name, seen, path ? path : "", did);

	if (len > (int)sizeof(line))
		len = (int)sizeof(line);
	real_syscall(SYS_write, 2, line, (size_t)len);
}

/* The slow path of fault(): some rule selects this call's name. */
static int fault_slow(enum call c, const struct target *t)
{
	char buf[2][PATH_MAX];
	const char *path[2] = { NULL, NULL };
	int saved = errno, fail = 0;
	char did[64];

	for (unsigned i = 0; i < n_rules; i++) {
		struct rule *r = &rules[i];
		uint64_t seen;
		int hit = !r->path[0];

		if (r->call != c)
			continue;
		for (int k = 0; k < t->n && (r->path[0] || log_calls); k++) {
			if (!path[k])
				path[k] = where(t->dirfd[k], t->name[k], buf[k], sizeof(buf[k]));
			hit |= path[k] && r->path[0] && strstr(path[k], r->path);
		}
		if (!hit)
			continue;
		seen = __atomic_add_fetch(&r->seen, 1, __ATOMIC_RELAXED);
		if (seen <= r->after || seen - r->after > r->count) {
			if (log_calls)
				log_call(r, seen, path[0], "passed");
			continue;
		}
		if (r->fail_errno) {
			if (!fail)
				fail = r->fail_errno;
			snprintf(did, sizeof(did), "%s %s", fail == r->fail_errno ? "failed" : "would fail",
				 errno_name(r->fail_errno));
		} else {
			/* A test waits for this to act while the call is held. */
			if (mark) {
				long fd = real_syscall(SYS_openat, AT_FDCWD, mark,
						       O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

				if (fd >= 0)
					real_syscall(SYS_close, fd);
			}
			sleep_ns(r->delay_ns);
			snprintf(did, sizeof(did), "delayed %" PRIu64 " ns", r->delay_ns);
		}
		if (log_calls)
			log_call(r, seen, path[0], did);
	}
	errno = fail ? fail : saved;
	return fail;
}

/* 0, or the errno to fail the call with (errno is then set). */
static inline int fault(enum call c, const struct target *t)
{
	if (!(active & (1u << c)))
		return 0;
	return fault_slow(c, t);
}

/* ---- reading PFSBENCH_FAULT ------------------------------------------------ */

_Noreturn static void bad_rule(unsigned nth, const char *why, const char *token)
{
	fprintf(stderr, "pfsfault: PFSBENCH_FAULT rule %u: %s '%s'\n", nth, why, token);
	_exit(2);
}

static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	char digits[24];
	size_t n = strspn(s, "0123456789");
	uint64_t v;

	if (!n || n >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, s, n);
	digits[n] = '\0';
	if (parse_u64(digits, &v))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(s + n, units[i].unit) && v <= UINT64_MAX / units[i].ns) {
			*ns = v * units[i].ns;
			return 0;
		}
	return -EINVAL;
}

/* An errno name as strerrorname_np gives it, or a number. */
static int parse_errno(const char *s)
{
	uint64_t v;

	if (!parse_u64(s, &v))
		return v >= 1 && v < 4096 ? (int)v : 0;
	for (int e = 1; e < 4096; e++) {
		const char *name = strerrorname_np(e);

		if (name && !strcmp(name, s))
			return e;
	}
	return 0;
}

/* Reads one rule into r; 1 when it applies to this process, 0 when its
 * rank= or node= is another's. Stops the process on bad input. */
static int parse_rule(char *text, unsigned nth, struct rule *r, const char *rank,
		      const char *node)
{
	char *save = NULL, *action = strtok_r(text, " \t", &save);
	char *name = strtok_r(NULL, " \t", &save), *arg = strtok_r(NULL, " \t", &save), *tok;
	int here = 1;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->count = UINT64_MAX;
	if (!name || !arg)
		bad_rule(nth, "wants an action, a syscall and its argument:", action);
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]) && strcmp(calls[i].name, name); i++)
		;
	if (i == sizeof(calls) / sizeof(calls[0]))
		bad_rule(nth, "unknown syscall", name);
	r->call = calls[i].call;
	if (!strcmp(action, "delay")) {
		if (parse_duration(arg, &r->delay_ns))
			bad_rule(nth, "bad duration (an integer and ns, us, ms or s)", arg);
	} else if (!strcmp(action, "fail")) {
		r->fail_errno = parse_errno(arg);
		if (!r->fail_errno)
			bad_rule(nth, "unknown errno", arg);
	} else {
		bad_rule(nth, "unknown action (delay or fail)", action);
	}
	while ((tok = strtok_r(NULL, " \t", &save))) {
		char *value = strchr(tok, '=');

		if (!value || !value[1])
			bad_rule(nth, "a selector is key=value:", tok);
		*value++ = '\0';
		if (!strcmp(tok, "rank")) {
			uint64_t unused;

			if (parse_u64(value, &unused))
				bad_rule(nth, "bad rank", value);
			here &= rank && !strcmp(rank, value);
		} else if (!strcmp(tok, "node")) {
			here &= !strcmp(node, value);
		} else if (!strcmp(tok, "after") || !strcmp(tok, "count")) {
			if (parse_u64(value, *tok == 'a' ? &r->after : &r->count))
				bad_rule(nth, "bad number", value);
		} else if (!strcmp(tok, "path")) {
			if (strlen(value) >= sizeof(r->path))
				bad_rule(nth, "path text too long", value);
			strcpy(r->path, value);
		} else {
			bad_rule(nth, "unknown selector (rank, node, after, count, path)", tok);
		}
	}
	return here;
}

__attribute__((constructor)) static void pfsfault_init(void)
{
	const char *spec = getenv("PFSBENCH_FAULT"), *rank = getenv("OMPI_COMM_WORLD_RANK");
	/* the launcher tells a rank its number before MPI_Init: Open MPI's
	 * mpirun in OMPI_COMM_WORLD_RANK, MPICH's Hydra in PMI_RANK */
	if (!rank)
		rank = getenv("PMI_RANK");
	const char *node = getenv("PFSBENCH_NODENAME"), *log = getenv("PFSBENCH_FAULT_LOG");
	char host[256], *copy, *save = NULL, *text;
	unsigned nth = 0;

	real_syscall = (long (*)(long, ...))resolve("syscall");
	if (!spec)
		return;
	if (!node || !*node) {
		if (gethostname(host, sizeof(host) - 1))
			host[0] = '\0';
		host[sizeof(host) - 1] = '\0';
		node = host;
	}
	copy = strdup(spec);
	if (!copy)
		bad_rule(0, "out of memory reading", spec);
	for (text = strtok_r(copy, ";\n", &save); text; text = strtok_r(NULL, ";\n", &save)) {
		struct rule r;

		nth++;
		if (!text[strspn(text, " \t")])
			continue;
		if (!parse_rule(text, nth, &r, rank, node))
			continue;
		if (n_rules == MAX_RULES)
			bad_rule(nth, "too many rules; at most 32 apply to one process, from", "");
		rules[n_rules++] = r;
		active |= 1u << r.call;
	}
	free(copy);
	log_calls = log && !strcmp(log, "1");
	mark = getenv("PFSBENCH_FAULT_MARK");
	if (mark && !*mark)
		mark = NULL;
	snprintf(self, sizeof(self), "rank %s node %s", rank ? rank : "-", node);
}

/* ---- syscall(2) ------------------------------------------------------------ */

/* The call and target of a raw system call; 0 when no rule takes it. */
static int classify(long nr, const long *a, enum call *c, struct target *t)
{
	struct target one = { 1, { (int)a[0] }, { NULL } };
	struct target at = { 1, { (int)a[0] }, { (const char *)a[1] } };
	struct target path = { 1, { AT_FDCWD }, { (const char *)a[0] } };

	switch (nr) {
	case SYS_openat: *c = C_OPENAT, *t = at; break;
	case SYS_close: *c = C_CLOSE, *t = one; break;
	case SYS_read: *c = C_READ, *t = one; break;
	case SYS_write: *c = C_WRITE, *t = one; break;
	case SYS_pread64: *c = C_PREAD, *t = one; break;
	case SYS_pwrite64: *c = C_PWRITE, *t = one; break;
	case SYS_fsync: *c = C_FSYNC, *t = one; break;
	case SYS_fdatasync: *c = C_FDATASYNC, *t = one; break;
	case SYS_unlinkat: *c = C_UNLINKAT, *t = at; break;
	case SYS_mkdirat: *c = C_MKDIRAT, *t = at; break;
	case SYS_newfstatat: *c = C_STAT, *t = at; break;
	case SYS_statx: *c = C_STAT, *t = at; break;
	case SYS_getdents64: *c = C_GETDENTS64, *t = one; break;
	case SYS_getrusage: *c = C_GETRUSAGE, *t = *ON_NOTHING; break;
	case SYS_renameat:
	case SYS_renameat2:
		*c = C_RENAME;
		*t = (struct target){ 2, { (int)a[0], (int)a[2] },
				      { (const char *)a[1], (const char *)a[3] } };
		break;
#ifdef SYS_open /* x86-64 has the old path calls; arm64 has not */
	case SYS_open: *c = C_OPEN, *t = path; break;
	case SYS_creat: *c = C_OPEN, *t = path; break;
	case SYS_unlink: *c = C_UNLINK, *t = path; break;
	case SYS_mkdir: *c = C_MKDIR, *t = path; break;
	case SYS_stat: *c = C_STAT, *t = path; break;
	case SYS_lstat: *c = C_STAT, *t = path; break;
	case SYS_rename:
		*c = C_RENAME;
		*t = (struct target){ 2, { AT_FDCWD, AT_FDCWD },
				      { (const char *)a[0], (const char *)a[1] } };
		break;
#endif
	default:
		return 0;
	}
	return (active >> *c) & 1;
}

/* glibc's syscall reads six arguments whatever the call takes, and so
 * does this: the extra ones are whatever the registers held. */
long syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	enum call c;
	struct target t;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (active && classify(nr, a, &c, &t) && fault_slow(c, &t))
		return -1;
	if (!real_syscall)
		real_syscall = (long (*)(long, ...))resolve("syscall");
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ---- glibc's wrappers ------------------------------------------------------ */

/* glibc asks for the mode exactly when it may create a file. */
#define OPEN_MODE(flags)                                                        \
	mode_t mode = 0;                                                        \
	if ((flags) & O_CREAT || ((flags) & O_TMPFILE) == O_TMPFILE) {          \
		va_list ap;                                                     \
		va_start(ap, flags);                                            \
		mode = va_arg(ap, mode_t);                                      \
		va_end(ap);                                                     \
	}

int open(const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	if (fault(C_OPEN, ON_PATH(path)))
		return -1;
	FORWARD(open, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	if (fault(C_OPEN, ON_PATH(path)))
		return -1;
	FORWARD(open64, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	if (fault(C_OPENAT, ON_AT(dirfd, path)))
		return -1;
	FORWARD(openat, dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	if (fault(C_OPENAT, ON_AT(dirfd, path)))
		return -1;
	FORWARD(openat64, dirfd, path, flags, mode);
}

/* What a program built with _FORTIFY_SOURCE calls instead. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t len, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t len, off64_t offset, size_t buflen);

/* One interposed function: name, call, parameters, target, arguments. */
#define WRAP(type, fn, call, params, target, ...)                               \
	type fn params                                                          \
	{                                                                       \
		if (fault(call, target))                                        \
			return -1;                                              \
		FORWARD(fn, __VA_ARGS__);                                       \
	}

WRAP(int, __open_2, C_OPEN, (const char *path, int flags), ON_PATH(path), path, flags)
WRAP(int, __open64_2, C_OPEN, (const char *path, int flags), ON_PATH(path), path, flags)
WRAP(int, __openat_2, C_OPENAT, (int dirfd, const char *path, int flags), ON_AT(dirfd, path),
     dirfd, path, flags)
WRAP(int, __openat64_2, C_OPENAT, (int dirfd, const char *path, int flags), ON_AT(dirfd, path),
     dirfd, path, flags)
WRAP(int, creat, C_OPEN, (const char *path, mode_t mode), ON_PATH(path), path, mode)
WRAP(int, creat64, C_OPEN, (const char *path, mode_t mode), ON_PATH(path), path, mode)
WRAP(int, close, C_CLOSE, (int fd), ON_FD(fd), fd)
WRAP(ssize_t, read, C_READ, (int fd, void *buf, size_t len), ON_FD(fd), fd, buf, len)
WRAP(ssize_t, __read_chk, C_READ, (int fd, void *buf, size_t len, size_t buflen), ON_FD(fd), fd,
     buf, len, buflen)
WRAP(ssize_t, write, C_WRITE, (int fd, const void *buf, size_t len), ON_FD(fd), fd, buf, len)
WRAP(ssize_t, pread, C_PREAD, (int fd, void *buf, size_t len, off_t off), ON_FD(fd), fd, buf, len,
     off)
WRAP(ssize_t, pread64, C_PREAD, (int fd, void *buf, size_t len, off64_t off), ON_FD(fd), fd, buf,
     len, off)
WRAP(ssize_t, __pread_chk, C_PREAD, (int fd, void *buf, size_t len, off_t off, size_t buflen),
     ON_FD(fd), fd, buf, len, off, buflen)
WRAP(ssize_t, __pread64_chk, C_PREAD, (int fd, void *buf, size_t len, off64_t off, size_t buflen),
     ON_FD(fd), fd, buf, len, off, buflen)
WRAP(ssize_t, pwrite, C_PWRITE, (int fd, const void *buf, size_t len, off_t off), ON_FD(fd), fd,
     buf, len, off)
WRAP(ssize_t, pwrite64, C_PWRITE, (int fd, const void *buf, size_t len, off64_t off), ON_FD(fd), fd,
     buf, len, off)
WRAP(int, fsync, C_FSYNC, (int fd), ON_FD(fd), fd)
WRAP(int, fdatasync, C_FDATASYNC, (int fd), ON_FD(fd), fd)
WRAP(int, unlinkat, C_UNLINKAT, (int dirfd, const char *path, int flags), ON_AT(dirfd, path), dirfd,
     path, flags)
WRAP(int, unlink, C_UNLINK, (const char *path), ON_PATH(path), path)
WRAP(int, mkdirat, C_MKDIRAT, (int dirfd, const char *path, mode_t mode), ON_AT(dirfd, path), dirfd,
     path, mode)
WRAP(int, mkdir, C_MKDIR, (const char *path, mode_t mode), ON_PATH(path), path, mode)
WRAP(int, rename, C_RENAME, (const char *from, const char *to),
     ON_TWO(AT_FDCWD, from, AT_FDCWD, to), from, to)
WRAP(int, renameat, C_RENAME, (int fromfd, const char *from, int tofd, const char *to),
     ON_TWO(fromfd, from, tofd, to), fromfd, from, tofd, to)
WRAP(int, renameat2,
     C_RENAME, (int fromfd, const char *from, int tofd, const char *to, unsigned flags),
     ON_TWO(fromfd, from, tofd, to), fromfd, from, tofd, to, flags)
WRAP(int, stat, C_STAT, (const char *path, struct stat *st), ON_PATH(path), path, st)
WRAP(int, stat64, C_STAT, (const char *path, struct stat64 *st), ON_PATH(path), path, st)
WRAP(int, lstat, C_STAT, (const char *path, struct stat *st), ON_PATH(path), path, st)
WRAP(int, lstat64, C_STAT, (const char *path, struct stat64 *st), ON_PATH(path), path, st)
WRAP(int, fstatat, C_STAT, (int dirfd, const char *path, struct stat *st, int flags),
     ON_AT(dirfd, path), dirfd, path, st, flags)
WRAP(int, fstatat64, C_STAT, (int dirfd, const char *path, struct stat64 *st, int flags),
     ON_AT(dirfd, path), dirfd, path, st, flags)
WRAP(int, statx, C_STAT,
     (int dirfd, const char *path, int flags, unsigned mask, struct statx *st), ON_AT(dirfd, path),
     dirfd, path, flags, mask, st)
WRAP(ssize_t, getdents64, C_GETDENTS64, (int fd, void *buf, size_t len), ON_FD(fd), fd, buf, len)
WRAP(int, getrusage, C_GETRUSAGE, (__rusage_who_t who, struct rusage *ru), ON_NOTHING, who, ru)
