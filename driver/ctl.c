// SPDX-License-Identifier: GPL-2.0
/*
 * vraid - software RAID controller.
 *
 * The control plane: /dev/vraid-control (a misc device, like
 * /dev/loop-control) and its ioctls, and module init/exit.  Requests are
 * validated whole (portable core, validate.c) before anything is touched;
 * the reply carries an errno and a human-readable message.
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/poll.h>
#include <linux/reboot.h>
#include <linux/random.h>
#include <linux/blkdev.h>

#include "vraid.h"
#include "cache.h"
#include "journal.h"
#include "job.h"
#include "events.h"
#include "core/validate.h"
#include "core/metadata.h"
#include "core/sparerec.h"
#include "version.h"

/*
 * Serialises create/delete/list/info and protects vraid_idr.  Requests
 * wait for it a while only (vraid_ctl_lock()); vraid_ctl_what and
 * vraid_ctl_since say who holds it, for the message to those that gave
 * up: written by the holder, read racily.
 */
static DEFINE_MUTEX(vraid_ctl_mutex);
static DEFINE_IDR(vraid_idr);
static const char *vraid_ctl_what;
static unsigned long vraid_ctl_since;	/* jiffies */

/* How long a request waits in the kernel for another one to end. */
#define VRAID_CTL_WAIT		HZ

/* vraid_ctl_mutex is taken, for @what (a request's name, see above). */
static void vraid_ctl_held(const char *what)
{
	WRITE_ONCE(vraid_ctl_what, what);
	WRITE_ONCE(vraid_ctl_since, jiffies);
}

static void vraid_ctl_unlock(void)
{
	WRITE_ONCE(vraid_ctl_what, NULL);
	mutex_unlock(&vraid_ctl_mutex);
}

struct workqueue_struct *vraid_wq;
struct workqueue_struct *vraid_wait_wq;
struct workqueue_struct *vraid_flush_wq;
struct workqueue_struct *vraid_dcache_wq;
struct workqueue_struct *vraid_later_wq;
bool vraid_going_down;

/*
 * A hot spare: held open until it is taken or removed.  Its record on
 * the device (sparerec.h) says what @dedicated and @vd_uuid say, so that
 * assembly gives it back after a stop or a reboot.
 */
struct vraid_spare_dev {
	struct list_head list;
	struct vraid_bdev_handle h;
	dev_t dev;
	u64 sectors;
	/*
	 * Dedicated to the VD of UUID @vd_uuid, which need not run: a
	 * spare comes back at boot before or after its VD, and one whose
	 * VD is stopped waits for it rather than serving another.
	 */
	bool dedicated;
	u8 vd_uuid[16];
	struct vraid_sprec rec;		/* as last written on the device */
	char name[BDEVNAME_SIZE];
};

/* Hot spares, under vraid_ctl_mutex; their devices' holder is the list. */
static LIST_HEAD(vraid_spares);
static u32 vraid_nr_spares;

static void vraid_spare_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(vraid_spare_work, vraid_spare_work_fn);

/*
 * A failed member whose device still has I/O in flight cannot be replaced
 * yet (vraid_vd_swap_drain()): the spare work looks again this much later.
 */
#define VRAID_SPARE_RETRY	(5 * HZ)

/*
 * A member failed: see whether a spare can take its place.  The work takes
 * vraid_ctl_mutex, so it must not sit on vraid_wq, which a VD's teardown
 * flushes with that mutex held (vraid_parity_exit): a member failing just
 * before a delete deadlocked there.  system_long_wq is never flushed
 * under the mutex.
 */
void vraid_spare_kick(void)
{
	/* now, even if a retry was due later; safe in any context */
	mod_delayed_work(system_long_wq, &vraid_spare_work, 0);
}

/*
 * Read @sp's device for a hot spare record it carries already (it came
 * back at assembly): the spare keeps its UUID and creation time and the
 * next write is a newer generation.  Anything else (nothing, a member's
 * metadata, a bad copy) leaves @sp->rec zero: a new record.
 */
static void vraid_spare_rec_read(struct vraid_spare_dev *sp, struct page *page)
{
	static const sector_t copies[] = { VRAID_MD_COPY_A, VRAID_MD_COPY_B };
	struct vraid_sprec r;
	char why[64];
	u32 c;

	memset(&sp->rec, 0, sizeof(sp->rec));
	for (c = 0; c < ARRAY_SIZE(copies); c++) {
		if (vraid_md_io(sp->h.bdev, copies[c], page,
				REQ_OP_READ | REQ_SYNC) ||
		    vraid_sprec_decode(page_address(page), &r, why, sizeof(why)))
			continue;
		if (r.generation > sp->rec.generation)
			sp->rec = r;
	}
}

/*
 * Write @sp's record, as it is now, on its device: copy A, then copy B,
 * each with FUA and waited for (a torn write damages one copy at most).
 * vraid_ctl_mutex held: the list and the record change under it.
 */
static int vraid_spare_rec_write(struct vraid_spare_dev *sp)
{
	static const sector_t copies[] = { VRAID_MD_COPY_A, VRAID_MD_COPY_B };
	struct page *page;
	int ret = 0;
	u32 c;

	lockdep_assert_held(&vraid_ctl_mutex);
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	if (!sp->rec.generation) {
		vraid_spare_rec_read(sp, page);
		if (!sp->rec.generation) {
			get_random_bytes(sp->rec.uuid, sizeof(sp->rec.uuid));
			sp->rec.created = ktime_get_real_seconds();
		}
	}
	sp->rec.generation++;
	sp->rec.flags = sp->dedicated ? VRAID_SPREC_F_DEDICATED : 0;
	memset(sp->rec.vd_uuid, 0, sizeof(sp->rec.vd_uuid));
	if (sp->dedicated)
		memcpy(sp->rec.vd_uuid, sp->vd_uuid, sizeof(sp->rec.vd_uuid));
	sp->rec.dev_sectors = sp->sectors;
	vraid_sprec_encode(&sp->rec, page_address(page));
	for (c = 0; c < ARRAY_SIZE(copies) && !ret; c++)
		ret = vraid_md_io(sp->h.bdev, copies[c], page,
				  REQ_OP_WRITE | REQ_SYNC | REQ_FUA);
	__free_page(page);
	return ret;
}

