// SPDX-License-Identifier: GPL-2.0
/*
 * The controller's event log (events.h).
 *
 * A ring of the last VRAID_EVENTS_KEPT events, numbered from 1 since the
 * module loaded: event @seq sits in slot (seq - 1) % VRAID_EVENTS_KEPT.
 * Events are few (a failure, a job's start and end), so one lock for the
 * ring is no hot-path cost; it is taken with interrupts off because a
 * member can fail in a bio's completion.
 *
 * The uevents go out from a work item (kobject_uevent_env() allocates and
 * may sleep), in order, each once: vraid_events_sent is the first event
 * not sent yet.  A burst larger than the ring loses the uevents of events
 * already overwritten, as a reader of the log loses the events themselves
 * (it sees first > since).
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include "vraid.h"
#include "events.h"
#include "validate.h"

/*
 * vraid_events_lock protects vraid_event_ring, vraid_events_next and
 * vraid_events_sent.
 */
static DEFINE_SPINLOCK(vraid_events_lock);
static struct vraid_event *vraid_event_ring;
static u64 vraid_events_next = 1;	/* the next event's number */
static u64 vraid_events_sent = 1;	/* the first event no uevent told */
static struct device *vraid_events_dev;	/* the control device */

static void vraid_events_uevent_fn(struct work_struct *work);
static DECLARE_WORK(vraid_events_work, vraid_events_uevent_fn);

static struct vraid_event *vraid_event_slot(u64 seq)
{
	return &vraid_event_ring[(seq - 1) % VRAID_EVENTS_KEPT];
}

void vraid_event(struct vraid_vd *vd, u32 type, u32 member,
		 const char *fmt, ...)
{
	struct vraid_event *ev;
	unsigned long flags;
	va_list args;

	/*
	 * A VD being assembled has no disk yet: its state settles before it
	 * starts (or is refused), and "assembled" reports it.
	 */
	if (!vraid_event_ring || (vd && !vd->disk))
		return;
	spin_lock_irqsave(&vraid_events_lock, flags);
	ev = vraid_event_slot(vraid_events_next);
	memset(ev, 0, sizeof(*ev));
	ev->seq = vraid_events_next++;
	ev->time_ns = ktime_get_real_ns();
	ev->type = type;
	ev->vd_index = vd ? vd->index : VRAID_EV_NONE;
	ev->member = member;
	if (vd) {
		ev->state = READ_ONCE(vd->state);
		strscpy(ev->vd_name, vd->name, sizeof(ev->vd_name));
		if (member < vd->geom.nr_members)
			strscpy(ev->device, vd->members[member].name,
				sizeof(ev->device));
	}
	va_start(args, fmt);
	vsnprintf(ev->text, sizeof(ev->text), fmt, args);
	va_end(args);
	/* a burst overwrote events no uevent told yet: those are lost */
	if (vraid_events_next - vraid_events_sent > VRAID_EVENTS_KEPT)
		vraid_events_sent = vraid_events_next - VRAID_EVENTS_KEPT;
	spin_unlock_irqrestore(&vraid_events_lock, flags);
	schedule_work(&vraid_events_work);
}

/* One uevent for @ev: KEY=value strings in @buf, pointers in @envp. */
static void vraid_event_uevent(const struct vraid_event *ev)
{
	char buf[7][48];
	char *envp[8];
	int n = 0;

	snprintf(buf[n], sizeof(buf[n]), "VRAID_EVENT=%s",
		 vraid_event_name(ev->type));
	envp[n] = buf[n];
	n++;
	snprintf(buf[n], sizeof(buf[n]), "VRAID_SEQ=%llu", ev->seq);
	envp[n] = buf[n];
	n++;
	if (ev->vd_index != VRAID_EV_NONE) {
		snprintf(buf[n], sizeof(buf[n]), "VRAID_VD=%s%u",
			 VRAID_DISK_PREFIX, ev->vd_index);
		envp[n] = buf[n];
		n++;
		snprintf(buf[n], sizeof(buf[n]), "VRAID_NAME=%s", ev->vd_name);
		envp[n] = buf[n];
		n++;
		snprintf(buf[n], sizeof(buf[n]), "VRAID_STATE=%s",
			 vraid_state_name(ev->state));
		envp[n] = buf[n];
		n++;
	}
	if (ev->member != VRAID_EV_NONE) {
		snprintf(buf[n], sizeof(buf[n]), "VRAID_MEMBER=%u", ev->member);
		envp[n] = buf[n];
		n++;
		snprintf(buf[n], sizeof(buf[n]), "VRAID_DEVICE=%s", ev->device);
		envp[n] = buf[n];
		n++;
	}
	envp[n] = NULL;
	kobject_uevent_env(&vraid_events_dev->kobj, KOBJ_CHANGE, envp);
}

static void vraid_events_uevent_fn(struct work_struct *work)
{
	struct vraid_event ev;

	for (;;) {
		spin_lock_irq(&vraid_events_lock);
		if (vraid_events_sent == vraid_events_next) {
			spin_unlock_irq(&vraid_events_lock);
			return;
		}
		ev = *vraid_event_slot(vraid_events_sent++);
		spin_unlock_irq(&vraid_events_lock);
		vraid_event_uevent(&ev);
	}
}

void vraid_events_read(struct vraid_events *e)
{
	u64 seq, first;

	spin_lock_irq(&vraid_events_lock);
	first = vraid_events_next > VRAID_EVENTS_KEPT ?
		vraid_events_next - VRAID_EVENTS_KEPT : 1;
	seq = max(e->since, first);
	e->first = first;
	e->next = vraid_events_next;
	e->count = 0;
	while (seq < vraid_events_next && e->count < VRAID_EVENTS_MAX)
		e->events[e->count++] = *vraid_event_slot(seq++);
	spin_unlock_irq(&vraid_events_lock);
}

int vraid_events_init(struct device *control)
{
	vraid_event_ring = kvcalloc(VRAID_EVENTS_KEPT,
				    sizeof(*vraid_event_ring), GFP_KERNEL);
	if (!vraid_event_ring)
		return -ENOMEM;
	vraid_events_dev = control;
	return 0;
}

/* After the control device is gone: no VD is left to log an event. */
void vraid_events_exit(void)
{
	cancel_work_sync(&vraid_events_work);
	kvfree(vraid_event_ring);
	vraid_event_ring = NULL;
}
