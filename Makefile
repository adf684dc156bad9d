# SPDX-License-Identifier: GPL-2.0
#
# vraid top-level Makefile.
#
#   make            build vraid.ko (here, at the top of the tree), tools/vraidctl/vraidctl
#                   and the test helpers
#   make deps       install the Debian packages the project needs (only missing ones)
#   make test       the whole suite: unit tests, style/sparse checks, VM cases
#   make test-debug the I/O-path VM cases on a KASAN/lockdep/kmemleak kernel
#                   (CASES= picks others; Documentation/testing.rst)
#   make soak       the randomised operations soak for SOAK_MINUTES (20) under
#                   verified fio load (SOAK_SEED= SOAK_STEPS= reproduce a
#                   failure; soak-debug: on the debug kernel); not in make test
#   make demo       boot the VM, build a VD, mkfs, mount, fio with verification
#   make bench     vraid vs md with fio in the VM (QUICK=1 LEVELS= MEMBERS=
#                  ROUNDS=; Documentation/benchmarking.rst); not in make test
#   make check      W=1 + sparse build and checkpatch, warnings are errors
#   make crash-states  crash states under volatile member caches, the long
#                   campaign (SEED= STATES= ROUNDS= LEVELS=; not in make test)
#   make fuzz       each libFuzzer target for FUZZ_SECONDS (300)
#   make clean
#   make install, uninstall, dkms, deb: packaging.mk (Documentation/install.rst)
#
# KDIR selects the kernel to build against.  The default is the Debian 6.1
# headers matching the kernel image the VM boots; on your own machine use
#   make KDIR=/lib/modules/$(uname -r)/build
#
# KVER=6.12 (a series): build against, and run the VM suite on, Debian's
# 6.12 LTS kernel from bookworm-backports (make deps fetches its headers
# into .cache/kernels/, the VM kit its image), e.g. `make test KVER=6.12`.
# compat/probe finds out which block-layer API the kernel has before every
# module build (Documentation/testing.rst, "Kernels").

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

ifneq ($(shell echo '$(KVER)' | grep -xE '[0-9]+[.][0-9]+'),)
# a bare series such as 6.12: resolve its ABI; scripts see VRAID_KERNEL
VRAID_KERNEL := $(KVER)
export VRAID_KERNEL
override KVER := $(shell VRAID_KERNEL=$(VRAID_KERNEL) $(TOP)/tests/vm/deps.sh --kver 2>/dev/null)
endif
KVER ?= $(shell $(TOP)/tests/vm/deps.sh --kver 2>/dev/null)
KDIR ?= $(firstword $(wildcard /usr/src/linux-headers-$(KVER)) \
	$(TOP)/.cache/kernels/$(KVER)/usr/src/linux-headers-$(KVER))
# the kernel API probes (compat/probe prints the header it wrote)
PROBE = h=$$($(TOP)/compat/probe $(KDIR)) || exit 1;

CC ?= cc
USER_CFLAGS := -O2 -g -Wall -Wextra -Werror -std=gnu11 -I$(TOP)/uapi

.PHONY: all module recorder tools deps test test-debug soak soak-debug unit fuzz vmtest demo bench check clean crash-states

all: module recorder tools