/*
 * The VD of UUID @uuid (vraid@index) was deleted: its dedicated spares
 * become global, in memory and on their devices.  A record that cannot
 * be rewritten still names the gone VD: assembly then adds the spare
 * dedicated to a VD that never comes (the log says which to re-add).
 */
static void vraid_spares_orphan(const u8 *uuid, u32 index)
{
	struct vraid_spare_dev *sp;
	int ret;

	list_for_each_entry(sp, &vraid_spares, list) {
		if (!sp->dedicated || memcmp(sp->vd_uuid, uuid, 16))
			continue;
		sp->dedicated = false;
		ret = vraid_spare_rec_write(sp);
		if (ret)
			pr_warn("vraid: spare %s is global now (vraid%u is gone), but its record was not rewritten (error %d): run vraidctl spare remove and add on it\n",
				sp->name, index, ret);
		else
			pr_info("vraid: spare %s is global now (vraid%u is gone)\n",
				sp->name, index);
	}
}

int vraid_idr_alloc(struct vraid_vd *vd)
{
	lockdep_assert_held(&vraid_ctl_mutex);
	return idr_alloc(&vraid_idr, vd, 0, VRAID_MAX_VDS, GFP_KERNEL);
}

void vraid_idr_remove(int index)
{
	lockdep_assert_held(&vraid_ctl_mutex);
	idr_remove(&vraid_idr, index);
}

static struct vraid_vd *vraid_find(u32 index, char *msg, size_t msglen)
{
	struct vraid_vd *vd = idr_find(&vraid_idr, index);

	if (!vd)
		snprintf(msg, msglen, "no virtual drive vraid%u", index);
	return vd;
}

static int vraid_ctl_create(void *buf)
{
	struct vraid_create *c = buf;

	struct vraid_vd *vd;
	int id, ret;

	ret = vraid_validate_create(c, c->hdr.message,
				    sizeof(c->hdr.message));
	if (ret)
		return ret;
	if (c->name[0]) {
		idr_for_each_entry(&vraid_idr, vd, id) {
			if (!strncmp(vd->name, c->name, sizeof(vd->name))) {
				snprintf(c->hdr.message, sizeof(c->hdr.message),
					 "the name %s is taken by %s: choose another",
					 vd->name, vd->disk->disk_name);
				return -EEXIST;
			}
		}
	}
	return vraid_vd_create(c);
}

static int vraid_ctl_delete(void *buf)
{
	struct vraid_delete *d = buf;
	char *msg = d->hdr.message;
	struct vraid_vd *vd;
	u8 uuid[16];
	int ret;

	ret = vraid_validate_delete(d, msg, sizeof(d->hdr.message));
	if (ret)
		return ret;
	vd = vraid_find(d->index, msg, sizeof(d->hdr.message));
	if (!vd)
		return -ENOENT;
	memcpy(uuid, vd->uuid, sizeof(uuid));
	ret = vraid_vd_delete(vd, d->del_flags & VRAID_DELETE_STOP,
			      d->del_flags & VRAID_DELETE_DISCARD,
			      &d->discarded_bytes, msg, sizeof(d->hdr.message));
	/*
	 * A stopped VD comes back: its dedicated spares wait for it.  A
	 * deleted one does not: they serve every VD from now on, and say
	 * so on their devices.
	 */
	if (!ret && !(d->del_flags & VRAID_DELETE_STOP))
		vraid_spares_orphan(uuid, d->index);
	return ret;
}

static int vraid_ctl_list(void *buf)
{
	struct vraid_list *l = buf;
	struct vraid_vd *vd;
	int id, ret;

	ret = vraid_validate_list(l, l->hdr.message, sizeof(l->hdr.message));
	if (ret)
		return ret;
	l->nr_vds = 0;
	memset(l->index, 0, sizeof(l->index));
	idr_for_each_entry(&vraid_idr, vd, id)
		l->index[l->nr_vds++] = id;
	return 0;
}

static int vraid_ctl_info(void *buf)
{
	struct vraid_info *info = buf;
	char *msg = info->hdr.message;
	struct vraid_vd *vd;
	int ret;

	ret = vraid_validate_info(info, msg, sizeof(info->hdr.message));
	if (ret)
		return ret;
	vd = vraid_find(info->index, msg, sizeof(info->hdr.message));
	if (!vd)
		return -ENOENT;
	/* Everything after the index is output: no caller bytes echoed. */
	memset((u8 *)info + offsetof(struct vraid_info, level), 0,
	       sizeof(*info) - offsetof(struct vraid_info, level));
	vraid_vd_fill_info(vd, info);
	return 0;
}

static int vraid_ctl_fail_member(void *buf)
{
	struct vraid_fail_member *f = buf;
	char *msg = f->hdr.message;
	struct vraid_vd *vd;
	u32 i;
	int ret;

	ret = vraid_validate_fail_member(f, msg, sizeof(f->hdr.message));
	if (ret)
		return ret;
	vd = vraid_find(f->index, msg, sizeof(f->hdr.message));
	if (!vd)
		return -ENOENT;
	for (i = 0; i < vd->geom.nr_members; i++)
		if (vd->members[i].dev == MKDEV(f->major, f->minor))
			return vraid_member_fail_admin(vd, i,
					f->fail_flags & VRAID_FAIL_FORCE,
					msg, sizeof(f->hdr.message));
	snprintf(msg, sizeof(f->hdr.message),
		 "%u:%u is not a member of %s (see vraidctl show)",
		 f->major, f->minor, vd->disk->disk_name);
	return -ENODEV;
}

/* The running VD of UUID @uuid, or NULL.  vraid_ctl_mutex held. */
struct vraid_vd *vraid_find_uuid(const u8 *uuid)
{
	struct vraid_vd *vd;
	int id;

	lockdep_assert_held(&vraid_ctl_mutex);
	idr_for_each_entry(&vraid_idr, vd, id)
		if (!memcmp(vd->uuid, uuid, sizeof(vd->uuid)))
			return vd;
	return NULL;
}

