/* outdir.c: the directory plot and report write into, which others may be
 * able to write too; see include/pfsbench/core/outdir.h and docs/security.md.
 * The directory is opened once; everything after goes by its descriptor
 * and by the descriptor of a private directory made inside it, where the
 * files (gnuplot's too) are written before renameat moves them into
 * place: a name in the directory is never opened, so a symbolic link or a
 * hard link planted there is never written through. */
#include "pfsbench/core/outdir.h"
#include "pfsbench/core/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)

/* A file moved into the directory: what to undo after a failure. */
struct pfs_outdir_placed {
	char name[NAME_MAX + 1];
	dev_t dev;
	ino_t ino;
};

/* "DIR/name" as messages show it, or the name alone for a page given
 * without a directory. */
static const char *shown(const struct pfs_outdir *o, const char *name, char *buf, size_t len)
{
	if (o->implicit)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s%s%s", o->path,
			 o->path[strlen(o->path) - 1] == '/' ? "" : "/", name);
	return buf;
}

static void init(struct pfs_outdir *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->path = path;
	o->parent_fd = o->fd = o->stage_fd = -1;
}

/* Opens parent, and base in it when it exists. */
static int open_in(struct pfs_outdir *o, const char *parent, const char *base)
{
	struct stat st;

	if (!(o->base = strdup(base)))
		return pfs_error("out of memory");
	/* The directory's parent is the user's word, symbolic links and all;
	 * the directory itself is opened only as what its name is. */
	o->parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC);
	if (o->parent_fd < 0)
		return pfs_error("cannot open '%s': %s", parent,
				 errno == ENOTDIR ? "not a directory" : strerror(errno));
	o->fd = openat(o->parent_fd, o->base, DIR_FLAGS);
	if (o->fd < 0) {
		if (errno == ENOENT)
			return 0;
		if ((errno == ELOOP || errno == ENOTDIR) &&
		    !fstatat(o->parent_fd, o->base, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			return pfs_error("'%s' is a symbolic link: give the directory it points to",
					 o->path);
		return pfs_error("'%s' is not a directory%s%s", o->path, errno == ENOTDIR ? "" : ": ",
				 errno == ENOTDIR ? "" : strerror(errno));
	}
	if (fstat(o->fd, &st))
		return pfs_error("cannot open '%s': %s", o->path, strerror(errno));
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return 0;
}

/* Splits path (trailing slashes dropped) at its last slash and opens. */
static int split_open(struct pfs_outdir *o, const char *path)
{
	char *copy = strdup(path), *slash, *base;
	size_t n;
	int rc;

	if (!copy)
		return pfs_error("out of memory");
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	slash = strrchr(copy, '/');
	if (!slash) {
		rc = open_in(o, ".", copy);
	} else {
		base = slash[1] ? slash + 1 : ".";
		if (slash == copy)
			rc = open_in(o, "/", base);
		else
			*slash = '\0', rc = open_in(o, copy, base);
	}
	free(copy);
	return rc;
}

int pfs_outdir_open(struct pfs_outdir *o, const char *path)
{
	init(o, path);
	return split_open(o, path);
}

int pfs_outdir_open_file(struct pfs_outdir *o, const char *path, const char **name)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	init(o, path);
	*name = NULL;
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return pfs_error("'%s' names a directory: give a file", path);
	if (!slash) {
		o->implicit = true;
		o->path = ".";
	} else {
		/* "/x" is in "/": keep that slash. */
		if (!(o->own_path = strndup(path, (size_t)(slash - path) + (slash == path))))
			return pfs_error("out of memory");
		o->path = o->own_path;
	}
	if (split_open(o, o->path))
		return -1;
	if (o->fd < 0)
		return pfs_error("cannot create '%s': %s", path, strerror(ENOENT));
	*name = base;
	return 0;
}

int pfs_outdir_make(struct pfs_outdir *o)
{
	struct stat st;

	if (o->fd >= 0)
		return 0;
	if (mkdirat(o->parent_fd, o->base, 0777))
		return pfs_error("cannot create '%s': %s", o->path, strerror(errno));
	o->made = true;
	o->fd = openat(o->parent_fd, o->base, DIR_FLAGS);
	/* Made by us, so ours: one that is not was put in its place. */
	if (o->fd < 0 || fstat(o->fd, &st) || st.st_uid != geteuid()) {
		o->made = false;
		return pfs_error("'%s' was replaced while it was being made", o->path);
	}
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return 0;
}

