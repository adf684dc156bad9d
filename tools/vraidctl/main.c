// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: the command table and dispatch.
 */
#include "vraidctl.h"

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{ "create", cmd_create },
	{ "delete", cmd_delete },
	{ "stop", cmd_stop },
	{ "assemble", cmd_assemble },
	{ "examine", cmd_examine },
	{ "wipe", cmd_wipe },
	{ "fail", cmd_fail },
	{ "replace", cmd_replace },
	{ "spare", cmd_spare },
	{ "check", cmd_check },
	{ "init", cmd_init },
	{ "job", cmd_job },
	{ "wait", cmd_wait },
	{ "list", cmd_list },
	{ "show", cmd_show },
	{ "stats", cmd_stats },
	{ "set", cmd_set },
	{ "controller", cmd_controller },
	{ "events", cmd_events },
	{ "monitor", cmd_monitor },
	{ "version", cmd_version },
	{ "help", cmd_help },
};

const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * Edit distance between @a and @b (insertions, deletions, substitutions
 * and swaps of two neighbours each count one: "craete" is one from
 * "create"), for suggesting a command to a mistyped one.  Command names
 * are short: a word longer than the buffer is far from all of them.
 */
static size_t edit_distance(const char *a, const char *b)
{
	enum { MAXLEN = 32 };
	size_t d[MAXLEN + 1][MAXLEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j, c;

	if (la > MAXLEN || lb > MAXLEN)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	}
	return d[la][lb];
}

/*
 * "unknown command 'creat'; did you mean 'create'?": the commands closest
 * to @name (by edit distance, at most 1 for a word of up to four letters
 * and 2 for a longer one, so that a word unlike any command gets no
 * guess), and those @name begins (three letters at least: "contr").
 */
static void unknown_command(const char *name)
{
	size_t i, d, best = SIZE_MAX, limit = strlen(name) <= 4 ? 1 : 2;
	size_t dist[ARRAY_SIZE(commands)], nr = 0, k = 0;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		d = edit_distance(name, commands[i].name);
		if (strlen(name) >= 3 &&
		    !strncmp(commands[i].name, name, strlen(name)))
			d = 1;
		dist[i] = d;
		if (d < best)
			best = d;
	}
	if (best > limit) {
		errmsg("unknown command '%s'", name);
		hintmsg("run `vraidctl help` for the list of commands");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		nr += dist[i] == best;
	fprintf(stderr, "vraidctl: unknown command '%s'; did you mean ", name);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (dist[i] != best)
			continue;
		fprintf(stderr, "%s'%s'", !k ? "" : k + 1 == nr ? " or " : ", ",
			commands[i].name);
		k++;
	}
	fputs("?\n", stderr);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: vraidctl [--config FILE] COMMAND [ARGS]\n\n"
	      "Create, delete, inspect and maintain vraid virtual drives (software RAID).\n\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %s\n", find_help(commands[i].name)->synopsis);
	fputs("\nVD is vraid0, /dev/vraid0, 0, or the name given with --name.\n"
	      "Run `vraidctl help COMMAND` or `vraidctl COMMAND -h` for details.\n\n"
	      "--config FILE: the configuration assemble and monitor read (default\n"
	      "" CONFIG_DEFAULT ", optional)\n"
	      "environment: VRAIDCTL_CONTROL  control device (default " CONTROL_DEFAULT ")\n"
	      "exit status: 0 success, 1 failure, 2 bad command line\n", f);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return RC_OK;
	}
	if (is_help(argv[1]))
		return print_help("help");
	if (argc > 2)
		return usage_error("help", "name one command");
	if (!find_command(argv[1])) {
		unknown_command(argv[1]);
		return RC_USAGE;
	}
	return print_help(argv[1]);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;

	/* --config FILE (or --config=FILE) before the command */
	if (argc >= 2 && !strncmp(argv[1], "--config=", 9)) {
		config_path = argv[1] + 9;
		argv++;
		argc--;
	} else if (argc >= 2 && !strcmp(argv[1], "--config")) {
		if (argc < 3 || !argv[2][0]) {
			errmsg("--config needs a file (e.g. --config /etc/vraid/vraid.conf)");
			return RC_USAGE;
		}
		config_path = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (config_path && !config_path[0]) {
		errmsg("--config needs a file (e.g. --config /etc/vraid/vraid.conf)");
		return RC_USAGE;
	}
	if (argc < 2) {
		usage(stderr);
		return RC_USAGE;
	}
	if (is_help(argv[1]))
		argv[1] = "help";
	else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		argv[1] = "version";
	c = find_command(argv[1]);
	if (!c) {
		unknown_command(argv[1]);
		return RC_USAGE;
	}
	rc = c->run(argc - 1, argv + 1);
	if (fflush(stdout) || ferror(stdout)) {
		errmsg("cannot write the output: %s", strerror(errno));
		return RC_FAIL;
	}
	return rc;
}
