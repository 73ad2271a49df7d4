#!/bin/sh
# First start: a cluster owned by POSTGRES_USER with its password, and POSTGRES_DB (as the
# official image does); then PostgreSQL in the foreground on every address.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file=$(mktemp)
  printf '%s' "${POSTGRES_PASSWORD:?}" >"$password_file"
  initdb --username="${POSTGRES_USER:-postgres}" --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  pg_ctl --wait --options="-c listen_addresses=''" start >/dev/null
  db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
  [ "$db" = postgres ] || createdb --username="${POSTGRES_USER:-postgres}" "$db"
  pg_ctl --wait stop >/dev/null
fi
exec postgres -c listen_addresses='*'