mode_t pfs_outdir_lookup(const struct pfs_outdir *o, const char *name)
{
	struct stat st;

	if (o->fd < 0 || fstatat(o->fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	return st.st_mode;
}

static uint64_t random_u64(void)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	/* Without entropy yet: unique enough, mkdirat's EEXIST does the rest. */
	return (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid() << 32 ^ (uint64_t)clock();
}

int pfs_outdir_stage(struct pfs_outdir *o)
{
	struct stat st, up;
	int tries;

	for (tries = 0; tries < 100; tries++) {
		snprintf(o->stage, sizeof(o->stage), ".pfsbench-out.%016" PRIx64, random_u64());
		if (!mkdirat(o->fd, o->stage, 0700))
			break;
		if (errno != EEXIST)
			return pfs_error("cannot create a directory in '%s': %s", o->path,
					 strerror(errno));
	}
	if (tries == 100)
		return pfs_error("cannot create a directory in '%s': %s", o->path, strerror(EEXIST));
	o->stage_fd = openat(o->fd, o->stage, DIR_FLAGS);
	/* Ours (root's, 0700: no one else can have made it or write in it)
	 * and in the directory: else it was swapped before it was opened. */
	if (o->stage_fd < 0 || fstat(o->stage_fd, &st) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) || fstatat(o->stage_fd, "..", &up, 0) || up.st_dev != o->dev ||
	    up.st_ino != o->ino) {
		if (o->stage_fd >= 0)
			close(o->stage_fd);
		o->stage_fd = -1;
		return pfs_error("the directory pfsbench made in '%s' was replaced while it was "
				 "being made",
				 o->path);
	}
	o->stage_dev = st.st_dev;
	o->stage_ino = st.st_ino;
	return 0;
}

int pfs_outdir_create(struct pfs_outdir *o, const char *name)
{
	int fd = openat(o->stage_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0666);
	char buf[PATH_MAX];

	if (fd < 0)
		return pfs_error("cannot create '%s': %s", shown(o, name, buf, sizeof(buf)),
				 strerror(errno));
	return fd;
}

int pfs_outdir_take(struct pfs_outdir *o, const char *name, char **out, size_t *len)
{
	int fd = openat(o->stage_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), rc = 0;
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	*out = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		rc = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_size < 0 || (uint64_t)st.st_size >= SIZE_MAX)
		rc = -EINVAL;
	else if (!(buf = malloc((size_t)st.st_size + 1)))
		rc = -ENOMEM;
	while (!rc && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = n < 0 ? -errno : -EIO;
		else
			got += (size_t)n;
	}
	close(fd);
	unlinkat(o->stage_fd, name, 0);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[got] = '\0';
	*out = buf;
	if (len)
		*len = got;
	return 0;
}

int pfs_outdir_place(struct pfs_outdir *o, const char *from, const char *name, bool force)
{
	struct pfs_outdir_placed *p;
	char buf[PATH_MAX];
	struct stat st;
	int rc;

	if (strchr(name, '/') || strlen(name) > NAME_MAX)
		return pfs_error("'%s': not a file name", name);
	if (fstatat(o->stage_fd, from, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
		return pfs_error("'%s' was not written", shown(o, name, buf, sizeof(buf)));
	p = realloc(o->placed, (o->nplaced + 1) * sizeof(*p));
	if (!p)
		return pfs_error("out of memory");
	o->placed = p;
	if (!force) {
		rc = renameat2(o->stage_fd, from, o->fd, name, RENAME_NOREPLACE);
		if (rc && errno == EINVAL) {
			/* A filesystem without RENAME_NOREPLACE: linkat is as exclusive. */
			rc = linkat(o->stage_fd, from, o->fd, name, 0);
			if (!rc)
				unlinkat(o->stage_fd, from, 0);
		}
	} else if (S_ISDIR(pfs_outdir_lookup(o, name))) {
		rc = -1, errno = EISDIR;
	} else {
		/* Replaces the entry: a link there is replaced, never followed. */
		rc = renameat(o->stage_fd, from, o->fd, name);
	}
	if (rc && errno == EEXIST) {
		pfs_error("'%s' exists: remove it, choose another -o, or overwrite with --force",
			  shown(o, name, buf, sizeof(buf)));
		return -EEXIST;
	}
	if (rc && (errno == EISDIR || errno == ENOTEMPTY))
		return pfs_error("'%s' is a directory: pfsbench replaces only files",
				 shown(o, name, buf, sizeof(buf)));
	if (rc)
		return pfs_error("cannot write '%s': %s", shown(o, name, buf, sizeof(buf)),
				 strerror(errno));
	p = &o->placed[o->nplaced++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	return 0;
}

/* Removes the entry name of dirfd when it is still the inode dev/ino:
 * never a file someone else put at that name. */
static void remove_ours(int dirfd, const char *name, dev_t dev, ino_t ino, int flags)
{
	struct stat st;

	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && st.st_dev == dev && st.st_ino == ino)
		unlinkat(dirfd, name, flags);
}

/* Empties the private directory: everything in it is ours, as no one else
 * can write in it. */
static void empty_stage(struct pfs_outdir *o)
{
	int fd = openat(o->stage_fd, ".", DIR_FLAGS);
	struct dirent *ent;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((ent = readdir(d)))
		if (strcmp(ent->d_name, ".") && strcmp(ent->d_name, ".."))
			unlinkat(o->stage_fd, ent->d_name, 0);
	closedir(d);
}

void pfs_outdir_close(struct pfs_outdir *o, bool failed)
{
	if (o->stage_fd >= 0) {
		empty_stage(o);
		remove_ours(o->fd, o->stage, o->stage_dev, o->stage_ino, AT_REMOVEDIR);
		close(o->stage_fd);
	}
	for (size_t i = 0; failed && i < o->nplaced; i++)
		remove_ours(o->fd, o->placed[i].name, o->placed[i].dev, o->placed[i].ino, 0);
	if (o->fd >= 0)
		close(o->fd);
	if (failed && o->made)
		remove_ours(o->parent_fd, o->base, o->dev, o->ino, AT_REMOVEDIR);
	if (o->parent_fd >= 0)
		close(o->parent_fd);
	free(o->placed);
	free(o->base);
	free(o->own_path);
	init(o, NULL);
}
