# SPDX-License-Identifier: GPL-2.0
#
# dcm: top-level build.
#
#   make            kernel modules (dcm.ko, dcm_sim.ko), userspace, selftests
#   make run        install what is missing, build, boot the VM and show the robot
#   make check      lint + host unit tests + kselftests in the VM; ends "N passed, N failed"
#   make lint       checkpatch --strict, W=1 build, sparse (C=1) build; fails on any warning
#   make deps       install the build and VM dependencies (apt-get), quiet when present
#
# KVER selects the kernel (default: newest with headers and image), KDIR its
# build tree. Everything built lands in build/ except the .ko files, which
# Kbuild leaves at the top.

KVER	?= $(shell scripts/kver.sh 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
O	:= $(CURDIR)/build
LSRC	:= $(O)/linux-src

export KVER KDIR O LSRC

.PHONY: all modules userspace selftests unit run check lint deps clean \
	vm-test linux-src

all: modules userspace selftests

deps:
	@scripts/deps.sh

linux-src:
	@scripts/linux-src.sh $(LSRC)

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace O=$(O)

selftests: linux-src userspace
	$(MAKE) -C tools/testing/selftests/dcm O=$(O) LSRC=$(LSRC)

# Host unit tests (cmocka, ASan+UBSan); results go to build/results/.
unit: userspace
	@mkdir -p $(O)/results
	$(MAKE) -C userspace O=$(O) unit

# The kselftest suite inside the VM.
vm-test: modules userspace selftests
	@mkdir -p $(O)/results
	@scripts/run-selftests.sh $(O)/results/selftests.log

lint: linux-src
	@scripts/lint.sh

run: deps
	@$(MAKE) --no-print-directory all
	@scripts/dcm-vm exec -- /usr/share/dcm/demo.sh

check: deps
	@rm -rf $(O)/results
	@$(MAKE) --no-print-directory all
	@scripts/check.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf $(O)
