/* bonniefmt.h: bonnie++'s result formats. This module owns one bonnie++
 * result as one CSV line carries it (struct pfs_bonnie_result), reading
 * that line (CSV formats 1.96, 1.97 and 1.98, the last written by bonnie++
 * 1.98, 2.00 and 2.00a) and writing the CSV line and the text tables of
 * each version exactly as bonnie++ does, down to its defects. Pure: no MPI,
 * no HDF5, no global state. The rules, and where each comes from in
 * bonnie++'s sources, are in docs/bonnie-format.md. */
#ifndef PFSBENCH_BONNIEFMT_H
#define PFSBENCH_BONNIEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The CSV format, which also picks the text layout: 1.96 and 1.97 print
 * "Concurrency" and K/sec tables, 1.98 prints "Name:Size etc" and /sec
 * figures in k, m and g. */
enum pfs_bonnie_format {
	PFS_BONNIE_FORMAT_1_96 = 1, /* bonnie++ 1.96 */
	PFS_BONNIE_FORMAT_1_97,     /* bonnie++ 1.97.x: 1.96 with -s 0 lines fixed */
	PFS_BONNIE_FORMAT_1_98,     /* bonnie++ 1.98, 2.00, 2.00a: seek count and seekers added */
};

/* bonnie++'s tests, in its order (tests_t in its bonnie.h). */
enum pfs_bonnie_test {
	PFS_BONNIE_PUTC = 0,   /* per-char write, KiB/s */
	PFS_BONNIE_PUT_BLOCK,  /* block write, KiB/s */
	PFS_BONNIE_REWRITE,    /* rewrite, KiB/s */
	PFS_BONNIE_GETC,       /* per-char read, KiB/s */
	PFS_BONNIE_GET_BLOCK,  /* block read, KiB/s */
	PFS_BONNIE_SEEKS,      /* random seeks, seeks/s */
	PFS_BONNIE_SEQ_CREATE, /* files/s, as all below */
	PFS_BONNIE_SEQ_STAT,   /* the "Read" column */
	PFS_BONNIE_SEQ_DEL,
	PFS_BONNIE_RAN_CREATE,
	PFS_BONNIE_RAN_STAT,
	PFS_BONNIE_RAN_DEL,
	PFS_BONNIE_TESTS
};

/* The names bonnie++'s CSV header gives the tests, by enum pfs_bonnie_test
 * ("putc", "put_block", ..., "ran_del"), NULL-terminated. */
extern const char *const pfs_bonnie_test_names[PFS_BONNIE_TESTS + 1];
/* The test called name, or -EINVAL. */
int pfs_bonnie_test_find(const char *name);

/* What a test's rate and %CPU columns show. */
enum pfs_bonnie_state {
	PFS_BONNIE_NOT_RUN = 0, /* blank: the test did not run */
	PFS_BONNIE_TOO_FAST,    /* "+++++ +++": it took less than 0.5 s */
	PFS_BONNIE_MEASURED,    /* rate and %CPU */
};

/* Largest rate a figure may hold: 1e15 KiB/s is past any machine, and
 * every rate up to it converts to a 64-bit integer exactly. */
#define PFS_BONNIE_RATE_MAX 1e15

struct pfs_bonnie_figure {
	enum pfs_bonnie_state state;
	double rate;         /* MEASURED: per second, in the test's unit above */
	uint32_t cpu_pct;    /* MEASURED: CPU time / elapsed x 100, cut to an integer */
	uint64_t latency_ns; /* worst latency; 0 prints a blank, as in bonnie++ */
};

#define PFS_BONNIE_VERSION_MAX 16
#define PFS_BONNIE_NAME_MAX 256
#define PFS_BONNIE_SEED_MAX 256
#define PFS_BONNIE_CHUNK_DEFAULT 8192u     /* io_chunk_bytes, file_chunk_bytes */
#define PFS_BONNIE_SEEKS_DEFAULT 8192u
#define PFS_BONNIE_SEEK_PROCS_DEFAULT 5u
#define PFS_BONNIE_NUM_FILES_MAX 2097151u  /* bonnie++ counts files x 1024 in an int */
#define PFS_BONNIE_LINKS (-1)              /* max_bytes of -n NUM:-1: hard links */
#define PFS_BONNIE_SYMLINKS (-2)           /* max_bytes of -n NUM:-2: symbolic links */

/* One bonnie++ result: what one CSV line carries. Strings hold no comma
 * and no control character. */
