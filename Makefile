# SPDX-License-Identifier: GPL-2.0
#
# dcm: top-level build.
#
#   make            kernel modules (dcm.ko, dcm_sim.ko), userspace, selftests
#   make run        install what is missing, build, boot the VM and show the robot
#   make check      lint + host unit tests + kselftests in the VM; ends "N passed, N failed"
#   make check-debug  the kselftests on a debug kernel (KASAN, lockdep, kmemleak, UBSAN,
#                   KFENCE) built once from linux-source-6.1 and cached outside the tree;
#                   DCM_SELFTESTS="TEST ..." runs only those; DCM_DEBUG_SUITES="selftests
#                   web mcap" adds test_web.py and test_mcap.py there (default: selftests)
#   make lint       checkpatch --strict, W=1 build, sparse (C=1) build; fails on any warning
#   make docs       Documentation/ with Sphinx into build/docs/html, warnings as errors
#   make bench      the cycle and the ABI measured in the VM, buses at wire
#                   time: writes Documentation/dcm/benchmarks.rst (~30 min)
#   make bench-rt   its latency rows on PREEMPT_RT (installs linux-image-rt-amd64)
#   make bench-compare  the cycle's work of this tree's modules against those of
#                   BENCH_OLD (a git revision, default ff4d14a: before the core
#                   was made a stack), both measured in one VM boot, in turns;
#                   writes build/bench/compare.txt (~5 min; not in make check)
#   make soak       64 clients with faults and reloads for 100 000 cycles (DCM_SOAK_SECONDS)
#   make docs-test  every command README.md and Documentation/ show, run in the VM
#   make top-test   dcmctl top on an 80x24 pseudo-terminal in the VM
#   make web-test   dcm-web in the VM from the host: Prometheus, the Foxglove
#                   client, headless Chromium (tools/testing/web/)
#   make mcap-test  dcmctl record -f mcap and dcmctl flight -f mcap in the VM, their
#                   files read on the host by @mcap/core (tools/testing/mcap/)
#   make check-record  dcm_record_test with a recording of 60 s (make check: 10 s)
#   make image-test a Debian 12 robot image (mmdebstrap, cached), dcm's .debs
#                   installed by apt, booted in QEMU on both kernel flavours
#                   and checked; then purged; and a team's machine with the
#                   simulator's packages, dcm-sim start, a LoLA client's fall
#                   in the flight recorder (root; IMAGE_VARIANTS="robot team")
#   make fuzz       the libFuzzer harnesses (clang), each for FUZZ_SECONDS (60)
#   make deps       install the build and VM dependencies (apt-get), quiet when present
#   make install    what a robot needs: dcm.ko and userspace; make uninstall removes it
#   make install-test  dcm_sim.ko, the test data and the selftests (not for a robot)
#   make dkms       the module's DKMS source tree in build/dkms/ (dkms add/build/install)
#                   (all: Documentation/install.rst)
#
# KVER selects the kernel, KDIR its build tree. The default is a fixed
# choice (scripts/kver.sh): the running kernel if its headers and image are
# installed, else Debian's 6.1 generic one; never a PREEMPT_RT kernel unless
# asked for (KVER=...-rt-amd64). Every make says which. Everything built
# lands in build/ except the .ko files, which Kbuild leaves at the top.

# Computed in every make: on a fresh machine the kernel only exists once
# `make deps` has run, and the recipes that need it run after. Exported, so
# that the scripts (check.sh, lint.sh, dcm-vm, the install tests) use the
# same one; empty, they choose it themselves, the same way.
KVER	:= $(or $(KVER),$(shell scripts/kver.sh 2>/dev/null))
KDIR	:= $(or $(KDIR),/lib/modules/$(KVER)/build)
export KVER
ifeq ($(MAKELEVEL),0)
$(info dcm: KVER=$(or $(KVER),(none yet: make deps)) KDIR=$(KDIR))
endif
O	:= $(CURDIR)/build
LSRC	:= $(O)/linux-src

export O LSRC

.PHONY: all modules userspace selftests unit run check check-arch lint deps clean \
	vm-test linux-src bench bench-rt bench-compare soak boardsim install uninstall install-test \
	uninstall-test install-modules uninstall-modules dkms fuzz check-debug examples \
	docs-test top-test web-test mcap-test docs check-record image-test