static bool vraid_name_taken(const char *name)
{
	struct vraid_vd *vd;
	int id;

	idr_for_each_entry(&vraid_idr, vd, id)
		if (!strncmp(vd->name, name, sizeof(vd->name)))
			return true;
	return false;
}

static int vraid_ctl_assemble(void *buf)
{
	struct vraid_assemble *a = buf;
	int ret;

	ret = vraid_validate_assemble(a, a->hdr.message,
				      sizeof(a->hdr.message));
	if (ret)
		return ret;
	return vraid_vd_assemble(a, vraid_name_taken);
}

static int vraid_ctl_set_policy(void *buf)
{
	struct vraid_set_policy *p = buf;
	char *msg = p->hdr.message;
	struct vraid_vd *vd;
	int ret;

	ret = vraid_validate_set_policy(p, msg, sizeof(p->hdr.message));
	if (ret)
		return ret;
	vd = vraid_find(p->index, msg, sizeof(p->hdr.message));
	if (!vd)
		return -ENOENT;
	return vraid_vd_set_policy(vd, p, msg, sizeof(p->hdr.message));
}

static int vraid_ctl_job(void *buf)
{
	struct vraid_job *j = buf;
	char *msg = j->hdr.message;
	struct vraid_vd *vd;
	int ret;

	ret = vraid_validate_job(j, msg, sizeof(j->hdr.message));
	if (ret)
		return ret;
	vd = vraid_find(j->index, msg, sizeof(j->hdr.message));
	if (!vd)
		return -ENOENT;
	return vraid_job_ctl(vd, j->action, j->rate_kib, msg,
			     sizeof(j->hdr.message));
}

/* Smallest spare that fits @vd: dedicated to it first, then global. */
static struct vraid_spare_dev *vraid_spare_pick(struct vraid_vd *vd)
{
	u64 need = VRAID_DATA_OFFSET_SECTORS + vd->geom.member_sectors;
	struct vraid_spare_dev *sp, *best = NULL;

	list_for_each_entry(sp, &vraid_spares, list) {
		if (sp->sectors < need ||
		    (sp->dedicated &&
		     memcmp(sp->vd_uuid, vd->uuid, sizeof(vd->uuid))))
			continue;
		/* (a dedicated candidate is @vd's) */
		if (!best || (sp->dedicated && !best->dedicated) ||
		    (sp->dedicated == best->dedicated &&
		     sp->sectors < best->sectors))
			best = sp;
	}
	return best;
}

/* Take @sp out of the list: its device's open handle into @h. */
static void vraid_spare_take(struct vraid_spare_dev *sp,
			     struct vraid_bdev_handle *h)
{
	list_del(&sp->list);
	vraid_nr_spares--;
	/*
	 * The spare's open becomes the member's: closed and opened again,
	 * the device would be free for another opener in between.  It stays
	 * held with the spare list as its holder, so spare add looks for
	 * members itself (vraid_member_of()).
	 */
	vraid_bdev_move(h, &sp->h);
	kfree(sp);
}

/* The VD of which device @dev is a member, its role in *@role; or NULL. */
static struct vraid_vd *vraid_member_of(dev_t dev, u32 *role)
{
	struct vraid_vd *vd;
	int id;
	u32 i;

	idr_for_each_entry(&vraid_idr, vd, id)
		for (i = 0; i < vd->geom.nr_members; i++)
			if (vd->members[i].h.bdev && vd->members[i].dev == dev) {
				*role = i;
				return vd;
			}
	return NULL;
}

static void vraid_spare_work_fn(struct work_struct *work)
{
	struct vraid_bdev_handle h = { };
	struct vraid_spare_dev *sp;
	char msg[VRAID_MSG_LEN];
	struct vraid_vd *vd;
	bool retry = false;
	int id;
	u32 i;

	/* polling: a long request ahead (a drain) is then no hung task */
	while (!mutex_trylock(&vraid_ctl_mutex))
		msleep(100);
	vraid_ctl_held("a hot spare's take-over");
	idr_for_each_entry(&vraid_idr, vd, id) {
		if (!vraid_vd_redundant(vd) ||
		    READ_ONCE(vd->state) == VRAID_VD_OFFLINE)
			continue;
		for (i = 0; i < vd->geom.nr_members; i++) {
			struct vraid_member *m = &vd->members[i];
			u32 state = READ_ONCE(m->state);
			char name[BDEVNAME_SIZE];

			if (state != VRAID_MEMBER_FAILED &&
			    state != VRAID_MEMBER_MISSING)
				continue;
			sp = vraid_spare_pick(vd);
			if (!sp)
				break;
			/*
			 * Its old device's I/O drains first, for a short
			 * while only (the control plane waits meanwhile):
			 * if it does not, the spare stays a spare and the
			 * work comes back.
			 */
			if (vraid_vd_swap_drain(vd, i, VRAID_DRAIN_TIMEOUT_SPARE,
						msg, sizeof(msg))) {
				if (!m->spare_waits)
					pr_warn("%s: hot spare %s waits: %s\n",
						vd->disk->disk_name, sp->name,
						msg);
				m->spare_waits = true;
				retry = true;
				continue;
			}
			strscpy(name, sp->name, sizeof(name));
			vraid_spare_take(sp, &h);
			pr_info("%s: hot spare %s takes the place of member %u (%s)\n",
				vd->disk->disk_name, name, i,
				vd->members[i].name);
			if (vraid_vd_swap_in(vd, i, &h, msg, sizeof(msg))) {
				pr_err("%s: spare %s not used: %s\n",
				       vd->disk->disk_name, name, msg);
				vraid_bdev_close(&h);
			}
		}
	}
	vraid_ctl_unlock();
	if (retry)
		queue_delayed_work(system_long_wq, &vraid_spare_work,
				   VRAID_SPARE_RETRY);
}

