// SPDX-License-Identifier: GPL-2.0
/*
 * vraid-record - a device-mapper target that passes I/O to a data device
 * and records every write, with its data and its FLUSH/FUA flags, on a log
 * device: the member recorder of the crash states (tests/vm/crash/states.sh,
 * Documentation/testing.rst "Crash states").  A test tool, not part of
 * vraid.ko.
 *
 *   table:   <start> <len> vraid-record <data device> <log device>
 *   message: mark <name>   a MARK entry (returns once it is on the log)
 *   status:  <entries> <log sectors used> <log sectors> <log write errors>
 *
 * The log is in the on-disk format of the kernel's dm-log-writes, so that
 * tests/vm/logreplay.c reads either: sector 0 holds the super block
 * (magic, version 1, the number of entries, the sector size: the data
 * device's logical block size); then, per entry, one such sector with the
 * entry's header (sector and count in those sectors, flags, the length of
 * a mark's text, which follows the header) and the data written (none for
 * a DISCARD, a FLUSH or a MARK).  The super block is written when the
 * target is made, after each mark, and when it goes.
 *
 * Why our own: what a crash image may hold is decided by the order of the
 * log (logreplay.c: everything before the last FLUSH entry is durable, a
 * FUA write from its entry on, any other write after it may or may not
 * be).  dm-log-writes (6.1) logs a plain write only when a later flush is
 * sent, a FUA write when it completes: a plain write that completed before
 * a FUA write of the same sectors was even sent is logged after it, and
 * every replay writes the older data over the newer (vraid does exactly
 * that when a write around its cache waits for the destage of the block).
 *
 * The order this target logs in, and why it is the right one.  The log
 * is a sequence of entries; "A before B" means A's entry is earlier.
 *
 *  1. A write is logged when it completes, before it completes upward.
 *     Each write's clone to the data device ends in rec_endio(), which
 *     appends the write to rec->queue under rec->lock; rec_advance()
 *     moves the queue's head, in order, to rec->ready (the order of the
 *     log: the worker writes the entries in that order and nothing else)
 *     and only then is the bio completed upward.  So if the layer above
 *     saw A complete before it sent B, A was in rec->ready before B was
 *     even mapped, and A is before B: the log is a linearization of the
 *     completions.  FUA writes, discards and marks go the same way.
 *
 *  2. A FLUSH entry at position p says: every write before p is durable.
 *     That is true only of the writes that completed before the flush was
 *     sent down.  The flush is appended to rec->queue in rec_map(), before
 *     its clone is submitted, and rec_advance() stops at a flush that has
 *     not completed: the writes that complete meanwhile queue up behind it
 *     and are held (not logged, not completed upward) until it completes;
 *     then its FLUSH entry goes first and they follow.  So the writes
 *     before p completed before the flush was sent (it covered them, and
 *     p is logged only once it completed), and a write that completed
 *     while it was in flight is after p: volatile for a replay, which is
 *     what a disk may do with it (the flush may or may not have covered
 *     it).  The layer above cannot have relied on the flush covering a
 *     held write: it saw that write complete only after the flush did.
 *     Two flushes in flight: the later one waits for the earlier one
 *     (both are logged in the order they were sent).
 *
 *  3. A FUA write is durable once it completes: its entry has FUA and is
 *     logged as any write (1.), possibly held behind a flush (2.), which
 *     only delays the point from which a replay counts it as durable to
 *     after its upward completion.  A discard is an entry with DISCARD
 *     and no data (a replay writes zeros), volatile as a plain write; the
 *     target passes discards only if the data device takes them (a table
 *     without discard support gets none) and takes no write-zeroes or
 *     secure-erase requests (dm then offers none).  A PREFLUSH with data
 *     does not reach a target (dm sends an empty flush, then the data
 *     without PREFLUSH); should one come, its FLUSH entry carries the data.
 *
 *  4. A mark (the message) is appended like a completed write: the writes
 *     that completed before the message are before it.
 *
 * Forward progress.  rec_map() copies a write's data into pages it
 * allocates with GFP_NOIO (the data must be logged after the bio
 * completed upward and its pages went back to their owner) and clones the
 * bio from a bio_set with a rescuer; rec_endio() runs in interrupt
 * context: it only takes the spinlock, moves list entries and completes
 * bios; the log is written by an ordered workqueue with a rescuer
 * (WQ_MEM_RECLAIM), whose bios come from the kernel's bio_set and its
 * pages are the ones rec_map() filled.  A flush holds completions only
 * until the data device completes it, which does not wait for anything
 * held here.  The log is written asynchronously; the table's destructor
 * waits for all of it.
 */
