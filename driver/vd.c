// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual drive lifecycle: create (open members, build the gendisk and its
 * queue limits), delete (refuse while open, drain, release members) and
 * the block_device_operations of /dev/vraidN.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/uuid.h>
#include <linux/timekeeping.h>

#include "vraid.h"

int vraid_major;

static VRAID_OPEN_PROTO(vraid_open)
{
	struct vraid_vd *vd = VRAID_OPEN_DISK(bdev)->private_data;
	int ret = 0;

	mutex_lock(&vd->lock);
	if (vd->deleting)
		ret = -ENXIO;
	else
		vd->open_count++;
	mutex_unlock(&vd->lock);
	return ret;
}

static VRAID_RELEASE_PROTO(vraid_release)
{
	struct vraid_vd *vd = disk->private_data;

	mutex_lock(&vd->lock);
	vd->open_count--;
	mutex_unlock(&vd->lock);
}

const struct block_device_operations vraid_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= vraid_submit_bio,
	.open		= vraid_open,
	.release	= vraid_release,
};

static void vraid_unlink_holders(struct vraid_vd *vd)
{
	u32 i;

	for (i = 0; i < VRAID_MAX_MEMBERS; i++) {
		struct vraid_member *m = &vd->members[i];

		if (m->holder_linked)
			bd_unlink_disk_holder(m->h.bdev, vd->disk);
		m->holder_linked = false;
	}
}

static void vraid_close_members(struct vraid_vd *vd)
{
	u32 i;

	vraid_unlink_holders(vd);
	for (i = 0; i < VRAID_MAX_MEMBERS; i++)
		vraid_bdev_close(&vd->members[i].h);
}

static bool vraid_overlaps(struct block_device *a, struct block_device *b)
{
	/* A whole disk and one of its partitions share sectors. */
	return bdev_whole(a) == b || bdev_whole(b) == a;
}

/* Open every member exclusively and check it; reasons go to c->hdr. */
static int vraid_open_members(struct vraid_vd *vd, struct vraid_create *c,
			      u64 *min_data)
{
	char *msg = c->hdr.message;
	size_t len = sizeof(c->hdr.message);
	u64 need = VRAID_DATA_OFFSET_SECTORS + VRAID_MIN_DATA_SECTORS;
	u32 i, j;
	int ret;

	*min_data = U64_MAX;
	for (i = 0; i < c->nr_members; i++) {
		struct vraid_member *m = &vd->members[i];
		struct block_device *bdev;

		m->dev = MKDEV(c->members[i].major, c->members[i].minor);
		m->role = i;
		ret = vraid_bdev_open(&m->h, m->dev, vd);
		if (ret == -EBUSY) {
			snprintf(msg, len,
				 "member %u (%u:%u) is in use: mounted, in an md/dm array or in another virtual drive",
				 i, MAJOR(m->dev), MINOR(m->dev));
			return ret;
		} else if (ret) {
			snprintf(msg, len,
				 "member %u (%u:%u) cannot be opened (error %d): no such block device?",
				 i, MAJOR(m->dev), MINOR(m->dev), ret);
			return ret == -ENODEV ? -ENXIO : ret;
		}
		bdev = m->h.bdev;
		snprintf(m->name, sizeof(m->name), "%pg", bdev);
		m->dev_sectors = bdev_nr_sectors(bdev);
		m->state = VRAID_MEMBER_ONLINE;

		if (bdev_read_only(bdev)) {
			snprintf(msg, len, "member %u (%s) is read-only", i,
				 m->name);
			return -EROFS;
		}
		if (m->dev_sectors < need) {
			snprintf(msg, len,
				 "member %u (%s) is too small: %llu KiB, needs at least %llu KiB (8 MiB reserved + 1 MiB data)",
				 i, m->name, m->dev_sectors >> 1, need >> 1);
			return -ENOSPC;
		}
		for (j = 0; j < i; j++) {
			if (vraid_overlaps(bdev, vd->members[j].h.bdev)) {
				snprintf(msg, len,
					 "members %u (%s) and %u (%s) overlap: one is a partition of the other",
					 j, vd->members[j].name, i, m->name);
				return -EINVAL;
			}
		}
		*min_data = min(*min_data,
				m->dev_sectors - VRAID_DATA_OFFSET_SECTORS);
	}
	return 0;
}

