# SPDX-License-Identifier: GPL-2.0
#
# packaging.mk - install, DKMS and Debian packages (included by Makefile;
# Documentation/install.rst is the user's side of it).
#
#   make install      vraid.ko into /lib/modules/KVER/updates (then depmod
#                     -a KVER), vraidctl into /usr/sbin (SBINDIR, from
#                     PREFIX), and the man pages, udev rules, systemd units
#                     (naming SBINDIR's vraidctl) and shell completion that
#                     exist (the hooks below); DESTDIR=/stage honoured (no
#                     depmod then, as packagers expect)
#   make man          the manual pages vraidctl.8 and vraid.4, from their
#                     reStructuredText in Documentation/man/ with rst2man
#                     (python3-docutils: make deps); make install and make
#                     deb build them
#   make uninstall    removes what make install put there (same variables)
#   make dkms         copies the module's sources to /usr/src/vraid-VERSION,
#                     then dkms add, build, install: for the running kernel,
#                     or the one named with KVER= (or KDIR=); a kernel that
#                     is not installed (only its headers, as the project's
#                     6.12 in .cache/kernels) gets the build, not the install
#   make dkms-remove  dkms remove (KVER= one kernel, else all) and the sources
#   make deb          dist/vraid-dkms_VERSION_all.deb and
#                     dist/vraidctl_VERSION_ARCH.deb (packaging/deb/build),
#                     checked with lintian when it is installed
#   make deps-pkg     installs dkms, dpkg-dev, lintian and python3-docutils
#                     (what the above need)
#   make check-pkg    tests/packaging-check with lintian: install/uninstall
#                     into a DESTDIR, the DKMS tree, make deb's packages
#
# KVER is the kernel the Makefile builds for: the VM's 6.1 ABI unless
# KVER= (an ABI such as 6.12.95+deb12-amd64, or a series such as 6.12) or
# KDIR= names another; make install takes the release from KDIR's
# include/generated/utsrelease.h, so `make install KDIR=/lib/modules/$(uname
# -r)/build` installs for the running kernel.
#
# The version of everything comes from driver/version.h (VRAID_VERSION).

VRAID_VERSION := $(shell sed -n 's/^\#define VRAID_VERSION "\([0-9][0-9.]*\)"$$/\1/p' $(TOP)/driver/version.h)
# the CLI binary, relative to the top of the tree (one line when it moves)
VRAIDCTL_BIN ?= tools/vraidctl/vraidctl

PREFIX ?= /usr
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
MODDIR ?= /lib/modules
# Debian 12's udev and systemd paths (pkg-config's udevdir and
# systemdsystemunitdir there); newer releases also read /usr/lib/...
UDEVRULESDIR ?= /lib/udev/rules.d
SYSTEMDUNITDIR ?= /lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DKMS_SRCDIR ?= /usr/src/vraid-$(VRAID_VERSION)
DEB_OUT ?= $(TOP)/dist

