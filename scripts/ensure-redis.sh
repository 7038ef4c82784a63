#!/usr/bin/env bash
# Makes sure redis-server is installed, for the queue-mode tests (test/queue/) and benchmark
# (bench/queue.mjs). They start their own Redis on a free loopback port, without persistence;
# this script only installs the binary, from Debian's package when it is missing. It starts
# nothing and changes no configuration.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
	echo "redis-server present: $(redis-server --version)"
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "redis-server is missing and this is not a Debian-like system: install Redis 6 or later yourself" >&2
	exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "redis-server is missing; installing it needs root (apt-get install redis-server)" >&2
		exit 1
	fi
fi

echo "installing redis-server (Debian package)"
$SUDO apt-get update -qq
# Where an init system runs, the package also starts a system Redis on 6379; the tests do not
# use it (each run starts its own on a free port).
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server
redis-server --version
