// SPDX-License-Identifier: GPL-2.0
/* Shrinkers allocated by the kernel: shrinker_alloc(), shrinker_register() (6.7+). */
#include <linux/mm.h>
#include <linux/shrinker.h>

void probe(void)
{
	struct shrinker *s = shrinker_alloc(0, "vraid-%d", 1);

	if (s) {
		shrinker_register(s);
		shrinker_free(s);
	}
}
