# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the command-line tests that depend on the architecture.

# True when this process's vDSO exports the entry point of API ("getrandom"),
# as `clockbench vdso` reports it for the architecture of the build.
vdso_exports() {
	"$CLOCKBENCH" vdso | grep -qE "^  [_a-z0-9]*_$1 +resolves"
}
