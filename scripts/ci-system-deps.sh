#!/usr/bin/env bash
# System packages the suites need, from Debian's repositories, installed only when missing:
# redis-server and PostgreSQL 15 (queue-mode suite) and chromium (browser suite). One apt-get update at most.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# PostgreSQL 15 for the queue-mode suite (initdb/pg_ctl; on PATH or in Debian's versioned folder).
if ! command -v initdb >/dev/null 2>&1 && [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
	missing+=(postgresql-15)
fi
if [ ${#missing[@]} -eq 0 ]; then
	echo "system packages present: redis-server, chromium, postgresql 15"
	exit 0
fi
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "installing ${missing[*]} with apt-get"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y "${missing[@]}"
