#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on loopback and that the test database exists.
# Prints the URL to use. Starts the machine's installed cluster when it is not running.
set -euo pipefail
URL="${TEST_DATABASE_URL:-postgres://portal:portal@127.0.0.1:5432/portal_test}"
if [ -n "${TEST_DATABASE_URL:-}" ]; then echo "$URL"; exit 0; fi

as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$1"; else sudo -u postgres sh -c "$1"; fi; }

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! command -v pg_ctlcluster >/dev/null; then
    echo "PostgreSQL is not installed; installing it" >&2
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
  fi
  cluster=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1{print $1" "$2}')
  [ -n "$cluster" ] || { echo "no PostgreSQL cluster found" >&2; exit 1; }
  pg_ctlcluster $cluster start >&2
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done
fi
as_postgres "psql -qtAc \"select 1 from pg_roles where rolname='portal'\" | grep -q 1 || psql -qc \"create role portal login password 'portal'\"" >&2
# The bench writes a checkpoint after its bulk inserts (decision 0082): PostgreSQL 15's pg_checkpoint role allows it.
as_postgres "psql -qtAc \"select 1 from pg_roles where rolname='pg_checkpoint'\" | grep -q 1 && psql -qc 'grant pg_checkpoint to portal' || true" >&2
as_postgres "psql -qtAc \"select 1 from pg_database where datname='portal_test'\" | grep -q 1 || psql -qc 'create database portal_test owner portal'" >&2
echo "$URL"
