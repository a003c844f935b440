# tests/pkg: host tests of the build and the packaging (make pkgtest, in
# make check): `make user` as nobody without network.
PKG_TESTS := $(TOP)/tests/pkg/user-build
.PHONY: pkgtest
pkgtest: deps
	@for t in $(PKG_TESTS); do $(TOP)/tests/run-suite pkg-$$(basename $$t) $$t; done