#include <linux/bio.h>
#include <linux/completion.h>
#include <linux/device-mapper.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#define DM_MSG_PREFIX "vraid-record"

/* the on-disk format (tests/vm/logreplay.c reads it), little-endian */
#define REC_MAGIC	0x6a736677736872ULL
#define REC_VERSION	1ULL
#define REC_FLUSH	(1ULL << 0)
#define REC_FUA		(1ULL << 1)
#define REC_DISCARD	(1ULL << 2)
#define REC_MARK	(1ULL << 3)
#define REC_META	(1ULL << 4)
#define REC_MARK_MAX	255	/* bytes of a mark's text */

struct rec_super {
	__le64 magic;
	__le64 version;
	__le64 nr_entries;
	__le32 sectorsize;
} __packed;

struct rec_entry {
	__le64 sector;		/* in sectorsize units */
	__le64 nr_sectors;
	__le64 flags;
	__le64 data_len;	/* a mark's text */
};

enum rec_kind {
	REC_KIND_WRITE,		/* a write or a discard */
	REC_KIND_FLUSH,		/* a PREFLUSH (its data, if any, with it) */
	REC_KIND_MARK,
};

struct rec;

/*
 * One entry to be: made by rec_map() (or the mark message), on rec->queue
 * (a write once it completed, a flush from its submission), then on
 * rec->ready, then the worker's, and freed once its log bios completed
 * (a mark: by the message, once the worker completed @marked).
 */
struct rec_item {
	struct list_head node;
	struct rec *rec;
	struct bio *orig;	/* the bio to complete upward, or NULL */
	enum rec_kind kind;
	bool done;		/* a flush: its clone completed */
	blk_status_t status;	/* of the clone */
	u64 flags;		/* REC_FUA, REC_DISCARD, REC_META */
	sector_t sector;	/* on the data device, 512-byte sectors */
	unsigned int bytes;	/* of the write or discard */
	const char *mark;	/* a mark's text */
	struct completion *marked;
	atomic_t pending;	/* log bios in flight, +1 while the worker builds */
	struct page *header;
	unsigned int nr_pages;	/* of data, in pages[] */
	struct page *pages[];
};

struct rec {
	struct dm_dev *dev;
	struct dm_dev *log;
	unsigned int ss;	/* bytes: the data device's logical block */
	unsigned int ss_shift;	/* ilog2(ss) - SECTOR_SHIFT */
	sector_t log_end;	/* 512-byte sectors of the log device */
	struct bio_set bs;	/* the clones to the data device */
	struct workqueue_struct *wq;
	struct work_struct work;

	/*
	 * Protects queue and ready; taken in interrupt context (rec_endio),
	 * so always with interrupts off.  queue: the writes completed and
	 * the flushes sent, in that order, not yet logged; ready: the order
	 * of the log, for the worker.
	 */
	spinlock_t lock;
	struct list_head queue;
	struct list_head ready;

	/* the worker's (and the constructor's and destructor's) */
	sector_t next;		/* where the next entry goes */
	u64 entries;		/* read by rec_status() */
	bool stopped;		/* the log is full or failed: no more entries */

	/*
	 * Log bios in flight; wake_up_var() when it drops to 0, which
	 * touches nothing of @rec (the destructor may free it right then).
	 */
	atomic_t inflight;
	atomic_t errors;	/* log writes that failed */
};

static void rec_item_free(struct rec_item *item)
{
	unsigned int i;

	for (i = 0; i < item->nr_pages; i++)
		__free_page(item->pages[i]);
	if (item->header)
		__free_page(item->header);
	kfree(item);
}

/*
 * Called with rec->lock held: move the head of the queue to the log's
 * order up to the first flush still in flight, and hand their bios, with
 * their status, to @done to be completed once the lock is dropped.
 * Returns whether anything is ready for the worker.
 */
