// SPDX-License-Identifier: GPL-2.0
/*
 * The write-back journal's acknowledgement order, crashed at every point.
 * Documentation/cache-design.rst ("Commit ordering and group commit",
 * "Reclaim", "Replay at assembly", "Switching online") is what is
 * modelled; driver/core/jformat.c builds every record and plans every replay,
 * and driver/core/cachecore.c plans every destage.
 *
 * A controller runs a random schedule over a mirrored VD (RAID1 or
 * RAID10 from layout.c) with a volatile write cache on every member:
 *
 *  - user writes (partial pages too) go into the cache and into the open
 *    record; records are written FUA, at most 8 in flight, group commit
 *    (the open record goes when full, at once when nothing is in flight,
 *    or when the oldest in flight completes), PADs at the ring's end;
 *    writes are acknowledged strictly in seq order;
 *  - completions of journal and member writes come in any order;
 *  - destage writes dirty runs (vraid_dwin_plan()) to every copy; a
 *    version is protected while it is the latest or a destage awaits a
 *    member flush, and a superseded one until the superseding record is
 *    acknowledged or a newer version of its sectors is destaged and
 *    flushed (without that, the ring can fill with records that wait for
 *    an open record that waits for their space: the model deadlocked so
 *    until the rule was added); the reclaimer flushes the members, moves
 *    the tail over records at zero, writes the superblock, and lets space
 *    be reused only once that write has completed;
 *  - now and then a drain to write-through: destage everything, flush,
 *    log VD_CLEAN, metadata without JOURNAL, FUA write-through writes,
 *    then back to write-back with JOURNAL and floor = the next seq.
 *
 * Every I/O is an event.  The crash after every prefix of the events is
 * taken three ways: every write in flight or in a volatile cache lost,
 * every one kept, and each one (each journal block) kept or lost at
 * random (torn records, torn superblock updates).  Then replay: the
 * superblock slots, a scan from the tail (both CRCs, seq, position),
 * vraid_jplan_make() with the metadata floor, the pages written to every
 * copy.  Each copy of each sector must then hold the latest acknowledged
 * version or a newer one that was written, never an older one.
 *
 * The model is checked by breaking it: five mutations of the rules
 * (reclaim without a member flush, reuse before the superblock, ack out
 * of order, release on supersede, no VD_CLEAN/floor) must each lose
 * acknowledged data at some crash point.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stdlib.h>
#include <limits.h>
#include "tap.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "layout.h"
#include "jformat.h"
#include "cachecore.h"
#include "le_bytes.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define BLK		VRAID_J_BLOCK
#define NS		128		/* VD sectors modelled: 16 pages */
#define MS		256		/* member sectors modelled */
#define MAXM		4
#define RING		48		/* journal ring blocks */
#define REC_W		6		/* DATA entries of a record */
#define REC_PAGES	8		/* payload blocks of a record */
#define INFLIGHT	8		/* records in flight */
#define DS_INFLIGHT	4		/* destages in flight */
#define MAXREC		4096
#define MAXVER		8192
#define MAXHOLD		(MAXVER * 24)
#define MAXMW		32768
#define MAXPOOL		(MAXMW * 16)
#define MAXSB		2048
#define MAXMD		256
#define NEVER		INT_MAX
#define PRE		(-1)
#define STEPS		2500		/* scheduling steps of a run */

enum bug {
	BUG_NONE,
	BUG_NO_FLUSH,		/* reclaim without flushing the members */
	BUG_EARLY_REUSE,	/* reuse space before the superblock is durable */
	BUG_ACK_ANY_ORDER,	/* acknowledge a record on its own completion */
	BUG_EARLY_RELEASE,	/* release a superseded version at once */
	BUG_NO_CLEAN,		/* no VD_CLEAN, no new floor after write-through */
	NBUGS
};

static const char *const bug_name[NBUGS] = {
	"none", "reclaim without member flush", "reuse before superblock",
	"ack out of seq order", "release superseded at once",
	"no VD_CLEAN and no floor",
};

enum mode { M_WB, M_DRAIN, M_CLEAN, M_MD_OFF, M_WT, M_MD_ON };

static const u8 JUUID[16] = { 0x4a, 0x4d, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
			      12, 13, 14, 15 };
static const u8 VD[16] = { 0x11, 0x22, 0x33, 0x44, 1, 2, 3, 4, 5, 6, 7, 8,
			   9, 10, 11, 12 };

static u64 rng_state;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The kernel's crc32c(), table driven: vraid_crc32c(c) == ~crc(~c). */
static u32 crc_table[256];