static int vraid_spare_add(struct vraid_spare *s, char *msg, size_t len)
{
	dev_t dev = MKDEV(s->major, s->minor);
	struct vraid_spare_dev *sp;
	struct vraid_vd *vd = NULL, *member;
	u32 role;
	u64 need = VRAID_DATA_OFFSET_SECTORS + VRAID_MIN_DATA_SECTORS;
	int ret;

	if (vraid_nr_spares >= VRAID_MAX_SPARES) {
		snprintf(msg, len, "there are %u spares already, the most vraid keeps",
			 VRAID_MAX_SPARES);
		return -ENOSPC;
	}
	if (s->spare_flags & VRAID_SPARE_DEDICATED) {
		vd = vraid_find(s->index, msg, len);
		if (!vd)
			return -ENOENT;
	} else if (s->spare_flags & VRAID_SPARE_VD_UUID) {
		/* not running: its size is checked when it needs a spare */
		vd = vraid_find_uuid(s->vd_uuid);
	}
	if (vd) {
		if (!vraid_vd_redundant(vd)) {
			snprintf(msg, len, "%s is %s: a spare cannot rebuild it",
				 vd->disk->disk_name,
				 vraid_level_name(vd->geom.level));
			return -EINVAL;
		}
		need = VRAID_DATA_OFFSET_SECTORS + vd->geom.member_sectors;
	}
	/*
	 * The list is the holder, of spares and of the members spares
	 * became: a second open of either would succeed.
	 */
	list_for_each_entry(sp, &vraid_spares, list) {
		if (sp->dev == dev) {
			snprintf(msg, len, "%s is a hot spare already", sp->name);
			return -EEXIST;
		}
	}
	member = vraid_member_of(dev, &role);
	if (member) {
		snprintf(msg, len, "%u:%u is member %u of %s", s->major,
			 s->minor, role, member->disk->disk_name);
		return -EBUSY;
	}
	sp = kzalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return -ENOMEM;
	ret = vraid_bdev_open(&sp->h, dev, &vraid_spares);
	if (ret) {
		snprintf(msg, len, "%u:%u cannot be opened (error %d)%s",
			 s->major, s->minor, ret, ret == -EBUSY ?
			 ": in use (mounted, a member, a spare already, or in md/dm)" :
			 "");
		goto out_free;
	}
	snprintf(sp->name, sizeof(sp->name), "%pg", sp->h.bdev);
	sp->dev = dev;
	sp->sectors = bdev_nr_sectors(sp->h.bdev);
	if (vd) {
		sp->dedicated = true;
		memcpy(sp->vd_uuid, vd->uuid, sizeof(sp->vd_uuid));
	} else if (s->spare_flags & VRAID_SPARE_VD_UUID) {
		sp->dedicated = true;
		memcpy(sp->vd_uuid, s->vd_uuid, sizeof(sp->vd_uuid));
	}
	if (bdev_read_only(sp->h.bdev)) {
		snprintf(msg, len, "%s is read-only", sp->name);
		ret = -EROFS;
		goto out_close;
	}
	if (bdev_is_zoned(sp->h.bdev)) {
		snprintf(msg, len,
			 "%s is a zoned device: members must take random writes",
			 sp->name);
		ret = -EINVAL;
		goto out_close;
	}
	/* A VD taking itself (or a VD that holds it) as a member deadlocks. */
	if (vraid_is_vd(sp->h.bdev)) {
		snprintf(msg, len,
			 "%s is a vraid virtual drive: a VD cannot be a spare",
			 sp->name);
		ret = -EINVAL;
		goto out_close;
	}
	if (sp->sectors < need) {
		/* (a name and two sizes fit; scnprintf: truncation is fine) */
		scnprintf(msg, len, "%s is too small: %llu KiB, needs %llu KiB%s%s",
			  sp->name, sp->sectors >> 1, need >> 1,
			  vd ? " for " : "", vd ? vd->disk->disk_name : "");
		ret = -ENOSPC;
		goto out_close;
	}
	if (vd && bdev_logical_block_size(sp->h.bdev) >
		  queue_logical_block_size(vd->disk->queue)) {
		scnprintf(msg, len,
			  "%s has %u-byte logical blocks and %s %u-byte ones: a member's blocks cannot be larger than its VD's",
			  sp->name, bdev_logical_block_size(sp->h.bdev),
			  vd->disk->disk_name,
			  queue_logical_block_size(vd->disk->queue));
		ret = -EINVAL;
		goto out_close;
	}
	/* On the device first: a spare in the pool comes back at boot. */
	ret = vraid_spare_rec_write(sp);
	if (ret) {
		snprintf(msg, len, "%s: the hot spare record could not be written (error %d)",
			 sp->name, ret);
		goto out_close;
	}
	list_add_tail(&sp->list, &vraid_spares);
	vraid_nr_spares++;
	if (vd || !sp->dedicated)
		pr_info("vraid: %s is a hot spare%s%s\n", sp->name,
			vd ? " dedicated to " : "",
			vd ? vd->disk->disk_name : "");
	else
		pr_info("vraid: %s is a hot spare dedicated to VD %pU (not running)\n",
			sp->name, sp->vd_uuid);
	/* A VD may be waiting for one. */
	vraid_spare_kick();
	return 0;

out_close:
	vraid_bdev_close(&sp->h);
out_free:
	kfree(sp);
	return ret;
}