static bool rec_advance(struct rec *rec, struct bio_list *done)
{
	struct rec_item *item, *next;
	bool moved = false;

	list_for_each_entry_safe(item, next, &rec->queue, node) {
		if (item->kind == REC_KIND_FLUSH && !item->done)
			break;
		list_move_tail(&item->node, &rec->ready);
		if (item->orig) {
			item->orig->bi_status = item->status;
			bio_list_add(done, item->orig);
			item->orig = NULL;
		}
		moved = true;
	}
	return moved;
}

/*
 * After rec_advance(), without the lock: wake the worker, then complete
 * upward.  In that order: once the last bio completed, the table may be
 * destroyed, and its destructor must find the work queued.
 */
static void rec_finish(struct rec *rec, struct bio_list *done, bool moved)
{
	struct bio *bio;

	if (moved)
		queue_work(rec->wq, &rec->work);
	while ((bio = bio_list_pop(done)))
		bio_endio(bio);
}

/* The completion of a clone on the data device (interrupt context). */
static void rec_endio(struct bio *clone)
{
	struct rec_item *item = clone->bi_private;
	struct rec *rec = item->rec;
	struct bio_list done = BIO_EMPTY_LIST;
	unsigned long flags;
	bool moved;

	item->status = clone->bi_status;
	bio_put(clone);
	spin_lock_irqsave(&rec->lock, flags);
	if (item->kind == REC_KIND_FLUSH)
		item->done = true;	/* on the queue since rec_map() */
	else
		list_add_tail(&item->node, &rec->queue);
	moved = rec_advance(rec, &done);
	spin_unlock_irqrestore(&rec->lock, flags);
	rec_finish(rec, &done, moved);
}

/* A write's data into @item's pages, as it is when the write is sent. */
static void rec_copy(struct rec_item *item, struct bio *bio)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	size_t off = 0;

	bio_for_each_segment(bv, bio, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			size_t in_page = offset_in_page(off);
			unsigned int n = min_t(size_t, bv.bv_len - done,
					       PAGE_SIZE - in_page);

			memcpy_from_page((char *)page_address(item->pages[off >> PAGE_SHIFT]) +
					 in_page, bv.bv_page, bv.bv_offset + done, n);
			done += n;
			off += n;
		}
	}
}

static struct rec_item *rec_item_new(struct rec *rec, struct bio *bio)
{
	unsigned int nr = 0, i;
	struct rec_item *item;

	if (bio_has_data(bio))
		nr = DIV_ROUND_UP(bio->bi_iter.bi_size, PAGE_SIZE);
	item = kzalloc(struct_size(item, pages, nr), GFP_NOIO);
	if (!item)
		return NULL;
	item->rec = rec;
	item->orig = bio;
	item->kind = (bio->bi_opf & REQ_PREFLUSH) ? REC_KIND_FLUSH : REC_KIND_WRITE;
	if (bio_sectors(bio))
		item->sector = bio->bi_iter.bi_sector;
	item->bytes = bio->bi_iter.bi_size;
	if (bio->bi_opf & REQ_FUA)
		item->flags |= REC_FUA;
	if (bio->bi_opf & REQ_META)
		item->flags |= REC_META;
	if (bio_op(bio) == REQ_OP_DISCARD)
		item->flags |= REC_DISCARD;
	for (i = 0; i < nr; i++) {
		item->pages[i] = alloc_page(GFP_NOIO);
		if (!item->pages[i]) {
			rec_item_free(item);
			return NULL;
		}
		item->nr_pages = i + 1;
	}
	if (nr)
		rec_copy(item, bio);
	return item;
}

static int rec_map(struct dm_target *ti, struct bio *bio)
{
	struct rec *rec = ti->private;
	struct rec_item *item;
	struct bio *clone;
	unsigned long flags;

	/* (an empty flush has no sector) */
	if (bio_sectors(bio))
		bio->bi_iter.bi_sector = dm_target_offset(ti, bio->bi_iter.bi_sector);
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		bio_set_dev(bio, rec->dev->bdev);
		return DM_MAPIO_REMAPPED;
	case REQ_OP_WRITE:
	case REQ_OP_DISCARD:
		break;
	default:
		return DM_MAPIO_KILL;	/* none offered */
	}
	item = rec_item_new(rec, bio);
	if (!item) {
		DMERR_LIMIT("out of memory for a write's copy: failing it");
		return DM_MAPIO_KILL;
	}
	clone = bio_alloc_clone(rec->dev->bdev, bio, GFP_NOIO, &rec->bs);
	if (!clone) {
		rec_item_free(item);
		return DM_MAPIO_KILL;
	}
	clone->bi_private = item;
	clone->bi_end_io = rec_endio;
	if (item->kind == REC_KIND_FLUSH) {
		/* before it is sent: what completes from now on is after it */
		spin_lock_irqsave(&rec->lock, flags);
		list_add_tail(&item->node, &rec->queue);
		spin_unlock_irqrestore(&rec->lock, flags);
	}
	submit_bio_noacct(clone);
	return DM_MAPIO_SUBMITTED;
}