# the CLI: its sources in tools/vraidctl/, the binary next to them
VRAIDCTL := tools/vraidctl/vraidctl
VRAIDCTL_SRCS := $(wildcard tools/vraidctl/*.c)

module:
	@test -d "$(KDIR)" || { echo "vraid: no kernel headers at KDIR=$(KDIR); run 'make deps' or pass KDIR=" >&2; exit 1; }
	@$(PROBE) $(MAKE) -C $(KDIR) M=$(TOP) VRAID_COMPAT_H=$$h modules

# the crash states' member recorder, tests/vm/kmod/vraid-record.ko (a
# device-mapper target of the test kit, not part of vraid): built with the
# module for the same kernel; a kernel it does not build for only loses
# the crash states (states.sh says so), not vraid.ko
recorder:
	@test -d "$(KDIR)" || { echo "vraid: no kernel headers at KDIR=$(KDIR); run 'make deps' or pass KDIR=" >&2; exit 1; }
	@rm -f tests/vm/kmod/vraid-record.ko
	@$(MAKE) -s -C $(KDIR) M=$(TOP)/tests/vm/kmod modules >tests/vm/kmod/build.log 2>&1 || \
		echo "vraid: the crash states' recorder (tests/vm/kmod) did not build for $(KDIR): see tests/vm/kmod/build.log" >&2

tools: $(VRAIDCTL) tests/vm/bin/vraid-raw tests/vm/bin/pqref tests/vm/bin/crashio \
	tests/vm/bin/ioctlfuzz tests/vm/bin/logreplay tests/vm/bin/sysfswait \
	tests/vm/bin/evpoll

# vraidctl reads on-disk metadata with the module's own portable core
# (driver/core/core.mk: the one list of it).
include $(TOP)/driver/core/core.mk
CORE_SRCS := $(patsubst %,driver/core/%.c,$(VRAID_CORE))
CORE_HDRS := $(patsubst %,driver/core/%.h,$(VRAID_CORE_HEADERS))

# What vraidctl and the C test helpers share: errno names, the ioctl
# commands, the control device, naming a VD (tools/common/).
TOOLS_COMMON := tools/common/vraid_common.c
TOOLS_COMMON_H := tools/common/vraid_common.h uapi/linux/vraid.h

$(VRAIDCTL): $(VRAIDCTL_SRCS) tools/vraidctl/vraidctl.h $(TOOLS_COMMON) $(TOOLS_COMMON_H) \
	$(CORE_SRCS) $(CORE_HDRS)
	$(CC) $(USER_CFLAGS) -I$(TOP)/driver/core -I$(TOP)/driver -I$(TOP)/tools/common -o $@ \
		$(VRAIDCTL_SRCS) $(TOOLS_COMMON) $(CORE_SRCS)

tests/vm/bin/vraid-raw: tests/helpers/vraid-raw.c $(TOOLS_COMMON) $(TOOLS_COMMON_H)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(TOP)/tools/common -o $@ $< $(TOOLS_COMMON)

tests/vm/bin/ioctlfuzz: tests/vm/ioctlfuzz.c $(TOOLS_COMMON) $(TOOLS_COMMON_H)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(TOP)/tools/common -o $@ $< $(TOOLS_COMMON)

tests/vm/bin/crashio: tests/vm/crashio.c
	@mkdir -p tests/vm/bin
	$(CC) $(USER_CFLAGS) -o $@ tests/vm/crashio.c

tests/vm/bin/sysfswait: tests/vm/sysfswait.c
	@mkdir -p tests/vm/bin
	$(CC) $(USER_CFLAGS) -o $@ tests/vm/sysfswait.c

tests/vm/bin/logreplay: tests/vm/logreplay.c
	@mkdir -p tests/vm/bin
	$(CC) $(USER_CFLAGS) -o $@ tests/vm/logreplay.c

tests/vm/bin/evpoll: tests/vm/evpoll.c uapi/linux/vraid.h
	@mkdir -p tests/vm/bin
	$(CC) $(USER_CFLAGS) -o $@ tests/vm/evpoll.c

tests/vm/bin/pqref: tests/vm/pqref.c $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -I$(TOP)/driver/core -o $@ tests/vm/pqref.c $(CORE_SRCS)

deps:
	@$(TOP)/tests/vm/deps.sh

unit:
	$(MAKE) -C tests/unit

# every libFuzzer target for FUZZ_SECONDS each (make test runs them briefly)
FUZZ_SECONDS ?= 300
fuzz:
	$(MAKE) -C tests/fuzz run SECONDS=$(FUZZ_SECONDS)

# Our own clean: kbuild's `clean` with M= deletes every *.o and *.ko below
# the tree, the VM kit's cached kernel modules (.cache/) included.
KCLEAN = rm -f vraid.ko vraid.o vraid.mod vraid.mod.c vraid.mod.o .vraid*.cmd \
	driver/*.o driver/.*.cmd driver/core/*.o driver/core/.*.cmd Module.symvers modules.order .modules.order.cmd \
	.Module.symvers.cmd

check:
	@test -d "$(KDIR)" || { echo "vraid: no kernel headers at KDIR=$(KDIR)" >&2; exit 1; }
	$(KCLEAN)
	@$(PROBE) $(MAKE) -C $(KDIR) M=$(TOP) VRAID_COMPAT_H=$$h W=1 C=1 modules 2>&1 | tee .check.log
	@# the crash states' recorder too (its objects removed: sparse runs on a compile)
	@rm -f tests/vm/kmod/*.o tests/vm/kmod/*.ko
	@$(MAKE) -C $(KDIR) M=$(TOP)/tests/vm/kmod W=1 C=1 modules 2>&1 | tee -a .check.log
	@! grep -E 'warning:|error:' .check.log || { echo "vraid: W=1/sparse warnings above" >&2; exit 1; }
	@rm -f .check.log
	$(TOP)/tests/checkpatch.sh

vmtest: all
	$(TOP)/tests/vm/run-suite $(CASES)

test: deps
	@$(TOP)/tests/run-all

# crash states under volatile member caches (tests/vm/crash-states): ROUNDS
# boots with seeds SEED, SEED+1, ..., STATES member-cache choices per cut
# (three cuts per level; an idle cut has nothing volatile: one state):
# at most 10 x 4 x 41 = 1640 states by default, some ten hours.
# LEVELS='5j 6j' (write-back with the journal; a boot each per round, about
# 25 minutes each at STATES=20), the jobs' and stop's kinds: testing.rst
SEED ?= $(shell echo $$RANDOM)
STATES ?= 20
ROUNDS ?= 10
LEVELS ?= 1 5 6 10
crash-states: all
	CRASH_SEED=$(SEED) CRASH_STATES=$(STATES) CRASH_ROUNDS=$(ROUNDS) \
		$(TOP)/tests/vm/crash-states $(LEVELS)

# the I/O-path VM cases on a KASAN + lockdep + kmemleak kernel the project
# builds (not in make test: the kernel alone takes ~20-60 min to build once)
test-debug: deps
	$(TOP)/tests/debug/run $(CASES)

# the randomised operations soak (Documentation/testing.rst, "Soak"): minutes
# long; SOAK_SEED=N SOAK_STEPS=M (from a failure's report) reruns a failure.
# A short one (a few steps) is the soak stage of make test.
ifdef SOAK_STEPS
SOAK_MINUTES ?= 0
else
SOAK_MINUTES ?= 20
endif
soak: deps all
	SOAK_MINUTES=$(SOAK_MINUTES) $(TOP)/tests/vm/soak

# the same on the debug kernel (KASAN, lockdep, ...): builds it and the
# module for it first, as make test-debug does
soak-debug: deps all
	$(TOP)/tests/debug/run --build-only
	VRAID_KERNEL=debug SOAK_MINUTES=$(SOAK_MINUTES) $(TOP)/tests/vm/soak

demo: deps all
	$(TOP)/tests/vm/run-in-vm $(TOP)/tests/vm/demo.sh

bench: deps all
	$(TOP)/bench/run

clean:
	$(KCLEAN)
	rm -f $(VRAIDCTL) tests/vm/bin/vraid-raw tests/vm/bin/pqref tests/vm/bin/crashio \
		tests/vm/bin/ioctlfuzz tests/vm/bin/logreplay tests/vm/bin/sysfswait \
		tests/vm/bin/evpoll .check.log tests/vm/kmod/build.log
	-$(MAKE) -C $(KDIR) M=$(TOP)/tests/vm/kmod clean >/dev/null 2>&1
	-$(MAKE) -C tests/unit clean 2>/dev/null

# install, uninstall, DKMS and Debian packages
include $(TOP)/packaging.mk