static int vraid_ctl_spare(void *buf)
{
	struct vraid_spare *s = buf;
	char *msg = s->hdr.message;
	size_t len = sizeof(s->hdr.message);
	struct vraid_spare_dev *sp;
	struct vraid_vd *vd;
	int ret;

	ret = vraid_validate_spare(s, msg, len);
	if (ret)
		return ret;
	if (s->action == VRAID_SPARE_LIST) {
		list_for_each_entry(sp, &vraid_spares, list) {
			struct vraid_spare_info *si = &s->spares[s->nr_spares++];

			si->major = MAJOR(sp->dev);
			si->minor = MINOR(sp->dev);
			si->dev_sectors = sp->sectors;
			vd = sp->dedicated ? vraid_find_uuid(sp->vd_uuid) :
					     NULL;
			si->vd_index = vd ? vd->index : -1;
			if (sp->dedicated) {
				si->info_flags |= VRAID_SPARE_INFO_DEDICATED;
				memcpy(si->vd_uuid, sp->vd_uuid,
				       sizeof(si->vd_uuid));
			}
			strscpy(si->dev_name, sp->name, sizeof(si->dev_name));
		}
		return 0;
	}
	if (!capable(CAP_SYS_ADMIN)) {
		snprintf(msg, len,
			 "changing spares needs CAP_SYS_ADMIN (run as root)");
		return -EPERM;
	}
	if (s->action == VRAID_SPARE_ADD)
		return vraid_spare_add(s, msg, len);
	list_for_each_entry(sp, &vraid_spares, list) {
		if (sp->dev != MKDEV(s->major, s->minor))
			continue;
		list_del(&sp->list);
		vraid_nr_spares--;
		/* else it would be a spare again at the next boot */
		ret = vraid_md_wipe_dev(sp->h.bdev);
		if (ret)
			pr_warn("vraid: %s is no longer a hot spare, but its record could not be erased (error %d): vraidctl wipe it\n",
				sp->name, ret);
		else
			pr_info("vraid: %s is no longer a hot spare\n",
				sp->name);
		vraid_bdev_close(&sp->h);
		kfree(sp);
		return 0;
	}
	snprintf(msg, len, "%u:%u is not a hot spare (see vraidctl spare list)",
		 s->major, s->minor);
	return -ENODEV;
}

static int vraid_ctl_replace(void *buf)
{
	struct vraid_replace *r = buf;
	char *msg = r->hdr.message;
	size_t len = sizeof(r->hdr.message);
	dev_t old = MKDEV(r->old_major, r->old_minor);
	dev_t new = MKDEV(r->new_major, r->new_minor);
	struct vraid_bdev_handle h = { };
	struct vraid_spare_dev *sp;
	struct vraid_vd *vd;
	u32 i, state;
	int ret;

	ret = vraid_validate_replace(r, msg, len);
	if (ret)
		return ret;
	vd = vraid_find(r->index, msg, len);
	if (!vd)
		return -ENOENT;
	if (!vraid_vd_redundant(vd)) {
		snprintf(msg, len, "%s is %s: it has no redundancy to rebuild from",
			 vd->disk->disk_name, vraid_level_name(vd->geom.level));
		return -EINVAL;
	}
	/* The VD is the holder: opening one of its members would succeed. */
	for (i = 0; i < vd->geom.nr_members; i++) {
		if (vd->members[i].dev == new && vd->members[i].h.bdev) {
			snprintf(msg, len, "%u:%u is member %u of %s already",
				 r->new_major, r->new_minor, i,
				 vd->disk->disk_name);
			return -EINVAL;
		}
	}
	if (r->rep_flags & VRAID_REPLACE_ROLE) {
		i = r->old_role;
		if (i >= vd->geom.nr_members) {
			snprintf(msg, len, "%s has no role %u (0-%u)",
				 vd->disk->disk_name, i,
				 vd->geom.nr_members - 1);
			return -ENODEV;
		}
	} else {
		for (i = 0; i < vd->geom.nr_members; i++)
			if (vd->members[i].dev == old)
				break;
		if (i == vd->geom.nr_members) {
			snprintf(msg, len, "%u:%u is not a member of %s (see vraidctl show)",
				 r->old_major, r->old_minor,
				 vd->disk->disk_name);
			return -ENODEV;
		}
	}
	/*
	 * Check the new device before anything changes: a spare named as
	 * the new device stays a spare if the replace is refused.
	 */
	list_for_each_entry(sp, &vraid_spares, list)
		if (sp->dev == new)
			break;
	if (list_entry_is_head(sp, &vraid_spares, list)) {
		sp = NULL;
		ret = vraid_bdev_open(&h, new, vd);
		if (ret) {
			snprintf(msg, len, "%u:%u cannot be opened (error %d)%s",
				 r->new_major, r->new_minor, ret,
				 ret == -EBUSY ? ": in use (mounted, a member of a VD, or in md/dm)" : "");
			return ret == -ENODEV ? -ENXIO : ret;
		}
	}
	ret = vraid_vd_swap_check(vd, sp ? sp->h.bdev : h.bdev, msg, len);
	if (ret)
		goto out;
	state = READ_ONCE(vd->members[i].state);
	if (state == VRAID_MEMBER_ONLINE) {
		/* Fail it first (refused if that takes the VD offline). */
		ret = vraid_member_fail_admin(vd, i,
					      r->rep_flags & VRAID_REPLACE_FORCE,
					      msg, len);
		if (ret)
			goto out;
		flush_work(&vd->md_work);
	}
	if (READ_ONCE(vd->state) == VRAID_VD_OFFLINE) {
		snprintf(msg, len,
			 "%s is offline: too few members are left to rebuild from",
			 vd->disk->disk_name);
		ret = -EIO;
		goto out;
	}
	/*
	 * No I/O in flight to OLD's device, before a spare named as NEW
	 * leaves the list: EBUSY if it does not drain, and the spare stays.
	 */
	ret = vraid_vd_swap_drain(vd, i, VRAID_DRAIN_TIMEOUT, msg, len);
	if (ret)
		goto out;
	if (sp)
		vraid_spare_take(sp, &h);
	ret = vraid_vd_swap_in(vd, i, &h, msg, len);
out:
	vraid_bdev_close(&h);
	return ret;
}

/* Every VD with write policy wb starts logging to a healthy journal. */
void vraid_bind_all(void)
{
	struct vraid_vd *vd;
	int id;

	lockdep_assert_held(&vraid_ctl_mutex);
	idr_for_each_entry(&vraid_idr, vd, id)
		vraid_journal_bind(vd);
}