/* ---- the worker: writing the log ---- */

static void rec_log_endio(struct bio *bio)
{
	struct rec_item *item = bio->bi_private;
	struct rec *rec = item->rec;

	if (bio->bi_status && atomic_inc_return(&rec->errors) == 1)
		DMERR("writing the log failed (status %d): the log is incomplete",
		      blk_status_to_errno(bio->bi_status));
	bio_put(bio);
	if (atomic_dec_and_test(&item->pending))
		rec_item_free(item);
	if (atomic_dec_and_test(&rec->inflight))
		wake_up_var(&rec->inflight);
}

static void rec_submit(struct rec *rec, struct rec_item *item, struct bio *bio)
{
	atomic_inc(&item->pending);
	atomic_inc(&rec->inflight);
	bio->bi_private = item;
	bio->bi_end_io = rec_log_endio;
	submit_bio(bio);
}

/*
 * Write @item's entry at rec->next: the header sector, then its data.
 * The item is the log bios' until they complete (a mark stays the
 * message's: it has no pages, and its bio is waited for).
 */
static void rec_write_entry(struct rec *rec, struct rec_item *item, u64 flags)
{
	unsigned int data = (flags & (REC_DISCARD | REC_MARK)) ? 0 : item->bytes;
	sector_t need = (rec->ss + data) >> SECTOR_SHIFT;
	struct rec_entry *entry;
	struct bio *bio;
	unsigned int i;
	sector_t at;

	if (rec->stopped)
		return;
	if (rec->next + need > rec->log_end) {
		DMERR("the log device is full after %llu entries: the log is incomplete",
		      rec->entries);
		rec->stopped = true;
		return;
	}
	item->header = alloc_page(GFP_NOIO | __GFP_ZERO);
	if (!item->header) {
		DMERR("out of memory for an entry: the log is incomplete");
		rec->stopped = true;
		return;
	}
	entry = page_address(item->header);
	entry->sector = cpu_to_le64(item->sector >> rec->ss_shift);
	entry->nr_sectors = cpu_to_le64((flags & REC_MARK) ? 0 : item->bytes / rec->ss);
	entry->flags = cpu_to_le64(flags);
	if (flags & REC_MARK) {
		entry->data_len = cpu_to_le64(strlen(item->mark));
		memcpy(entry + 1, item->mark, strlen(item->mark));
	}

	bio = bio_alloc(rec->log->bdev, min_t(unsigned int, 1 + item->nr_pages, BIO_MAX_VECS),
			REQ_OP_WRITE, GFP_NOIO);
	bio->bi_iter.bi_sector = rec->next;
	__bio_add_page(bio, item->header, rec->ss, 0);
	for (i = 0; data && i < item->nr_pages; i++) {
		unsigned int len = min_t(unsigned int, data - i * PAGE_SIZE, PAGE_SIZE);

		if (bio_add_page(bio, item->pages[i], len, 0) == len)
			continue;
		/* full: send it, go on in a new bio right after it */
		at = bio_end_sector(bio);
		rec_submit(rec, item, bio);
		bio = bio_alloc(rec->log->bdev,
				min_t(unsigned int, item->nr_pages - i, BIO_MAX_VECS),
				REQ_OP_WRITE, GFP_NOIO);
		bio->bi_iter.bi_sector = at;
		__bio_add_page(bio, item->pages[i], len, 0);
	}
	rec_submit(rec, item, bio);
	rec->next += need;
	WRITE_ONCE(rec->entries, rec->entries + 1);
}

