/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The controller's journal, its "battery" (journal.c; format: jformat.h):
 * what the cache, the levels, the VD's life cycle and the control
 * device ask of it.  Write-back VDs log every acknowledged write here
 * before it is answered; assembly replays what the members may not hold.
 */
#ifndef VRAID_JOURNAL_H
#define VRAID_JOURNAL_H

#include <linux/types.h>
#include <linux/completion.h>
#include <linux/mm_types.h>

/* (vraid_journal_binds() reads the VD) */
#include "vraid.h"

struct bio;
struct page;
struct vraid_controller;

int vraid_journal_module_init(void);
void vraid_journal_module_exit(void);
bool vraid_journal_get(struct vraid_vd *vd);
bool vraid_journal_get_around(struct vraid_vd *vd);
void vraid_journal_put(struct vraid_vd *vd);
bool vraid_journal_admit(u32 n);
void vraid_journal_admit_wait(struct vraid_vd *vd, u32 n);
void vraid_journal_unadmit(u32 n);

/*
 * Whether @vd's metadata may name the journal: it is bound, or being
 * unbound (vraid_unbind_locked() sets junbinding before it clears
 * jbound, and clears it once the metadata no longer does).  Inline: every
 * write the journal does not log asks (vraid_cache_write()).
 */
static inline bool vraid_journal_binds(struct vraid_vd *vd)
{
	return READ_ONCE(vd->junbinding) || READ_ONCE(vd->jbound);
}

void vraid_journal_wait_unbind(struct vraid_vd *vd);
struct vraid_journal_write;
struct vraid_journal_write *
vraid_journal_data_alloc(struct vraid_vd *vd, u64 sector, struct page **pages,
			 u32 n);
void vraid_journal_data_queue(struct vraid_journal_write *w, struct bio *user,
			      unsigned long start);
void vraid_journal_data_go(struct vraid_journal_write *w);
struct bio *vraid_journal_bypass(struct vraid_vd *vd, struct bio *user);
bool vraid_journal_bypass_abort(struct bio *bio);
/*
 * A column's parity record, from vraid_journal_parity_start() until
 * vraid_journal_parity_wait() sees it durable (in its stripe head,
 * parity.c): several go in one record.
 */
struct vraid_journal_column {
	struct list_head node;		/* the open_columns list, then its record's */
	struct vraid_vd *vd;
	u32 span;
	u64 member_sector;
	struct page **data;
	const u32 *data_index;
	const u64 *data_sector;
	const u64 *version;	/* vraid_journal_page_version() or 0 */
	u32 n;
	u32 named;			/* data[i] a DATA entry names: bit i */
	u32 nr_logged;		/* blocks logged here: n - named's */
	struct page *p, *q;
	bool ok;			/* journalled */
	struct completion done;
};

bool vraid_journal_parity_start(struct vraid_journal_column *jp,
				struct vraid_vd *vd,
				u32 span, u64 member_sector, struct page **data,
				const u32 *data_index, const u64 *data_sector,
				const u64 *ver, u32 n, struct page *p,
				struct page *q);
bool vraid_journal_parity_wait(struct vraid_journal_column *jp);

/*
 * The version of a cache page that a user record logged: the record's
 * seq and its DATA entry's index, (seq << 8) | entry, in page->private
 * from the record's reserve on; 0 if none (the page allocator hands pages
 * out with 0).  A cache page never changes once written (a rewrite is a
 * new page), so a destage's parity record may name that entry instead of
 * logging the block again.  Only for pages of a destage bio
 * (VRAID_SUB_DESTAGE): other bios' pages are not the cache's.
 */
#define VRAID_JVER_ENTRY_BITS	8
/*
 * The version of a page the cache read from the members to complete a
 * row for its destage (cache.c, "Row fill"): the members hold that data
 * already, so a parity record leaves the block out, as it leaves out the
 * blocks a read-modify-write does not change.
 */
#define VRAID_JVER_MEMBERS	(~0UL)
static inline u64 vraid_journal_page_version(struct page *page)
{
	return READ_ONCE(page->private);
}

unsigned long vraid_journal_dirty_cap(void);
void vraid_journal_bind(struct vraid_vd *vd);
int vraid_journal_unbind(struct vraid_vd *vd, bool write_md, bool may_fail);
/* What an assembly's replay of the journal did (ASSEMBLE's out fields). */
struct vraid_journal_replayed {
	u32 writes;			/* DATA entries written again */
	u32 columns;			/* parity records written */
	u32 superseded;			/* logged blocks later writes replaced */
	bool ran;			/* the VD's journal was replayed */
};

int vraid_journal_assemble(struct vraid_vd *vd, bool clean, bool no_journal,
			   struct vraid_journal_replayed *done, char *msg,
			   size_t len);
void vraid_journal_assembled(struct vraid_vd *vd);
int vraid_journal_attach(dev_t dev, bool force, char *msg, size_t len);
int vraid_journal_detach(bool released, char *msg, size_t len);
int vraid_journal_discard(char *msg, size_t len);
void vraid_journal_show(struct vraid_controller *c);
u32 vraid_journal_state(void);
void vraid_journal_busy_note(char *buf, size_t len);

#endif /* VRAID_JOURNAL_H */
