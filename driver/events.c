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
 *
 * A reader that polls the control device sleeps on vraid_events_wait
 * until an event is logged (vraid_events_poll()).  The wake-up comes after
 * vraid_events_lock is dropped: the wait queue has its own lock, and a
 * poller adds itself to the queue before it looks at vraid_events_next
 * under vraid_events_lock, so an event logged meanwhile either is seen or
 * wakes it.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include "vraid.h"
#include "events.h"
#include "core/validate.h"

/*
 * vraid_events_lock protects vraid_event_ring, vraid_events_next and
 * vraid_events_sent.
 */
static DEFINE_SPINLOCK(vraid_events_lock);
static struct vraid_event *vraid_event_ring;
static u64 vraid_events_next = 1;	/* the next event's number */
static u64 vraid_events_sent = 1;	/* the first event no uevent told */
static struct device *vraid_events_dev;	/* the control device */

/* Pollers of the control device; its own lock (not vraid_events_lock). */
static DECLARE_WAIT_QUEUE_HEAD(vraid_events_wait);

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
	/* any context: the wait queue's lock is taken with interrupts off */
	wake_up_interruptible_poll(&vraid_events_wait, EPOLLIN | EPOLLRDNORM);
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

__poll_t vraid_events_poll(struct file *file, poll_table *wait, u64 seen)
{
	bool news;

	poll_wait(file, &vraid_events_wait, wait);
	spin_lock_irq(&vraid_events_lock);
	news = vraid_events_next > seen;
	spin_unlock_irq(&vraid_events_lock);
	return news ? EPOLLIN | EPOLLRDNORM : 0;
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

/*
 * At module exit, before the control device goes (its last uevents go
 * first): no VD is left to log an event (each holds a module reference),
 * so nothing wakes vraid_events_wait after this; and no one sleeps on it,
 * since every open file of the control device holds a module reference
 * too, and a poll(2) or select(2) leaves the queue before it returns, an
 * epoll's entry when the file is released.
 */
void vraid_events_exit(void)
{
	/* no barrier needed: nothing can join the queue any more (above) */
	WARN_ON_ONCE(waitqueue_active(&vraid_events_wait));
	cancel_work_sync(&vraid_events_work);
	kvfree(vraid_event_ring);
	vraid_event_ring = NULL;
}