/* The super block, once every entry before it is on the log. */
static int rec_write_super(struct rec *rec)
{
	struct rec_super *super;
	struct page *page;
	struct bio *bio;
	int ret;

	wait_var_event(&rec->inflight, !atomic_read(&rec->inflight));
	page = alloc_page(GFP_NOIO | __GFP_ZERO);
	if (!page)
		return -ENOMEM;
	super = page_address(page);
	super->magic = cpu_to_le64(REC_MAGIC);
	super->version = cpu_to_le64(REC_VERSION);
	super->nr_entries = cpu_to_le64(rec->entries);
	super->sectorsize = cpu_to_le32(rec->ss);
	bio = bio_alloc(rec->log->bdev, 1, REQ_OP_WRITE | REQ_PREFLUSH | REQ_FUA,
			GFP_NOIO);
	bio->bi_iter.bi_sector = 0;
	__bio_add_page(bio, page, rec->ss, 0);
	ret = submit_bio_wait(bio);
	bio_put(bio);
	__free_page(page);
	if (ret)
		DMERR("writing the log's super block failed (%d): the log is incomplete",
		      ret);
	return ret;
}

static void rec_log_item(struct rec *rec, struct rec_item *item)
{
	u64 flags = item->flags;

	atomic_set(&item->pending, 1);
	switch (item->kind) {
	case REC_KIND_MARK:
		rec_write_entry(rec, item, REC_MARK);
		rec_write_super(rec);	/* waits for the mark's bio too */
		complete(item->marked);
		return;
	case REC_KIND_FLUSH:
		flags |= REC_FLUSH;
		fallthrough;
	case REC_KIND_WRITE:
		/* a failed write or flush: nothing to log */
		if (!item->status && (item->bytes || (flags & REC_FLUSH)))
			rec_write_entry(rec, item, flags);
		break;
	}
	if (atomic_dec_and_test(&item->pending))
		rec_item_free(item);
}

static void rec_work(struct work_struct *work)
{
	struct rec *rec = container_of(work, struct rec, work);
	struct rec_item *item, *next;
	LIST_HEAD(items);

	spin_lock_irq(&rec->lock);
	list_splice_init(&rec->ready, &items);
	spin_unlock_irq(&rec->lock);
	list_for_each_entry_safe(item, next, &items, node) {
		list_del(&item->node);
		rec_log_item(rec, item);
	}
}

/* ---- the target ---- */

static void rec_free(struct dm_target *ti, struct rec *rec)
{
	if (rec->wq)
		destroy_workqueue(rec->wq);
	bioset_exit(&rec->bs);
	if (rec->log)
		dm_put_device(ti, rec->log);
	if (rec->dev)
		dm_put_device(ti, rec->dev);
	kfree(rec);
}

static int rec_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct rec *rec;
	int ret;

	if (argc != 2) {
		ti->error = "vraid-record needs <data device> <log device>";
		return -EINVAL;
	}
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	spin_lock_init(&rec->lock);
	INIT_LIST_HEAD(&rec->queue);
	INIT_LIST_HEAD(&rec->ready);
	INIT_WORK(&rec->work, rec_work);
	ti->private = rec;

	ret = dm_get_device(ti, argv[0], dm_table_get_mode(ti->table), &rec->dev);
	if (ret) {
		ti->error = "cannot open the data device";
		goto fail;
	}
	ret = dm_get_device(ti, argv[1], dm_table_get_mode(ti->table), &rec->log);
	if (ret) {
		ti->error = "cannot open the log device";
		goto fail;
	}
	rec->ss = bdev_logical_block_size(rec->dev->bdev);
	rec->ss_shift = ilog2(rec->ss) - SECTOR_SHIFT;
	rec->log_end = bdev_nr_sectors(rec->log->bdev);
	rec->next = rec->ss >> SECTOR_SHIFT;
	ret = -EINVAL;
	if (bdev_logical_block_size(rec->log->bdev) > rec->ss) {
		ti->error = "the log device's logical blocks are larger than the data device's";
		goto fail;
	}
	if (rec->log_end < 2 * rec->next) {
		ti->error = "the log device is too small";
		goto fail;
	}
	ret = bioset_init(&rec->bs, BIO_POOL_SIZE, 0, BIOSET_NEED_RESCUER);
	if (ret) {
		ti->error = "cannot make a bio_set";
		goto fail;
	}
	ret = -ENOMEM;
	rec->wq = alloc_ordered_workqueue("vraid-record", WQ_MEM_RECLAIM);
	if (!rec->wq) {
		ti->error = "cannot make a workqueue";
		goto fail;
	}
	/* a log that is valid (no entries) from the start */
	ret = rec_write_super(rec);
	if (ret) {
		ti->error = "cannot write the log's super block";
		goto fail;
	}
	/* flushes also if the data device has no cache: the log needs them */
	ti->num_flush_bios = 1;
	ti->flush_supported = true;
	ti->num_discard_bios = 1;
	return 0;
