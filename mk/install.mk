# mk/install.mk: `make install` for administrators and packagers.
#
#   make install [DESTDIR=...] [PREFIX=/usr/local] [sbindir=...] [mandir=...]
#                [unitdir=...] [docdir=...] [pkglibdir=...]
#   make install-dkms    the module's source as a DKMS tree in /usr/src
#
# install = install-server + install-monitor (debian/rules installs each
# into its own package). Nothing here builds as root that `make user`
# has not built already: run `make user` (and `make man`) first as
# yourself, then `make install` as root.

PREFIX ?= /usr/local
prefix ?= $(PREFIX)
exec_prefix ?= $(prefix)
sbindir ?= $(exec_prefix)/sbin
datarootdir ?= $(prefix)/share
# The daemon reads /etc/ksmbd whatever the prefix: the folder is made
# there (empty: the admin writes ksmbd.conf, ksmbd.adduser the users).
sysconfdir ?= /etc
mandir ?= $(datarootdir)/man
docdir ?= $(datarootdir)/doc/ksmbd
# The BPF object, for bpftool and ksmbd-lat --pin users (the tools carry
# their own copy inside).
pkglibdir ?= $(exec_prefix)/lib/ksmbd
# systemd's own answer (/lib/systemd/system on Debian 12), whatever PREFIX.
unitdir ?= $(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system)
dkmsdir ?= /usr/src/ksmbd-$(VERSION)
# INSTALL_MAN=no: debian/rules installs the pages with dh_installman.
INSTALL_MAN ?= yes

INSTALL ?= install
MAN_OUT := $(BUILD)/man

SERVER_PROGS := $(BUILD)/daemon/ksmbd.mountd $(BUILD)/daemon/ksmbd.adduser \
	$(BUILD)/daemon/ksmbd.addshare $(BUILD)/daemon/ksmbd.control
MONITOR_PROGS := $(BUILD)/monitor/ksmbdtop $(BUILD)/bpf/ksmbd-lat
# ksmbd-hist as installed carries the command table it reads from
# bpf/ksmbd_stats.h in the source tree (sbindir has no bpf/ beside it).
HIST_INSTALLED := $(BUILD)/tracing/ksmbd-hist
MONITOR_SCRIPTS := $(TOP)/tracing/ksmbd-trace $(HIST_INSTALLED)
BPF_OBJECT := $(BUILD)/bpf/ksmbd_stats.bpf.o
UNIT_FILE := $(BUILD)/packaging/ksmbd.service
DKMS_CONF := $(BUILD)/packaging/dkms.conf

# Man pages come from man/ (`make man`, man/man.mk) when that folder
# exists; the install takes whatever build/man holds, nothing when empty.
MAN_DEP := $(if $(wildcard $(TOP)/man/man.mk),man)
# Which package a page belongs to, by name.
SERVER_MAN_GLOB := ksmbd.*.[58]
MONITOR_MAN_GLOB := ksmbdtop.[58] ksmbd-lat.[58] ksmbd-trace.[58] ksmbd-hist.[58]

.PHONY: install install-server install-monitor install-dkms

install: install-server install-monitor

$(UNIT_FILE): $(TOP)/packaging/ksmbd.service.in $(TOP)/mk/install.mk
	@mkdir -p $(dir $@)
	sed -e 's|@sbindir@|$(sbindir)|g' $< > $@.tmp && mv $@.tmp $@