static void vraid_set_limits(struct vraid_vd *vd)
{
	struct request_queue *q = vd->disk->queue;
	const struct vraid_geom *g = &vd->geom;
	bool wc = false, fua = false, nonrot = true, discard = true;
	bool parity = vraid_layout_is_parity(g->level);
	unsigned int max_discard = UINT_MAX;
	u32 i, strip = g->strip_sectors;

	blk_set_stacking_limits(&q->limits);
	for (i = 0; i < g->nr_members; i++) {
		struct block_device *bdev = vd->members[i].h.bdev;

		disk_stack_limits(vd->disk, bdev,
				  VRAID_DATA_OFFSET_SECTORS << SECTOR_SHIFT);
		wc |= bdev_write_cache(bdev);
		fua |= bdev_fua(bdev);
		nonrot &= bdev_nonrot(bdev);
		if (!bdev_max_discard_sectors(bdev))
			discard = false;
		else
			max_discard = min(max_discard,
					  bdev_max_discard_sectors(bdev));
	}
	if (strip) {
		/*
		 * Every bio the block layer hands us lies in one strip
		 * (RAID1 too: its in-flight write ranges are kept per strip).
		 */
		blk_queue_chunk_sectors(q, strip);
		blk_queue_io_min(q, strip << SECTOR_SHIFT);
		blk_queue_io_opt(q, (strip << SECTOR_SHIFT) * g->data_members);
		max_discard = min(max_discard, strip);
		blk_queue_max_write_zeroes_sectors(q,
			min(q->limits.max_write_zeroes_sectors, strip));
	}
	if (parity) {
		/*
		 * Parity is computed over 4 KiB columns; discard and write
		 * zeroes are not offered (a discarded block's content is not
		 * defined, so parity over it would not be either).
		 */
		discard = false;
		blk_queue_max_write_zeroes_sectors(q, 0);
	}
	blk_queue_max_discard_sectors(q, discard ? max_discard : 0);
	/*
	 * Members handle FUA themselves (the block layer emulates it with a
	 * flush where the device lacks it), so FUA is offered with a cache.
	 */
	blk_queue_write_cache(q, wc, wc || fua);
	if (nonrot)
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	else
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_set(QUEUE_FLAG_IO_STAT, q);
}

static void vraid_vd_free(struct vraid_vd *vd)
{
	kfree(vd);
}

/* Called with vraid_ctl_mutex held. */
int vraid_vd_create(struct vraid_create *c)
{
	char *msg = c->hdr.message;
	size_t len = sizeof(c->hdr.message);
	struct vraid_vd *vd;
	struct gendisk *disk;
	bool md_written = false;
	u64 min_data;
	u32 i;
	int ret, idx;

	vd = kzalloc(sizeof(*vd), GFP_KERNEL);
	if (!vd)
		return -ENOMEM;
	mutex_init(&vd->lock);
	mutex_init(&vd->md_lock);
	INIT_WORK(&vd->md_work, vraid_md_work);
	spin_lock_init(&vd->state_lock);
	memcpy(vd->name, c->name, sizeof(vd->name));
	vd->state = VRAID_VD_OPTIMAL;
	vd->access_policy = VRAID_ACCESS_RW;
	vd->disk_cache_policy = VRAID_DCACHE_DEFAULT;
	vd->io_policy = VRAID_IO_DIRECT;
	vd->read_policy = VRAID_READ_NORA;
	vd->write_policy = VRAID_WRITE_THROUGH;

	ret = vraid_open_members(vd, c, &min_data);
	if (ret)
		goto out_members;
	ret = vraid_layout_init(&vd->geom, c->level, c->nr_members,
				c->strip_bytes, c->spans, min_data, msg, len);
	if (ret)
		goto out_members;

	/* Identities, and the metadata on every member before going live. */
	generate_random_uuid(vd->uuid);
	vd->created = ktime_get_real_seconds();
	for (i = 0; i < c->nr_members; i++)
		generate_random_uuid(vd->members[i].uuid);
	md_written = true;
	ret = vraid_md_write_all(vd, false, msg, len);
	if (ret)
		goto out_members;

	idx = vraid_idr_alloc(vd);
	if (idx < 0) {
		ret = idx;
		snprintf(msg, len, "all %u virtual drive slots are in use",
			 VRAID_MAX_VDS);
		goto out_members;
	}
	vd->index = idx;

	ret = vraid_io_init(vd);
	if (ret) {
		snprintf(msg, len, "out of memory");
		goto out_idr;
	}

	disk = blk_alloc_disk(NUMA_NO_NODE);
	if (!disk) {
		ret = -ENOMEM;
		snprintf(msg, len, "out of memory");
		goto out_io;
	}
	vd->disk = disk;
	disk->major = vraid_major;
	disk->first_minor = idx * VRAID_MINORS;
	disk->minors = VRAID_MINORS;
	disk->fops = &vraid_fops;
	disk->private_data = vd;
	snprintf(disk->disk_name, sizeof(disk->disk_name),
		 VRAID_DISK_PREFIX "%d", idx);
	vraid_set_limits(vd);
	set_capacity(disk, vd->geom.size_sectors);

	ret = device_add_disk(NULL, disk, vraid_disk_groups);
	if (ret) {
		snprintf(msg, len, "cannot add the disk (error %d)", ret);
		goto out_disk;
	}
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		/* Only cosmetic (holders/ and slaves/ links): not fatal. */
		if (!bd_link_disk_holder(m->h.bdev, disk))
			m->holder_linked = true;
	}
	/* Each VD pins the module: rmmod is refused while VDs exist. */
	__module_get(THIS_MODULE);

	c->index = idx;
	strscpy(c->disk_name, disk->disk_name, sizeof(c->disk_name));
	pr_info("%s: created %s%s%s, %u member%s, strip %u KiB, %llu MiB\n",
		disk->disk_name, vraid_level_name(vd->geom.level),
		vd->name[0] ? " " : "", vd->name, vd->geom.nr_members,
		vd->geom.nr_members == 1 ? "" : "s",
		vd->geom.strip_sectors >> 1,
		(unsigned long long)(vd->geom.size_sectors >> 11));
	return 0;

