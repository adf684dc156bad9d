# SPDX-License-Identifier: GPL-2.0
#
# The portable core: the driver files, all in this folder (driver/core/),
# that include nothing from the kernel but core_types.h, so that they
# build both into vraid.ko and in user space (vraidctl, the unit tests,
# the fuzzers, tests/vm/pqref).  The one list of them: Kbuild, the top
# Makefile, tests/unit/Makefile, tests/fuzz/Makefile, tests/unit/cli-args.sh
# and tests/packaging-check all read it.  A new core file goes into this
# folder and is added here, and only here.
#
# The module's other files include a core header as "core/NAME.h" (Kbuild
# passes -I driver); user-space builds pass -I driver/core and include
# "NAME.h", so that they see the core and nothing else of the driver.
#
# Names without directory or suffix; each user adds its own path, e.g.
#   $(patsubst %,$(TOP)/driver/core/%.c,$(VRAID_CORE))

VRAID_CORE := geom layout metadata validate jformat cachecore sparerec
VRAID_CORE_HEADERS := core_types geom layout metadata validate jformat \
	cachecore sparerec
