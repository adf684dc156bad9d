// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the naive GF(2^8) of tests/vm/pqref.c, the parity oracle
 * of the VM tests, against values of lib/raid6 (Linux 6.1): its tables
 * raid6_gfexp / raid6_gfinv / raid6_gfmul (from lib/raid6/mktables.c),
 * syndromes computed by raid6_intx1.gen_syndrome() from lib/raid6/int.uc,
 * a port of that function's algorithm (Horner's rule on 8 bytes at once)
 * and of raid6_2data_recov_intx1() from lib/raid6/recov.c, hand-computed
 * syndromes, the field's identities, and recovery round trips.
 */
#define PQREF_NO_MAIN
#include "../vm/pqref.c"
/* tap.h's message helpers (msg_buf() ...) are not used here */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static u64 rng_state = 0x4746323536ull;	/* "GF256" */

static u64 rng(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (u8)rng();
}

/* raid6_gfexp[0..47] and raid6_gfinv[0..23] as mktables.c prints them */
static const u8 kexp[48] = {
	0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
	0x1d, 0x3a, 0x74, 0xe8, 0xcd, 0x87, 0x13, 0x26,
	0x4c, 0x98, 0x2d, 0x5a, 0xb4, 0x75, 0xea, 0xc9,
	0x8f, 0x03, 0x06, 0x0c, 0x18, 0x30, 0x60, 0xc0,
	0x9d, 0x27, 0x4e, 0x9c, 0x25, 0x4a, 0x94, 0x35,
	0x6a, 0xd4, 0xb5, 0x77, 0xee, 0xc1, 0x9f, 0x23,
};

static const u8 kinv[24] = {
	0x00, 0x01, 0x8e, 0xf4, 0x47, 0xa7, 0x7a, 0xba,
	0xad, 0x9d, 0xdd, 0x98, 0x3d, 0xaa, 0x5d, 0x96,
	0xd8, 0x72, 0xc0, 0x58, 0xe0, 0x3e, 0x4c, 0x66,
};

static void test_tables(void)
{
	unsigned int i, a, b;
	u8 seen[256] = { 0 };
	u8 x;

	tap_begin("2^i equals lib/raid6's raid6_gfexp[i], i < 48");
	for (i = 0; i < ARRAY_SIZE(kexp); i++)
		CHECK(gf_pow(2, i) == kexp[i], "2^%u = 0x%02x, raid6_gfexp 0x%02x",
		      i, gf_pow(2, i), kexp[i]);
	tap_end();

	tap_begin("2 generates the field: 2^0..2^254 distinct and nonzero, 2^255 = 1");
	x = 1;
	for (i = 0; i < 255; i++) {
		CHECK(x && !seen[x], "2^%u = 0x%02x repeats or is 0", i, x);
		seen[x] = 1;
		CHECK(gf_pow(2, i) == x, "gf_pow(2, %u) = 0x%02x, want 0x%02x",
		      i, gf_pow(2, i), x);
		x = gf_mul(x, 2);
	}
	CHECK(x == 1, "2^255 = 0x%02x", x);
	tap_end();

	tap_begin("inverses equal raid6_gfinv[0..23]; a * inv(a) = 1, inv(inv(a)) = a");
	for (i = 0; i < ARRAY_SIZE(kinv); i++)
		CHECK(gf_inv((u8)i) == kinv[i], "inv(0x%02x) = 0x%02x, raid6_gfinv 0x%02x",
		      i, gf_inv((u8)i), kinv[i]);
	for (a = 1; a < 256; a++) {
		CHECK(gf_mul((u8)a, gf_inv((u8)a)) == 1, "0x%02x * inv", a);
		CHECK(gf_inv(gf_inv((u8)a)) == a, "inv(inv(0x%02x))", a);
	}
	tap_end();

	tap_begin("products of lib/raid6's raid6_gfmul; x * 2 is a shift and 0x1d");
	CHECK(gf_mul(0x53, 0xca) == 0x8f, "0x53 * 0xca = 0x%02x",
	      gf_mul(0x53, 0xca));
	CHECK(gf_mul(0xff, 0xff) == 0xe2, "0xff * 0xff = 0x%02x",
	      gf_mul(0xff, 0xff));
	CHECK(gf_mul(0x80, 0x02) == 0x1d, "0x80 * 2 = 0x%02x",
	      gf_mul(0x80, 0x02));
	for (a = 0; a < 256; a++)
		CHECK(gf_mul((u8)a, 2) ==
		      (u8)((a << 1) ^ (a & 0x80 ? 0x1d : 0)),
		      "0x%02x * 2 = 0x%02x", a, gf_mul((u8)a, 2));
	tap_end();

	tap_begin("field laws: commutative, 0 and 1, associative, distributive");
	for (a = 0; a < 256; a++) {
		CHECK(gf_mul((u8)a, 0) == 0 && gf_mul((u8)a, 1) == a,
		      "0x%02x * 0, * 1", a);
		for (b = 0; b < 256; b++)
			CHECK(gf_mul((u8)a, (u8)b) == gf_mul((u8)b, (u8)a),
			      "0x%02x * 0x%02x not commutative", a, b);
	}
	for (i = 0; i < 100000; i++) {
		u8 p = (u8)rng(), q = (u8)rng(), r = (u8)rng();

		CHECK(gf_mul(gf_mul(p, q), r) == gf_mul(p, gf_mul(q, r)),
		      "(0x%02x * 0x%02x) * 0x%02x", p, q, r);
		CHECK(gf_mul(p, q ^ r) == (gf_mul(p, q) ^ gf_mul(p, r)),
		      "0x%02x * (0x%02x + 0x%02x)", p, q, r);
	}
	tap_end();
}

