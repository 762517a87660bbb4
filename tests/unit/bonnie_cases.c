/* bonnie_cases.c: results at the edges of bonnie++'s formats, for
 * bonnie-csv2txt.sh to feed to Debian's bon_csv2txt and bon_csv2html.
 *   bonnie_cases count      how many cases
 *   bonnie_cases csv        their CSV lines (format 1.98, bonnie++ 2.00a)
 *   bonnie_cases text N     case N's text tables, 2.00a's layout with the
 *                           create rates right (no file count defect)
 * Each line is read back and must print the same, or it exits 1. */
#include "pfsbench/formats/bonniefmt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCASES 7

static void set(struct pfs_bonnie_result *r, int t, enum pfs_bonnie_state st, double rate,
		uint32_t cpu, uint64_t latency_ns)
{
	r->test[t] = (struct pfs_bonnie_figure){ st, rate, cpu, latency_ns };
}

static void measured(struct pfs_bonnie_result *r, int t, double rate, uint32_t cpu,
		     uint64_t latency_ns)
{
	set(r, t, PFS_BONNIE_MEASURED, rate, cpu, latency_ns);
}

static void make_case(int n, struct pfs_bonnie_result *r)
{
	pfs_bonnie_init(r);
	pfs_bonnie_set_version(r, "2.00a");
	strcpy(r->name, "cluster-node-01");
	strcpy(r->seed, "1796067634");
	switch (n) {
	case 1: /* every test measured, as on a disk */
		r->file_size_mib = 3072;
		r->num_files_x1024 = 128;
		measured(r, PFS_BONNIE_PUTC, 514, 95, 40978000);
		measured(r, PFS_BONNIE_PUT_BLOCK, 582786, 99, 6402000);
		measured(r, PFS_BONNIE_REWRITE, 1316006, 99, 3615000);
		measured(r, PFS_BONNIE_GETC, 609, 99, 26371000);
		measured(r, PFS_BONNIE_GET_BLOCK, 3997397, 98, 4127000);
		measured(r, PFS_BONNIE_SEEKS, 974.1, 3, 21798000);
		measured(r, PFS_BONNIE_SEQ_CREATE, 111212, 82, 13012000);
		measured(r, PFS_BONNIE_SEQ_STAT, 245760, 91, 4375000);
		measured(r, PFS_BONNIE_SEQ_DEL, 187196, 80, 9248000);
		measured(r, PFS_BONNIE_RAN_CREATE, 119812, 83, 44157000);
		measured(r, PFS_BONNIE_RAN_STAT, 229811, 73, 53165000);
		measured(r, PFS_BONNIE_RAN_DEL, 142834, 74, 12251000);
		break;
	case 2: /* too fast everywhere, per-char tests not run (-f) */
		r->file_size_mib = 64;
		r->num_files_x1024 = 1;
		for (int t = 0; t < PFS_BONNIE_TESTS; t++)
			set(r, t, PFS_BONNIE_TOO_FAST, 0, 0, 1000u * (uint64_t)(t + 40));
		set(r, PFS_BONNIE_PUTC, PFS_BONNIE_NOT_RUN, 0, 0, 0);
		set(r, PFS_BONNIE_GETC, PFS_BONNIE_NOT_RUN, 0, 0, 0);
		break;
	case 3: /* huge rates, widened columns, latency units at their edges */
		r->file_size_mib = 1048576;
		r->num_files_x1024 = 2097151;
		measured(r, PFS_BONNIE_PUTC, 9999, 100, 1);
		measured(r, PFS_BONNIE_PUT_BLOCK, 1e12, 250, 99999000);
		measured(r, PFS_BONNIE_REWRITE, 1023488, 7, 99999001);
		measured(r, PFS_BONNIE_GETC, 102349, 12, 99999999000);
		measured(r, PFS_BONNIE_GET_BLOCK, 4e9, 0, 99999999001);
		measured(r, PFS_BONNIE_SEEKS, 123456.7, 1000, 120000000000);
		measured(r, PFS_BONNIE_SEQ_CREATE, 4000000000.0, 250, 100000000);
		measured(r, PFS_BONNIE_SEQ_STAT, 0, 0, 999);
		measured(r, PFS_BONNIE_SEQ_DEL, 99999, 1, 99999000);
		measured(r, PFS_BONNIE_RAN_CREATE, 100000, 2, 5000);
		set(r, PFS_BONNIE_RAN_STAT, PFS_BONNIE_TOO_FAST, 0, 0, 41000);
		measured(r, PFS_BONNIE_RAN_DEL, 1e15, 4294967295u, 1);
		break;
	case 4: /* no I/O tests (-s 0), hard links in two directories */
		r->num_files_x1024 = 2;
		r->max_bytes = PFS_BONNIE_LINKS;
		r->num_dirs = 2;
		measured(r, PFS_BONNIE_SEQ_CREATE, 4237, 12, 4237000);
		set(r, PFS_BONNIE_SEQ_STAT, PFS_BONNIE_TOO_FAST, 0, 0, 2546000);
		measured(r, PFS_BONNIE_SEQ_DEL, 2376, 9, 2376000);
		measured(r, PFS_BONNIE_RAN_CREATE, 3263, 11, 3263000);
		set(r, PFS_BONNIE_RAN_STAT, PFS_BONNIE_TOO_FAST, 0, 0, 277000);
		measured(r, PFS_BONNIE_RAN_DEL, 89, 0, 89000);
		break;
	case 5: /* I/O only, every -s option set, two processes */
		r->file_size_mib = 64;
		r->io_chunk_bytes = 4096;
		r->concurrency = 2;
		r->seeks = 1000;
		r->seek_procs = 10;
		measured(r, PFS_BONNIE_PUTC, 10000, 50, 257000);
		measured(r, PFS_BONNIE_PUT_BLOCK, 102348, 51, 144000);
		measured(r, PFS_BONNIE_REWRITE, 102400, 52, 1120000);
		measured(r, PFS_BONNIE_GETC, 1023487, 53, 85000);
		measured(r, PFS_BONNIE_GET_BLOCK, 1024000, 54, 150000);
		measured(r, PFS_BONNIE_SEEKS, 999.95, 55, 150000);
		break;
	case 6: /* -n 16:4096:512:3 */
		r->file_size_mib = 1024;
		r->num_files_x1024 = 16;
		r->max_bytes = 4096;
		r->min_bytes = 512;
		r->num_dirs = 3;
		for (int t = 0; t < PFS_BONNIE_TESTS; t++)
			measured(r, t, 1000.0 * (t + 1), (uint32_t)t, 1000000u * (uint64_t)(t + 1));
		break;
	case 7: /* a long name, a -Z seed file, symbolic links */
		strcpy(r->name, "a-very-long-machine-name.cluster.example.org");
		strcpy(r->seed, "/var/tmp/random-data");
		r->file_size_mib = 1536;
		r->num_files_x1024 = 4;
		r->max_bytes = PFS_BONNIE_SYMLINKS;
		for (int t = 0; t < PFS_BONNIE_TESTS; t++)
			measured(r, t, 12345, 12, 345000);
		break;
	}
}

