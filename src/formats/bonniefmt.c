/* bonniefmt.c: bonnie++'s CSV lines and text tables. Every rule is that of
 * bonnie++'s BonTimer (bon_time.cpp of 1.96, 1.97.3 and 2.00a), checked
 * against Debian's bonnie++ 2.00a; docs/bonnie-format.md lists them.
 * Integer arithmetic replaces bonnie++'s floating point only where the
 * printed result is the same. */
#include "pfsbench/formats/bonniefmt.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#define CSV_LINE_MAX 4096
#define CSV_FIELDS_MAX 50
#define MIN_TIME_US 500000u /* bonnie++'s MinTime: faster tests print +++++ */
/* The text tables give machine name and size 18 columns and a space. */
#define TXT_DESC 18

/* A blank figure, "+++++ +++", and the Latency line's lead. */
#define TXT_BLANK "          "
#define TXT_TOO_FAST " +++++ +++"
#define TXT_LATENCY "Latency          "
/* The header rows right of their first 20 columns. */
#define TXT_IO_TOP "------Sequential Output------ --Sequential Input- --Random-\n"
#define TXT_IO_TESTS "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
#define TXT_FILE_TOP "------Sequential Create------ --------Random Create--------\n"
#define TXT_FILE_TESTS "-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
#define TXT_PER_SEC " /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
#define TXT_KIB_SEC "K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"

const char *const pfs_bonnie_test_names[PFS_BONNIE_TESTS + 1] = {
	"putc",	      "put_block", "rewrite", "getc",	    "get_block", "seeks",
	"seq_create", "seq_stat",  "seq_del", "ran_create", "ran_stat",	 "ran_del", NULL,
};

static const struct {
	const char *version;
	enum pfs_bonnie_format format;
} versions[] = {
	{ "1.96", PFS_BONNIE_FORMAT_1_96 }, { "1.97", PFS_BONNIE_FORMAT_1_97 },
	{ "1.98", PFS_BONNIE_FORMAT_1_98 }, { "2.00", PFS_BONNIE_FORMAT_1_98 },
	{ "2.00a", PFS_BONNIE_FORMAT_1_98 },
};

int pfs_bonnie_test_find(const char *name)
{
	for (int t = 0; name && t < PFS_BONNIE_TESTS; t++)
		if (!strcmp(name, pfs_bonnie_test_names[t]))
			return t;
	return -EINVAL;
}

static const char *csv_version(enum pfs_bonnie_format format)
{
	switch (format) {
	case PFS_BONNIE_FORMAT_1_96:
		return "1.96";
	case PFS_BONNIE_FORMAT_1_97:
		return "1.97";
	case PFS_BONNIE_FORMAT_1_98:
		return "1.98";
	}
	return NULL;
}

void pfs_bonnie_init(struct pfs_bonnie_result *r)
{
	memset(r, 0, sizeof(*r));
	r->format = PFS_BONNIE_FORMAT_1_96;
	memcpy(r->version, "1.96", sizeof("1.96"));
	r->concurrency = 1;
	r->io_chunk_bytes = PFS_BONNIE_CHUNK_DEFAULT;
	r->seeks = PFS_BONNIE_SEEKS_DEFAULT;
	r->seek_procs = PFS_BONNIE_SEEK_PROCS_DEFAULT;
	r->num_dirs = 1;
	r->file_chunk_bytes = PFS_BONNIE_CHUNK_DEFAULT;
}

int pfs_bonnie_set_version(struct pfs_bonnie_result *r, const char *version)
{
	int rc;

	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		if (version && !strcmp(version, versions[i].version)) {
			r->format = versions[i].format;
			rc = pfs_format(r->version, sizeof(r->version), "%s", version);
			return rc ? -EINVAL : 0;
		}
	}
	return -EINVAL;
}

int pfs_bonnie_set_figure(struct pfs_bonnie_figure *f, double work, uint64_t elapsed_us,
			  uint64_t cpu_us)
{
	double rate = 0;
	uint32_t cpu_pct = 0;
	enum pfs_bonnie_state state = PFS_BONNIE_MEASURED;

	if (!(work >= 0))
		return -EINVAL;
	if (elapsed_us == 0) {
		state = PFS_BONNIE_NOT_RUN;
	} else if (elapsed_us < MIN_TIME_US) {
		state = PFS_BONNIE_TOO_FAST;
	} else {
		rate = work / ((double)elapsed_us / 1e6);
		if (!(rate <= PFS_BONNIE_RATE_MAX))
			return -EINVAL;
		/* %CPU = CPU time / elapsed x 100, cut, as bonnie++'s int() does. */
		if (cpu_us > UINT64_MAX / 100 || cpu_us * 100 / elapsed_us > UINT32_MAX)
			cpu_pct = UINT32_MAX;
		else
			cpu_pct = (uint32_t)(cpu_us * 100 / elapsed_us);
	}
	f->state = state;
	f->rate = rate;
	f->cpu_pct = cpu_pct;
	return 0;
}