# $(call install_man,GLOBS): the built pages matching GLOBS, by section.
define install_man
	@if [ "$(INSTALL_MAN)" = yes ]; then \
		cd $(MAN_OUT) 2>/dev/null || exit 0; \
		for p in $(1); do \
			[ -f "$$p" ] || continue; \
			s=$${p##*.}; \
			$(INSTALL) -d $(DESTDIR)$(mandir)/man$$s && \
			$(INSTALL) -m 0644 $$p $(DESTDIR)$(mandir)/man$$s/$$p || exit 1; \
		done; \
	fi
endef

# The unit is generated at install time: sbindir is known only then.
install-server: user $(MAN_DEP)
	@rm -f $(UNIT_FILE)
	@$(MAKE) --no-print-directory $(UNIT_FILE)
	$(INSTALL) -d $(DESTDIR)$(sbindir) $(DESTDIR)$(unitdir) $(DESTDIR)$(docdir)/examples
	$(INSTALL) -d -m 0755 $(DESTDIR)$(sysconfdir)/ksmbd
	$(INSTALL) -m 0755 $(SERVER_PROGS) $(DESTDIR)$(sbindir)/
	$(INSTALL) -m 0644 $(UNIT_FILE) $(DESTDIR)$(unitdir)/ksmbd.service
	$(INSTALL) -m 0644 $(TOP)/packaging/ksmbd.conf.example $(DESTDIR)$(docdir)/examples/
	$(call install_man,$(SERVER_MAN_GLOB))

$(HIST_INSTALLED): $(TOP)/tracing/ksmbd-hist $(TOP)/bpf/ksmbd_stats.h $(TOP)/mk/install.mk
	@mkdir -p $(dir $@)
	@table=$$(grep -o 'X(0x[0-9a-fA-F]*, *"[A-Z_]*")' $(TOP)/bpf/ksmbd_stats.h | tr '\n' ' '); \
	[ -n "$$table" ] || { echo "install: no command table in bpf/ksmbd_stats.h" >&2; exit 1; }; \
	sed -e "s|^INSTALLED_COMMANDS = None\$$|INSTALLED_COMMANDS = r'$$table'|" $< > $@.tmp && \
	grep -q "^INSTALLED_COMMANDS = r'X" $@.tmp && chmod 0755 $@.tmp && mv $@.tmp $@

install-monitor: user $(MAN_DEP) $(HIST_INSTALLED)
	$(INSTALL) -d $(DESTDIR)$(sbindir) $(DESTDIR)$(pkglibdir)
	$(INSTALL) -m 0755 $(MONITOR_PROGS) $(MONITOR_SCRIPTS) $(DESTDIR)$(sbindir)/
	$(INSTALL) -m 0644 $(BPF_OBJECT) $(DESTDIR)$(pkglibdir)/
	$(call install_man,$(MONITOR_MAN_GLOB))

# The module's sources as DKMS wants them: the tree's Makefile is
# packaging/dkms.mk, dkms.conf carries VERSION, module-btf makes the BTF.
# modules_to_force_install: DKMS refuses by default to install a module
# whose version (ours) is lower than the kernel's own ksmbd (3.4.2 in
# 6.1); this file is DKMS's switch for a module that replaces an in-tree
# one of the same name.
$(DKMS_CONF): $(TOP)/packaging/dkms.conf.in $(TOP)/VERSION
	@mkdir -p $(dir $@)
	sed -e 's|@VERSION@|$(VERSION)|g' $< > $@.tmp && mv $@.tmp $@

install-dkms: $(DKMS_CONF)
	$(INSTALL) -d $(DESTDIR)$(dkmsdir)
	cd $(TOP)/module && find . -type f \( -name '*.[ch]' -o -name Kbuild -o -name dirs.mk \) \
		-exec $(INSTALL) -D -m 0644 {} $(DESTDIR)$(dkmsdir)/{} \;
	$(INSTALL) -m 0644 $(TOP)/packaging/dkms.mk $(DESTDIR)$(dkmsdir)/Makefile
	$(INSTALL) -m 0644 $(TOP)/VERSION $(DESTDIR)$(dkmsdir)/VERSION
	$(INSTALL) -m 0755 $(TOP)/scripts/module-btf $(DESTDIR)$(dkmsdir)/module-btf
	$(INSTALL) -m 0644 $(DKMS_CONF) $(DESTDIR)$(dkmsdir)/dkms.conf
	$(INSTALL) -d $(DESTDIR)/usr/share/dkms/modules_to_force_install
	echo ksmbd > $(DESTDIR)/usr/share/dkms/modules_to_force_install/ksmbd