/* Prints the case's line to fp after reading it back: the line must give
 * the same line again. */
static int print_checked(FILE *fp, int n)
{
	struct pfs_bonnie_result r, back;
	char *line = NULL, *again = NULL, err[256];
	size_t len = 0, len2 = 0;
	FILE *mem;
	int rc;

	make_case(n, &r);
	mem = open_memstream(&line, &len);
	if (!mem)
		return -ENOMEM;
	rc = pfs_bonnie_print_csv(mem, &r);
	fclose(mem);
	if (!rc && pfs_bonnie_parse_csv(line, &back, err, sizeof(err))) {
		fprintf(stderr, "bonnie_cases: case %d: own line refused: %s\n", n, err);
		rc = -EINVAL;
	}
	if (!rc) {
		mem = open_memstream(&again, &len2);
		if (!mem) {
			free(line);
			return -ENOMEM;
		}
		rc = pfs_bonnie_print_csv(mem, &back);
		fclose(mem);
	}
	if (!rc && strcmp(line, again)) {
		fprintf(stderr, "bonnie_cases: case %d prints back as\n%s", n, again);
		rc = -EINVAL;
	}
	if (!rc)
		fputs(line, fp);
	free(line);
	free(again);
	return rc;
}

int main(int argc, char **argv)
{
	struct pfs_bonnie_result r;
	int n;

	if (argc == 2 && !strcmp(argv[1], "count")) {
		printf("%d\n", NCASES);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "csv")) {
		for (n = 1; n <= NCASES; n++)
			if (print_checked(stdout, n))
				return 1;
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "text") && (n = atoi(argv[2])) >= 1 && n <= NCASES) {
		make_case(n, &r);
		return pfs_bonnie_print_text(stdout, &r, 0) ? 1 : 0;
	}
	/* The tables of a CSV line from elsewhere (pfsbench bonnie's). */
	if (argc == 3 && !strcmp(argv[1], "text-of")) {
		char err[256];

		if (pfs_bonnie_parse_csv(argv[2], &r, err, sizeof(err))) {
			fprintf(stderr, "bonnie_cases: %s\n", err);
			return 1;
		}
		return pfs_bonnie_print_text(stdout, &r, 0) ? 1 : 0;
	}
	fprintf(stderr, "usage: bonnie_cases count | csv | text N | text-of CSV-LINE\n");
	return 2;
}
