/* outdir.h: where plot and report put their files (src/core/outdir.c). The
 * directory they write into may be anyone's (a shared results folder), so
 * it is opened once, never through a symbolic link, and every file is made
 * in a private directory of ours inside it (mode 0700, a random name,
 * verified after it is opened) and then moved into place with renameat
 * relative to the directory's descriptor: a link planted at a picture's
 * name is replaced (--force) or refuses the command, never written
 * through. gnuplot writes into the private directory too. docs/security.md. */
#ifndef PFSBENCH_OUTDIR_H
#define PFSBENCH_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pfs_outdir_placed;

struct pfs_outdir {
	const char *path;             /* as the user gave it, for messages */
	bool implicit;                /* "." not given: messages name files alone */
	char *own_path;               /* path, when made from a file's */
	int parent_fd;                /* the directory that holds it */
	char *base;                   /* its name in parent_fd */
	int fd;                       /* the directory, or -1 while missing */
	dev_t dev;                    /* of fd */
	ino_t ino;
	bool made;                    /* pfs_outdir_make made it */
	int stage_fd;                 /* the private directory in fd, or -1 */
	char stage[40];               /* its name */
	dev_t stage_dev;
	ino_t stage_ino;
	struct pfs_outdir_placed *placed; /* moved into fd, for an undo */
	size_t nplaced;
};

/* Opens the directory path (its last name never through a symbolic link)
 * and the directory that holds it; a path that does not exist yet leaves
 * o->fd at -1 for pfs_outdir_make. Returns 0, or -1 after a message (not a
 * directory, a symbolic link, no such parent): bad input. */
int pfs_outdir_open(struct pfs_outdir *o, const char *path);

/* The same for the directory of the file path (report's page), which
 * must exist; *name is set to the file's name in it, or NULL when path
 * names no file (ends with a slash, ".", ".."): bad input, said. */
int pfs_outdir_open_file(struct pfs_outdir *o, const char *path, const char **name);

/* Makes the directory when it is missing (mkdirat in its parent, then
 * opened and checked to be ours). Returns 0, or -1 after a message. */
int pfs_outdir_make(struct pfs_outdir *o);

/* What the entry name of the directory is, not following a link: 0 when
 * there is none (or no directory yet), else its st_mode. */
mode_t pfs_outdir_lookup(const struct pfs_outdir *o, const char *name);

/* Makes the private directory in the directory. Returns 0, or -1 after a
 * message. */
int pfs_outdir_stage(struct pfs_outdir *o);

/* Creates the file name in the private directory, for writing. Returns its
 * descriptor, or -1 after a message. */
int pfs_outdir_create(struct pfs_outdir *o, const char *name);

/* The whole of the file name in the private directory (what gnuplot wrote
 * there), NUL-terminated in *out (free() it), and the file removed.
 * Returns 0, or -errno. */
int pfs_outdir_take(struct pfs_outdir *o, const char *name, char **out, size_t *len);

/* Moves the regular file from of the private directory to name in the
 * directory. Without force an existing name is refused, atomically
 * (renameat2's RENAME_NOREPLACE); with force a file or a symbolic link of
 * that name is replaced (the link itself, never what it points to), a
 * directory refused. Returns 0, -EEXIST after the "exists" message, or -1
 * after another message. */
int pfs_outdir_place(struct pfs_outdir *o, const char *from, const char *name, bool force);

/* Removes the private directory and what is left in it. When failed, also
 * the files placed (those still at their names) and the directory when
 * pfs_outdir_make made it and it is empty. Closes everything. */
void pfs_outdir_close(struct pfs_outdir *o, bool failed);

#endif
