/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vraid release, in one place: the module's MODULE_VERSION (modinfo),
 * `vraidctl version`, the DKMS package version and the Debian packages'
 * version (packaging.mk reads the #define below with sed: keep it on one
 * line, a quoted string of digits and dots).  The ioctl ABI has its own
 * numbers (VRAID_ABI_MAJOR/MINOR in uapi/linux/vraid.h).
 */
#ifndef VRAID_VERSION_H
#define VRAID_VERSION_H

#define VRAID_VERSION "0.1.0"

#endif /* VRAID_VERSION_H */
