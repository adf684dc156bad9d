// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: vraid.conf, the optional configuration file (as mdadm.conf):
 * names pinned to VD UUIDs, which VDs and spares assembly may bring up by
 * itself, and where the monitor sends events.  Read by assemble (--scan,
 * --incremental, and the name pins for every assembly) and monitor.
 * Documentation/admin-guide.rst, "vraid.conf", is the reference.
 *
 *   VD UUID [name=NAME] [auto=yes|no]
 *   SPARE UUID                  (a spare's own UUID: examine shows it)
 *   AUTO +all | -all
 *   MAILADDR ADDRESS
 *   PROGRAM /PATH
 *
 * '#' starts a comment; keywords in any case.  A line vraidctl does not
 * understand is an error naming FILE:LINE, and the command that read the
 * file does nothing: a policy half read could assemble what it refuses.
 */
#include "vraidctl.h"

const char *config_path;	/* --config FILE; NULL: the default, optional */

/* Report a mistake at @line of @path; returns RC_FAIL. */
static int conf_error(const char *path, unsigned int line, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));
static int conf_error(const char *path, unsigned int line, const char *fmt,
		      ...)
{
	char m[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	errmsg("%s:%u: %s", path, line, m);
	return RC_FAIL;
}

/* VD UUID [name=NAME] [auto=yes|no] */
static int conf_vd(struct vraid_conf *cf, const char *path, unsigned int ln,
		   char **w, size_t nw)
{
	struct conf_vd *v;
	size_t i, k;

	if (nw < 2)
		return conf_error(path, ln, "VD needs the VD's UUID (vraidctl examine DEV shows it), e.g. VD 8c1d0f3e-5244-4a1b-9e07-6d21c355a019 name=db");
	if (cf->nvd >= ARRAY_SIZE(cf->vds))
		return conf_error(path, ln, "more than %zu VD lines",
				  ARRAY_SIZE(cf->vds));
	v = &cf->vds[cf->nvd];
	memset(v, 0, sizeof(*v));
	v->auto_ok = -1;
	if (!parse_uuid(w[1], v->uuid))
		return conf_error(path, ln, "'%s' is not a VD UUID (32 hex digits, e.g. 8c1d0f3e-5244-4a1b-9e07-6d21c355a019)",
				  w[1]);
	for (k = 0; k < cf->nvd; k++)
		if (!memcmp(cf->vds[k].uuid, v->uuid, sizeof(v->uuid)))
			return conf_error(path, ln, "VD %s is listed already, at line %u",
					  w[1], cf->vds[k].line);
	for (i = 2; i < nw; i++) {
		if (!strncmp(w[i], "name=", 5)) {
			const char *n = w[i] + 5;

			if (!*n || strlen(n) >= sizeof(v->name) ||
			    !vraid_name_valid(n, strlen(n) + 1))
				return conf_error(path, ln, "name '%s' is not a VD name (1 to 31 of A-Z a-z 0-9 . _ -, not starting with '-', not all digits, not vraidN)",
						  n);
			for (k = 0; k < cf->nvd; k++)
				if (!strcmp(cf->vds[k].name, n))
					return conf_error(path, ln, "name %s is pinned already, at line %u",
							  n, cf->vds[k].line);
			strcpy(v->name, n);
		} else if (!strcmp(w[i], "auto=yes")) {
			v->auto_ok = 1;
		} else if (!strcmp(w[i], "auto=no")) {
			v->auto_ok = 0;
		} else {
			return conf_error(path, ln, "'%s': a VD line takes name=NAME and auto=yes|no",
					  w[i]);
		}
	}
	v->line = ln;
	cf->nvd++;
	return RC_OK;
}

/* One line, split into words at blanks (the comment cut off). */
static int conf_line(struct vraid_conf *cf, const char *path, unsigned int ln,
		     char *s)
{
	char *w[16], *save = NULL, *t;
	size_t nw = 0;

	t = strchr(s, '#');
	if (t)
		*t = '\0';
	for (t = strtok_r(s, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (nw == ARRAY_SIZE(w))
			return conf_error(path, ln, "too many words");
		w[nw++] = t;
	}
	if (!nw)
		return RC_OK;
	if (!strcasecmp(w[0], "VD"))
		return conf_vd(cf, path, ln, w, nw);
	if (!strcasecmp(w[0], "AUTO")) {
		if (nw != 2 || (strcmp(w[1], "+all") && strcmp(w[1], "-all")))
			return conf_error(path, ln, "AUTO takes +all (assemble every VD found, the default) or -all (only those of a VD line)");
		if (cf->auto_line)
			return conf_error(path, ln, "AUTO is set already, at line %u",
					  cf->auto_line);
		cf->auto_all = w[1][0] == '+';
		cf->auto_line = ln;
		return RC_OK;
	}
	if (!strcasecmp(w[0], "SPARE")) {
		if (nw != 2 || cf->nspares >= ARRAY_SIZE(cf->spares) ||
		    !parse_uuid(w[1], cf->spares[cf->nspares]))
			return conf_error(path, ln, "SPARE takes one hot spare's UUID (vraidctl examine DEV shows it as Spare UUID)");
		cf->nspares++;
		return RC_OK;
	}
	if (!strcasecmp(w[0], "MAILADDR")) {
		if (nw != 2 || !mail_address_ok(w[1]) ||
		    strlen(w[1]) >= sizeof(cf->mailaddr))
			return conf_error(path, ln, "MAILADDR takes one mail address (root, or user@host)");
		if (cf->mailaddr[0])
			return conf_error(path, ln, "MAILADDR is set already");
		strcpy(cf->mailaddr, w[1]);
		return RC_OK;
	}
	if (!strcasecmp(w[0], "PROGRAM")) {
		if (nw != 2 || w[1][0] != '/' ||
		    strlen(w[1]) >= sizeof(cf->program))
			return conf_error(path, ln, "PROGRAM takes the absolute path of one program (it gets each event as monitor --exec gives it)");
		if (cf->program[0])
			return conf_error(path, ln, "PROGRAM is set already");
		strcpy(cf->program, w[1]);
		return RC_OK;
	}
	return conf_error(path, ln, "unknown keyword '%s' (expected VD, SPARE, AUTO, MAILADDR or PROGRAM)",
			  w[0]);
}

int config_load(struct vraid_conf *cf)
{
	const char *path = config_path ? config_path : CONFIG_DEFAULT;
	unsigned int ln = 0;
	char line[1024];
	FILE *f;
	int rc = RC_OK;

	memset(cf, 0, sizeof(*cf));
	cf->auto_all = true;
	cf->path = path;
	f = fopen(path, "re");
	if (!f) {
		/* the default file is optional; one named with --config is not */
		if (errno == ENOENT && !config_path)
			return RC_OK;
		errmsg("cannot read the configuration %s: %s", path,
		       strerror(errno));
		return RC_FAIL;
	}
	while (rc == RC_OK && fgets(line, sizeof(line), f)) {
		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			rc = conf_error(path, ln, "line longer than %zu characters",
					sizeof(line) - 2);
			break;
		}
		rc = conf_line(cf, path, ln, line);
	}
	if (rc == RC_OK && ferror(f))
		rc = conf_error(path, ln + 1, "read error: %s", strerror(errno));
	fclose(f);
	cf->loaded = rc == RC_OK;
	return rc;
}

static const struct conf_vd *conf_find(const struct vraid_conf *cf,
				       const uint8_t *uuid)
{
	size_t k;

	for (k = 0; k < cf->nvd; k++)
		if (!memcmp(cf->vds[k].uuid, uuid, VRAID_MD_UUID_LEN))
			return &cf->vds[k];
	return NULL;
}

bool config_auto_vd(const struct vraid_conf *cf, const uint8_t *uuid)
{
	const struct conf_vd *v = conf_find(cf, uuid);

	if (v && v->auto_ok >= 0)
		return v->auto_ok;
	return v || cf->auto_all;
}

char *config_why_not(const struct vraid_conf *cf, const uint8_t *uuid,
		     char *buf, size_t bufsz)
{
	const struct conf_vd *v = conf_find(cf, uuid);

	if (v && !v->auto_ok)
		snprintf(buf, bufsz, "%s:%u says auto=no for it", cf->path,
			 v->line);
	else
		snprintf(buf, bufsz, "%s:%u says AUTO -all and no VD line names it",
			 cf->path, cf->auto_line);
	return buf;
}

bool config_auto_spare(const struct vraid_conf *cf,
		       const struct vraid_sprec *sp)
{
	size_t k;

	for (k = 0; k < cf->nspares; k++)
		if (!memcmp(cf->spares[k], sp->uuid, VRAID_MD_UUID_LEN))
			return true;
	/* dedicated: as its VD; global: only where every VD is welcome */
	if (sp->flags & VRAID_SPREC_F_DEDICATED)
		return config_auto_vd(cf, sp->vd_uuid);
	return cf->auto_all;
}

const char *config_name(const struct vraid_conf *cf, const uint8_t *uuid)
{
	const struct conf_vd *v = conf_find(cf, uuid);

	return v && v->name[0] ? v->name : NULL;
}