out_disk:
	flush_work(&vd->md_work);
	put_disk(disk);
	vd->disk = NULL;
out_io:
	vraid_io_exit(vd);
out_idr:
	vraid_idr_remove(idx);
out_members:
	if (md_written) {
		char scratch[VRAID_MSG_LEN];

		/* No VD came of it: leave no metadata describing one. */
		vraid_md_write_all(vd, true, scratch, sizeof(scratch));
	}
	vraid_close_members(vd);
	vraid_vd_free(vd);
	return ret;
}

/*
 * Called with vraid_ctl_mutex held and @vd still in the idr.  Refuses an
 * open VD; otherwise removes the disk, waits for I/O in flight and
 * releases the members.
 */
int vraid_vd_delete(struct vraid_vd *vd, char *msg, size_t msglen)
{
	struct gendisk *disk = vd->disk;

	mutex_lock(&vd->lock);
	if (vd->open_count) {
		snprintf(msg, msglen,
			 "%s is open (%u opener%s): unmount it or stop its users first",
			 disk->disk_name, vd->open_count,
			 vd->open_count == 1 ? "" : "s");
		mutex_unlock(&vd->lock);
		return -EBUSY;
	}
	vd->deleting = true;
	mutex_unlock(&vd->lock);

	vraid_idr_remove(vd->index);
	pr_info("%s: deleted\n", disk->disk_name);
	vraid_unlink_holders(vd);
	del_gendisk(disk);
	vraid_io_exit(vd);
	flush_work(&vd->md_work);
	/* Deleted, not stopped: its members no longer describe a VD. */
	if (vraid_md_write_all(vd, true, msg, msglen))
		pr_warn("%s: %s\n", disk->disk_name, msg);
	msg[0] = '\0';
	vraid_close_members(vd);
	put_disk(disk);
	vraid_vd_free(vd);
	module_put(THIS_MODULE);
	return 0;
}

void vraid_vd_fill_info(struct vraid_vd *vd, struct vraid_info *info)
{
	struct vraid_stats sum;
	u32 i;

	vraid_stats_sum(vd, &sum);
	info->level = vd->geom.level;
	info->state = READ_ONCE(vd->state);
	info->strip_bytes = vd->geom.strip_sectors << SECTOR_SHIFT;
	info->nr_members = vd->geom.nr_members;
	info->spans = vd->geom.spans > 1 ? vd->geom.spans : 0;
	mutex_lock(&vd->lock);
	info->open_count = vd->open_count;
	mutex_unlock(&vd->lock);
	info->logical_block_size = queue_logical_block_size(vd->disk->queue);
	info->size_sectors = vd->geom.size_sectors;
	info->data_offset_sectors = VRAID_DATA_OFFSET_SECTORS;
	info->member_data_sectors = vd->geom.member_sectors;
	memcpy(info->name, vd->name, sizeof(info->name));
	strscpy(info->disk_name, vd->disk->disk_name, sizeof(info->disk_name));
	info->access_policy = vd->access_policy;
	info->disk_cache_policy = vd->disk_cache_policy;
	info->io_policy = vd->io_policy;
	info->read_policy = vd->read_policy;
	info->write_policy = vd->write_policy;
	info->full_stripe_bytes = (vd->geom.strip_sectors << SECTOR_SHIFT) *
				  vd->geom.data_members;
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];
		struct vraid_member_info *mi = &info->members[i];

		mi->major = MAJOR(m->dev);
		mi->minor = MINOR(m->dev);
		mi->state = m->state;
		mi->role = m->role;
		mi->dev_sectors = m->dev_sectors;
		mi->data_sectors = vd->geom.member_sectors;
		strscpy(mi->dev_name, m->name, sizeof(mi->dev_name));
		mi->read_ios = sum.member_reads[i];
		mi->write_ios = sum.member_writes[i];
		mi->errors = sum.member_errors[i];
	}
}