static u32 fast_crc32c(u32 crc, const u8 *p, size_t n)
{
	u32 i, j;

	if (!crc_table[1])
		for (i = 0; i < 256; i++) {
			u32 c = i;

			for (j = 0; j < 8; j++)
				c = (c >> 1) ^ ((c & 1) ? 0x82f63b78U : 0);
			crc_table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

struct rec {
	u64 seq, pos;
	u32 nblk;			/* header + payload (PAD: 1) */
	u8 *buf;
	bool pad, clean, done, acked;
	int sub_ev, done_ev;
	u32 prot;			/* holds of its versions alive */
	u32 nw, w[REC_W];		/* versions it carries */
	u32 pages;
	int sup;			/* holds it supersedes */
	/* decoded once */
	int dret;
	struct vraid_jhdr hdr;
	u32 nent;
	struct vraid_jentry ent[REC_W + 1];
};

struct ver {
	u32 start, n;
	int rec;			/* -1: write-through or still open */
	int ack_ev;
	u32 h0;				/* its holds: h0..h0+n-1 */
	u32 wt_pending;
};

struct hold {
	u32 s, v;
	bool alive, counted;
	int sup_next;			/* next on its superseder's list */
	int prev;			/* the hold it superseded */
};

struct mw {
	u32 member, msector, n, voff;
	int sub_ev, done_ev, durable_ev;
	int ds;				/* destage, -1: write-through */
	u32 v;				/* write-through: its version */
};

struct ds {
	u32 pending, off, n;
};

struct dsent {
	u32 s, v, h;
};

struct sbw {
	u64 gen, tail, tail_seq;
	int sub_ev, done_ev;
	u8 *buf;
	int dret;
	struct vraid_jsb sb;
};

struct mdw {
	bool journal;
	u64 floor;
	int sub_ev, done_ev;
};

static struct sim {
	enum bug bug;
	struct vraid_geom g;
	struct vraid_dwin_geom dg;
	u32 row_sectors;
	int nev;

	struct rec rec[MAXREC];
	u32 nrec;
	struct rec open;
	bool has_open, kick;
	u32 inflight, ack_next, first_live;
	u64 head, next_seq, tail_dur, sb_gen;

	struct ver ver[MAXVER];
	u32 nver;
	struct hold hold[MAXHOLD];
	u32 nhold;
	int cur_hold[NS];
	u32 dver[NS];
	bool destaging[NS];

	struct mw mw[MAXMW];
	u32 nmw;
	u32 vpool[MAXPOOL];
	u32 nvpool;
	struct ds ds[MAXMW];
	u32 nds, ds_inflight;
	struct dsent dpool[MAXHOLD];
	u32 ndpool;

	u32 settle[MAXHOLD], nsettle;
	u32 batch[MAXHOLD], nbatch;
	int reclaim;			/* 0 idle, 1 flush, 2 superblock */
	int flush_sub;

	struct sbw sbw[MAXSB];
	u32 nsbw;
	struct mdw mdw[MAXMD];
	u32 nmdw;
	u64 md_floor;

	enum mode mode;
	u32 wt_left, wt_inflight;

	/* statistics */
	u32 pads, reclaims, cleans, torn, replayed, newer, points, lost;
} S;

static int ev(void)
{
	return S.nev++;
}

/* ---- the controller ---- */

static void release(u32 h)
{
	struct hold *ho = &S.hold[h];
	int r = S.ver[ho->v].rec;

	if (!ho->alive)
		return;
	ho->alive = false;
	if (ho->counted && r >= 0)
		S.rec[r].prot--;
}

/*
 * A destaged version is on the members and flushed: it needs no record,
 * and neither do the older versions it superseded, whose records could
 * otherwise wait for a superseding record that waits for their space.
 */
static void settled(u32 h)
{
	int p;

	release(h);
	for (p = S.hold[h].prev; p >= 0 && S.hold[p].alive;
	     p = S.hold[p].prev)
		release((u32)p);
}

static void ack_record(struct rec *r)
{
	u32 i;
	int h;

	r->acked = true;
	for (i = 0; i < r->nw; i++)
		S.ver[r->w[i]].ack_ev = ev();
	for (h = r->sup; h >= 0; h = S.hold[h].sup_next)
		release(h);
	if (r->clean && S.mode == M_CLEAN)
		S.mode = M_MD_OFF;
}

static void do_acks(void)
{
	while (S.ack_next < S.nrec && S.rec[S.ack_next].done) {
		if (!S.rec[S.ack_next].acked)
			ack_record(&S.rec[S.ack_next]);
		S.ack_next++;
	}
}

static void md_write(bool journal, u64 floor)
{
	struct mdw *m = &S.mdw[S.nmdw++];

	m->journal = journal;
	m->floor = floor;
	m->sub_ev = ev();
	m->done_ev = NEVER;
}

/* Build the open record into rec[] at @start and submit it. */
static void submit_open(u64 start)
{
	struct rec *r = &S.rec[S.nrec];
	struct vraid_jbuild b;
	u32 i, p, k, crc = 0, pg = 0;

	*r = S.open;
	S.has_open = false;
	r->seq = S.next_seq++;
	r->pos = start;
	r->nblk = 1 + r->pages;
	r->buf = calloc(r->nblk, BLK);
	vraid_jrec_init(&b, r->buf, r->seq);
	for (i = 0; i < r->nw; i++) {
		struct ver *v = &S.ver[r->w[i]];
		u32 first = v->start / 8, last = (v->start + v->n - 1) / 8;
		u8 fm = 0, lm = 0;

		for (k = v->start; k < v->start + v->n; k++) {
			u8 *sec;

			p = k / 8;
			if (p == first)
				fm |= (u8)(1U << (k % 8));
			if (p == last)
				lm |= (u8)(1U << (k % 8));
			sec = r->buf + (1 + pg + p - first) * BLK + (k % 8) * 512;
			put32(sec, r->w[i]);
			put32(sec + 4, k);
		}
		if (vraid_jrec_add_data(&b, VD, first * 8ULL, fm, lm,
					last - first + 1))
			abort();
		pg += last - first + 1;
		v->rec = (int)S.nrec;
		for (k = 0; k < v->n; k++) {
			struct hold *h = &S.hold[v->h0 + k];

			if (h->alive) {
				h->counted = true;
				r->prot++;
			}
		}
	}
	if (r->clean && vraid_jrec_add_vd_clean(&b, VD, r->seq))
		abort();
	for (p = 0; p < r->pages; p++)
		crc = fast_crc32c(crc, r->buf + (1 + p) * BLK, BLK);
	vraid_jrec_finish(&b, start, JUUID, crc);
	r->sub_ev = ev();
	r->done_ev = NEVER;
	r->dret = 1;			/* not decoded yet */
	S.nrec++;
	S.inflight++;
	S.head = vraid_jring_advance(RING, start, r->nblk);
}

static void try_submit(void)
{
	struct rec *o = &S.open;
	u64 start, pad;
	bool full;

	if (!S.has_open || (!o->nw && !o->clean) || S.inflight >= INFLIGHT ||
	    S.nrec + 2 >= MAXREC)
		return;
	full = o->nw >= REC_W || o->pages >= REC_PAGES - 2 || o->clean ||
	       S.mode == M_DRAIN;
	if (S.inflight && !full && !S.kick)
		return;
	if (vraid_jring_reserve(RING, S.tail_dur, S.head, 1 + o->pages,
				&start, &pad))
		return;			/* waits for reclaim */
	if (pad) {
		struct rec *r = &S.rec[S.nrec];

		memset(r, 0, sizeof(*r));
		r->seq = S.next_seq++;
		r->pos = S.head;
		r->nblk = 1;
		r->pad = true;
		r->sup = -1;
		r->buf = calloc(1, BLK);
		vraid_jrec_pad(r->buf, r->seq, r->pos, JUUID, (u32)pad - 1);
		r->sub_ev = ev();
		r->done_ev = NEVER;
		r->dret = 1;
		S.nrec++;
		S.inflight++;
		S.pads++;
	}
	submit_open(start);
	S.kick = false;
}

static void open_init(void)
{
	memset(&S.open, 0, sizeof(S.open));
	S.open.sup = -1;
	S.has_open = true;
}

static void new_mw(u32 member, u32 msector, u32 n, const u32 *vers, int ds,
		   u32 v)
{
	struct mw *w = &S.mw[S.nmw++];

	w->member = member;
	w->msector = msector;
	w->n = n;
	w->voff = S.nvpool;
	memcpy(S.vpool + S.nvpool, vers, n * sizeof(u32));
	S.nvpool += n;
	w->sub_ev = ev();
	w->done_ev = NEVER;
	w->durable_ev = NEVER;
	w->ds = ds;
	w->v = v;
}

/* Member writes of VD sectors [s, s + n) with @vers to every copy. */
static u32 write_copies(u32 s, u32 n, const u32 *vers, int ds, u32 v)
{
	struct vraid_mirror_loc m;
	u32 c, len, writes = 0;

	while (n) {
		vraid_layout_mirror(&S.g, s, &m);
		len = m.len < n ? (u32)m.len : n;
		for (c = 0; c < m.copies; c++, writes++)
			new_mw(m.first + c, (u32)m.sector, len, vers, ds, v);
		s += len;
		vers += len;
		n -= len;
	}
	return writes;
}

/* A new version of sectors start..start+n-1, its holds from S.nhold on. */
static u32 new_ver(u32 start, u32 n)
{
	struct ver *ve = &S.ver[++S.nver];

	ve->start = start;
	ve->n = n;
	ve->rec = -1;
	ve->ack_ev = NEVER;
	ve->h0 = S.nhold;
	return S.nver;
}

static bool user_write(void)
{
	u32 start = rnd() % NS, n = 1 + rnd() % 24, pages, k, v;

	if (start + n > NS)
		n = NS - start;
	pages = (start + n - 1) / 8 - start / 8 + 1;
	if (S.nver + 1 >= MAXVER || S.nhold + n >= MAXHOLD ||
	    S.nmw + 64 >= MAXMW)
		return false;
	if (S.mode == M_WT) {
		u32 vers[NS];

		if (!S.wt_left)
			return false;
		v = new_ver(start, n);
		for (k = 0; k < n; k++) {
			vers[k] = v;
			S.cur_hold[start + k] = -1;
		}
		S.ver[v].wt_pending = write_copies(start, n, vers, -1, v);
		S.wt_inflight++;
		S.wt_left--;
		return true;
	}
	if (S.mode != M_WB)
		return false;
	if (!S.has_open)
		open_init();
	if (S.open.nw >= REC_W || S.open.pages + pages > REC_PAGES)
		return false;		/* the writer waits */
	v = new_ver(start, n);
	for (k = start; k < start + n; k++) {
		int old = S.cur_hold[k];
		struct hold *h = &S.hold[S.nhold];

		if (old >= 0 && S.hold[old].alive) {
			if (S.bug == BUG_EARLY_RELEASE) {
				release(old);
			} else {
				S.hold[old].sup_next = S.open.sup;
				S.open.sup = old;
			}
		}
		h->s = k;
		h->v = v;
		h->alive = true;
		h->counted = false;
		h->sup_next = -1;
		h->prev = old;
		S.cur_hold[k] = (int)S.nhold++;
		S.dver[k] = v;
	}
	S.open.w[S.open.nw++] = v;
	S.open.pages += pages;
	return true;
}

static void journal_done(void)
{
	u32 i, n = 0, pick, oldest = S.nrec;

	for (i = S.ack_next; i < S.nrec; i++)
		if (S.rec[i].sub_ev != NEVER && !S.rec[i].done) {
			if (oldest == S.nrec)
				oldest = i;
			n++;
		}
	if (!n)
		return;
	pick = (u32)(rnd() % n);
	for (i = S.ack_next; i < S.nrec; i++) {
		struct rec *r = &S.rec[i];

		if (r->done || pick--)
			continue;
		r->done = true;
		r->done_ev = ev();
		S.inflight--;
		if (i == oldest)
			S.kick = true;
		if (S.bug == BUG_ACK_ANY_ORDER && !r->acked)
			ack_record(r);
		break;
	}
	do_acks();
}

static void destage(void)
{
	static u8 masks[NS / 8];
	static struct vraid_dwin_ext ext[VRAID_DWIN_MAX_EXT(2)];
	struct vraid_dwin w;
	u32 row, s, i, k, base, vers[NS];
	struct ds *d;

	if (S.ds_inflight >= DS_INFLIGHT || S.nmw + 64 >= MAXMW ||
	    S.ndpool + NS >= MAXHOLD)
		return;
	row = (u32)(rnd() % (NS / S.row_sectors));
	base = row * S.row_sectors;
	memset(masks, 0, sizeof(masks));
	for (s = 0; s < S.row_sectors; s++)
		if (S.dver[base + s] && !S.destaging[base + s])
			masks[s / 8] |= (u8)(1U << (s % 8));
	if (vraid_dwin_plan(&S.dg, masks, 0, ext, VRAID_DWIN_MAX_EXT(2),
			    &w) != 1)
		return;
	d = &S.ds[S.nds];
	d->off = S.ndpool;
	d->n = 0;
	d->pending = 0;
	for (i = 0; i < w.next; i++) {
		u32 vs = base + (u32)ext[i].sector;

		for (k = 0; k < ext[i].sectors; k++) {
			struct dsent *e = &S.dpool[S.ndpool++];

			e->s = vs + k;
			e->v = S.dver[vs + k];
			e->h = (u32)S.cur_hold[vs + k];
			vers[k] = e->v;
			S.destaging[vs + k] = true;
			d->n++;
		}
		d->pending += write_copies(vs, ext[i].sectors, vers,
					   (int)S.nds, 0);
	}
	S.nds++;
	S.ds_inflight++;
}

static void destage_done(struct ds *d)
{
	u32 i;

	for (i = 0; i < d->n; i++) {
		struct dsent *e = &S.dpool[d->off + i];

		S.destaging[e->s] = false;
		if (S.dver[e->s] == e->v)
			S.dver[e->s] = 0;
		if (S.hold[e->h].alive)
			S.settle[S.nsettle++] = e->h;
	}
	S.ds_inflight--;
}

static void member_done(void)
{
	u32 i, n = 0, pick;

	for (i = 0; i < S.nmw; i++)
		n += S.mw[i].done_ev == NEVER;
	if (!n)
		return;
	pick = (u32)(rnd() % n);
	for (i = 0; i < S.nmw; i++) {
		struct mw *w = &S.mw[i];

		if (w->done_ev != NEVER || pick--)
			continue;
		w->done_ev = ev();
		if (w->ds < 0) {
			/* write-through writes are FUA */
			w->durable_ev = w->done_ev;
			if (!--S.ver[w->v].wt_pending) {
				S.ver[w->v].ack_ev = ev();
				S.wt_inflight--;
			}
		} else if (!--S.ds[w->ds].pending) {
			destage_done(&S.ds[w->ds]);
		}
		return;
	}
}

static void move_tail(void)
{
	struct sbw *b;
	u64 tail, tseq;

	while (S.first_live < S.nrec && S.rec[S.first_live].acked &&
	       !S.rec[S.first_live].prot)
		S.first_live++;
	if (S.first_live < S.nrec) {
		tail = S.rec[S.first_live].pos;
		tseq = S.rec[S.first_live].seq;
	} else {
		tail = S.head;
		tseq = S.next_seq;
	}
	b = &S.sbw[S.nsbw - 1];
	if (b->tail_seq == tseq || S.nsbw >= MAXSB) {
		S.reclaim = 0;
		return;
	}
	b = &S.sbw[S.nsbw++];
	b->gen = ++S.sb_gen;
	b->tail = tail;
	b->tail_seq = tseq;
	b->buf = NULL;
	b->dret = 1;
	b->sub_ev = ev();
	b->done_ev = NEVER;
	S.reclaim = 2;
	S.reclaims++;
	if (S.bug == BUG_EARLY_REUSE)
		S.tail_dur = tail;
}

static void reclaim_step(void)
{
	u32 i;
	int done;

	switch (S.reclaim) {
	case 0:
		if (!S.nsettle && (S.first_live >= S.ack_next ||
				   S.rec[S.first_live].prot))
			return;		/* nothing to do */
		if (S.bug == BUG_NO_FLUSH) {
			for (i = 0; i < S.nsettle; i++)
				settled(S.settle[i]);
			S.nsettle = 0;
			move_tail();
			return;
		}
		memcpy(S.batch, S.settle, S.nsettle * sizeof(u32));
		S.nbatch = S.nsettle;
		S.nsettle = 0;
		S.flush_sub = ev();
		S.reclaim = 1;
		return;
	case 1:
		done = ev();
		for (i = 0; i < S.nmw; i++)
			if (S.mw[i].done_ev < S.flush_sub &&
			    S.mw[i].durable_ev == NEVER)
				S.mw[i].durable_ev = done;
		for (i = 0; i < S.nbatch; i++)
			settled(S.batch[i]);
		S.nbatch = 0;
		move_tail();
		return;
	default:
		S.sbw[S.nsbw - 1].done_ev = ev();
		S.tail_dur = S.sbw[S.nsbw - 1].tail;
		S.reclaim = 0;
		return;
	}
}

static bool drained(void)
{
	u32 s;

	if ((S.has_open && (S.open.nw || S.open.clean)) ||
	    S.ack_next < S.nrec || S.ds_inflight || S.nsettle ||
	    S.reclaim)
		return false;
	for (s = 0; s < NS; s++)
		if (S.dver[s])
			return false;
	return true;
}

static void mode_step(void)
{
	switch (S.mode) {
	case M_WB:
		if (rnd() % 500 == 0)
			S.mode = M_DRAIN;
		break;
	case M_DRAIN:
		S.kick = true;
		if (!drained())
			break;
		if (S.bug == BUG_NO_CLEAN) {
			S.mode = M_MD_OFF;
			break;
		}
		open_init();
		S.open.clean = true;
		S.mode = M_CLEAN;
		S.cleans++;
		break;
	case M_CLEAN:
		break;			/* ack_record() moves on */
	case M_MD_OFF:
		if (S.mdw[S.nmdw - 1].done_ev != NEVER &&
		    !S.mdw[S.nmdw - 1].journal) {
			S.mode = M_WT;
			S.wt_left = 2 + (u32)(rnd() % 6);
		} else if (S.mdw[S.nmdw - 1].journal &&
			   S.nmdw < MAXMD - 2) {
			md_write(false, 0);
		}
		break;
	case M_WT:
		if (S.wt_left || S.wt_inflight || S.nmdw >= MAXMD - 2)
			break;
		/* every write-through write is durable (FUA): back to wb */
		if (S.bug != BUG_NO_CLEAN)
			S.md_floor = S.next_seq;
		md_write(true, S.md_floor);
		S.mode = M_MD_ON;
		break;
	case M_MD_ON:
		if (S.mdw[S.nmdw - 1].done_ev != NEVER)
			S.mode = M_WB;
		break;
	}
}

static void md_done(void)
{
	struct mdw *m = &S.mdw[S.nmdw - 1];

	if (m->done_ev == NEVER)
		m->done_ev = ev();
}

/* ---- crash and replay ---- */

struct bref {
	int rec;
	u32 idx;
};

static u32 mem[MAXM][MS];
static struct bref ring[RING];
static struct vraid_jplan_in in[MAXREC];
static u32 inrec[MAXREC], scratch[MAXREC], parity[MAXREC];
static struct vraid_jplan_page pages[MAXREC * REC_PAGES];
static u64 crash_rng;

static bool keep(int variant)
{
	if (variant < 2)
		return variant == 1;
	crash_rng ^= crash_rng << 13;
	crash_rng ^= crash_rng >> 7;
	crash_rng ^= crash_rng << 17;
	return crash_rng & 1;
}

static void decode_rec(struct rec *r)
{
	char msg[VRAID_MSG_LEN];
	struct vraid_jiter it;
	int ret;

	r->dret = vraid_jhdr_decode(r->buf, &r->hdr, msg, sizeof(msg));
	r->nent = 0;
	if (r->dret)
		return;
	vraid_jiter_init(&it, r->buf, &r->hdr);
	while ((ret = vraid_jiter_next(&it, &r->ent[r->nent], msg,
				       sizeof(msg))) > 0)
		r->nent++;
	r->dret = ret;
}

static int decode_sb(struct sbw *b)
{
	char msg[VRAID_MSG_LEN];

	if (b->dret != 1)
		return b->dret;
	if (!b->buf) {
		struct vraid_jsb sb = {
			.generation = b->gen, .created = 1764500000,
			.ring_start = VRAID_J_RING_START,
			.ring_blocks = RING, .tail_block = b->tail,
			.tail_seq = b->tail_seq,
		};

		memcpy(sb.uuid, JUUID, 16);
		b->buf = malloc(BLK);
		vraid_jsb_encode(&sb, b->buf);
	}
	/* the ring is smaller than a real one: no device size check */
	b->dret = vraid_jsb_decode(b->buf, (u32)(b->gen & 1), 0, &b->sb, msg,
				   sizeof(msg));
	/* but the decoder refuses rings under 64 MiB: take it as it is */
	if (b->dret == -EINVAL && b->sb.ring_blocks == RING)
		b->dret = 0;
	return b->dret;
}

/* The latest version acknowledged before event @k, of every sector. */
static void acked_at(int k, u32 *best)
{
	u32 v, s;

	memset(best, 0, NS * sizeof(u32));
	for (v = 1; v <= S.nver; v++)
		if (S.ver[v].ack_ev < k)
			for (s = S.ver[v].start; s < S.ver[v].start + S.ver[v].n;
			     s++)
				best[s] = v;
}

/* Crash after events [0, k) in @variant; returns the sectors gone wrong. */
static u32 crash(int k, int variant, char *why, size_t wlen)
{
	struct vraid_jsb sbs[2];
	int slot_sb[2] = { -1, -1 }, r0, r1, ch, ret;
	struct vraid_jplan plan;
	struct mdw *md = NULL;
	char msg[VRAID_MSG_LEN];
	u64 pos, seq, tail_seq;
	u32 i, j, b, n = 0, bad = 0, s, c, acked[NS];

	crash_rng = 0x9e3779b97f4a7c15ULL ^ ((u64)k << 8) ^ (u64)variant;
	/* members: durable writes, and what the volatile caches kept */
	memset(mem, 0, sizeof(mem));
	for (i = 0; i < S.nmw && S.mw[i].sub_ev < k; i++) {
		struct mw *w = &S.mw[i];

		if (w->durable_ev < k || keep(variant))
			memcpy(&mem[w->member][w->msector], S.vpool + w->voff,
			       w->n * sizeof(u32));
	}
	/* the ring: completed records whole, those in flight torn */
	for (i = 0; i < RING; i++)
		ring[i].rec = -1;
	for (i = 0; i < S.nrec && S.rec[i].sub_ev < k; i++)
		for (b = 0; b < S.rec[i].nblk; b++)
			if (S.rec[i].done_ev < k || keep(variant)) {
				ring[S.rec[i].pos + b].rec = (int)i;
				ring[S.rec[i].pos + b].idx = b;
			}
	/* the superblock slots and the metadata */
	for (i = 0; i < S.nsbw && S.sbw[i].sub_ev < k; i++)
		if (S.sbw[i].done_ev < k || keep(variant))
			slot_sb[S.sbw[i].gen & 1] = (int)i;
		else if (variant >= 2 && keep(variant))
			slot_sb[S.sbw[i].gen & 1] = -1;	/* torn */
	for (i = 0; i < S.nmdw && S.mdw[i].sub_ev < k; i++)
		if (S.mdw[i].done_ev < k || keep(variant))
			md = &S.mdw[i];

	r0 = slot_sb[0] < 0 ? -ENODATA : decode_sb(&S.sbw[slot_sb[0]]);
	r1 = slot_sb[1] < 0 ? -ENODATA : decode_sb(&S.sbw[slot_sb[1]]);
	if (!r0)
		sbs[0] = S.sbw[slot_sb[0]].sb;
	if (!r1)
		sbs[1] = S.sbw[slot_sb[1]].sb;
	ch = vraid_jsb_choose(&sbs[0], r0, &sbs[1], r1, msg, sizeof(msg));
	if (ch < 0) {
		snprintf(why, wlen, "no superblock: %s", msg);
		return 1;
	}

	/* the scan */
	pos = sbs[ch].tail_block;
	seq = tail_seq = sbs[ch].tail_seq;
	for (i = 0; i < RING; i++) {
		struct bref br = ring[pos];
		struct rec *r;
		bool intact = true;

		if (br.rec < 0)
			break;
		r = &S.rec[br.rec];
		if (br.idx) {
			/* a payload block: no record magic there */
			if (get32(r->buf + br.idx * BLK) == VRAID_J_REC_MAGIC)
				abort();
			break;
		}
		if (r->dret == 1)
			decode_rec(r);
		if (r->dret || vraid_jhdr_expect(&r->hdr, JUUID, seq, pos, RING,
						 msg, sizeof(msg)))
			break;
		for (b = 1; !r->pad && b < r->nblk; b++)
			if (ring[pos + b].rec != br.rec || ring[pos + b].idx != b)
				intact = false;
		if (!intact) {
			/* check it as a scan would: the CRC of what is there */
			u32 crc = 0;
			static const u8 zero[BLK];

			for (b = 1; b < r->nblk; b++) {
				struct bref p = ring[pos + b];

				crc = fast_crc32c(crc, p.rec < 0 ? zero :
						  S.rec[p.rec].buf + p.idx * BLK,
						  BLK);
			}
			if (crc != r->hdr.payload_crc) {
				S.torn++;
				break;
			}
		}
		for (j = 0; j < r->nent; j++) {
			if (memcmp(r->ent[j].vd_uuid, VD, 16))
				continue;
			in[n].seq = r->seq;
			in[n].e = r->ent[j];
			inrec[n++] = (u32)br.rec;
		}
		pos = vraid_jring_advance(RING, pos, 1 + r->hdr.payload_blocks);
		seq++;
	}

	/* the plan, applied to every copy */
	if (md->journal) {
		ret = vraid_jplan_make(in, n, md->floor, tail_seq, scratch,
				       parity, pages, MAXREC * REC_PAGES, &plan,
				       msg, sizeof(msg));
		if (ret) {
			snprintf(why, wlen, "plan: %d %s", ret, msg);
			return 1;
		}
		if (plan.npages)
			S.replayed++;
		for (i = 0; i < plan.npages; i++) {
			const struct vraid_jplan_page *p = &pages[i];
			const struct vraid_jentry *e = &in[p->in].e;
			const u8 *blk = S.rec[inrec[p->in]].buf +
					(1 + e->page_off + p->page) * BLK;
			struct vraid_mirror_loc m;

			for (j = 0; j < 8; j++) {
				if (!(p->mask & (1U << j)))
					continue;
				s = (u32)p->sector + j;
				if (get32(blk + j * 512 + 4) != s)
					abort();
				vraid_layout_mirror(&S.g, s, &m);
				for (c = 0; c < m.copies; c++)
					mem[m.first + c][m.sector] =
						get32(blk + j * 512);
			}
		}
	}

	/* every copy: the latest acknowledged version or a newer one */
	acked_at(k, acked);
	for (s = 0; s < NS; s++) {
		struct vraid_mirror_loc m;
		u32 a = acked[s];

		vraid_layout_mirror(&S.g, s, &m);
		for (c = 0; c < m.copies; c++) {
			u32 got = mem[m.first + c][m.sector];
			const struct ver *v = &S.ver[got];

			if (got < a || (got && (s < v->start ||
						s >= v->start + v->n))) {
				if (!bad)
					snprintf(why, wlen,
						 "sector %u copy %u holds version %u, acknowledged %u",
						 s, c, got, a);
				bad++;
			} else if (got > a) {
				S.newer++;
			}
		}
	}
	return bad;
}

/* ---- scenarios ---- */

static void sim_free(void)
{
	u32 i;

	for (i = 0; i < S.nrec; i++)
		free(S.rec[i].buf);
	for (i = 0; i < S.nsbw; i++)
		free(S.sbw[i].buf);
	if (S.has_open)
		S.has_open = false;
}

static void sim_init(u32 level, u32 members, u32 strip, enum bug bug)
{
	char msg[VRAID_MSG_LEN];
	u32 s;

	memset(&S, 0, sizeof(S));
	S.bug = bug;
	if (vraid_layout_init(&S.g, level, members, strip, 0,
			      VRAID_MIN_DATA_SECTORS, msg, sizeof(msg)))
		abort();
	/* a row: one full stripe; RAID1 rows of its strip */
	S.dg.spans = 1;
	S.dg.parity = false;
	S.dg.strips = level == VRAID_LEVEL_1 ? 1 : S.g.data_members;
	S.dg.strip_pages = S.g.strip_sectors / 8;
	S.row_sectors = S.dg.strips * S.g.strip_sectors;
	for (s = 0; s < NS; s++)
		S.cur_hold[s] = -1;
	/* a freshly formatted journal, and metadata with JOURNAL */
	S.next_seq = 1;
	S.sbw[0] = (struct sbw){ .gen = 1, .tail = 0, .tail_seq = 1,
				 .sub_ev = PRE, .done_ev = PRE, .dret = 1 };
	S.sbw[1] = (struct sbw){ .gen = 2, .tail = 0, .tail_seq = 1,
				 .sub_ev = PRE, .done_ev = PRE, .dret = 1 };
	S.nsbw = 2;
	S.sb_gen = 2;
	S.mdw[0] = (struct mdw){ true, 1, PRE, PRE };
	S.nmdw = 1;
	S.md_floor = 1;
}

static void sim_run(u32 steps)
{
	u32 i, a;

	for (i = 0; i < steps; i++) {
		a = (u32)(rnd() % 16);
		if (a < 5)
			user_write();
		else if (a < 8)
			journal_done();
		else if (a < 10)
			destage();
		else if (a < 13)
			member_done();
		else if (a < 15) {
			/* like the kernel's: under pressure, else now and then */
			if (S.reclaim ||
			    vraid_jring_used(RING, S.tail_dur, S.head) >
			    RING / 2 || rnd() % 8 == 0)
				reclaim_step();
		} else if (S.mode == M_MD_OFF || S.mode == M_MD_ON) {
			md_done();
		}
		mode_step();
		try_submit();
	}
}

/* Crash at every event of one run; returns crash points that lost data. */
static u32 crash_all(char *why, size_t wlen)
{
	u32 failed = 0, bad;
	int k, variant;

	for (k = 0; k <= S.nev; k++)
		for (variant = 0; variant < 3; variant++) {
			S.points++;
			bad = crash(k, variant, why, wlen);
			if (bad) {
				failed++;
				S.lost += bad;
				if (failed == 1)
					snprintf(why + strlen(why),
						 wlen - strlen(why),
						 " (crash after %d events, variant %d)",
						 k, variant);
			}
		}
	return failed;
}

static void test_model(void)
{
	static const struct { u32 level, members, strip; const char *name; } geo[] = {
		{ VRAID_LEVEL_1, 2, 16384, "RAID1 x2" },
		{ VRAID_LEVEL_10, 4, 4096, "RAID10 x4, 4 KiB strips" },
	};
	char why[512];
	u32 gi, seed, failed, points = 0, events = 0;
	u32 pads = 0, reclaims = 0, cleans = 0, torn = 0, replayed = 0;
	u32 newer = 0;

	for (gi = 0; gi < ARRAY_SIZE(geo); gi++) {
		tap_begin("journal model, %s: 6 runs crashed after every event",
			  geo[gi].name);
		for (seed = 1; seed <= 6; seed++) {
			rng_state = 0x12345678ULL * seed + gi;
			sim_init(geo[gi].level, geo[gi].members, geo[gi].strip,
				 BUG_NONE);
			sim_run(STEPS);
			why[0] = '\0';
			failed = crash_all(why, sizeof(why));
			CHECK(failed == 0, "seed %u: %u of %u crash points lost data: %s",
			      seed, failed, S.points, why);
			CHECK(S.nver > 100 && S.reclaims > 5,
			      "seed %u: %u writes, %u reclaims", seed, S.nver,
			      S.reclaims);
			points += S.points;
			events += (u32)S.nev;
			pads += S.pads;
			reclaims += S.reclaims;
			cleans += S.cleans;
			torn += S.torn;
			replayed += S.replayed;
			newer += S.newer;
			sim_free();
		}
		tap_end();
	}
	tap_begin("journal model: the runs reached every path");
	printf("# %u crash points over %u events: %u PADs, %u reclaims, %u VD_CLEANs, %u torn records, %u replays with pages, %u newer unacknowledged sectors kept\n",
	       points, events, pads, reclaims, cleans, torn, replayed, newer);
	CHECK(points > 10000, "%u crash points", points);
	CHECK(pads > 10 && reclaims > 50 && cleans > 4 && torn > 10 &&
	      replayed > 1000 && newer > 0,
	      "%u PADs, %u reclaims, %u VD_CLEANs, %u torn, %u replays",
	      pads, reclaims, cleans, torn, replayed);
	tap_end();
}

static void test_mutations(void)
{
	char why[512];
	u32 b, seed, failed;

	for (b = 1; b < NBUGS; b++) {
		tap_begin("journal model catches a broken rule: %s", bug_name[b]);
		failed = 0;
		for (seed = 1; seed <= 6 && !failed; seed++) {
			rng_state = 0xabcdef01ULL * seed + b;
			sim_init(VRAID_LEVEL_10, 4, 4096, (enum bug)b);
			sim_run(STEPS);
			why[0] = '\0';
			failed = crash_all(why, sizeof(why));
			sim_free();
		}
		CHECK(failed > 0, "no crash point lost data");
		if (failed)
			printf("# %s: %s\n", bug_name[b], why);
		tap_end();
	}
}

int main(void)
{
	u8 *blk = malloc(BLK);
	u32 i;

	tap_begin("the model's table crc32c is vraid_crc32c()");
	for (i = 0; i < BLK; i++)
		blk[i] = (u8)(i * 7 + 3);
	CHECK(fast_crc32c(0, blk, BLK) == vraid_crc32c(0, blk, BLK) &&
	      fast_crc32c(5, blk, 100) == vraid_crc32c(5, blk, 100), "crc");
	tap_end();
	free(blk);
	test_model();
	test_mutations();
	return tap_done();
}