/*
 * A reboot, halt or power-off (kexec too) with VDs still running: the
 * controller caches' dirty data goes to the members, which flush, before
 * the kernel shuts the disks down (device_shutdown() comes after the
 * reboot notifiers) - a clean reboot loses no acknowledged write, as a
 * disk keeps what its own volatile cache holds when it is shut down.
 *
 * Writers may still run (reboot -f leaves user space as it is): first no
 * write goes into an awb cache any more (vraid_going_down), and after a
 * grace period - the cache's admission checks it under rcu_read_lock(),
 * as for a change of write policy - the write-out finds every write the
 * cache took.  The VDs are not marked clean: a write after the write-out
 * would have to take the mark back first.  The next assembly resyncs
 * what the bitmaps say, as after any unclean end; `vraidctl stop --all`
 * (the boot unit's stop) is the clean shutdown.
 *
 * vraid_ctl_mutex keeps the VDs from going away meanwhile.  A control
 * command holding it (a stop writing out, an assembly) is waited for up
 * to 5 s; after that the reboot goes on without the write-out, rather
 * than hang behind a command that may itself wait for a dead disk.  The
 * write-out itself waits for the members as a flush does: a member that
 * never answers holds the reboot up, as it would the disks' shutdown.
 */
static int vraid_reboot_write_out(struct notifier_block *nb,
				  unsigned long action, void *data)
{
	struct vraid_vd *vd;
	int id, tries;

	WRITE_ONCE(vraid_going_down, true);
	synchronize_rcu();
	for (tries = 0; !mutex_trylock(&vraid_ctl_mutex); tries++) {
		if (tries == 50) {
			pr_warn("vraid: shutting down while a control command runs: cached writes are not written out\n");
			return NOTIFY_DONE;
		}
		msleep(100);
	}
	vraid_ctl_held("the write-out at a reboot");
	idr_for_each_entry(&vraid_idr, vd, id) {
		unsigned long dirty;

		if (!vd->cache)
			continue;
		dirty = vraid_cache_dirty_pages(vd);
		if (!dirty)
			continue;
		pr_info("%s: shutting down: writing out %lu KiB of cached writes\n",
			vd->disk->disk_name, dirty << (PAGE_SHIFT - 10));
		if (vraid_cache_write_out(vd))
			pr_warn("%s: shutting down: %lu KiB of cached writes could not be written out\n",
				vd->disk->disk_name,
				vraid_cache_dirty_pages(vd) << (PAGE_SHIFT - 10));
		else if (vraid_members_flush(vd))
			pr_warn("%s: shutting down: a member failed its flush after the write-out\n",
				vd->disk->disk_name);
	}
	vraid_ctl_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block vraid_reboot_notifier = {
	.notifier_call	= vraid_reboot_write_out,
};

/* The controller: its cache (show, resize) and its journal. */
static int vraid_ctl_controller(void *buf)
{
	struct vraid_controller *c = buf;
	char *msg = c->hdr.message;
	size_t len = sizeof(c->hdr.message);
	int ret = 0;

	ret = vraid_validate_controller(c, msg, len);
	if (ret)
		return ret;
	if (c->action != VRAID_CTRL_SHOW && !capable(CAP_SYS_ADMIN)) {
		snprintf(msg, len,
			 "changing the controller needs CAP_SYS_ADMIN (run as root)");
		return -EPERM;
	}
	switch (c->action) {
	case VRAID_CTRL_SET_CACHE_SIZE:
		ret = vraid_cache_set_size(c->cache_bytes, msg, len);
		break;
	case VRAID_CTRL_JOURNAL_ATTACH:
		ret = vraid_journal_attach(MKDEV(c->major, c->minor),
					   c->ctrl_flags & VRAID_CTRL_FORCE,
					   msg, len);
		if (!ret)
			vraid_bind_all();
		break;
	case VRAID_CTRL_JOURNAL_DETACH:
		ret = vraid_journal_detach(true, msg, len);
		break;
	case VRAID_CTRL_JOURNAL_DISCARD:
		ret = vraid_journal_discard(msg, len);
		if (!ret)
			vraid_bind_all();
		break;
	}
	if (ret)
		return ret;
	c->cache_bytes = 0;
	c->major = 0;
	c->minor = 0;
	c->ctrl_flags = 0;
	vraid_cache_show(c);
	vraid_journal_show(c);
	return 0;
}

/* The event log: read without vraid_ctl_mutex (vraid_ctl_ioctl()). */
static int vraid_ctl_events(void *buf)
{
	struct vraid_events *e = buf;
	int ret;

	ret = vraid_validate_events(e, e->hdr.message, sizeof(e->hdr.message));
	if (ret)
		return ret;
	vraid_events_read(e);
	return 0;
}

typedef int (*vraid_ctl_fn)(void *buf);

static const vraid_ctl_fn vraid_ctl_fns[] = {
	[_IOC_NR(VRAID_IOC_CREATE)]	= vraid_ctl_create,
	[_IOC_NR(VRAID_IOC_DELETE)]	= vraid_ctl_delete,
	[_IOC_NR(VRAID_IOC_LIST)]	= vraid_ctl_list,
	[_IOC_NR(VRAID_IOC_INFO)]	= vraid_ctl_info,
	[_IOC_NR(VRAID_IOC_FAIL_MEMBER)] = vraid_ctl_fail_member,
	[_IOC_NR(VRAID_IOC_ASSEMBLE)]	= vraid_ctl_assemble,
	[_IOC_NR(VRAID_IOC_JOB)]	= vraid_ctl_job,
	[_IOC_NR(VRAID_IOC_SET_POLICY)]	= vraid_ctl_set_policy,
	[_IOC_NR(VRAID_IOC_SPARE)]	= vraid_ctl_spare,
	[_IOC_NR(VRAID_IOC_REPLACE)]	= vraid_ctl_replace,
	[_IOC_NR(VRAID_IOC_CONTROLLER)]	= vraid_ctl_controller,
	[_IOC_NR(VRAID_IOC_EVENTS)]	= vraid_ctl_events,
};

/* What each request is, in the message to those that wait for it. */
static const char *const vraid_ctl_names[] = {
	[_IOC_NR(VRAID_IOC_CREATE)]	= "a create",
	[_IOC_NR(VRAID_IOC_DELETE)]	= "a delete or stop",
	[_IOC_NR(VRAID_IOC_LIST)]	= "a list",
	[_IOC_NR(VRAID_IOC_INFO)]	= "a show",
	[_IOC_NR(VRAID_IOC_FAIL_MEMBER)] = "a member fail",
	[_IOC_NR(VRAID_IOC_ASSEMBLE)]	= "an assembly",
	[_IOC_NR(VRAID_IOC_JOB)]	= "a job request",
	[_IOC_NR(VRAID_IOC_SET_POLICY)]	= "a policy change",
	[_IOC_NR(VRAID_IOC_SPARE)]	= "a spare request",
	[_IOC_NR(VRAID_IOC_REPLACE)]	= "a replace",
	[_IOC_NR(VRAID_IOC_CONTROLLER)]	= "a controller request",
	[_IOC_NR(VRAID_IOC_EVENTS)]	= "an event log read",
};
static_assert(ARRAY_SIZE(vraid_ctl_names) == ARRAY_SIZE(vraid_ctl_fns));

/*
 * Take vraid_ctl_mutex for request @nr, waiting VRAID_CTL_WAIT at most:
 * another request may hold it for minutes (a policy change or a stop
 * writing a large cache out to slow disks).  If it cannot, -EBUSY with
 * VRAID_IOC_REPLY_BUSY in @h->flags and a message saying what holds it:
 * vraidctl asks again (and can be interrupted), where a sleep on the
 * mutex could not.
 */
static int vraid_ctl_lock(struct vraid_ioc_hdr *h, u32 nr)
{
	unsigned long until = jiffies + VRAID_CTL_WAIT;

	while (!mutex_trylock(&vraid_ctl_mutex)) {
		if (time_after(jiffies, until) || signal_pending(current)) {
			const char *what = READ_ONCE(vraid_ctl_what);
			int n;

			n = scnprintf(h->message, sizeof(h->message),
				      "the controller is busy with %s, for %lu s now",
				      what ? what : "another request",
				      (jiffies - READ_ONCE(vraid_ctl_since)) / HZ);
			/*
			 * a write-out of a cache is what takes long, or a
			 * journal checkpoint the request waits for
			 */
			vraid_cache_drain_note(h->message + n,
					       sizeof(h->message) - n);
			if (!h->message[n])
				vraid_journal_busy_note(h->message + n,
							sizeof(h->message) - n);
			h->flags = VRAID_IOC_REPLY_BUSY;
			return -EBUSY;
		}
		schedule_timeout_interruptible(HZ / 50);
	}
	vraid_ctl_held(vraid_ctl_names[nr]);
	return 0;
}

/* Copy status and message back; the rest only when the command succeeded. */
static int vraid_reply(void __user *uarg, struct vraid_ioc_hdr *h, int ret,
		       u32 size)
{
	h->status = ret;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
	if (!ret)
		h->message[0] = '\0';
	else
		h->message[sizeof(h->message) - 1] = '\0';
	if (copy_to_user(uarg, h, ret ? sizeof(*h) : size))
		return -EFAULT;
	return ret;
}

/*
 * One open file of the control device: how far its owner has read the
 * event log, for poll(2).  @events_seen is the largest @next of the
 * VRAID_IOC_EVENTS replies through this file (1 before any: a new opener
 * is readable once any event exists); it only grows, so that two threads
 * reading through one file cannot move it back.  A hint, no lock: a
 * reply racing a poll makes at worst one wake-up too many or a poll that
 * waits for the next event, not a lost event (the log still holds it).
 */
struct vraid_ctl_file {
	atomic64_t events_seen;
};

static int vraid_ctl_open(struct inode *inode, struct file *file)
{
	struct vraid_ctl_file *cf = kmalloc(sizeof(*cf), GFP_KERNEL);

	if (!cf)
		return -ENOMEM;
	atomic64_set(&cf->events_seen, 1);
	/* misc_open() put the miscdevice here; nothing of ours reads it */
	file->private_data = cf;
	return 0;
}

static int vraid_ctl_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/* A VRAID_IOC_EVENTS reply through @file said the next event is @next. */
static void vraid_ctl_events_seen(struct file *file, u64 next)
{
	struct vraid_ctl_file *cf = file->private_data;
	s64 old = atomic64_read(&cf->events_seen);

	while (old < (s64)next &&
	       !atomic64_try_cmpxchg(&cf->events_seen, &old, next))
		;
}

static __poll_t vraid_ctl_poll(struct file *file, poll_table *wait)
{
	struct vraid_ctl_file *cf = file->private_data;

	return vraid_events_poll(file, wait, atomic64_read(&cf->events_seen));
}

static long vraid_ctl_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	struct vraid_ioc_hdr hdr;
	u32 nr = _IOC_NR(cmd);
	void *buf;
	u32 size;
	int ret;

	if (_IOC_TYPE(cmd) != VRAID_IOC_TYPE ||
	    cmd != _IOWR(VRAID_IOC_TYPE, nr, struct vraid_ioc_hdr))
		return -ENOTTY;
	if (copy_from_user(&hdr, uarg, sizeof(hdr)))
		return -EFAULT;
	memset(hdr.message, 0, sizeof(hdr.message));
	if (nr >= ARRAY_SIZE(vraid_ctl_fns) || !vraid_ctl_fns[nr]) {
		snprintf(hdr.message, sizeof(hdr.message),
			 "unknown command %u: module and vraidctl differ?", nr);
		return vraid_reply(uarg, &hdr, -ENOTTY, sizeof(hdr));
	}
	if (vraid_cmd_mutates(nr) && !capable(CAP_SYS_ADMIN)) {
		snprintf(hdr.message, sizeof(hdr.message),
			 "changing virtual drives needs CAP_SYS_ADMIN (run as root)");
		return vraid_reply(uarg, &hdr, -EPERM, sizeof(hdr));
	}
	ret = vraid_validate_hdr(&hdr, nr, hdr.message, sizeof(hdr.message));
	if (ret)
		return vraid_reply(uarg, &hdr, ret, sizeof(hdr));

	/*
	 * Take the whole request; a request shorter than this module's
	 * struct was refused above, a longer one (newer tool) is cut to what
	 * this module knows after checking the tail is zero.
	 */
	size = vraid_cmd_min_size(nr);
	buf = kzalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, uarg, size)) {
		ret = -EFAULT;
		goto out;
	}
	if (hdr.size > size) {
		ret = check_zeroed_user(uarg + size, hdr.size - size);
		if (ret <= 0) {
			if (!ret) {
				snprintf(hdr.message, sizeof(hdr.message),
					 "request carries %u bytes of fields this module does not know",
					 hdr.size - size);
				ret = -E2BIG;
			}
			ret = vraid_reply(uarg, &hdr, ret, sizeof(hdr));
			goto out;
		}
	}
	memcpy(buf, &hdr, sizeof(hdr));

	/*
	 * The event log has its own lock: a monitor must read it while a
	 * stop writes a large cache out for minutes.
	 */
	if (cmd == VRAID_IOC_EVENTS) {
		ret = vraid_ctl_events(buf);
		if (!ret)
			vraid_ctl_events_seen(file,
					      ((struct vraid_events *)buf)->next);
	} else {
		ret = vraid_ctl_lock(buf, nr);
		if (!ret) {
			ret = vraid_ctl_fns[nr](buf);
			vraid_ctl_unlock();
		}
	}

	ret = vraid_reply(uarg, buf, ret, size);