all: modules userspace selftests boardsim examples

deps:
	@scripts/deps.sh

linux-src:
	@scripts/linux-src.sh $(LSRC)

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace O=$(O)

# The example programs, built against a staged install of libdcm with
# pkg-config (userspace/examples/); the VM runs them from the selftests'
# directory (dcm_examples_test.sh).
examples: userspace selftests
	$(MAKE) -C userspace/examples O=$(O)

# The host side of the VM's RS485 UART (scripts/dcm-vm --rs485-uart).
boardsim:
	$(MAKE) -C tools/dcm-boardsim O=$(O)

selftests: linux-src userspace
	$(MAKE) -C tools/testing/selftests/dcm O=$(O) LSRC=$(LSRC)

# Host unit tests (cmocka, ASan+UBSan): userspace, the same again unsanitised
# under valgrind (make -C userspace valgrind), then the kernel's pure
# logic built for the host, then dcm-boardsim driven as the master of its
# bus, then the shipped robot description (dcmd's dry run, the schemas, the
# seed's key lists; and that a broken copy is refused), and the device tree
# against dtc, the description's buses and boards, and the bindings
# (dt-schema); and that broken copies of it are refused; and the VM's ACPI
# tables against iasl; the extraction of the documents' commands
# (scripts/test-docs-extract.sh); a staged install and uninstall
# (scripts/test-install.sh), the DKMS tree built by dkms
# (scripts/test-dkms.sh, dcm's and dcm_sim's, ~2.5 min) and the Debian packages (scripts/test-deb.sh:
# source and binaries, built twice and compared, lintian; ~3.5 min), dcmctl's
# bash completion (userspace/tests/test-completion.sh), dcm-web's alert
# rules against promtool (userspace/tests/test-alerts.sh),
# the manual pages against the programs' --help (scripts/test-man.py);
# then each libFuzzer harness for a second, on its seeds and kept
# crashes (FUZZ_SMOKE_SECONDS; skipped without clang). All run even if one
# fails.
unit:
	@rc=0; \
	$(MAKE) --no-print-directory -C userspace O=$(O) unit || rc=1; \
	$(MAKE) --no-print-directory -C userspace O=$(O) valgrind || rc=1; \
	$(MAKE) --no-print-directory -C kernel/tests O=$(O) || rc=1; \
	$(MAKE) --no-print-directory -C tools/dcm-boardsim O=$(O) unit || rc=1; \
	$(MAKE) -s --no-print-directory -C userspace O=$(O) all || rc=1; \
	DCMD=$(O)/bin/dcmd bash userspace/data/check-data.sh || rc=1; \
	DCMD=$(O)/bin/dcmd bash userspace/data/test-check-data.sh || rc=1; \
	scripts/check-dts.sh || rc=1; \
	scripts/test-check-dts.sh || rc=1; \
	scripts/check-asl.sh || rc=1; \
	scripts/test-docs-extract.sh || rc=1; \
	scripts/test-install.sh || rc=1; \
	scripts/test-dkms.sh || rc=1; \
	scripts/test-deb.sh || rc=1; \
	$(MAKE) -s --no-print-directory -C userspace/examples O=$(O) check || rc=1; \
	bash userspace/tests/test-completion.sh $(O)/bin/dcmctl || rc=1; \
	bash userspace/tests/test-alerts.sh || rc=1; \
	python3 scripts/test-man.py $(O)/bin || rc=1; \
	if command -v clang >/dev/null 2>&1; then \
		$(MAKE) -s --no-print-directory -C tools/fuzz O=$(O) smoke || rc=1; \
	else echo "fuzz: skipped, no clang (make deps)"; fi; \
	exit $$rc

# The libFuzzer harnesses (tools/fuzz/): the description and preference
# parser, the RS485 and register-board codecs, the number reader; each
# FUZZ_SECONDS (60), its kept crashes first. A crash fails it, its input
# left in build/fuzz/artifacts/.
fuzz: deps
	@$(MAKE) -s --no-print-directory -C tools/fuzz O=$(O) run

