# SPDX-License-Identifier: GPL-2.0-or-later
# A thin wrapper around Meson and Ninja. Every target first installs the
# Debian packages that are missing (scripts/install-deps).

BUILD ?= build
SANBUILD ?= build-sanitize
MESON_OPTS ?=

# The static guests `make guest` builds, for the tests that boot them.
GUEST_ENV = CLOCKBENCH_GUEST=$(CURDIR)/build-guest/src/clockbench \
	CLOCKBENCH_HOSTILE_GUEST=$(CURDIR)/build-guest/tests/hostile-guest
# And the other architectures' (make check boots them; check-sanitize does
# not: the host's side it sanitizes is the same for every architecture).
ARCH_GUEST_ENV = CLOCKBENCH_GUEST_ARM64=$(CURDIR)/build-guest-arm64/src/clockbench \
	CLOCKBENCH_GUEST_PPC64EL=$(CURDIR)/build-guest-ppc64el/src/clockbench

.PHONY: all deps build guest guest-arm64 guest-ppc64el run check check-sanitize cross benchmarks install clean

all: build

deps:
	@scripts/install-deps

$(BUILD)/build.ninja:
	@scripts/install-deps
	meson setup $(BUILD) $(MESON_OPTS)

build: $(BUILD)/build.ninja
	@scripts/install-deps
	ninja -C $(BUILD)

# The static clockbench that `clockbench kernels` boots as the guest's init
# (build-guest/src/clockbench); guest-arm64 and guest-ppc64el the same for
# those architectures' kernels, cross-built (build-guest-ARCH).
guest: deps
	@scripts/guest-payload build-guest

guest-arm64 guest-ppc64el: deps
	@scripts/install-deps vm-arch
	@scripts/guest-payload build-$@ $(@:guest-%=%)

# The default measurement.
run: build
	$(BUILD)/src/clockbench bench

# Every unit and command-line test; the report's test opens it in a
# headless browser (install-deps browser), the store's run again against
# a throw-away PostgreSQL cluster (scripts/with-postgresql), and `kernels`
# boots Debian's 6.1 and 6.12 for x86_64, arm64 and ppc64el in qemu
# (install-deps vm vm-arch, scripts/test-kernels) with the guest payloads
# (make guest, guest-arm64, guest-ppc64el).
check: build
	@scripts/install-deps browser vm vm-arch
	@scripts/guest-payload build-guest
	@scripts/guest-payload build-guest-arm64 arm64
	@scripts/guest-payload build-guest-ppc64el ppc64el
	@rc=0; kernels=$$(scripts/test-kernels) || kernels=unavailable; \
	$(GUEST_ENV) $(ARCH_GUEST_ENV) CLOCKBENCH_TEST_KERNELS=$$kernels \
	scripts/with-postgresql meson test -C $(BUILD) --print-errorlogs || rc=$$?; \
	scripts/test-summary $(BUILD); exit $$rc

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer;
# kernels.bats boots the hostile guest (the host's side, which reads what a
# guest sends, is the sanitized one; make check boots the rest).
check-sanitize: deps
	@test -f $(SANBUILD)/build.ninja || meson setup $(SANBUILD) \
		-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
	ninja -C $(SANBUILD)
	@scripts/install-deps vm
	@scripts/guest-payload build-guest
	@rc=0; kernels=$$(scripts/test-kernels) || kernels=unavailable; \
	$(GUEST_ENV) CLOCKBENCH_TEST_KERNELS=$$kernels CLOCKBENCH_TEST_BOOTS=hostile \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		scripts/with-postgresql \
		meson test -C $(SANBUILD) --print-errorlogs --timeout-multiplier 3 \
		|| rc=$$?; scripts/test-summary $(SANBUILD); exit $$rc

# Compile the architecture-specific modules with Debian's cross compilers.
cross:
	@scripts/install-deps cross
	scripts/cross-build

# Figures that check clockbench against independent measurements.
benchmarks: build
	bench/run-all $(BUILD)

install: build
	meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(SANBUILD) build-guest build-guest-arm64 build-guest-ppc64el \
		build-sysroot-arm64 build-sysroot-ppc64el
