#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests of the PostgreSQL store
# backend (crates/server/src/store/postgres/).
#
#   scripts/pg.sh start DIR   initdb into DIR/data, start on a free port of
#                             127.0.0.1, print the URL (last line of stdout)
#                             and keep it in DIR/url
#   scripts/pg.sh stop DIR    stop it (fast shutdown)
#
# Installs Debian's postgresql if initdb is missing (CI runs as root). The
# server runs as the `postgres` user, so DIR must be reachable by it: use a
# directory under /tmp (`mktemp -d`); the script makes DIR itself 755 and
# hands it to `postgres`. Trust authentication, listening on 127.0.0.1
# only, fsync on (as in production). Everything it makes stays in DIR.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}

[ $# -eq 2 ] || usage
cmd=$1
dir=$2

# The bin directory of the newest PostgreSQL installed by Debian's packages.
bindir() {
  local d found=""
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
    [ -x "$d/initdb" ] && found=$d
  done
  echo "$found"
}

# Runs a command as the postgres user.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
  start)
    bin=$(bindir)
    if [ -z "$bin" ]; then
      echo "pg.sh: no PostgreSQL here; installing Debian's" >&2
      apt-get update >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
      bin=$(bindir)
      [ -n "$bin" ] || { echo "pg.sh: initdb still missing" >&2; exit 1; }
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    chmod 755 "$dir"
    if [ "$(id -u)" -eq 0 ]; then
      chown postgres: "$dir"
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_pg "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    # A free port: the first from 55432 up that nothing listens on.
    port=""
    for p in $(seq 55432 55531); do
      if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
        port=$p
        break
      fi
    done
    [ -n "$port" ] || { echo "pg.sh: no free port in 55432..55531" >&2; exit 1; }
    if ! as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
        -o "-k $dir -h 127.0.0.1 -p $port -c fsync=on -c max_connections=200" start >&2; then
      cat "$dir/log" >&2 || true
      exit 1
    fi
    url="postgres://postgres@127.0.0.1:$port/postgres"
    echo "$url" >"$dir/url"
    echo "$url"
    ;;
  stop)
    bin=$(bindir)
    if [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ]; then
      as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >&2 || true
    fi
    ;;
  *)
    usage
    ;;
esac
