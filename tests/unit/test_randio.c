/* test_randio.c: the block order of `stream --pattern random`
 * (pfs_perm, src/workloads/randio.c). What it protects: each block exactly
 * once (a bijection of 0 .. n-1) for small, odd, power-of-two and large
 * block counts and several seeds; the same seed gives the same order and
 * another seed another; the order is not the identity. The loop itself is
 * run on real files by tests/stream/random.sh. */
#include "cmocka_prelude.h"

#include "pfsbench/workloads/randio.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_every_block_once(void **state)
{
	static const uint64_t counts[] = { 1, 2, 3, 4, 5, 7, 15, 16, 17, 63, 64, 65, 255, 256,
					   257, 1000, 4095, 4097, 65537, 100003 };
	static const uint64_t seeds[] = { 0, 1, 42, UINT64_MAX };

	(void)state;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
		for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
			uint64_t n = counts[c];
			unsigned char *seen = calloc(n, 1);
			struct pfs_perm p;

			assert_non_null(seen);
			pfs_perm_init(&p, n, seeds[s]);
			for (uint64_t i = 0; i < n; i++) {
				uint64_t b = pfs_perm_at(&p, i);

				assert_true(b < n);
				assert_int_equal(seen[b], 0);
				seen[b] = 1;
			}
			free(seen);
		}
}

static void test_seeded_and_shuffled(void **state)
{
	struct pfs_perm a, b, c;
	uint64_t same_ab = 0, same_ac = 0, fixed = 0;

	(void)state;
	pfs_perm_init(&a, 1000, 7);
	pfs_perm_init(&b, 1000, 7);
	pfs_perm_init(&c, 1000, 8);
	for (uint64_t i = 0; i < 1000; i++) {
		same_ab += pfs_perm_at(&a, i) == pfs_perm_at(&b, i);
		same_ac += pfs_perm_at(&a, i) == pfs_perm_at(&c, i);
		fixed += pfs_perm_at(&a, i) == i;
	}
	assert_int_equal(same_ab, 1000);
	/* A random permutation agrees with another at about 1 place, and fixes
	 * about 1 point: far from 1000 either way. */
	assert_true(same_ac < 20);
	assert_true(fixed < 20);
}

/* A device of 2^40 blocks: every block drawn lies below the count. */
static void test_large_counts(void **state)
{
	struct pfs_perm p;
	uint64_t n = (1ull << 40) + 12345;

	(void)state;
	pfs_perm_init(&p, n, 3);
	for (uint64_t i = 0; i < 100000; i++)
		assert_true(pfs_perm_at(&p, i * 10995116ull) < n);
	pfs_perm_init(&p, UINT64_MAX, 3);
	for (uint64_t i = 0; i < 1000; i++)
		assert_true(pfs_perm_at(&p, UINT64_MAX - 1 - i) < UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_block_once),
		cmocka_unit_test(test_seeded_and_shuffled),
		cmocka_unit_test(test_large_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
