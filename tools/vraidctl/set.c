// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: set: change a VD's policies.
 */
#include "vraidctl.h"

/* set VD KEY=VALUE...: one SET_POLICY with the keys given, then INFO. */
int cmd_set(int argc, char **argv)
{
	const char *pos[1 + 2 * NR_POL];	/* more means a key twice */
	struct vraid_set_policy req;
	struct vraid_info in;
	uint32_t val[NR_POL] = { 0 }, got[NR_POL], mask = 0;
	char name[32], w[48];
	size_t npos, i, k, kl;
	bool differs = false;
	struct ctl c;
	int rc, e;

	rc = parse_args("set", argc, argv, NULL, NULL, NULL, pos,
			ARRAY_SIZE(pos), &npos);
	if (rc >= 0)
		return rc;
	if (!npos)
		return usage_error("set", "name the virtual drive and the policies to set (e.g. vraid0 access=ro)");
	if (strchr(pos[0], '='))
		return usage_error("set", "name the virtual drive first, then KEY=VALUE (e.g. vraidctl set vraid0 %s)",
				   pos[0]);
	if (npos == 1)
		return usage_error("set", "name at least one policy to set as KEY=VALUE (KEY: access, disk-cache, read-policy, write-policy or io-policy)");
	for (i = 1; i < npos && i < ARRAY_SIZE(pos); i++) {
		const char *a = pos[i], *eq = strchr(a, '=');

		if (!eq)
			return usage_error("set", "'%s' is not KEY=VALUE (e.g. access=ro); name one virtual drive only",
					   a);
		kl = (size_t)(eq - a);
		for (k = 0; k < NR_POL; k++)
			if (strlen(policies[k].key) == kl &&
			    !strncmp(a, policies[k].key, kl))
				break;
		if (k == NR_POL)
			return usage_error("set", "unknown policy '%.*s' (choose access, disk-cache, read-policy, write-policy or io-policy)",
					   (int)kl, a);
		if (mask & policies[k].bit)
			return usage_error("set", "%s given twice", policies[k].key);
		if (!pol_parse(&policies[k], eq + 1, &val[k]))
			return usage_error("set", "unknown %s '%s' (choose %s)",
					   policies[k].key, eq + 1,
					   policies[k].choices);
		mask |= policies[k].bit;
	}
	if (npos > ARRAY_SIZE(pos))	/* not reached: a key came twice */
		return usage_error("set", "too many arguments");

	if (open_vd(&c, true, pos[0], &in, name, sizeof(name)))
		return RC_FAIL;
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.set_mask = mask;
	req.access_policy = val[POL_ACCESS];
	req.disk_cache_policy = val[POL_DCACHE];
	req.io_policy = val[POL_IO];
	req.read_policy = val[POL_READ];
	req.write_policy = val[POL_WRITE];
	e = ctl_ioctl(&c, VRAID_IOC_SET_POLICY, &req, sizeof(req));
	if (e) {
		close(c.fd);
		snprintf(w, sizeof(w), "set %s", name);
		report(&c, w, e, &req.hdr, CTX_POLICY);
		if (e == EOPNOTSUPP && pol_needs_cache(mask, val))
			cache_hint(&req.hdr, mask, val);
		else if (e == EIO && c.replied &&
			 strstr(req.hdr.message, "cannot be written"))
			hintmsg("nothing is lost: %s keeps its cached writes (and the journal its copy); fix the member (see `vraidctl show %s` and the kernel log) and set the policy again",
				name, name);
		else if (e == EIO)
			hintmsg("the change may be in effect but not recorded on the members: see `vraidctl show %s` and the kernel log (dmesg)",
				name);
		return RC_FAIL;
	}
	rc = get_info(&c, in.index, &in, false);
	close(c.fd);
	if (rc) {
		hintmsg("the module accepted the change; see the policies with `vraidctl show %s`",
			name);
		return RC_FAIL;
	}
	got[POL_ACCESS] = in.access_policy;
	got[POL_DCACHE] = in.disk_cache_policy;
	got[POL_READ] = in.read_policy;
	got[POL_WRITE] = in.write_policy;
	got[POL_IO] = in.io_policy;
	printf("%s: %s %s, %s %s, %s %s, %s %s, %s %s\n", name,
	       policies[0].label, pol_says(0, got[0]),
	       policies[1].label, pol_says(1, got[1]),
	       policies[2].label, pol_says(2, got[2]),
	       policies[3].label, pol_says(3, got[3]),
	       policies[4].label, pol_says(4, got[4]));
	fflush(stdout);
	if (mask & VRAID_SET_WRITE)
		write_note(&in, name);
	for (k = 0; k < NR_POL; k++) {
		if ((mask & policies[k].bit) && got[k] != val[k]) {
			errmsg("%s: the module accepted %s %s, but reports %s",
			       name, policies[k].label, pol_says(k, val[k]),
			       pol_says(k, got[k]));
			differs = true;
		}
	}
	if (differs)
		hintmsg("see `vraidctl show %s` and the kernel log (dmesg)", name);
	return differs ? RC_FAIL : RC_OK;
}