out:
	kfree(buf);
	return ret;
}

static const struct file_operations vraid_ctl_fops = {
	.owner		= THIS_MODULE,
	.open		= vraid_ctl_open,
	.release	= vraid_ctl_release,
	.unlocked_ioctl	= vraid_ctl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.poll		= vraid_ctl_poll,
	.llseek		= noop_llseek,
};

static struct miscdevice vraid_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= VRAID_CONTROL_NAME,
	.fops		= &vraid_ctl_fops,
	.mode		= 0600,
};

static int __init vraid_init(void)
{
	int ret;

	vraid_crc_init();
	ret = vraid_cache_module_init();
	if (ret)
		goto out_crc;
	ret = vraid_journal_module_init();
	if (ret)
		goto out_cache;
	ret = -ENOMEM;
	vraid_wq = alloc_workqueue("vraid", WQ_MEM_RECLAIM, 0);
	if (!vraid_wq)
		goto out_journal;
	vraid_wait_wq = alloc_workqueue("vraid_wait", WQ_MEM_RECLAIM, 0);
	if (!vraid_wait_wq)
		goto out_wq;
	vraid_flush_wq = alloc_workqueue("vraid_flush", WQ_MEM_RECLAIM, 0);
	if (!vraid_flush_wq)
		goto out_wq;
	vraid_dcache_wq = alloc_workqueue("vraid_dcache", WQ_MEM_RECLAIM, 0);
	if (!vraid_dcache_wq)
		goto out_wq;
	vraid_later_wq = alloc_workqueue("vraid_later", WQ_MEM_RECLAIM, 0);
	if (!vraid_later_wq)
		goto out_wq;
	/* Jobs run long: unbound, apart from the I/O path's queue. */
	vraid_job_wq = alloc_workqueue("vraid_job", WQ_UNBOUND | WQ_MEM_RECLAIM,
				       0);
	if (!vraid_job_wq)
		goto out_wq;
	ret = register_blkdev(0, VRAID_DISK_PREFIX);
	if (ret < 0)
		goto out_wq;
	vraid_major = ret;
	ret = misc_register(&vraid_misc);
	if (ret)
		goto out_blkdev;
	ret = vraid_events_init(vraid_misc.this_device);
	if (ret)
		goto out_misc;
	/* (never fails: a notifier chain takes any block) */
	register_reboot_notifier(&vraid_reboot_notifier);
	pr_info("vraid: loaded, ABI %u.%u, control device /dev/%s\n",
		VRAID_ABI_MAJOR, VRAID_ABI_MINOR, VRAID_CONTROL_NAME);
	return 0;

out_misc:
	misc_deregister(&vraid_misc);
out_blkdev:
	unregister_blkdev(vraid_major, VRAID_DISK_PREFIX);
out_wq:
	if (vraid_job_wq)
		destroy_workqueue(vraid_job_wq);
	if (vraid_later_wq)
		destroy_workqueue(vraid_later_wq);
	if (vraid_dcache_wq)
		destroy_workqueue(vraid_dcache_wq);
	if (vraid_flush_wq)
		destroy_workqueue(vraid_flush_wq);
	if (vraid_wait_wq)
		destroy_workqueue(vraid_wait_wq);
	destroy_workqueue(vraid_wq);
out_journal:
	vraid_journal_module_exit();
out_cache:
	vraid_cache_module_exit();
out_crc:
	vraid_crc_exit();
	return ret;
}

