#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (test/ui/).
# Playwright's own browser download cannot work on these machines, so the tests drive the
# distribution's package through playwright-core. Installs it with apt-get only when missing.
# Set COMPANY_PAYMENTS_CHROMIUM to use another binary; this script then only checks it runs.
set -euo pipefail

chromium="${COMPANY_PAYMENTS_CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$chromium" ]; then
	if [ -n "${COMPANY_PAYMENTS_CHROMIUM:-}" ]; then
		echo "COMPANY_PAYMENTS_CHROMIUM=$chromium is not an executable file" >&2
		exit 1
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "$chromium is missing and apt-get is not available: install Chromium and set COMPANY_PAYMENTS_CHROMIUM to its path" >&2
		exit 1
	fi
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		if ! command -v sudo >/dev/null 2>&1; then
			echo "$chromium is missing; installing it needs root (run: apt-get install chromium)" >&2
			exit 1
		fi
		sudo="sudo"
	fi
	echo "== installing Debian's chromium (apt-get; for the browser tests)"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium
fi

# Debian's wrapper script prints a harmless shell warning on some machines; keep only the version.
version="$("$chromium" --version 2>/dev/null || true)"
if [ -z "$version" ]; then
	echo "$chromium does not run (--version printed nothing)" >&2
	exit 1
fi
echo "== $version ($chromium)"
