// SPDX-License-Identifier: GPL-2.0
/*
 * vraid_crc32c() in the module: the kernel's "crc32c" shash (crc32c-intel
 * with SSE4.2, else the generic slice-by-8), which the crypto API loads
 * on demand, so insmod needs no other module first.  The journal
 * checksums every page it logs and reads, so the byte-wise table of the
 * portable core (vraid_crc32c_sw(), which gives the same values) would
 * cost more CPU than the write itself on a slow machine.  Without the
 * shash (no crypto, or an unexpected state size) the table is used.
 *
 * The shash's state is the raw CRC (u32), as libcrc32c relies on too:
 * it is set before and read after the update, so one tfm serves every
 * context concurrently, with a descriptor on the stack.
 */
#include <crypto/hash.h>
#include <linux/module.h>

#include "vraid.h"
#include "core/metadata.h"

static struct crypto_shash *vraid_crc_tfm;	/* set at load, never changed */

u32 vraid_crc32c(u32 crc, const void *buf, size_t len)
{
	SHASH_DESC_ON_STACK(desc, vraid_crc_tfm);
	u32 *state = (u32 *)shash_desc_ctx(desc);

	if (!vraid_crc_tfm)
		return vraid_crc32c_sw(crc, buf, len);
	desc->tfm = vraid_crc_tfm;
	*state = ~crc;
	if (crypto_shash_update(desc, buf, len))
		return vraid_crc32c_sw(crc, buf, len);
	return ~*state;
}

void __init vraid_crc_init(void)
{
	static const u8 check[] = "123456789";
	struct crypto_shash *tfm = crypto_alloc_shash("crc32c", 0, 0);

	if (IS_ERR(tfm)) {
		pr_info("vraid: no crc32c in the kernel's crypto API (%ld): checksums in software\n",
			PTR_ERR(tfm));
		return;
	}
	if (crypto_shash_descsize(tfm) != sizeof(u32)) {
		crypto_free_shash(tfm);
		return;
	}
	vraid_crc_tfm = tfm;
	/* the standard check value, so a wrong driver never writes CRCs */
	if (vraid_crc32c(0, check, 9) != 0xe3069283U) {
		pr_warn("vraid: crc32c driver %s gives wrong values: checksums in software\n",
			crypto_shash_driver_name(tfm));
		vraid_crc_tfm = NULL;
		crypto_free_shash(tfm);
	}
}

void vraid_crc_exit(void)
{
	if (vraid_crc_tfm)
		crypto_free_shash(vraid_crc_tfm);
	vraid_crc_tfm = NULL;
}
