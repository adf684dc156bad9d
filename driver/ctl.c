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

#include "vraid.h"
#include "validate.h"

/* Serialises create/delete/list/info and protects vraid_idr. */
static DEFINE_MUTEX(vraid_ctl_mutex);
static DEFINE_IDR(vraid_idr);

struct workqueue_struct *vraid_wq;

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
	int ret;

	ret = vraid_validate_delete(d, msg, sizeof(d->hdr.message));
	if (ret)
		return ret;
	vd = vraid_find(d->index, msg, sizeof(d->hdr.message));
	if (!vd)
		return -ENOENT;
	return vraid_vd_delete(vd, d->del_flags & VRAID_DELETE_STOP, msg,
			       sizeof(d->hdr.message));
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

typedef int (*vraid_ctl_fn)(void *buf);

static const vraid_ctl_fn vraid_ctl_fns[] = {
	[_IOC_NR(VRAID_IOC_CREATE)]	= vraid_ctl_create,
	[_IOC_NR(VRAID_IOC_DELETE)]	= vraid_ctl_delete,
	[_IOC_NR(VRAID_IOC_LIST)]	= vraid_ctl_list,
	[_IOC_NR(VRAID_IOC_INFO)]	= vraid_ctl_info,
	[_IOC_NR(VRAID_IOC_FAIL_MEMBER)] = vraid_ctl_fail_member,
	[_IOC_NR(VRAID_IOC_ASSEMBLE)]	= vraid_ctl_assemble,
};

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

	mutex_lock(&vraid_ctl_mutex);
	ret = vraid_ctl_fns[nr](buf);
	mutex_unlock(&vraid_ctl_mutex);

	ret = vraid_reply(uarg, buf, ret, size);
out:
	kfree(buf);
	return ret;
}

static const struct file_operations vraid_ctl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= vraid_ctl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
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

	vraid_wq = alloc_workqueue("vraid", WQ_MEM_RECLAIM, 0);
	if (!vraid_wq)
		return -ENOMEM;
	ret = register_blkdev(0, VRAID_DISK_PREFIX);
	if (ret < 0)
		goto out_wq;
	vraid_major = ret;
	ret = misc_register(&vraid_misc);
	if (ret)
		goto out_blkdev;
	pr_info("vraid: loaded, ABI %u.%u, control device /dev/%s\n",
		VRAID_ABI_MAJOR, VRAID_ABI_MINOR, VRAID_CONTROL_NAME);
	return 0;

out_blkdev:
	unregister_blkdev(vraid_major, VRAID_DISK_PREFIX);
out_wq:
	destroy_workqueue(vraid_wq);
	return ret;
}

/* Every VD holds a module reference, so none is left when we get here. */
static void __exit vraid_exit(void)
{
	misc_deregister(&vraid_misc);
	WARN_ON(!idr_is_empty(&vraid_idr));
	idr_destroy(&vraid_idr);
	unregister_blkdev(vraid_major, VRAID_DISK_PREFIX);
	destroy_workqueue(vraid_wq);
}

module_init(vraid_init);
module_exit(vraid_exit);
MODULE_DESCRIPTION("vraid: software RAID controller (JBOD, RAID0)");
MODULE_LICENSE("GPL");
