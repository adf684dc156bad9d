/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Little-endian fields of on-disk blocks, byte by byte at any offset: for
 * the tests that craft or damage raw blocks at the offsets of
 * on-disk-format.rst.  The core itself reads and writes its blocks
 * through the __le structs of metadata.h and jformat.h.
 */
#ifndef VRAID_LE_BYTES_H
#define VRAID_LE_BYTES_H

#include "core_types.h"

static inline void put16(u8 *p, u16 v)
{
	p[0] = (u8)(v & 0xff);
	p[1] = (u8)(v >> 8);
}

static inline void put32(u8 *p, u32 v)
{
	p[0] = (u8)(v & 0xff);
	p[1] = (u8)((v >> 8) & 0xff);
	p[2] = (u8)((v >> 16) & 0xff);
	p[3] = (u8)(v >> 24);
}

static inline void put64(u8 *p, u64 v)
{
	put32(p, (u32)(v & 0xffffffff));
	put32(p + 4, (u32)(v >> 32));
}

static inline u16 get16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static inline u32 get32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 get64(const u8 *p)
{
	return get32(p) | (u64)get32(p + 4) << 32;
}

#endif
