/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check of one destage window planned by vraid_dwin_plan()
 * (driver/core/cachecore.h) against the row's masks, shared by the unit test
 * (test_cachecore.c) and the fuzz target (tests/fuzz/fuzz_cachecore.c)
 * so that both hold the planner to the same invariants.
 */
#ifndef VRAID_TEST_DWIN_CHECK_H
#define VRAID_TEST_DWIN_CHECK_H

#include "cachecore.h"

/*
 * Check window @w planned at or after column @from of the row @g with
 * @masks (a byte per page) and its extents @ext: the window lies within
 * the row and VRAID_DWIN_COLS columns and starts or ends on a dirty
 * column; each extent is non-empty, within one strip, sorted and maximal
 * against the one before in its strip; each of its sectors is dirty,
 * inside the window and not planned before (@seen, a byte per page like
 * @masks, collects them); full/partial/full_stripe match a recount per
 * (span, column) with parity and are all zero without.  Returns NULL when
 * the window is right, else a static string naming the first problem,
 * with what it concerns in *@at: the window's column, the extent's index,
 * the sector, or the recount (full << 32 | partial); @at may be NULL.
 */
static inline const char *dwin_check(const struct vraid_dwin_geom *g,
				     const u8 *masks, u8 *seen, u32 from,
				     const struct vraid_dwin_ext *ext,
				     const struct vraid_dwin *w, u64 *at)
{
	u64 strip_sec = 8ULL * g->strip_pages;
	u32 i, s, p, sp, full = 0, partial = 0;
	u64 unused;
	u8 dirty = 0;

	if (!at)
		at = &unused;
	*at = w->col;
	if (w->col < from || !w->ncols || w->ncols > VRAID_DWIN_COLS ||
	    w->col + w->ncols > g->strip_pages)
		return "window outside the row or too wide";
	/* the window starts or ends on a dirty column */
	for (s = 0; s < g->strips; s++)
		dirty |= masks[s * g->strip_pages + w->col] |
			 masks[s * g->strip_pages + w->col + w->ncols - 1];
	if (!dirty)
		return "window on clean columns";
	for (i = 0; i < w->next; i++) {
		u64 a = ext[i].sector, e = a + ext[i].sectors;
		u64 strip = a / strip_sec;

		*at = i;
		if (!ext[i].sectors || (e - 1) / strip_sec != strip)
			return "extent empty or across a strip";
		if (i && ext[i - 1].sector / strip_sec == strip &&
		    a <= ext[i - 1].sector + ext[i - 1].sectors)
			return "extent not maximal or unsorted";
		for (; a < e; a++) {
			u32 pg = (u32)(a / 8), col = pg % g->strip_pages;
			u8 bit = (u8)(1U << (a % 8));

			*at = a;
			if (!(masks[pg] & bit))
				return "sector planned but clean";
			if (seen[pg] & bit)
				return "sector planned twice";
			if (col < w->col || col >= w->col + w->ncols)
				return "sector outside the window";
			seen[pg] |= bit;
		}
	}
	for (p = w->col; p < w->col + w->ncols; p++)
		for (sp = 0; sp < g->spans; sp++) {
			u32 f = 0, any = 0;

			for (s = sp; s < g->strips; s += g->spans) {
				f += masks[s * g->strip_pages + p] == 0xff;
				any += !!masks[s * g->strip_pages + p];
			}
			full += f == g->strips / g->spans;
			partial += f != g->strips / g->spans && any;
		}
	*at = (u64)full << 32 | partial;
	if (g->parity ? w->full != full || w->partial != partial ||
	    w->full_stripe != (full == w->ncols * g->spans) :
	    w->full || w->partial || w->full_stripe)
		return "full/partial counts differ from the recount";
	return NULL;
}

#endif
