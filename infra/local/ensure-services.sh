#!/usr/bin/env bash
# Starts the machine's PostgreSQL and Redis when they are not already answering (tests and the local
# stack use them). Uses the Debian tooling these machines ship; elsewhere, start them your own way.
set -euo pipefail

pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

if ! pg_up; then
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 50); do pg_up && break; sleep 0.2; done
  pg_up || { echo "PostgreSQL did not start" >&2; exit 1; }
fi

if ! redis_up; then
  echo "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 50); do redis_up && break; sleep 0.2; done
  redis_up || { echo "Redis did not start" >&2; exit 1; }
fi