# The kselftest suite inside the VM.
vm-test: modules userspace selftests boardsim examples
	@mkdir -p $(O)/results
	@scripts/run-selftests.sh $(O)/results/selftests.log

lint: linux-src
	@scripts/lint.sh

# The documentation (Documentation/conf.py): every page, the headers'
# kernel-doc through the kernel's kernel-doc and its Sphinx extension
# (make linux-src). Warnings are errors, kernel-doc's too (KDOC_WERROR);
# -n: every reference must resolve; -E: every page is read again, so that
# an unchanged page's warnings are not hidden by the previous build.
SPHINXBUILD ?= sphinx-build
docs: linux-src
	@KDOC_WERROR=1 $(SPHINXBUILD) -E -q -b html -W --keep-going -n \
		-d $(O)/docs/doctrees Documentation $(O)/docs/html
	@echo "docs: $(O)/docs/html/index.html"

# Benchmarks run against the default robot description that dcmd loads:
# scripts/bench.sh boots the VM, runs tools/bench/rows/*.sh (BENCH_ROWS: some
# of them) and writes Documentation/dcm/benchmarks.rst from their rows.
bench: deps
	@k=$$(scripts/bench.sh --kver) || exit 1; \
	$(MAKE) --no-print-directory KVER=$$k all && KVER=$$k scripts/bench.sh

# The latency rows on the PREEMPT_RT kernel, the module built for it; the
# modules are built again for $(KVER) after.
bench-rt: deps
	@scripts/deps.sh --rt
	@$(MAKE) --no-print-directory all
	@rtk=$$(scripts/bench.sh --rt-kver) || exit 1; \
	$(MAKE) --no-print-directory KVER=$$rtk modules && \
	KVER=$$rtk scripts/bench.sh --rt; rc=$$?; \
	k=$$(scripts/bench.sh --kver) && $(MAKE) --no-print-directory KVER=$$k modules >/dev/null; \
	exit $$rc

# The old revision's modules are built from git archive into build/bench-old/
# for the same kernel, this tree's build left as it is; the userspace is this
# tree's for both (scripts/bench-compare.sh, tools/bench/compare.sh).
# BENCH_OLD defaults to ff4d14a, the tree before the kernel work of issue #23
# (the core as a stack): the issue asks that the work be no worse than there.
bench-compare: deps
	@k=$$(scripts/bench.sh --kver) || exit 1; \
	$(MAKE) --no-print-directory KVER=$$k all && KVER=$$k scripts/bench-compare.sh

# The soak (Documentation/testing.rst, scripts/soak.sh): 64 clients with
# faults and reloads for DCM_SOAK_SECONDS (1000: 100 000 cycles), then the
# cycle test (its 16 clients for a minute).
soak: deps
	@$(MAKE) --no-print-directory all
	@scripts/soak.sh

# The recording's long form (Documentation/testing.rst): dcm_record_test
# with a recording of 60 s of every key at every cycle (make check: 10 s).
check-record: deps
	@$(MAKE) --no-print-directory all
	@scripts/dcm-vm exec --timeout 600 -- env DCM_RECORD_SECONDS=60 DCM_RECORD_MAX_MISSED=0 \
		/opt/dcm/selftests/dcm_record_test.sh

# The commands the documents show, as written (Documentation/testing.rst,
# "Commands in the documentation"); dcmctl top on a pseudo-terminal. Both
# are in make check too; these run them alone.
docs-test: deps
	@$(MAKE) --no-print-directory all
	@scripts/dcm-vm exec --timeout 300 -- /opt/dcm/selftests/dcm_docs_test.sh

top-test: deps
	@$(MAKE) --no-print-directory all
	@scripts/dcm-vm exec --timeout 300 -- /opt/dcm/selftests/dcm_top_test.sh

web-test: deps
	@$(MAKE) --no-print-directory all
	@tools/testing/web/test_web.py

mcap-test: deps
	@$(MAKE) --no-print-directory all
	@tools/testing/mcap/test_mcap.py

