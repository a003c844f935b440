# tests/pkg: host tests of the build and the packaging (make pkgtest, in
# make check): `make user` as nobody without network, `make install` with
# a packager's variables, `make deb` and what its packages hold (lintian,
# the unit, one version everywhere). The licence check is cheap and runs
# with the unit tests.
PKG_TESTS := $(TOP)/tests/pkg/user-build $(TOP)/tests/pkg/install $(TOP)/tests/pkg/deb
.PHONY: pkgtest
pkgtest: deps
	@n=$(words $(PKG_TESTS)); i=0; for t in $(PKG_TESTS); do i=$$((i + 1)); \
		PROGRESS="pkg $$i of $$n" $(TOP)/tests/run-suite pkg-$$(basename $$t) $$t; done

UNIT_TESTS += $(BUILD)/unit/pkg_licenses
$(BUILD)/unit/pkg_licenses: $(TOP)/tests/pkg/licenses
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s "$$@"\n' $< > $@ && chmod +x $@

UNIT_TESTS += $(BUILD)/unit/pkg_new_services
$(BUILD)/unit/pkg_new_services: $(TOP)/tests/pkg/new-services
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s "$$@"\n' $< > $@ && chmod +x $@