/* ---- what every output checks first ------------------------------------- */

/* A string a CSV field can hold: terminated within cap, no comma, no
 * control character. */
static bool field_text_ok(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	if (n == cap)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == ',')
			return false;
	}
	return true;
}

static int check_result(const struct pfs_bonnie_result *r)
{
	if (!csv_version(r->format))
		return -EINVAL;
	if (!field_text_ok(r->version, sizeof(r->version)) ||
	    !field_text_ok(r->name, sizeof(r->name)) || !field_text_ok(r->seed, sizeof(r->seed)))
		return -EINVAL;
	if (r->concurrency < 1 || r->num_files_x1024 > PFS_BONNIE_NUM_FILES_MAX)
		return -EINVAL;
	if (r->max_bytes < PFS_BONNIE_SYMLINKS || r->min_bytes < 0)
		return -EINVAL;
	for (int t = 0; t < PFS_BONNIE_TESTS; t++) {
		const struct pfs_bonnie_figure *f = &r->test[t];

		switch (f->state) {
		case PFS_BONNIE_NOT_RUN:
		case PFS_BONNIE_TOO_FAST:
			break;
		case PFS_BONNIE_MEASURED:
			if (!(f->rate >= 0 && f->rate <= PFS_BONNIE_RATE_MAX))
				return -EINVAL;
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

static int finish(FILE *fp)
{
	return fflush(fp) || ferror(fp) ? -EIO : 0;
}

/* ---- pieces shared by text and CSV ---------------------------------------- */

/* bonnie++'s print_size: size with the largest unit of units that divides
 * it ("MG": 1024M is "1G"; " km": 8192 is "8k", 300 is "300"). */
static int size_text(char *buf, size_t len, uint64_t size, const char *units)
{
	size_t u = 0;

	if (size)
		while (size % 1024 == 0 && units[u + 1]) {
			size /= 1024;
			u++;
		}
	if (units[u] == ' ')
		return pfs_format(buf, len, "%" PRIu64, size);
	return pfs_format(buf, len, "%" PRIu64 "%c", size, units[u]);
}

/* bonnie++'s print_latency: seconds above 99.999999 s, milliseconds above
 * 0.099999 s, else microseconds, each cut to an integer; 0 is blank. */
static void latency_text(char *buf, size_t len, uint64_t ns)
{
	if (!ns)
		buf[0] = '\0';
	else if (ns > UINT64_C(99999999000))
		snprintf(buf, len, "%" PRIu64 "s", ns / 1000000000u);
	else if (ns > UINT64_C(99999000))
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000u);
	else
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000u);
}

/* Seeks/s: one decimal below 1000, none from 1000 on. */
static void seeks_text(FILE *fp, const char *lead, int width, double rate)
{
	if (rate >= 1000.0)
		fprintf(fp, "%s%*.0f", lead, width, rate);
	else
		fprintf(fp, "%s%*.1f", lead, width, rate);
}

/* ---- text tables ------------------------------------------------------------ */

/* The size column of the I/O table: "1G", with ":chunk" when it is not
 * 8k; 1.98 on appends ":chunk:concurrency:seeks:seekers", each blank when
 * default, and drops the colons left at the end. */
static int io_size_text(char *buf, size_t len, const struct pfs_bonnie_result *r)
{
	char chunk[32] = "", conc[16] = "", seeks[16] = "", procs[16] = "";
	size_t n;
	int rc;

	rc = size_text(buf, len, r->file_size_mib, "MG");
	if (!rc && r->io_chunk_bytes != PFS_BONNIE_CHUNK_DEFAULT)
		rc = size_text(chunk, sizeof(chunk), r->io_chunk_bytes, " km");
	if (rc)
		return rc;
	n = strlen(buf);
	if (r->format != PFS_BONNIE_FORMAT_1_98)
		return *chunk ? pfs_format(buf + n, len - n, ":%s", chunk) : 0;
	if (r->concurrency != 1)
		snprintf(conc, sizeof(conc), "%" PRIu32, r->concurrency);
	if (r->seeks != PFS_BONNIE_SEEKS_DEFAULT)
		snprintf(seeks, sizeof(seeks), "%" PRIu32, r->seeks);
	if (r->seek_procs != PFS_BONNIE_SEEK_PROCS_DEFAULT)
		snprintf(procs, sizeof(procs), "%" PRIu32, r->seek_procs);
	rc = pfs_format(buf + n, len - n, ":%s:%s:%s:%s", chunk, conc, seeks, procs);
	if (rc)
		return rc;
	n = strlen(buf);
	/* bonnie++ steps back one character too far after the seekers, so a
	 * one-digit count is lost along with the colons before it. */
	if (strlen(procs) > 1)
		return 0;
	if (*procs)
		buf[--n] = '\0';
	while (n > 1 && buf[n - 1] == ':')
		buf[--n] = '\0';
	return 0;
}

/* The first column of the I/O data line: the name cut to leave room for
 * the size, or the size alone when it needs more than 18 columns. */
static int io_desc_text(char *buf, size_t len, const char *name, const char *size)
{
	size_t sl = strlen(size);

	if (sl > TXT_DESC)
		return pfs_format(buf, len, "%s", size);
	return pfs_format(buf, len, "%-*.*s %s", (int)(TXT_DESC - sl), (int)(TXT_DESC - sl), name,
			  size);
}

/* The first column of the file data line: "16", "16:max:min", "16:link",
 * "16:symlink", each with "/dirs" when there is more than one. */
static int files_desc_text(char *buf, size_t len, const struct pfs_bonnie_result *r)
{
	size_t n;
	int rc;

	if (r->max_bytes == PFS_BONNIE_LINKS)
		rc = pfs_format(buf, len, "%" PRIu32 ":link", r->num_files_x1024);
	else if (r->max_bytes == PFS_BONNIE_SYMLINKS)
		rc = pfs_format(buf, len, "%" PRIu32 ":symlink", r->num_files_x1024);
	else if (r->max_bytes)
		rc = pfs_format(buf, len, "%" PRIu32 ":%" PRId32 ":%" PRId32, r->num_files_x1024,
				r->max_bytes, r->min_bytes);
	else
		rc = pfs_format(buf, len, "%" PRIu32, r->num_files_x1024);
	n = strlen(buf);
	if (!rc && r->num_dirs > 1)
		rc = pfs_format(buf + n, len - n, "/%" PRIu32, r->num_dirs);
	return rc;
}

/* KiB/s in 1.98's text: k below 10000, m below 1000 MiB/s (one decimal
 * below 100), else g with one decimal, computed as bonnie++ does. */
static void kmg_text(FILE *fp, double kib)
{
	double mib;

	if (kib < 10000.0) {
		fprintf(fp, " %4" PRIu64 "k", (uint64_t)kib);
		return;
	}
	mib = kib / 1024.0;
	if (mib < 1000.0) {
		if (mib < 100.0)
			fprintf(fp, " %4.1fm", mib);
		else
			fprintf(fp, " %4" PRIu64 "m", (uint64_t)(mib + 0.5));
		return;
	}
	fprintf(fp, " %4.1fg", kib / 1024.0 / 1024.0);
}

static void text_figure(FILE *fp, const struct pfs_bonnie_result *r, int t, unsigned flags)
{
	const struct pfs_bonnie_figure *f = &r->test[t];
	bool later = r->format == PFS_BONNIE_FORMAT_1_98;

	if (f->state == PFS_BONNIE_NOT_RUN) {
		fputs(TXT_BLANK, fp);
		return;
	}
	if (f->state == PFS_BONNIE_TOO_FAST) {
		fputs(TXT_TOO_FAST, fp);
		return;
	}
	if (t == PFS_BONNIE_SEEKS)
		seeks_text(fp, " ", 5, f->rate);
	else if (later && t < PFS_BONNIE_SEEKS)
		kmg_text(fp, f->rate);
	else if (later && (flags & PFS_BONNIE_TEXT_FILE_COUNT_BUG))
		fprintf(fp, " %5" PRIu32, r->num_files_x1024 * 1024u);
	else
		fprintf(fp, " %5" PRIu64, (uint64_t)f->rate);
	fprintf(fp, " %3" PRIu32, f->cpu_pct);
}

static void text_latencies(FILE *fp, const struct pfs_bonnie_result *r, int first)
{
	char buf[32];

	fputs(TXT_LATENCY, fp);
	for (int t = first; t < first + 6; t++) {
		latency_text(buf, sizeof(buf), r->test[t].latency_ns);
		fprintf(fp, " %9s", buf);
	}
}

/* The three header rows of the I/O table. */
static void text_io_head(FILE *fp, const struct pfs_bonnie_result *r)
{
	fprintf(fp, "Version %5s       " TXT_IO_TOP, r->version);
	if (r->format == PFS_BONNIE_FORMAT_1_98) {
		fputs("                    " TXT_IO_TESTS "Name:Size etc       " TXT_PER_SEC, fp);
	} else {
		fprintf(fp, "Concurrency %3" PRIu32 "     " TXT_IO_TESTS, r->concurrency);
		fputs(r->io_chunk_bytes == PFS_BONNIE_CHUNK_DEFAULT ? "Machine        Size "
								    : "Machine   Size:chnk ",
		      fp);
		fputs(TXT_KIB_SEC, fp);
	}
}

/* The I/O table's data line and its Latency line. */
static int text_io_lines(FILE *fp, const struct pfs_bonnie_result *r, unsigned flags)
{
	char size[128], desc[160];
	int rc;

	rc = io_size_text(size, sizeof(size), r);
	if (!rc)
		rc = io_desc_text(desc, sizeof(desc), r->name, size);
	if (rc)
		return -EINVAL;
	fputs(desc, fp);
	for (int t = PFS_BONNIE_PUTC; t <= PFS_BONNIE_SEEKS; t++)
		text_figure(fp, r, t, flags);
	fputc('\n', fp);
	text_latencies(fp, r, PFS_BONNIE_PUTC);
	fputc('\n', fp);
	return 0;
}

/* The three header rows of the file table. */
static void text_file_head(FILE *fp, const struct pfs_bonnie_result *r)
{
	const char *head;

	if (r->min_bytes)
		head = "files:max:min       ";
	else if (r->max_bytes)
		head = "files:max           ";
	else
		head = "              files ";
	fprintf(fp, "Version %5s       " TXT_FILE_TOP, r->version);
	fprintf(fp, "%-19.19s " TXT_FILE_TESTS, r->name);
	fputs(head, fp);
	fputs(TXT_PER_SEC, fp);
}

/* The file table's data line (its first column the file count, or with
 * PFS_BONNIE_TEXT_NAMED_LINE the name) and its Latency line. */
static int text_file_lines(FILE *fp, const struct pfs_bonnie_result *r, unsigned flags)
{
	char desc[96];

	if (flags & PFS_BONNIE_TEXT_NAMED_LINE)
		fprintf(fp, "%-19.19s", r->name);
	else if (files_desc_text(desc, sizeof(desc), r))
		return -EINVAL;
	else
		fprintf(fp, "%19s", desc);
	for (int t = PFS_BONNIE_SEQ_CREATE; t < PFS_BONNIE_TESTS; t++)
		text_figure(fp, r, t, flags);
	fputc('\n', fp);
	text_latencies(fp, r, PFS_BONNIE_SEQ_CREATE);
	fputc('\n', fp);
	return 0;
}

int pfs_bonnie_print_text(FILE *fp, const struct pfs_bonnie_result *r, unsigned flags)
{
	int rc = check_result(r);

	if (rc)
		return rc;
	if (r->file_size_mib) {
		text_io_head(fp, r);
		if ((rc = text_io_lines(fp, r, flags)))
			return rc;
	}
	if (r->num_files_x1024) {
		text_file_head(fp, r);
		if ((rc = text_file_lines(fp, r, flags)))
			return rc;
	} else {
		/* The newline that ends every report ends the file table's
		 * Latency line; without that table, it stands alone. */
		fputc('\n', fp);
	}
	return finish(fp);
}

int pfs_bonnie_print_part(FILE *fp, const struct pfs_bonnie_result *r, enum pfs_bonnie_part part,
			  unsigned flags)
{
	int rc = check_result(r);

	if (rc)
		return rc;
	switch (part) {
	case PFS_BONNIE_IO_HEAD:
		text_io_head(fp, r);
		break;
	case PFS_BONNIE_IO_LINES:
		rc = text_io_lines(fp, r, flags);
		break;
	case PFS_BONNIE_FILE_HEAD:
		text_file_head(fp, r);
		break;
	case PFS_BONNIE_FILE_LINES:
		rc = text_file_lines(fp, r, flags);
		break;
	default:
		return -EINVAL;
	}
	return rc ? rc : finish(fp);
}

/* ---- CSV ----------------------------------------------------------------------- */

static void csv_figure(FILE *fp, int t, const struct pfs_bonnie_figure *f)
{
	if (f->state == PFS_BONNIE_NOT_RUN) {
		fputs(",,", fp);
		return;
	}
	if (f->state == PFS_BONNIE_TOO_FAST) {
		fputs(",+++++,+++", fp);
		return;
	}
	if (t == PFS_BONNIE_SEEKS)
		seeks_text(fp, ",", 0, f->rate);
	else
		fprintf(fp, ",%" PRIu64, (uint64_t)f->rate);
	fprintf(fp, ",%" PRIu32, f->cpu_pct);
}

int pfs_bonnie_print_csv(FILE *fp, const struct pfs_bonnie_result *r)
{
	char buf[64];
	int rc = check_result(r);

	if (rc)
		return rc;
	fprintf(fp, "%s,%s,%s,%" PRIu32 ",%s", csv_version(r->format), r->version, r->name,
		r->concurrency, r->seed);
	if (r->file_size_mib) {
		if (size_text(buf, sizeof(buf), r->file_size_mib, "MG"))
			return -EINVAL;
		fprintf(fp, ",%s,", buf);
		/* 1.98 on leave the chunk size out of the CSV line. */
		if (r->format == PFS_BONNIE_FORMAT_1_98)
			fprintf(fp, ",%" PRIu32 ",%" PRIu32, r->seeks, r->seek_procs);
		else if (r->io_chunk_bytes != PFS_BONNIE_CHUNK_DEFAULT) {
			if (size_text(buf, sizeof(buf), r->io_chunk_bytes, " km"))
				return -EINVAL;
			fputs(buf, fp);
		}
		for (int t = PFS_BONNIE_PUTC; t <= PFS_BONNIE_SEEKS; t++)
			csv_figure(fp, t, &r->test[t]);
	} else if (r->format == PFS_BONNIE_FORMAT_1_96) {
		fputs(",,,,,,,,,,,,,", fp); /* one field short: fixed in 1.97 */
	} else if (r->format == PFS_BONNIE_FORMAT_1_97) {
		fputs(",,,,,,,,,,,,,,", fp);
	} else {
		fputs(",,,,,,,,,,,,,,,,", fp);
	}
	if (r->num_files_x1024) {
		fprintf(fp, ",%" PRIu32, r->num_files_x1024);
		if (r->max_bytes == PFS_BONNIE_LINKS)
			fputs(",link,", fp);
		else if (r->max_bytes == PFS_BONNIE_SYMLINKS)
			fputs(",symlink,", fp);
		else if (r->max_bytes && r->min_bytes)
			fprintf(fp, ",%" PRId32 ",%" PRId32, r->max_bytes, r->min_bytes);
		else if (r->max_bytes)
			fprintf(fp, ",%" PRId32 ",", r->max_bytes);
		else
			fputs(",,", fp);
		/* The file chunk size never reaches the line: the directories
		 * come one field late, where the header says file_chunk_size. */
		fputc(',', fp);
		if (r->num_dirs > 1)
			fprintf(fp, ",%" PRIu32, r->num_dirs);
		else
			fputc(',', fp);
		for (int t = PFS_BONNIE_SEQ_CREATE; t < PFS_BONNIE_TESTS; t++)
			csv_figure(fp, t, &r->test[t]);
	} else {
		fputs(",,,,,,,,,,,,,,,,,", fp);
	}
	for (int t = 0; t < PFS_BONNIE_TESTS; t++) {
		latency_text(buf, sizeof(buf), r->test[t].latency_ns);
		fprintf(fp, ",%s", buf);
	}
	fputc('\n', fp);
	return finish(fp);
}

int pfs_bonnie_print_csv_header(FILE *fp, enum pfs_bonnie_format format)
{
	if (!csv_version(format))
		return -EINVAL;
	fputs("format_version,bonnie_version,name", fp);
	if (format != PFS_BONNIE_FORMAT_1_96)
		fputs(",concurrency,seed", fp);
	fputs(",file_size,io_chunk_size", fp);
	for (int t = PFS_BONNIE_PUTC; t <= PFS_BONNIE_SEEKS; t++)
		fprintf(fp, ",%s,%s_cpu", pfs_bonnie_test_names[t], pfs_bonnie_test_names[t]);
	fputs(",num_files,max_size,min_size,num_dirs,file_chunk_size", fp);
	for (int t = PFS_BONNIE_SEQ_CREATE; t < PFS_BONNIE_TESTS; t++)
		fprintf(fp, ",%s,%s_cpu", pfs_bonnie_test_names[t], pfs_bonnie_test_names[t]);
	for (int t = 0; t < PFS_BONNIE_TESTS; t++)
		fprintf(fp, ",%s_latency", pfs_bonnie_test_names[t]);
	fputc('\n', fp);
	return finish(fp);
}

bool pfs_bonnie_csv_is_header(const char *line)
{
	return line && !strncmp(line, "format_version,", strlen("format_version,"));
}

/* ---- reading a CSV line ------------------------------------------------------ */

struct field {
	const char *p;
	size_t n;
};

/* Where each part of a line starts. */
struct layout {
	size_t fields;    /* fields in a line */
	size_t io_params; /* file_size, then io_chunk_size and, 1.98 on, seeks and seekers */
	size_t io_figs;   /* putc ... seeks_cpu */
	size_t files;     /* num_files, max_size, min_size, file chunk (empty), num_dirs */
	size_t file_figs; /* seq_create ... ran_del_cpu */
	size_t latency;   /* putc_latency ... ran_del_latency */
};

static const struct layout layout_1_96 = { 48, 5, 7, 19, 24, 36 };
/* bonnie++ 1.96 -s 0 writes one empty I/O field too few. */
static const struct layout layout_1_96_no_io = { 47, 5, 6, 18, 23, 35 };
static const struct layout layout_1_98 = { 50, 5, 9, 21, 26, 38 };

struct csv {
	struct field f[CSV_FIELDS_MAX];
	size_t count;
	const struct layout *lay;
	char *err;
	size_t err_len;
};

static void field_name(const struct csv *c, size_t i, char *buf, size_t len)
{
	static const char *const head[] = { "format_version", "bonnie_version", "name",
					     "concurrency", "seed" };
	static const char *const io[] = { "file_size", "io_chunk_size", "seeks",
					  "seek_proc_count" };
	static const char *const files[] = { "num_files", "max_size", "min_size",
					     "file_chunk_size", "num_dirs" };
	const struct layout *l = c->lay;

	if (i < 5 || !l)
		snprintf(buf, len, "%s", i < 5 ? head[i] : "?");
	else if (i < l->io_figs)
		snprintf(buf, len, "%s", io[i - l->io_params]);
	else if (i < l->files)
		snprintf(buf, len, "%s%s", pfs_bonnie_test_names[(i - l->io_figs) / 2],
			 (i - l->io_figs) % 2 ? "_cpu" : "");
	else if (i < l->file_figs)
		snprintf(buf, len, "%s", files[i - l->files]);
	else if (i < l->latency)
		snprintf(buf, len, "%s%s",
			 pfs_bonnie_test_names[PFS_BONNIE_SEQ_CREATE + (i - l->file_figs) / 2],
			 (i - l->file_figs) % 2 ? "_cpu" : "");
	else
		snprintf(buf, len, "%s_latency", pfs_bonnie_test_names[i - l->latency]);
}

static int csv_fail(struct csv *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int csv_fail(struct csv *c, const char *fmt, ...)
{
	va_list ap;

	if (c->err && c->err_len) {
		va_start(ap, fmt);
		vsnprintf(c->err, c->err_len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A message about field i that quotes it, cut to 40 bytes; the line has
 * no control characters by now, so quoting it is safe. */
static int field_fail(struct csv *c, size_t i, const char *why)
{
	char name[48];
	const struct field *f = &c->f[i];
	int n = f->n > 40 ? 40 : (int)f->n;

	field_name(c, i, name, sizeof(name));
	return csv_fail(c, "field %zu (%s): %s: '%.*s%s'", i + 1, name, why, n, f->p,
			f->n > 40 ? "..." : "");
}

static bool field_is(const struct field *f, const char *s)
{
	return f->n == strlen(s) && !memcmp(f->p, s, f->n);
}

/* A whole number as bonnie++ prints it: digits, no sign, no leading zero.
 * -EINVAL when it is not one, -ERANGE when above max. */
static int parse_uint(const char *p, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || (n > 1 && p[0] == '0'))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(p[i] - '0');

		if (p[i] < '0' || p[i] > '9')
			return -EINVAL;
		if (d > max || v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int field_uint(struct csv *c, size_t i, uint64_t min, uint64_t max, uint64_t *out)
{
	const struct field *f = &c->f[i];
	int rc = parse_uint(f->p, f->n, max, out);

	if (rc == -ERANGE)
		return field_fail(c, i, "too large");
	if (rc)
		return field_fail(c, i, "not a whole number as bonnie++ writes it");
	if (*out < min)
		return field_fail(c, i, "too small");
	return 0;
}

/* A string field into buf of cap bytes (the line has no comma in a field
 * and no control character). */
static int field_text(struct csv *c, size_t i, char *buf, size_t cap)
{
	const struct field *f = &c->f[i];

	if (f->n >= cap)
		return field_fail(c, i, "too long");
	memcpy(buf, f->p, f->n);
	buf[f->n] = '\0';
	return 0;
}

/* "N", "Nk" or "Nm" (bonnie++'s print_size with " km"), or with "MG"
 * "NM" or "NG": the form that size_text writes for the value, no other. */
static int field_size(struct csv *c, size_t i, const char *units, uint64_t max,
		      uint64_t *out)
{
	const struct field *f = &c->f[i];
	char back[32];
	uint64_t v, mult = 1;
	size_t n = f->n;
	const char *u;

	if (n && (u = strchr(units, f->p[n - 1])) && *u != ' ') {
		for (const char *k = units; k < u; k++)
			mult *= 1024;
		n--;
	} else if (units[0] != ' ') {
		return field_fail(c, i, "not a size as bonnie++ writes it");
	}
	if (parse_uint(f->p, n, max, &v) || v > max / mult)
		return field_fail(c, i, "not a size as bonnie++ writes it");
	v *= mult;
	if (size_text(back, sizeof(back), v, units) || !field_is(f, back))
		return field_fail(c, i, "not a size as bonnie++ writes it");
	*out = v;
	return 0;
}

/* Seeks/s as bonnie++ writes them: one decimal below 1000, none from 1000
 * on. "1000.0" is a rate in [999.95, 1000), which prints so both ways. */
static int field_seeks(struct csv *c, size_t i, double *rate)
{
	const struct field *f = &c->f[i];
	const char *dot = memchr(f->p, '.', f->n);
	uint64_t whole;

	if (!dot) {
		if (parse_uint(f->p, f->n, (uint64_t)PFS_BONNIE_RATE_MAX, &whole) || whole < 1000)
			return field_fail(c, i, "not a seek rate as bonnie++ writes it");
		*rate = (double)whole;
		return 0;
	}
	if (parse_uint(f->p, (size_t)(dot - f->p), 1000, &whole) ||
	    f->n - (size_t)(dot - f->p) != 2 || dot[1] < '0' || dot[1] > '9' ||
	    (whole == 1000 && dot[1] != '0'))
		return field_fail(c, i, "not a seek rate as bonnie++ writes it");
	*rate = whole == 1000 ? 999.95 : (double)whole + (dot[1] - '0') / 10.0;
	return 0;
}

/* One test's rate and %CPU fields: both blank, "+++++" and "+++", or both
 * numbers. */
static int field_figure(struct csv *c, size_t i, int t, struct pfs_bonnie_figure *fig)
{
	const struct field *rate = &c->f[i], *cpu = &c->f[i + 1];
	uint64_t v;
	int rc;

	if (rate->n == 0 || field_is(rate, "+++++")) {
		bool blank = rate->n == 0;

		if (!field_is(cpu, blank ? "" : "+++"))
			return field_fail(c, i + 1, blank ? "a %CPU without a rate"
							  : "not '+++' after a '+++++' rate");
		fig->state = blank ? PFS_BONNIE_NOT_RUN : PFS_BONNIE_TOO_FAST;
		return 0;
	}
	if (t == PFS_BONNIE_SEEKS) {
		rc = field_seeks(c, i, &fig->rate);
	} else {
		rc = field_uint(c, i, 0, (uint64_t)PFS_BONNIE_RATE_MAX, &v);
		if (!rc)
			fig->rate = (double)v;
	}
	if (rc)
		return rc;
	if (cpu->n == 0 || field_is(cpu, "+++"))
		return field_fail(c, i + 1, "a rate without its %CPU");
	rc = field_uint(c, i + 1, 0, UINT32_MAX, &v);
	if (rc)
		return rc;
	fig->cpu_pct = (uint32_t)v;
	fig->state = PFS_BONNIE_MEASURED;
	return 0;
}

/* A latency as bonnie++ writes it, blank or "Nus", "Nms", "Ns" by the
 * rule of latency_text. bonnie++'s latencies are differences of floating
 * point times, so "0us", "99ms" and "99s" occur (a latency just below 1
 * us, 0.1 s or 100 s); each is read as the least time that prints so. */
static int field_latency(struct csv *c, size_t i, uint64_t *ns)
{
	const struct field *f = &c->f[i];
	size_t digits = 0;
	uint64_t v;

	*ns = 0;
	if (f->n == 0)
		return 0;
	while (digits < f->n && f->p[digits] >= '0' && f->p[digits] <= '9')
		digits++;
	if (parse_uint(f->p, digits, UINT64_MAX / 1000000000u, &v))
		goto bad;
	if (f->n - digits == 2 && !memcmp(f->p + digits, "us", 2) && v <= 99999)
		*ns = v ? v * 1000u : 1;
	else if (f->n - digits == 2 && !memcmp(f->p + digits, "ms", 2) && v >= 99 && v <= 99999)
		*ns = v == 99 ? UINT64_C(99999001) : v * 1000000u;
	else if (f->n - digits == 1 && f->p[digits] == 's' && v >= 99)
		*ns = v == 99 ? UINT64_C(99999999001) : v * 1000000000u;
	else
		goto bad;
	return 0;
bad:
	return field_fail(c, i, "not a latency as bonnie++ writes it");
}

static bool fields_blank(const struct csv *c, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (c->f[i].n)
			return false;
	return true;
}

/* Splits line into c->f; rejects what no bonnie++ line holds. */
static int csv_split(struct csv *c, const char *line)
{
	size_t len = strnlen(line, CSV_LINE_MAX + 1);
	const char *p = line;

	if (len > CSV_LINE_MAX)
		return csv_fail(c, "line longer than %d bytes", CSV_LINE_MAX);
	if (len && line[len - 1] == '\n')
		len -= len > 1 && line[len - 2] == '\r' ? 2 : 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)line[i];

		if (ch < 0x20 || ch == 0x7f)
			return csv_fail(c, "control character 0x%02x at byte %zu", ch, i + 1);
	}
	c->count = 0;
	for (;;) {
		const char *comma = memchr(p, ',', len - (size_t)(p - line));
		const char *end = comma ? comma : line + len;

		if (c->count == CSV_FIELDS_MAX)
			return csv_fail(c, "more than %d fields", CSV_FIELDS_MAX);
		c->f[c->count++] = (struct field){ p, (size_t)(end - p) };
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int csv_io(struct csv *c, struct pfs_bonnie_result *r)
{
	const struct layout *l = c->lay;
	uint64_t v;
	int rc;

	if (fields_blank(c, l->io_params, l->files))
		return 0;
	if (l == &layout_1_96_no_io)
		return csv_fail(c, "a 47-field 1.96 line (bonnie++ 1.96 -s 0) has no I/O figures");
	if (c->f[l->io_params].n == 0)
		return field_fail(c, l->io_params, "empty while I/O figures follow");
	rc = field_size(c, l->io_params, "MG", UINT64_MAX, &r->file_size_mib);
	if (rc)
		return rc;
	if (!r->file_size_mib)
		return field_fail(c, l->io_params, "zero while I/O figures follow");
	if (r->format == PFS_BONNIE_FORMAT_1_98) {
		if (c->f[l->io_params + 1].n)
			return field_fail(c, l->io_params + 1, "bonnie++ 1.98 on leave it empty");
		if ((rc = field_uint(c, l->io_params + 2, 0, UINT32_MAX, &v)))
			return rc;
		r->seeks = (uint32_t)v;
		if ((rc = field_uint(c, l->io_params + 3, 0, UINT32_MAX, &v)))
			return rc;
		r->seek_procs = (uint32_t)v;
	} else if (c->f[l->io_params + 1].n) {
		rc = field_size(c, l->io_params + 1, " km", UINT32_MAX, &v);
		if (rc)
			return rc;
		if (v == PFS_BONNIE_CHUNK_DEFAULT)
			return field_fail(c, l->io_params + 1, "bonnie++ leaves the default empty");
		r->io_chunk_bytes = (uint32_t)v;
	}
	for (int t = PFS_BONNIE_PUTC; t <= PFS_BONNIE_SEEKS; t++)
		if ((rc = field_figure(c, l->io_figs + 2 * (size_t)t, t, &r->test[t])))
			return rc;
	return 0;
}

static int csv_files(struct csv *c, struct pfs_bonnie_result *r)
{
	const struct layout *l = c->lay;
	const struct field *max = &c->f[l->files + 1], *min = &c->f[l->files + 2];
	uint64_t v;
	int rc;

	if (fields_blank(c, l->files, l->latency))
		return 0;
	if ((rc = field_uint(c, l->files, 1, PFS_BONNIE_NUM_FILES_MAX, &v)))
		return rc;
	r->num_files_x1024 = (uint32_t)v;
	if (field_is(max, "link")) {
		r->max_bytes = PFS_BONNIE_LINKS;
	} else if (field_is(max, "symlink")) {
		r->max_bytes = PFS_BONNIE_SYMLINKS;
	} else if (max->n) {
		if ((rc = field_uint(c, l->files + 1, 1, INT32_MAX, &v)))
			return rc;
		r->max_bytes = (int32_t)v;
	}
	if (min->n) {
		if (r->max_bytes <= 0)
			return field_fail(c, l->files + 2, "bonnie++ writes no min_size here");
		if ((rc = field_uint(c, l->files + 2, 1, INT32_MAX, &v)))
			return rc;
		r->min_bytes = (int32_t)v;
	}
	if (c->f[l->files + 3].n)
		return field_fail(c, l->files + 3, "bonnie++ leaves it empty");
	if (c->f[l->files + 4].n) {
		if ((rc = field_uint(c, l->files + 4, 2, UINT32_MAX, &v)))
			return rc;
		r->num_dirs = (uint32_t)v;
	}
	for (int t = PFS_BONNIE_SEQ_CREATE; t < PFS_BONNIE_TESTS; t++) {
		size_t i = l->file_figs + 2 * (size_t)(t - PFS_BONNIE_SEQ_CREATE);

		if ((rc = field_figure(c, i, t, &r->test[t])))
			return rc;
	}
	return 0;
}

int pfs_bonnie_parse_csv(const char *line, struct pfs_bonnie_result *out, char *err,
			 size_t err_len)
{
	struct csv c = { .err = err, .err_len = err_len };
	struct pfs_bonnie_result r;
	uint64_t v;
	int rc;

	if (err && err_len)
		err[0] = '\0';
	if (!line || !out)
		return csv_fail(&c, "no line");
	if ((rc = csv_split(&c, line)))
		return rc;
	if (pfs_bonnie_csv_is_header(line))
		return csv_fail(&c, "a header line, not a result");
	pfs_bonnie_init(&r);
	if (field_is(&c.f[0], "1.96")) {
		r.format = PFS_BONNIE_FORMAT_1_96;
		c.lay = c.count == layout_1_96_no_io.fields ? &layout_1_96_no_io : &layout_1_96;
	} else if (field_is(&c.f[0], "1.97")) {
		r.format = PFS_BONNIE_FORMAT_1_97;
		c.lay = &layout_1_96;
	} else if (field_is(&c.f[0], "1.98")) {
		r.format = PFS_BONNIE_FORMAT_1_98;
		c.lay = &layout_1_98;
	} else {
		return field_fail(&c, 0, "not 1.96, 1.97 or 1.98 (bonnie++ 1.96 and later)");
	}
	if (c.count != c.lay->fields)
		return csv_fail(&c, "%zu fields where a %s line has %zu", c.count,
				csv_version(r.format), c.lay->fields);
	if (c.f[1].n == 0)
		return field_fail(&c, 1, "empty");
	if ((rc = field_text(&c, 1, r.version, sizeof(r.version))) ||
	    (rc = field_text(&c, 2, r.name, sizeof(r.name))) ||
	    (rc = field_uint(&c, 3, 1, UINT32_MAX, &v)))
		return rc;
	r.concurrency = (uint32_t)v;
	if ((rc = field_text(&c, 4, r.seed, sizeof(r.seed))) || (rc = csv_io(&c, &r)) ||
	    (rc = csv_files(&c, &r)))
		return rc;
	for (size_t t = 0; t < PFS_BONNIE_TESTS; t++)
		if ((rc = field_latency(&c, c.lay->latency + t, &r.test[t].latency_ns)))
			return rc;
	*out = r;
	return 0;
}
