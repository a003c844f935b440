# mk/deb.mk: `make deb`, the Debian packages (scripts/make-deb; debian/).
# Build dependencies come with `make deps` (scripts/packages.txt lists
# debhelper, dh-dkms and lintian among the rest).
.PHONY: deb
deb: deps
	@$(TOP)/scripts/make-deb
