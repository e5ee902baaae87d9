#!/usr/bin/env bash
# Starts the machine's PostgreSQL and/or Redis (both unless named) when they are not already answering on
# 127.0.0.1 (tests and the local stack use them), with the Debian tooling these machines ship; elsewhere,
# start them your own way. `--install` first installs Debian's packages (root): `pnpm start` asks for it
# when they are missing (infra/src/local-services.ts decides).
#
#   ensure-services.sh [--install] [postgres] [redis]
set -euo pipefail

install=false
services=()
for arg in "$@"; do
  case "$arg" in
    --install) install=true ;;
    postgres | redis) services+=("$arg") ;;
    *) echo "usage: ensure-services.sh [--install] [postgres] [redis]" >&2; exit 2 ;;
  esac
done
[ ${#services[@]} -gt 0 ] || services=(postgres redis)
wants() { [[ " ${services[*]} " == *" $1 "* ]]; }

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }
pg_cluster() { ls /etc/postgresql | head -n 1; }

if $install; then
  packages=()
  wants postgres && packages+=(postgresql)
  wants redis && packages+=(redis-server)
  echo "installing Debian's ${packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"
  if wants postgres; then
    # The stack's default DATABASE_URL (postgres://postgres@127.0.0.1:5432/partner) and the tests connect
    # without a password, as on the machines this repository is developed on: trust loopback connections
    # of the cluster just installed (first match wins in pg_hba.conf). An existing cluster is never touched.
    hba="/etc/postgresql/$(pg_cluster)/main/pg_hba.conf"
    trusted=$(mktemp)
    printf '%s\n' '# pnpm start installed this cluster: loopback connections are trusted (local development)' \
      'host all all 127.0.0.1/32 trust' 'host all all ::1/128 trust' | cat - "$hba" > "$trusted"
    cat "$trusted" > "$hba" # keeps the file's owner and mode
    rm "$trusted"
    if pg_up; then pg_ctlcluster --skip-systemctl-redirect "$(pg_cluster)" main reload; fi
  fi
fi

if wants postgres && ! pg_up; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(pg_cluster)" main start
  for _ in $(seq 1 50); do pg_up && break; sleep 0.2; done
  pg_up || { echo "PostgreSQL did not start" >&2; exit 1; }
fi

if wants redis && ! redis_up; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 50); do redis_up && break; sleep 0.2; done
  redis_up || { echo "Redis did not start" >&2; exit 1; }
fi
