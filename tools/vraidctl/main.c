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

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: vraidctl COMMAND [ARGS]\n\n"
	      "Create, delete, inspect and maintain vraid virtual drives (software RAID).\n\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %s\n", find_help(commands[i].name)->synopsis);
	fputs("\nVD is vraid0, /dev/vraid0, 0, or the name given with --name.\n"
	      "Run `vraidctl help COMMAND` or `vraidctl COMMAND -h` for details.\n\n"
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
		errmsg("no command '%s'", argv[1]);
		hintmsg("run `vraidctl help` for the list");
		return RC_USAGE;
	}
	return print_help(argv[1]);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;

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
		errmsg("unknown command '%s'", argv[1]);
		hintmsg("run `vraidctl help` for the list of commands");
		return RC_USAGE;
	}
	rc = c->run(argc - 1, argv + 1);
	if (fflush(stdout) || ferror(stdout)) {
		errmsg("cannot write the output: %s", strerror(errno));
		return RC_FAIL;
	}
	return rc;
}
