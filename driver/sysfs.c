// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/block/vraidN/vraid/: what a VD is and how it is doing.  Read-only:
 * policies change through VRAID_IOC_SET_POLICY (vraidctl set), jobs
 * through VRAID_IOC_JOB.
 */
#include <linux/blkdev.h>
#include <linux/sysfs.h>
#include <linux/device.h>

#include "vraid.h"
#include "cache.h"
#include "job.h"

const char *vraid_state_name(u32 state)
{
	switch (state) {
	case VRAID_VD_OPTIMAL:		return "optimal";
	case VRAID_VD_DEGRADED:		return "degraded";
	case VRAID_VD_REBUILDING:	return "rebuilding";
	case VRAID_VD_OFFLINE:		return "offline";
	}
	return "unknown";
}

const char *vraid_member_state_name(u32 state)
{
	switch (state) {
	case VRAID_MEMBER_ONLINE:	return "online";
	case VRAID_MEMBER_FAILED:	return "failed";
	case VRAID_MEMBER_REBUILDING:	return "rebuilding";
	case VRAID_MEMBER_MISSING:	return "missing";
	}
	return "unknown";
}

/*
 * A new device takes member @role's role (replace, a hot spare): its
 * counters start at 0, not at the old device's.  No I/O reaches the role
 * meanwhile (the old device is drained, the new one not published yet);
 * a late stale completion's count may race with it, as counts may.
 */
void vraid_member_stats_reset(struct vraid_vd *vd, u32 role)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct vraid_stats *s = per_cpu_ptr(vd->stats, cpu);

		WRITE_ONCE(s->member_reads[role], 0);
		WRITE_ONCE(s->member_writes[role], 0);
		WRITE_ONCE(s->member_errors[role], 0);
	}
}

void vraid_stats_sum(struct vraid_vd *vd, struct vraid_stats *sum)
{
	int cpu;
	u32 i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		struct vraid_stats *s = per_cpu_ptr(vd->stats, cpu);

		for (i = 0; i < vd->geom.nr_members; i++) {
			sum->member_reads[i] += s->member_reads[i];
			sum->member_writes[i] += s->member_writes[i];
			sum->member_errors[i] += s->member_errors[i];
		}
		sum->flushes += s->flushes;
		sum->read_repairs += s->read_repairs;
		sum->cache_read_hits += s->cache_read_hits;
		sum->cache_read_misses += s->cache_read_misses;
		sum->cache_ra_hits += s->cache_ra_hits;
		sum->cache_ra_pages += s->cache_ra_pages;
		sum->cache_write_pages += s->cache_write_pages;
		sum->cache_destaged += s->cache_destaged;
		sum->cache_fill_pages += s->cache_fill_pages;
		sum->cache_dirty_waits += s->cache_dirty_waits;
		sum->journal_pages += s->journal_pages;
		sum->journal_writes += s->journal_writes;
		sum->journal_refs += s->journal_refs;
		sum->journal_waits += s->journal_waits;
	}
}

static struct vraid_vd *dev_to_vd(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static ssize_t level_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  vraid_level_name(dev_to_vd(dev)->geom.level));
}
static DEVICE_ATTR_RO(level);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  vraid_state_name(READ_ONCE(dev_to_vd(dev)->state)));
}
static DEVICE_ATTR_RO(state);

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_vd(dev)->name);
}
static DEVICE_ATTR_RO(name);

/*
 * The VD's UUID from its metadata, as vraidctl examine prints it
 * (8-4-4-4-12, lowercase): the stable name udev's /dev/disk/by-id/vraid-UUID
 * link is made from.  Set before the disk is added and never changed
 * while it exists, so read without a lock.
 */
static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%pUb\n", dev_to_vd(dev)->uuid);
}
static DEVICE_ATTR_RO(uuid);

static ssize_t strip_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  dev_to_vd(dev)->geom.strip_sectors << SECTOR_SHIFT);
}
static DEVICE_ATTR_RO(strip_size);

static ssize_t nr_members_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_vd(dev)->geom.nr_members);
}
static DEVICE_ATTR_RO(nr_members);

static ssize_t data_offset_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", VRAID_DATA_OFFSET_SECTORS);
}
static DEVICE_ATTR_RO(data_offset);

static ssize_t member_size_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", dev_to_vd(dev)->geom.member_sectors);
}
static DEVICE_ATTR_RO(member_size);

/* One line per member: role device major:minor state reads writes errors */
static ssize_t members_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vraid_vd *vd = dev_to_vd(dev);
	struct vraid_stats sum;
	int len = 0;
	u32 i;

	vraid_stats_sum(vd, &sum);
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		len += sysfs_emit_at(buf, len, "%u %s %u:%u %s %llu %llu %llu\n",
				     m->role, m->name, MAJOR(m->dev),
				     MINOR(m->dev),
				     vraid_member_state_name(m->state),
				     sum.member_reads[i], sum.member_writes[i],
				     sum.member_errors[i]);
	}
	return len;
}
static DEVICE_ATTR_RO(members);

