/* test_matrixdiff.c: when compare marks a cell of perf_matrix's diff as
 * beyond the noise (src/analysis/matrixdiff.c): on the log of the ratio, never
 * under the 10 % floor, never without a measured noise or with a zero
 * cell, and a slowdown weighing as much as the speedup of the same factor.
 * The diff's text itself is tests/matrix/run.sh's (the seed's diff, byte
 * for byte, through the real command). */
#include "cmocka_prelude.h"

#include "pfsbench/analysis/matrixdiff.h"

static void test_beyond_noise(void **state)
{
	static const struct {
		double a, b, na, nb;
		bool loud;
	} cases[] = {
		{100, 112, 0, 0, true},           /* noise measured as 0: the floor decides */
		{100, 109, 0, 0, false},          /* under 10 % */
		{100, 91.5, 0.01, -1, false},     /* 1/1.0929 is within 1/1.10 */
		{100, 90, 0.01, -1, true},        /* 1/1.111: beyond */
		{100, 200, -1, -1, false},        /* neither file measured noise */
		{100, 200, 0.1, -1, true},        /* ln 2 = 0.69 > 3 x 0.1 */
		{100, 200, 0.2, 0.2, false},      /* ln 2 = 0.69 < 3 x sqrt(0.08) = 0.85 */
		{100, 300, 0.2, 0.2, true},       /* ln 3 = 1.10 > 0.85 */
		{100, 100.0 / 3, 0.2, 0.2, true}, /* the same factor down */
		{100, 50, 0.2, 0.2, false},       /* ln 2 = 0.69 < 0.85 */
		{0, 50, 0.01, 0.01, false},       /* a cell not run: -.--% */
		{50, 0, 0.01, 0.01, false},
		/* a noisy cell: a factor of 5 down is within 3 x 0.6 = 1.8 > ln 5 = 1.61 */
		{100, 20, 0.6, -1, false},
		{100, 10, 0.6, -1, true}, /* ln 10 = 2.30 > 1.8 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool loud = pfs_matrixdiff_beyond_noise(cases[i].a, cases[i].b, cases[i].na,
							cases[i].nb);

		assert_int_equal(loud, cases[i].loud);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beyond_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
