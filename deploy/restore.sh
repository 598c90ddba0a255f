#!/usr/bin/env bash
# Put a backup in place of the site's database, as root: a new server taking a lost one's
# place (installed by deploy/install.sh, then this), or a release undone (README, "Recovery"):
#
#   /srv/yaniv-club/app/deploy/restore.sh /root/yaniv-20261128-170000-000000.dump
#
# The app servers, the worker and the backup timer stop; a backup of the database as it is
# now is made first (undo: this script with that file); the backup replaces the database; the
# settings beside it (yaniv-settings.env: the old server's secret key and web push keys) take
# the place of this server's in /etc/yaniv-club/env (the old file kept as env.before-restore-…),
# so that every login, import token and phone subscription goes on; the migrations of this
# release run; everything starts again and answers /health/. Without the settings file it says
# what is lost, and goes on.
set -euo pipefail

if [[ $EUID -ne 0 ]]; then
  echo "Run this as root." >&2
  exit 1
fi
if [[ $# -ne 1 || ! -f $1 ]]; then
  echo "Usage: $0 BACKUP-FILE   (a yaniv-….dump or .sqlite3; yaniv-settings.env beside it)" >&2
  exit 2
fi
BACKUP=$(realpath "$1")
SETTINGS=$(dirname "$BACKUP")/yaniv-settings.env
# shellcheck source=deploy/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
STARTED=$SECONDS

SERVICES=(yaniv-club-tasks)
mapfile -t -O 1 SERVICES < <(app_servers)
start_again() {
  say "Starting again"
  local unit
  for unit in "${SERVICES[@]}" yaniv-club-backup.timer; do
    masked "$unit" || systemctl start "$unit"
  done
}

say "Stopping the app servers, the worker and the backups"
systemctl stop yaniv-club-backup.timer yaniv-club-backup.service "${SERVICES[@]}"
trap start_again EXIT

say "A backup of the database as it is now"
"$MANAGE" backup

say "The backup $BACKUP in place of the database"
# The site's user reads it: a copy of its own when the file is out of its reach (root's home).
readable=$BACKUP
if ! runuser -u yaniv -- test -r "$BACKUP"; then
  readable=$BACKUPS/.restoring-$(basename "$BACKUP")
  install -o yaniv -g yaniv -m 600 "$BACKUP" "$readable"
fi
"$MANAGE" restore --replace "$readable"
[[ $readable == "$BACKUP" ]] || rm -f "$readable"

say "The old server's settings"
if [[ -f $SETTINGS ]]; then
  cp -p "$ENV_FILE" "$ENV_FILE.before-restore-$(date +%Y%m%d-%H%M%S)"
  # Its owner (root:yaniv) and mode (640) stay.
  "$APP/deploy/merge-settings" "$SETTINGS" "$ENV_FILE"
  echo "$(grep -c '^[A-Z_]*=' "$SETTINGS") settings from $SETTINGS are this server's now"
else
  warn "no $SETTINGS beside the backup: this server keeps its own secret key and web push" \
    "keys, so every login, import token and phone subscription of the old server ends" \
    "(phones subscribe again from the player's page)."
fi

say "Migrate (the backup may come from an older release)"
"$MANAGE" migrate --noinput

trap - EXIT
start_again
for server in $(app_servers); do
  wait_for_health "${server#yaniv-club@}"
done
say "Restored in $((SECONDS - STARTED)) s: $BACKUP"