# Hooks for the files other work adds.  Each list is installed by make
# install (and so lands in the vraidctl package) when it is not empty;
# a generated file (the man pages, built from their .rst) is named here
# with a rule that builds it: install-extras depends on the lists.
#   man pages: the section is the file's suffix (vraidctl.8, vraid.4);
#   those with a NAME.SECTION.rst are built from it (make man, below)
VRAID_MAN_SOURCES := $(wildcard $(TOP)/Documentation/man/*.[1-9].rst)
VRAID_MAN_BUILT := $(VRAID_MAN_SOURCES:.rst=)
VRAID_MAN_PAGES ?= $(sort $(wildcard $(TOP)/Documentation/man/*.[1-9]) $(VRAID_MAN_BUILT))
VRAID_UDEV_RULES ?= $(wildcard $(TOP)/packaging/udev/*.rules)
VRAID_SYSTEMD_UNITS ?= $(wildcard $(addprefix $(TOP)/packaging/systemd/*.,service socket timer target path))
VRAID_BASH_COMPLETION ?= $(wildcard $(TOP)/packaging/bash-completion/vraidctl)

# The udev rules and systemd units name /usr/sbin/vraidctl, where the
# packages and the default PREFIX put it (and where the VM cases run them
# from the tree, as written); make install writes SBINDIR's path instead,
# so that `make install PREFIX=/usr/local` gives rules and units that run
# the vraidctl it installed.
VRAID_SBIN_SUBST = sed -e 's|/usr/sbin/vraidctl|$(SBINDIR)/vraidctl|g'

# The module's sources as DKMS builds them (relative to TOP): the Kbuild
# file, the compat probes it runs, the driver and the uapi header.
DKMS_FILES = Kbuild compat/probe $(patsubst $(TOP)/%,%,$(wildcard $(TOP)/compat/probes/*.c \
	$(TOP)/driver/*.[ch] $(TOP)/driver/core/*.[ch] $(TOP)/driver/core/*.mk \
	$(TOP)/uapi/linux/*.h))

# The kernel release make install installs for: UTS_RELEASE of KDIR (its
# include/config/kernel.release is the upstream version in Debian's 6.1
# headers, 6.1.192, not the ABI), or KVER when KDIR is gone (make
# uninstall after the headers were removed).
INSTALL_KVER = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(KVER))

# make dkms: a kernel named on the command line (KVER= or KDIR=), else
# dkms's default, the running kernel.  Headers that are not under
# /lib/modules/KVER/build (the project's 6.12 headers in .cache/kernels)
# are passed with --kernelsourcedir.
DKMS_NAMED = $(filter command line override environment,$(origin KVER) $(origin KDIR))
DKMS_KARGS = $(if $(DKMS_NAMED),-k $(INSTALL_KVER) \
	$(if $(wildcard $(MODDIR)/$(INSTALL_KVER)/build/Makefile),,--kernelsourcedir=$(KDIR)))

# The manual pages: their .rst include parts of Documentation/*.rst (the
# text between ".. man PAGE PART" marks), so the command reference and
# the admin guide stay the one source.  rst2man stops at the first
# docutils warning (an include mark gone, a link with no target).  The
# version is driver/version.h's, the date the last commit's (as make
# deb's file dates: two builds of one tree give the same pages).
RST2MAN ?= rst2man
MAN_DATE = $(shell date -u +%Y-%m-%d -d "@$${SOURCE_DATE_EPOCH:-$$(git -C $(TOP) \
	log -1 --format=%ct 2>/dev/null || date +%s)}")

.PHONY: man clean-man
man: $(VRAID_MAN_BUILT)

$(VRAID_MAN_BUILT): %: %.rst $(TOP)/Documentation/command-reference.rst \
		$(TOP)/Documentation/admin-guide.rst $(TOP)/driver/version.h
	@command -v $(RST2MAN) >/dev/null || \
		{ echo "vraid: $(RST2MAN) not found: make deps (python3-docutils)" >&2; exit 1; }
	@echo "  RST2MAN $(@F)"
	@sed -e 's/@VERSION@/$(VRAID_VERSION)/; s/@DATE@/$(MAN_DATE)/' $< | \
		(cd $(<D) && $(RST2MAN) --halt=warning --no-generator --no-datestamp -) >$@.tmp || \
		{ rm -f $@.tmp; exit 1; }
	@mv -f $@.tmp $@

clean-man:
	rm -f $(VRAID_MAN_BUILT)

clean: clean-man

.PHONY: install uninstall install-module install-cli install-extras uninstall-module \
	uninstall-cli install-dkms-src dkms dkms-remove deb deps-pkg check-pkg

install: install-module install-cli

install-module: module
	@k='$(INSTALL_KVER)'; m=$$(modinfo -F vermagic vraid.ko | cut -d' ' -f1); \
	[ -n "$$k" ] && [ "$$m" = "$$k" ] || \
		{ echo "vraid: vraid.ko is for '$$m', not KVER '$$k'" >&2; exit 1; }
	install -D -m 0644 vraid.ko $(DESTDIR)$(MODDIR)/$(INSTALL_KVER)/updates/vraid.ko
	@if [ -e $(DESTDIR)$(MODDIR)/$(INSTALL_KVER)/updates/dkms/vraid.ko ]; then \
		echo "vraid: warning: a DKMS vraid.ko is installed for $(INSTALL_KVER) too;" \
			"keep one (make dkms-remove or make uninstall)" >&2; fi
ifeq ($(DESTDIR),)
	depmod -a $(INSTALL_KVER)
endif

install-cli: $(VRAIDCTL_BIN) install-extras
	install -D -m 0755 $(VRAIDCTL_BIN) $(DESTDIR)$(SBINDIR)/vraidctl

install-extras: $(VRAID_MAN_PAGES) $(VRAID_UDEV_RULES) $(VRAID_SYSTEMD_UNITS) $(VRAID_BASH_COMPLETION)
	@set -e; for f in $(VRAID_MAN_PAGES); do \
		s=$${f##*.}; echo "install $$f -> $(MANDIR)/man$$s/"; \
		install -D -m 0644 $$f $(DESTDIR)$(MANDIR)/man$$s/$${f##*/}; done
	@set -e; for f in $(VRAID_UDEV_RULES); do echo "install $$f -> $(UDEVRULESDIR)/"; \
		install -d $(DESTDIR)$(UDEVRULESDIR); t=$(DESTDIR)$(UDEVRULESDIR)/$${f##*/}; \
		$(VRAID_SBIN_SUBST) $$f >$$t.tmp; chmod 0644 $$t.tmp; mv -f $$t.tmp $$t; done
	@set -e; for f in $(VRAID_SYSTEMD_UNITS); do echo "install $$f -> $(SYSTEMDUNITDIR)/"; \
		install -d $(DESTDIR)$(SYSTEMDUNITDIR); t=$(DESTDIR)$(SYSTEMDUNITDIR)/$${f##*/}; \
		$(VRAID_SBIN_SUBST) $$f >$$t.tmp; chmod 0644 $$t.tmp; mv -f $$t.tmp $$t; done
	@set -e; for f in $(VRAID_BASH_COMPLETION); do echo "install $$f -> $(BASHCOMPDIR)/"; \
		install -D -m 0644 $$f $(DESTDIR)$(BASHCOMPDIR)/$${f##*/}; done
ifeq ($(DESTDIR),)
	$(if $(VRAID_UDEV_RULES),-udevadm control --reload)
	$(if $(VRAID_SYSTEMD_UNITS),-systemctl daemon-reload)
endif

uninstall: uninstall-module uninstall-cli

uninstall-module:
	@test -n "$(INSTALL_KVER)" || { echo "vraid: no KVER: name the kernel (KVER=)" >&2; exit 1; }
	rm -f $(DESTDIR)$(MODDIR)/$(INSTALL_KVER)/updates/vraid.ko
	rmdir $(DESTDIR)$(MODDIR)/$(INSTALL_KVER)/updates 2>/dev/null || true
ifeq ($(DESTDIR),)
	if [ -f $(MODDIR)/$(INSTALL_KVER)/modules.dep ]; then depmod -a $(INSTALL_KVER); fi
endif

uninstall-cli:
	rm -f $(DESTDIR)$(SBINDIR)/vraidctl
	@set -e; for f in $(VRAID_MAN_PAGES); do \
		rm -fv $(DESTDIR)$(MANDIR)/man$${f##*.}/$${f##*/}; done
	@set -e; for f in $(VRAID_UDEV_RULES); do rm -fv $(DESTDIR)$(UDEVRULESDIR)/$${f##*/}; done
	@set -e; for f in $(VRAID_SYSTEMD_UNITS); do rm -fv $(DESTDIR)$(SYSTEMDUNITDIR)/$${f##*/}; done
	@set -e; for f in $(VRAID_BASH_COMPLETION); do rm -fv $(DESTDIR)$(BASHCOMPDIR)/$${f##*/}; done

# the sources DKMS builds, with their dkms.conf (the vraid-dkms package's
# contents; make dkms installs them without DESTDIR)
install-dkms-src:
	@test -n "$(VRAID_VERSION)" || { echo "vraid: no VRAID_VERSION in driver/version.h" >&2; exit 1; }
	@set -e; d=$(DESTDIR)$(DKMS_SRCDIR); rm -rf $$d; \
	for f in $(DKMS_FILES); do \
		if [ -x $(TOP)/$$f ]; then m=0755; else m=0644; fi; \
		install -D -m $$m $(TOP)/$$f $$d/$$f; done; \
	sed 's/@VERSION@/$(VRAID_VERSION)/g' $(TOP)/packaging/dkms.conf.in >$$d/dkms.conf; \
	chmod 0644 $$d/dkms.conf; echo "vraid: sources for DKMS in $$d"

dkms:
	@command -v dkms >/dev/null || { echo "vraid: dkms is not installed (make deps-pkg)" >&2; exit 1; }
	@$(MAKE) --no-print-directory install-dkms-src DESTDIR=
	@if [ -z "$$(dkms status -m vraid -v $(VRAID_VERSION))" ]; then \
		echo "dkms add -m vraid -v $(VRAID_VERSION)"; dkms add -m vraid -v $(VRAID_VERSION); fi
	dkms build -m vraid -v $(VRAID_VERSION) $(DKMS_KARGS) --force
	@k=$(if $(DKMS_NAMED),$(INSTALL_KVER),$$(uname -r)); \
	if [ -d $(MODDIR)/$$k ]; then \
		echo "dkms install -m vraid -v $(VRAID_VERSION) $(DKMS_KARGS) --force"; \
		dkms install -m vraid -v $(VRAID_VERSION) $(DKMS_KARGS) --force; \
	else \
		echo "vraid: kernel $$k is not installed here ($(MODDIR)/$$k): built, not" \
			"installed: /var/lib/dkms/vraid/$(VRAID_VERSION)/$$k/$$(uname -m)/module/vraid.ko"; \
	fi
	@dkms status -m vraid -v $(VRAID_VERSION)

dkms-remove:
	@command -v dkms >/dev/null || { echo "vraid: dkms is not installed" >&2; exit 1; }
	@if [ -n "$$(dkms status -m vraid -v $(VRAID_VERSION))" ]; then \
		echo "dkms remove -m vraid -v $(VRAID_VERSION) $(if $(DKMS_NAMED),-k $(INSTALL_KVER),--all)"; \
		dkms remove -m vraid -v $(VRAID_VERSION) $(if $(DKMS_NAMED),-k $(INSTALL_KVER),--all); fi
	@if [ -z "$$(dkms status -m vraid -v $(VRAID_VERSION))" ]; then rm -rfv $(DKMS_SRCDIR) | tail -n 1; fi

deb:
	VRAID_VERSION=$(VRAID_VERSION) VRAIDCTL_BIN=$(VRAIDCTL_BIN) DEB_OUT=$(DEB_OUT) \
		$(TOP)/packaging/deb/build

deps-pkg:
	@$(TOP)/tests/vm/deps.sh --packaging

check-pkg: deps-pkg
	VRAID_PKG_LINTIAN=1 $(TOP)/tests/packaging-check
