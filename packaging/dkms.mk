# SPDX-License-Identifier: GPL-2.0-or-later
# The Makefile of the DKMS source tree (/usr/src/ksmbd-VERSION), installed
# there by `make install-dkms`; Kbuild itself reads the tree's Kbuild.
# By hand: make [KVER=release] [KDIR=header tree] [clean]
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
VERSION := $(shell cat $(CURDIR)/VERSION)

.PHONY: all modules clean
all: modules

# Built without -Werror (a newer compiler's new warning must not fail an
# admin's build). The BTF step never fails the build: without a BTF of this
# kernel it says so in one line and the module works without the BPF tools.
modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) KSMBD_VERSION=$(VERSION) modules
	$(CURDIR)/module-btf $(CURDIR)/ksmbd.ko $(KVER)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