/* ---- syndromes ---------------------------------------------------------- */

static void test_hand_syndromes(void)
{
	u8 d[3][4] = {
		{ 0x01, 0x80, 0x00, 0xff },
		{ 0x01, 0x80, 0x00, 0x00 },
		{ 0x01, 0x00, 0x00, 0x00 },
	};
	const u8 *data[3] = { d[0], d[1], d[2] };
	u8 p[4], q[4];

	tap_begin("hand-computed syndromes");
	gf_syndrome(data, 3, 4, p, q);
	/* 1 + 1 + 1 = 1; 1 + 2 + 4 = 7 */
	CHECK(p[0] == 0x01 && q[0] == 0x07, "ones: P 0x%02x Q 0x%02x", p[0],
	      q[0]);
	/* 0x80 + 2 * 0x80 = 0x80 + 0x1d */
	CHECK(p[1] == 0x00 && q[1] == 0x9d, "0x80s: P 0x%02x Q 0x%02x", p[1],
	      q[1]);
	CHECK(p[2] == 0 && q[2] == 0, "zeros: P 0x%02x Q 0x%02x", p[2], q[2]);
	/* D0 alone: Q = D0 */
	CHECK(p[3] == 0xff && q[3] == 0xff, "D0 only: P 0x%02x Q 0x%02x", p[3],
	      q[3]);
	/* D2 alone: Q = 4 * D2; 4 * 0x80 = 2 * 0x1d = 0x3a */
	d[0][0] = 0;
	d[1][0] = 0;
	d[2][0] = 0x80;
	gf_syndrome(data, 3, 1, p, q);
	CHECK(p[0] == 0x80 && q[0] == 0x3a, "D2 = 0x80: P 0x%02x Q 0x%02x",
	      p[0], q[0]);
	/* NULL data count as zeros */
	data[2] = NULL;
	gf_syndrome(data, 3, 1, p, q);
	CHECK(p[0] == 0 && q[0] == 0, "NULL D2: P 0x%02x Q 0x%02x", p[0],
	      q[0]);
	tap_end();
}

/*
 * raid6_intx1.gen_syndrome(disks, 16, ptrs) of Linux 6.1, data block i
 * byte j = i * 37 + j * 11 + 1.
 */
