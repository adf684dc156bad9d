// SPDX-License-Identifier: GPL-2.0
/* Shrinkers embedded by the caller: register_shrinker(s, fmt, ...) (6.0-6.6). */
#include <linux/mm.h>
#include <linux/shrinker.h>

int probe(struct shrinker *s)
{
	int ret = register_shrinker(s, "vraid-%d", 1);

	if (!ret)
		unregister_shrinker(s);
	return ret;
}