/* A counter of struct vraid_stats, summed over the CPUs. */
#define VRAID_SUM_ATTR(_name)						\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct vraid_stats sum;						\
									\
	vraid_stats_sum(dev_to_vd(dev), &sum);				\
	return sysfs_emit(buf, "%llu\n", sum._name);			\
}									\
static DEVICE_ATTR_RO(_name)

VRAID_SUM_ATTR(flushes);
VRAID_SUM_ATTR(read_repairs);
VRAID_SUM_ATTR(cache_read_hits);
VRAID_SUM_ATTR(cache_read_misses);
VRAID_SUM_ATTR(cache_ra_hits);
VRAID_SUM_ATTR(cache_ra_pages);
VRAID_SUM_ATTR(cache_write_pages);
VRAID_SUM_ATTR(cache_destaged);
VRAID_SUM_ATTR(cache_fill_pages);
VRAID_SUM_ATTR(cache_dirty_waits);
VRAID_SUM_ATTR(journal_pages);
VRAID_SUM_ATTR(journal_writes);
VRAID_SUM_ATTR(journal_refs);
VRAID_SUM_ATTR(journal_waits);

/* Bytes this VD holds in the controller cache. */
static ssize_t cache_bytes_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  vraid_cache_pages(dev_to_vd(dev)) << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(cache_bytes);

static ssize_t cache_dirty_bytes_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  vraid_cache_dirty_pages(dev_to_vd(dev)) << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(cache_dirty_bytes);

/*
 * A write-out of the cache a request waits for (a policy change away
 * from write-back, an unbind from the journal): "LEFT FROM" in bytes,
 * what is left to write and what was dirty as it began; "0 0" if none.
 */
static ssize_t cache_drain_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	unsigned long left, from;

	vraid_cache_drain_progress(dev_to_vd(dev), &left, &from);
	return sysfs_emit(buf, "%lu %lu\n", left << PAGE_SHIFT,
			  from << PAGE_SHIFT);
}
static DEVICE_ATTR_RO(cache_drain);

/*
 * The background job: "job" is "none" or "<type> running|paused";
 * job_progress is "done total" in member sectors; job_percent has one
 * decimal; job_eta is seconds left (0 unknown); job_rate_kib is the limit
 * (0 none); mismatch_cnt counts inconsistent 4 KiB blocks (parity) or
 * ranges (mirrors) found by the job under way, else by the last one.
 */
static ssize_t job_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct vraid_job_status info;

	vraid_job_status(dev_to_vd(dev), &info);
	if (info.type == VRAID_JOB_NONE)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s %s\n", vraid_job_name(info.type),
			  info.state == VRAID_JOB_PAUSED ? "paused" :
			  "running");
}
static DEVICE_ATTR_RO(job);

static ssize_t job_progress_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct vraid_job_status info;

	vraid_job_status(dev_to_vd(dev), &info);
	return sysfs_emit(buf, "%llu %llu\n", info.done, info.total);
}
static DEVICE_ATTR_RO(job_progress);

static ssize_t job_percent_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vraid_job_status info;
	u64 permille;

	vraid_job_status(dev_to_vd(dev), &info);
	permille = info.total ?
		   div64_u64(info.done * 1000, info.total) : 0;
	return sysfs_emit(buf, "%llu.%llu\n", permille / 10, permille % 10);
}
static DEVICE_ATTR_RO(job_percent);

static ssize_t job_eta_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", vraid_job_eta(dev_to_vd(dev)));
}
static DEVICE_ATTR_RO(job_eta);

static ssize_t job_rate_kib_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(dev_to_vd(dev)->job.rate_kib));
}
static DEVICE_ATTR_RO(job_rate_kib);

static ssize_t mismatch_cnt_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct vraid_job_status info;

	vraid_job_status(dev_to_vd(dev), &info);
	return sysfs_emit(buf, "%llu\n", info.type != VRAID_JOB_NONE ?
			  info.mismatches : info.last_mismatches);
}
static DEVICE_ATTR_RO(mismatch_cnt);

static ssize_t last_job_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct vraid_job_status info;

	vraid_job_status(dev_to_vd(dev), &info);
	return sysfs_emit(buf, "%s %u\n", vraid_job_name(info.last_type),
			  info.last_result);
}
static DEVICE_ATTR_RO(last_job);

static const char * const access_names[] = { "rw", "ro", "blocked" };
static const char * const dcache_names[] = { "default", "enabled", "disabled" };
static const char * const io_names[] = { "direct", "cached" };
static const char * const read_names[] = { "no-read-ahead", "read-ahead" };
static const char * const write_names[] = {
	"write-through", "write-back", "always-write-back"
};

#define VRAID_POLICY_ATTR(_name, _field, _names)			\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	u32 v = dev_to_vd(dev)->_field;					\
									\
	return sysfs_emit(buf, "%s\n",					\
			  v < ARRAY_SIZE(_names) ? _names[v] : "unknown"); \
}									\
static DEVICE_ATTR_RO(_name)