static const struct {
	unsigned int disks;
	u8 p[16], q[16];
} kvec[] = {
	{ 4,
	  { 0x27, 0x3d, 0x2b, 0x65, 0x7f, 0x65, 0x2b, 0x3d,
	    0x27, 0xed, 0xfb, 0xe5, 0x2f, 0x25, 0x5b, 0x6d },
	  { 0x4d, 0x6e, 0x6f, 0xac, 0x89, 0x82, 0x93, 0xa8,
	    0xa5, 0x6b, 0x5a, 0x59, 0xcc, 0xe7, 0x06, 0x2d } },
	{ 5,
	  { 0x6c, 0x6b, 0x4a, 0x09, 0x08, 0xe7, 0xa6, 0xa5,
	    0x84, 0x43, 0x42, 0x21, 0xe0, 0xff, 0xbe, 0x9d },
	  { 0x7c, 0x2b, 0xf6, 0x01, 0x48, 0xb0, 0x9d, 0xf2,
	    0x13, 0xe9, 0x84, 0x6e, 0xd7, 0xa8, 0xb5, 0xca } },
	{ 16,
	  { 0x3b, 0x05, 0x0f, 0x05, 0x1b, 0x3d, 0x17, 0x6d,
	    0xeb, 0x25, 0x3f, 0x25, 0x6b, 0xed, 0x17, 0x3d },
	  { 0x1d, 0xc0, 0xdc, 0x3f, 0xb0, 0xef, 0x75, 0x5a,
	    0xe1, 0x13, 0xc9, 0x2f, 0xa1, 0x48, 0x7c, 0xef } },
};

static void test_kernel_vectors(void)
{
	u8 d[14][16], p[16], q[16];
	const u8 *data[14];
	size_t t;
	unsigned int i, j;

	for (t = 0; t < ARRAY_SIZE(kvec); t++) {
		unsigned int nd = kvec[t].disks - 2;

		tap_begin("syndrome of %u data blocks equals raid6_intx1.gen_syndrome()",
			  nd);
		for (i = 0; i < nd; i++) {
			for (j = 0; j < 16; j++)
				d[i][j] = (u8)(i * 37 + j * 11 + 1);
			data[i] = d[i];
		}
		gf_syndrome(data, nd, 16, p, q);
		for (j = 0; j < 16; j++)
			CHECK(p[j] == kvec[t].p[j] && q[j] == kvec[t].q[j],
			      "byte %u: P 0x%02x Q 0x%02x, kernel P 0x%02x Q 0x%02x",
			      j, p[j], q[j], kvec[t].p[j], kvec[t].q[j]);
		tap_end();
	}
}

/* lib/raid6/int.uc: 0x80 -> 0xff, else 0x00, in every byte */
static u64 k_mask(u64 v)
{
	u64 vv = v & 0x8080808080808080ull;

	return (vv << 1) - (vv >> 7);
}

/* raid6_int1_gen_syndrome(): Horner's rule from the highest data block */
static void k_gen_syndrome(unsigned int disks, size_t bytes, u8 **ptrs)
{
	int z0 = (int)disks - 3, z;
	u8 *p = ptrs[z0 + 1], *q = ptrs[z0 + 2];
	size_t d;

	for (d = 0; d < bytes; d += 8) {
		u64 wd, wq, wp, w1, w2;

		memcpy(&wq, &ptrs[z0][d], 8);
		wp = wq;
		for (z = z0 - 1; z >= 0; z--) {
			memcpy(&wd, &ptrs[z][d], 8);
			wp ^= wd;
			w2 = k_mask(wq);
			w1 = (wq << 1) & 0xfefefefefefefefeull;
			w2 &= 0x1d1d1d1d1d1d1d1dull;
			w1 ^= w2;
			wq = w1 ^ wd;
		}
		memcpy(&p[d], &wp, 8);
		memcpy(&q[d], &wq, 8);
	}
}

#define BLK	256
#define MAXD	30

static void test_horner(void)
{
	static u8 blk[MAXD + 2][BLK], p[BLK], q[BLK];
	u8 *ptrs[MAXD + 2];
	unsigned int nd, i;

	tap_begin("syndrome equals lib/raid6's int algorithm for 1..30 data blocks");
	for (nd = 1; nd <= MAXD; nd++) {
		for (i = 0; i < nd + 2; i++) {
			fill(blk[i], BLK);
			ptrs[i] = blk[i];
		}
		k_gen_syndrome(nd + 2, BLK, ptrs);
		gf_syndrome((const u8 *const *)ptrs, nd, BLK, p, q);
		CHECK(!memcmp(p, blk[nd], BLK) && !memcmp(q, blk[nd + 1], BLK),
		      "%u data blocks: P %s, Q %s", nd,
		      memcmp(p, blk[nd], BLK) ? "differs" : "ok",
		      memcmp(q, blk[nd + 1], BLK) ? "differs" : "ok");
	}
	tap_end();
}

/* ---- recovery ----------------------------------------------------------- */

/*
 * raid6_2data_recov_intx1() with tables built from gf_*: Pxy and Qxy from
 * a syndrome with zeros for a and b, then
 * B = pbmul[Pxy] ^ qmul[Qxy], A = B ^ Pxy.
 */
