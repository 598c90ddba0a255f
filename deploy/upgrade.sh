#!/usr/bin/env bash
# Upgrade Yaniv Club to the newest release, as root, while the site runs:
#
#   /srv/yaniv-club/app/deploy/upgrade.sh [git ref, default: the branch's newest commit]
#
# A backup first (put it back with `yaniv-manage restore --replace FILE` if the release has to
# be undone), then the code, the venv, the migrations and the static files, and the app
# servers restarted one at a time: Caddy sends every request to the other one meanwhile, so
# the referees' saves and the phones' polls never find the site down. CHANGELOG.md says what
# each release changes and whether it needs more than this script.
set -euo pipefail

APP=/srv/yaniv-club/app
VENV=/srv/yaniv-club/venv
ENV_FILE=/etc/yaniv-club/env
PORTS=(8001 8002)
REF=${1:-}

if [[ $EUID -ne 0 ]]; then
  echo "Run this as root." >&2
  exit 1
fi
say() { printf '\n== %s\n' "$*"; }

say "Backup"
/usr/local/bin/yaniv-manage backup

say "The code"
before=$(git -C "$APP" rev-parse --short HEAD)
git -C "$APP" fetch --quiet --tags
if [[ -n $REF ]]; then
  git -C "$APP" checkout --quiet "$REF"
else
  git -C "$APP" pull --quiet --ff-only
fi
echo "$before -> $(git -C "$APP" rev-parse --short HEAD)"

say "The venv"
"$VENV/bin/pip" install --quiet "$APP"

say "Migrate, collectstatic"
# The new migrations run while the old code still serves: a release's migrations only add
# what the old code can ignore (CHANGELOG.md says when one does not).
/usr/local/bin/yaniv-manage migrate --noinput
(set -a && . "$ENV_FILE" && cd "$APP" && "$VENV/bin/python" manage.py collectstatic --noinput -v 0)
install -m 644 "$APP"/deploy/systemd/yaniv-club@.service "$APP"/deploy/systemd/yaniv-club-backup.service \
  "$APP"/deploy/systemd/yaniv-club-backup.timer "$APP"/deploy/systemd/yaniv-club-tasks.service \
  /etc/systemd/system/
systemctl daemon-reload

say "App servers, one at a time"
host=$(. "$ENV_FILE" && echo "${ALLOWED_HOSTS%%,*}")
for port in "${PORTS[@]}"; do
  systemctl restart "yaniv-club@$port"
  for _ in $(seq 60); do
    if curl --silent --fail --max-time 2 -H "Host: $host" -H "X-Forwarded-Proto: https" "http://127.0.0.1:$port/health/" >/dev/null; then
      echo "127.0.0.1:$port answers"
      continue 2
    fi
    sleep 1
  done
  echo "127.0.0.1:$port does not answer /health/ after a minute: the other app server still" \
    "serves the old release; see journalctl -u yaniv-club@$port" >&2
  exit 1
done
if ! cmp -s "$APP/deploy/Caddyfile" /etc/caddy/Caddyfile; then
  install -m 644 "$APP/deploy/Caddyfile" /etc/caddy/Caddyfile
fi
systemctl reload caddy
# The worker finishes its task on SIGTERM; what waits stays in the database for the new one.
systemctl enable yaniv-club-tasks
systemctl restart yaniv-club-tasks

say "Done: $(cd "$APP" && "$VENV/bin/python" -c 'import importlib.metadata as m; print("yaniv-club", m.version("yaniv-club"))')"
