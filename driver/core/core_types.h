/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one shim of the portable core.
 *
 * Files of the portable core (geom.c, validate.c) include only this header
 * and the uapi header.  In the kernel it maps onto kernel types; in
 * userspace (unit tests, fuzzers) onto libc, and vraid_crc32c() onto the
 * portable table.  Nothing else may be used by
 * the core: fixed-width integers, the little-endian types of the on-disk
 * structs (__le16/32/64, cpu_to_le32() and le32_to_cpu() and their
 * kin), static_assert, errno values, snprintf/memchr and one 64-by-32
 * division.
 */
#ifndef VRAID_CORE_TYPES_H
#define VRAID_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/math64.h>
#include <linux/build_bug.h>
#include <asm/byteorder.h>
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <assert.h>
#include <endian.h>
#include <linux/types.h>	/* __le16, __le32, __le64 */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

/* The kernel's byte-order helpers for the on-disk structs. */
static inline __le16 cpu_to_le16(u16 v)
{
	return (__le16)htole16(v);
}

static inline __le32 cpu_to_le32(u32 v)
{
	return (__le32)htole32(v);
}

static inline __le64 cpu_to_le64(u64 v)
{
	return (__le64)htole64(v);
}

static inline u16 le16_to_cpu(__le16 v)
{
	return le16toh((u16)v);
}

static inline u32 le32_to_cpu(__le32 v)
{
	return le32toh((u32)v);
}

static inline u64 le64_to_cpu(__le64 v)
{
	return le64toh((u64)v);
}

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

/* CRC32C: the portable table (metadata.c); the module has crc.c's */
#define vraid_crc32c vraid_crc32c_sw
#endif

/*
 * An on-disk struct's field @field lies at byte @offset, as
 * Documentation/on-disk-format.rst gives it: checked at compile time in
 * the module and in user space, so that the struct is the format.
 */
#define VRAID_ONDISK_OFFSET(type, field, offset)			\
	static_assert(offsetof(type, field) == (offset),		\
		      #type "." #field " must be at byte " #offset)
#define VRAID_ONDISK_SIZE(type, size)					\
	static_assert(sizeof(type) == (size), #type " must be " #size " bytes")

#endif /* VRAID_CORE_TYPES_H */