fail:
	rec_free(ti, rec);
	return ret;
}

/* No I/O of the target is in flight: dm drained it before. */
static void rec_dtr(struct dm_target *ti)
{
	struct rec *rec = ti->private;
	struct rec_item end = {
		.kind = REC_KIND_MARK,
		.mark = "vraid-record-end",
		.rec = rec,
	};

	flush_workqueue(rec->wq);
	WARN_ON_ONCE(!list_empty(&rec->queue) || !list_empty(&rec->ready));
	/* the worker is idle: the end mark and the super block from here */
	atomic_set(&end.pending, 1);
	rec_write_entry(rec, &end, REC_MARK);
	rec_write_super(rec);
	if (end.header)
		__free_page(end.header);
	rec_free(ti, rec);
}

static int rec_message(struct dm_target *ti, unsigned int argc, char **argv,
		       char *result, unsigned int maxlen)
{
	struct rec *rec = ti->private;
	struct bio_list done = BIO_EMPTY_LIST;
	DECLARE_COMPLETION_ONSTACK(marked);
	struct rec_item *item;
	unsigned long flags;
	bool moved;

	if (argc != 2 || strcasecmp(argv[0], "mark")) {
		DMWARN("unknown message: the one message is \"mark <name>\"");
		return -EINVAL;
	}
	if (strlen(argv[1]) > REC_MARK_MAX ||
	    strlen(argv[1]) > rec->ss - sizeof(struct rec_entry)) {
		DMWARN("a mark's name has at most %d bytes", REC_MARK_MAX);
		return -EINVAL;
	}
	item = kzalloc(sizeof(*item), GFP_KERNEL);
	if (!item)
		return -ENOMEM;
	item->rec = rec;
	item->kind = REC_KIND_MARK;
	item->mark = argv[1];
	item->marked = &marked;
	spin_lock_irqsave(&rec->lock, flags);
	list_add_tail(&item->node, &rec->queue);
	moved = rec_advance(rec, &done);
	spin_unlock_irqrestore(&rec->lock, flags);
	rec_finish(rec, &done, moved);
	wait_for_completion(&marked);
	if (item->header)
		__free_page(item->header);
	kfree(item);
	return 0;
}

static void rec_status(struct dm_target *ti, status_type_t type,
		       unsigned int status_flags, char *result, unsigned int maxlen)
{
	struct rec *rec = ti->private;
	unsigned int sz = 0;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%llu %llu %llu %d", READ_ONCE(rec->entries),
		       (unsigned long long)READ_ONCE(rec->next),
		       (unsigned long long)rec->log_end, atomic_read(&rec->errors));
		break;
	case STATUSTYPE_TABLE:
		DMEMIT("%s %s", rec->dev->name, rec->log->name);
		break;
	default:
		if (maxlen)
			*result = 0;
		break;
	}
}

static int rec_iterate_devices(struct dm_target *ti,
			       iterate_devices_callout_fn fn, void *data)
{
	struct rec *rec = ti->private;

	return fn(ti, rec->dev, 0, ti->len, data);
}

static struct target_type rec_target = {
	.name = "vraid-record",
	.version = {1, 0, 0},
	.module = THIS_MODULE,
	.ctr = rec_ctr,
	.dtr = rec_dtr,
	.map = rec_map,
	.status = rec_status,
	.message = rec_message,
	.iterate_devices = rec_iterate_devices,
};

static int __init rec_init(void)
{
	return dm_register_target(&rec_target);
}

static void __exit rec_exit(void)
{
	dm_unregister_target(&rec_target);
}

module_init(rec_init);
module_exit(rec_exit);

MODULE_DESCRIPTION("vraid's crash-state member recorder: a log of writes in completion order");
MODULE_LICENSE("GPL");