static void k_2data_recov(unsigned int disks, size_t bytes, unsigned int a,
			  unsigned int b, u8 **ptrs)
{
	static u8 zero[BLK];
	u8 pbmul[256], qmul[256];
	u8 *p = ptrs[disks - 2], *q = ptrs[disks - 1];
	u8 *dp = ptrs[a], *dq = ptrs[b];
	size_t j;

	ptrs[a] = zero;
	ptrs[disks - 2] = dp;
	ptrs[b] = zero;
	ptrs[disks - 1] = dq;
	k_gen_syndrome(disks, bytes, ptrs);
	ptrs[a] = dp;
	ptrs[b] = dq;
	ptrs[disks - 2] = p;
	ptrs[disks - 1] = q;

	/* raid6_gfexi[b - a] = inv(2^(b - a) + 1) */
	gf_mul_table(gf_inv(gf_pow(2, b - a) ^ 1), pbmul);
	gf_mul_table(gf_inv(gf_pow(2, a) ^ gf_pow(2, b)), qmul);
	for (j = 0; j < bytes; j++) {
		u8 px = p[j] ^ dp[j];
		u8 qx = qmul[q[j] ^ dq[j]];

		dq[j] = pbmul[px] ^ qx;
		dp[j] = dq[j] ^ px;
	}
}

static void test_recovery(void)
{
	static u8 blk[MAXD + 2][BLK], save[MAXD + 2][BLK];
	u8 *ptrs[MAXD + 2];
	unsigned int nd, x, y, i;

	for (nd = 2; nd <= MAXD; nd++) {
		tap_begin("%u data blocks: every 2-data loss and data+P loss recovered", nd);
		for (i = 0; i < nd; i++) {
			fill(blk[i], BLK);
			ptrs[i] = blk[i];
		}
		ptrs[nd] = blk[nd];
		ptrs[nd + 1] = blk[nd + 1];
		gf_syndrome((const u8 *const *)ptrs, nd, BLK, blk[nd],
			    blk[nd + 1]);
		memcpy(save, blk, sizeof(blk));
		for (x = 0; x < nd; x++) {
			for (y = x + 1; y < nd; y++) {
				memset(blk[x], 0x5a, BLK);
				memset(blk[y], 0xa5, BLK);
				gf_recover2(ptrs, nd, BLK, x, y, blk[nd],
					    blk[nd + 1]);
				CHECK(!memcmp(blk[x], save[x], BLK) &&
				      !memcmp(blk[y], save[y], BLK),
				      "gf_recover2 of %u and %u", x, y);
				/* the kernel's formulas agree */
				memset(blk[x], 0x11, BLK);
				memset(blk[y], 0x22, BLK);
				k_2data_recov(nd + 2, BLK, x, y, ptrs);
				CHECK(!memcmp(blk[x], save[x], BLK) &&
				      !memcmp(blk[y], save[y], BLK),
				      "raid6_2data_recov formulas for %u and %u",
				      x, y);
				memcpy(blk[x], save[x], BLK);
				memcpy(blk[y], save[y], BLK);
			}
			memset(blk[x], 0x5a, BLK);
			memset(blk[nd], 0xa5, BLK);
			gf_recover_data_p(ptrs, nd, BLK, x, blk[nd],
					  blk[nd + 1]);
			CHECK(!memcmp(blk[x], save[x], BLK) &&
			      !memcmp(blk[nd], save[nd], BLK),
			      "gf_recover_data_p of %u", x);
		}
		/* a wrong Q must not give the right data */
		blk[nd + 1][7] ^= 1;
		memset(blk[0], 0, BLK);
		memset(blk[1], 0, BLK);
		gf_recover2(ptrs, nd, BLK, 0, 1, blk[nd], blk[nd + 1]);
		CHECK(memcmp(blk[0], save[0], BLK) ||
		      memcmp(blk[1], save[1], BLK),
		      "recovery ignores Q");
		tap_end();
	}
}

int main(void)
{
	int ret;

	test_tables();
	test_hand_syndromes();
	test_kernel_vectors();
	test_horner();
	test_recovery();
	ret = tap_done();
	printf("test_gf: %u passed, %u failed\n", tap_n - tap_failed,
	       tap_failed);
	return ret;
}
