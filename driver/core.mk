# SPDX-License-Identifier: GPL-2.0
#
# The portable core: the driver files that include nothing from the kernel
# but core_types.h, so that they build both into vraid.ko and in user
# space (vraidctl, the unit tests, the fuzzers, tests/vm/pqref).  The one
# list of them: Kbuild, the top Makefile, tests/unit/Makefile,
# tests/fuzz/Makefile and tests/unit/cli-args.sh all read it.  A new core
# file is added here, and only here.
#
# Names without directory or suffix; each user adds its own path, e.g.
#   $(patsubst %,$(TOP)/driver/%.c,$(VRAID_CORE))

VRAID_CORE := geom layout metadata validate jformat cachecore sparerec
VRAID_CORE_HEADERS := core_types geom layout metadata validate jformat \
	le_bytes cachecore sparerec