struct pfs_bonnie_result {
	enum pfs_bonnie_format format;
	char version[PFS_BONNIE_VERSION_MAX]; /* bonnie_version: "1.96", "2.00a" */
	char name[PFS_BONNIE_NAME_MAX];       /* machine name (-m, else the host name) */
	uint32_t concurrency;                 /* -c, at least 1 */
	char seed[PFS_BONNIE_SEED_MAX];       /* random seed (-z), or the -Z file's name */
	uint64_t file_size_mib;               /* -s; 0: no I/O tests */
	uint32_t io_chunk_bytes;              /* -s SIZE:CHUNK */
	uint32_t seeks;                       /* -s SIZE:CHUNK:SEEKS (1.98 on) */
	uint32_t seek_procs;                  /* -s SIZE:CHUNK:SEEKS:PROCS (1.98 on) */
	uint32_t num_files_x1024;             /* -n NUM, files / 1024; 0: no file tests */
	int32_t max_bytes;                    /* -n NUM:MAX, or PFS_BONNIE_LINKS/SYMLINKS */
	int32_t min_bytes;                    /* -n NUM:MAX:MIN */
	uint32_t num_dirs;                    /* -n NUM:MAX:MIN:DIRS; 0 and 1 mean one */
	uint32_t file_chunk_bytes;            /* -n ...:CHUNK; no format carries it */
	struct pfs_bonnie_figure test[PFS_BONNIE_TESTS];
};

/* An empty result with bonnie++'s defaults, format 1.96. */
void pfs_bonnie_init(struct pfs_bonnie_result *r);

/* Sets the format and the version string of bonnie++ version `version`:
 * "1.96", "1.97", "1.98", "2.00" or "2.00a". 0, or -EINVAL for another. */
int pfs_bonnie_set_version(struct pfs_bonnie_result *r, const char *version);

/* One test's figure by bonnie++'s rule: not run when elapsed_us is 0,
 * too fast under 0.5 s, else rate = work / elapsed and %CPU = cpu_us /
 * elapsed_us x 100 cut to an integer. work is in the test's unit (KiB,
 * seeks, files). Leaves the latency alone. 0, or -EINVAL when the rate
 * is out of range. */
int pfs_bonnie_set_figure(struct pfs_bonnie_figure *f, double work, uint64_t elapsed_us,
			  uint64_t cpu_us);

/* Reads one CSV line (format 1.96, 1.97 or 1.98; a trailing "\n" or
 * "\r\n" is allowed) into r. Only what bonnie++ itself writes is accepted,
 * so writing r back with pfs_bonnie_print_csv gives the same line. 0, or
 * -EINVAL with a message naming the field in err (when err_len > 0). */
int pfs_bonnie_parse_csv(const char *line, struct pfs_bonnie_result *r, char *err,
			 size_t err_len);

/* Whether line is the header line bonnie++ -x prints before its CSV lines. */
bool pfs_bonnie_csv_is_header(const char *line);

/* Text flags. */
enum {
	/* The create-test rates as bonnie++ 2.00a built by Debian for amd64
	 * prints them: its " %5d" gets a double, so the column shows the
	 * files of the test (NUM x 1024) instead of the rate. Only the 1.98
	 * layout has the defect; the CSV line is right. */
	PFS_BONNIE_TEXT_FILE_COUNT_BUG = 1u << 0,
	/* pfsbench's own: the file table's data line starts with the name,
	 * cut to 19 columns, where bonnie++ puts the file count. For a
	 * result's lines under another result's table, where the count is
	 * the same and the name tells the lines apart. */
	PFS_BONNIE_TEXT_NAMED_LINE = 1u << 1,
};

/* bonnie++'s text tables for r->format: the I/O table and its Latency line
 * when file_size_mib is set, then the file table and its Latency line when
 * num_files_x1024 is set, then a newline, as bonnie++ -q writes to stderr.
 * 0, -EINVAL for a result no CSV line could carry, -EIO when fp fails. */
int pfs_bonnie_print_text(FILE *fp, const struct pfs_bonnie_result *r, unsigned flags);

/* The parts of those tables, for a report that puts several results under
 * one table's header rows: each table's three header rows, and its data
 * line with its Latency line (each ending in a newline; bonnie++'s last
 * newline, which pfs_bonnie_print_text adds when there is no file table,
 * is the caller's). The I/O parts need file_size_mib, the file parts
 * num_files_x1024, as in pfs_bonnie_print_text. 0, -EINVAL, -EIO. */
enum pfs_bonnie_part {
	PFS_BONNIE_IO_HEAD,
	PFS_BONNIE_IO_LINES,
	PFS_BONNIE_FILE_HEAD,
	PFS_BONNIE_FILE_LINES,
};
int pfs_bonnie_print_part(FILE *fp, const struct pfs_bonnie_result *r, enum pfs_bonnie_part part,
			  unsigned flags);

/* The CSV line of r->format, with its newline. 0, -EINVAL, -EIO. */
int pfs_bonnie_print_csv(FILE *fp, const struct pfs_bonnie_result *r);

/* The header line bonnie++ -x prints for format, as that version prints
 * it (1.96's lacks concurrency and seed; 1.98's lacks the seek count and
 * seekers). 0, -EINVAL, -EIO. */
int pfs_bonnie_print_csv_header(FILE *fp, enum pfs_bonnie_format format);

#endif
