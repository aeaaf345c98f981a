// SPDX-License-Identifier: GPL-2.0-or-later
#include "basic/order.h"

/* splitmix64: a seeded, portable stream for the shuffled order. */
static uint64_t order_mix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

size_t balanced_order_at(size_t n, unsigned k, size_t j, uint64_t seed)
{
	size_t perm[BALANCED_ORDER_MAX];
	uint64_t state = seed ^ ((uint64_t)k * 0xd1b54a32d192ed03ull);

	if (!seed || n > BALANCED_ORDER_MAX)
		return k % 2 == 0 ? j : n - 1 - j;
	/* Fisher-Yates; the bias of the modulo is below 2^-58 here. */
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t r = (size_t)(order_mix(&state) % (i + 1)), t = perm[i];

		perm[i] = perm[r];
		perm[r] = t;
	}
	return perm[j];
}