/* Every VD holds a module reference, so none is left when we get here. */
static void __exit vraid_exit(void)
{
	struct vraid_spare_dev *sp, *tmp;

	unregister_reboot_notifier(&vraid_reboot_notifier);
	/* no VD is left to log an event; its last uevent goes first */
	vraid_events_exit();
	misc_deregister(&vraid_misc);
	cancel_delayed_work_sync(&vraid_spare_work);
	list_for_each_entry_safe(sp, tmp, &vraid_spares, list) {
		vraid_bdev_close(&sp->h);
		kfree(sp);
	}
	WARN_ON(!idr_is_empty(&vraid_idr));
	idr_destroy(&vraid_idr);
	unregister_blkdev(vraid_major, VRAID_DISK_PREFIX);
	destroy_workqueue(vraid_job_wq);
	destroy_workqueue(vraid_later_wq);
	destroy_workqueue(vraid_dcache_wq);
	destroy_workqueue(vraid_flush_wq);
	destroy_workqueue(vraid_wait_wq);
	destroy_workqueue(vraid_wq);
	vraid_journal_module_exit();
	vraid_cache_module_exit();
	vraid_crc_exit();
}

module_init(vraid_init);
module_exit(vraid_exit);
MODULE_DESCRIPTION("vraid: software RAID controller (JBOD, RAID 0/1/5/6/10/50/60)");
MODULE_LICENSE("GPL");
MODULE_VERSION(VRAID_VERSION);
/*
 * The journal and metadata checksums use the crypto API's "crc32c" (crc.c),
 * which the kernel would load on demand anyway; naming it here lets
 * modprobe load the fast implementation before vraid asks for it, as
 * btrfs does.  The hard dependencies (xor, raid6_pq) come from the
 * symbols vraid imports.
 */
MODULE_SOFTDEP("pre: crc32c");