# The robot image (Documentation/testing.rst, "The robot image"): not in
# make check, it takes far longer than make check's whole budget.
IMAGE_VARIANTS ?= robot team
image-test: deps
	@scripts/deps.sh --image
	@$(MAKE) --no-print-directory boardsim
	@scripts/image-test.sh $(IMAGE_VARIANTS)

run: deps
	@$(MAKE) --no-print-directory all
	@scripts/dcm-vm exec -- /usr/share/dcm/demo.sh

# check.sh builds, lints and runs both test layers; its last line is the
# totals, "N passed, N failed".
check: deps
	@rm -rf $(O)/results
	@scripts/check.sh

# Documentation/dcm/architecture.rst against the code (also in make check).
check-arch:
	@scripts/check-architecture.sh $(KDIR)

# The debug kernel's build is cached (scripts/debug-kernel.sh); its first
# build takes long (Documentation/testing.rst gives the figure).
check-debug: deps linux-src
	@scripts/check-debug.sh

# ---------------------------------------------------------------------
# Installation (Documentation/install.rst). DESTDIR stages everything;
# INSTALL_MOD_PATH is the modules' root (empty or unset: DESTDIR), as in
# Kbuild; PREFIX, LIBDIR and the rest go to userspace/Makefile. depmod runs
# only for a real install (modules into /): a package runs it itself.
MODROOT = $(or $(INSTALL_MOD_PATH),$(DESTDIR))
INSTALL_MOD_DIR ?= extra
MODDIR = $(MODROOT)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
DEPMOD ?= depmod

install: install-modules
	$(MAKE) -C userspace O=$(O) install

install-modules: modules
	install -d $(MODDIR)
	install -m 0644 dcm.ko $(MODDIR)/dcm.ko
	@if [ -z "$(MODROOT)" ]; then echo "$(DEPMOD) -a $(KVER)"; $(DEPMOD) -a $(KVER); fi

uninstall: uninstall-modules uninstall-test
	$(MAKE) -C userspace O=$(O) uninstall

uninstall-modules:
	rm -f $(MODDIR)/dcm.ko $(MODDIR)/dcm_sim.ko
	@if [ -z "$(MODROOT)" ]; then echo "$(DEPMOD) -a $(KVER)"; $(DEPMOD) -a $(KVER); fi

# Not for a robot: the simulator, the selftests' data and the selftests
# (in LIBDIR/dcm/selftests, run with run_all.sh there).
TESTSDIR = $(or $(LIBDIR),$(or $(PREFIX),/usr/local)/lib)/dcm/selftests

install-test: modules selftests
	install -d $(MODDIR)
	install -m 0644 dcm_sim.ko $(MODDIR)/dcm_sim.ko
	$(MAKE) -C userspace O=$(O) install-test
	install -d $(DESTDIR)$(TESTSDIR)
	cp -R $(O)/selftests/dcm/. $(DESTDIR)$(TESTSDIR)/
	@if [ -z "$(MODROOT)" ]; then echo "$(DEPMOD) -a $(KVER)"; $(DEPMOD) -a $(KVER); fi

uninstall-test:
	rm -f $(MODDIR)/dcm_sim.ko
	$(MAKE) -C userspace O=$(O) uninstall-test
	rm -rf $(DESTDIR)$(TESTSDIR)
	rmdir $(dir $(DESTDIR)$(TESTSDIR)) 2>/dev/null || true

# The module's source as DKMS wants it (dkms.conf, Kbuild, the sources it
# compiles), in $(O)/dkms/dcm-$(DKMS_VERSION)/: copy it to /usr/src/, then
# dkms add/build/install (Documentation/install.rst). The simulated body's
# beside it, in $(O)/dkms/dcm-sim-$(DKMS_VERSION)/ (the package
# dcm-sim-dkms).
DKMS_VERSION := $(shell sed -n 's/^\#define LIBDCM_VERSION[[:space:]]*"\(.*\)"/\1/p' userspace/lib/libdcm.h)
dkms:
	@scripts/dkms-tree.sh $(O)/dkms/dcm-$(DKMS_VERSION) $(DKMS_VERSION)
	@scripts/dkms-tree.sh --sim $(O)/dkms/dcm-sim-$(DKMS_VERSION) $(DKMS_VERSION)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(O)
