/* synth_results: writes a synthetic results file, for the compare tests.
 * Usage: synth_results OUT.h5 RANKS NODES ITERATIONS SCALE NOISE SEED */
#include "../synth.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct synth s;
	int rc;

	if (argc != 8) {
		fprintf(stderr, "usage: synth_results OUT.h5 RANKS NODES ITERATIONS SCALE NOISE SEED\n");
		return 2;
	}
	if (synth_init(&s, (unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]),
		       atof(argv[5]), atof(argv[6]), (unsigned)atoi(argv[7]))) {
		fprintf(stderr, "synth_results: bad sizes\n");
		return 2;
	}
	rc = synth_write(&s, argv[1]);
	synth_free(&s);
	return rc ? 1 : 0;
}
