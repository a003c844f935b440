# tests/pkg: host tests of the build and the packaging (make pkgtest, in
# make check): `make user` as nobody without network, `make install` with
# a packager's variables.
PKG_TESTS := $(TOP)/tests/pkg/user-build $(TOP)/tests/pkg/install
.PHONY: pkgtest
pkgtest: deps
	@for t in $(PKG_TESTS); do $(TOP)/tests/run-suite pkg-$$(basename $$t) $$t; done
