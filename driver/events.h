/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The controller's event log: what an administrator must be told of (a VD
 * created, assembled, stopped; a member failed; a rebuild or another job
 * started and ended; the VD's state changed), kept in memory for
 * VRAID_IOC_EVENTS and sent as a uevent on the control device.
 */
#ifndef VRAID_EVENTS_H
#define VRAID_EVENTS_H

#include <linux/types.h>
#include <linux/poll.h>

struct device;
struct file;
struct vraid_vd;
struct vraid_events;

int vraid_events_init(struct device *control);
void vraid_events_exit(void);

/*
 * Log an event of type VRAID_EV_* about @vd (NULL: the controller) and
 * its member @member (VRAID_EV_NONE: none).  Any context: it takes a
 * spinlock with interrupts off and allocates nothing; the uevent goes
 * out from a work item; the control device's pollers are woken.
 */
__printf(4, 5)
void vraid_event(struct vraid_vd *vd, u32 type, u32 member,
		 const char *fmt, ...);

/* VRAID_IOC_EVENTS: fill @e from e->since on. */
void vraid_events_read(struct vraid_events *e);

/*
 * poll(2) on the control device @file: EPOLLIN | EPOLLRDNORM if the log
 * holds an event numbered @seen or later (@seen: the @next of the last
 * VRAID_IOC_EVENTS reply through @file, 1 before any), else 0 with @file
 * waiting for the next event.  Process context.
 */
__poll_t vraid_events_poll(struct file *file, poll_table *wait, u64 seen);

#endif /* VRAID_EVENTS_H */
