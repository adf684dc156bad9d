/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one shim of the portable core.
 *
 * Files of the portable core (geom.c, validate.c) include only this header
 * and the uapi header.  In the kernel it maps onto kernel types; in
 * userspace (unit tests, fuzzers) onto libc, and vraid_crc32c() onto the
 * portable table.  Nothing else may be used by
 * the core: fixed-width integers, errno values, snprintf/memchr and one
 * 64-by-32 division.
 */
#ifndef VRAID_CORE_TYPES_H
#define VRAID_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/math64.h>
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

/* CRC32C: the portable table (metadata.c); the module has crc.c's */
#define vraid_crc32c vraid_crc32c_sw
#endif

#endif /* VRAID_CORE_TYPES_H */