VRAID_POLICY_ATTR(access_policy, access_policy, access_names);
VRAID_POLICY_ATTR(disk_cache_policy, disk_cache_policy, dcache_names);
VRAID_POLICY_ATTR(io_policy, io_policy, io_names);
VRAID_POLICY_ATTR(read_policy, read_policy, read_names);
VRAID_POLICY_ATTR(write_policy, write_policy, write_names);

/* "write-through" (also for write-back without a journal), ... */
static ssize_t write_policy_effective_show(struct device *dev,
					   struct device_attribute *attr,
					   char *buf)
{
	static const char * const names[] = {
		"write-through", "write-back", "write-back-volatile", "draining"
	};
	u32 flags, v = vraid_write_effective(dev_to_vd(dev), &flags);

	return sysfs_emit(buf, "%s\n",
			  v < ARRAY_SIZE(names) ? names[v] : "unknown");
}
static DEVICE_ATTR_RO(write_policy_effective);

static struct attribute *vraid_attrs[] = {
	&dev_attr_level.attr,
	&dev_attr_state.attr,
	&dev_attr_name.attr,
	&dev_attr_uuid.attr,
	&dev_attr_strip_size.attr,
	&dev_attr_nr_members.attr,
	&dev_attr_data_offset.attr,
	&dev_attr_member_size.attr,
	&dev_attr_members.attr,
	&dev_attr_flushes.attr,
	&dev_attr_read_repairs.attr,
	&dev_attr_cache_read_hits.attr,
	&dev_attr_cache_read_misses.attr,
	&dev_attr_cache_ra_hits.attr,
	&dev_attr_cache_ra_pages.attr,
	&dev_attr_cache_write_pages.attr,
	&dev_attr_cache_destaged.attr,
	&dev_attr_cache_fill_pages.attr,
	&dev_attr_cache_dirty_waits.attr,
	&dev_attr_journal_pages.attr,
	&dev_attr_journal_writes.attr,
	&dev_attr_journal_refs.attr,
	&dev_attr_journal_waits.attr,
	&dev_attr_cache_dirty_bytes.attr,
	&dev_attr_cache_drain.attr,
	&dev_attr_cache_bytes.attr,
	&dev_attr_access_policy.attr,
	&dev_attr_disk_cache_policy.attr,
	&dev_attr_io_policy.attr,
	&dev_attr_read_policy.attr,
	&dev_attr_write_policy.attr,
	&dev_attr_write_policy_effective.attr,
	&dev_attr_job.attr,
	&dev_attr_job_progress.attr,
	&dev_attr_job_percent.attr,
	&dev_attr_job_eta.attr,
	&dev_attr_job_rate_kib.attr,
	&dev_attr_mismatch_cnt.attr,
	&dev_attr_last_job.attr,
	NULL,
};

static const struct attribute_group vraid_attr_group = {
	.name	= "vraid",
	.attrs	= vraid_attrs,
};

const struct attribute_group *vraid_disk_groups[] = {
	&vraid_attr_group,
	NULL,
};

/*
 * Pollers (poll() for POLLPRI on an attribute, as on md's array_state)
 * are woken when the VD's state, a member's state or a job changes.  The
 * attributes' kernfs nodes are looked up once the disk is live and kept,
 * referenced, until the VD is freed: a notification, which may come
 * from any context (a member failing in a bio's completion), then needs
 * no lookup and no lock (kernfs_notify() defers the rest to a work).
 */
void vraid_sysfs_notify_init(struct vraid_vd *vd)
{
	struct kernfs_node *dir;

	dir = sysfs_get_dirent(disk_to_dev(vd->disk)->kobj.sd, "vraid");
	if (!dir)
		return;
	/* (a completion may read them meanwhile: NULL, or a held node) */
	WRITE_ONCE(vd->kn_state, sysfs_get_dirent(dir, "state"));
	WRITE_ONCE(vd->kn_members, sysfs_get_dirent(dir, "members"));
	WRITE_ONCE(vd->kn_job, sysfs_get_dirent(dir, "job"));
	WRITE_ONCE(vd->kn_last_job, sysfs_get_dirent(dir, "last_job"));
	sysfs_put(dir);
}

/* The VD is being freed: nothing can notify any more. */
void vraid_sysfs_notify_exit(struct vraid_vd *vd)
{
	sysfs_put(vd->kn_state);
	sysfs_put(vd->kn_members);
	sysfs_put(vd->kn_job);
	sysfs_put(vd->kn_last_job);
	vd->kn_state = NULL;
	vd->kn_members = NULL;
	vd->kn_job = NULL;
	vd->kn_last_job = NULL;
}

/* Any context.  @kn: one of the VD's kn_* (READ_ONCE: set racily). */
void vraid_sysfs_notify(struct kernfs_node *kn)
{
	if (kn)
		sysfs_notify_dirent(kn);
}
