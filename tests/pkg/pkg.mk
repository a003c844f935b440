# tests/pkg: host tests of the build and the packaging (make pkgtest, in
# make check): `make user` as nobody without network, `make install` with
# a packager's variables, `make deb` and what its packages hold (lintian,
# the unit, one version everywhere).
PKG_TESTS := $(TOP)/tests/pkg/user-build $(TOP)/tests/pkg/install $(TOP)/tests/pkg/deb
.PHONY: pkgtest
pkgtest: deps
	@for t in $(PKG_TESTS); do $(TOP)/tests/run-suite pkg-$$(basename $$t) $$t; done
