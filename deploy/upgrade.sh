#!/usr/bin/env bash
# Upgrade Yaniv Club to a new release, as root, while the site runs:
#
#   /srv/yaniv-club/app/deploy/upgrade.sh [git ref]             a git install (default: the
#                                                               branch's newest commit)
#   /srv/yaniv-club/app/deploy/upgrade.sh yaniv-club-0.3.0.tar.gz   a tarball install (or the
#                                                               release unpacked: its folder)
#
# A backup first (put it back with deploy/restore.sh FILE if the release has to be undone),
# then the code (a tarball's replaces the folder, the old one kept as app.previous), the venv,
# the migrations and the static files, and the app servers restarted one at a time: Caddy sends
# every request to the other one meanwhile, so the referees' saves and the phones' polls never
# find the site down. /etc/yaniv-club/env and /etc/caddy/yaniv-club.local, the operator's, are
# never written. CHANGELOG.md says what each release changes and whether it needs more.
set -euo pipefail

REF=${1:-}
if [[ $EUID -ne 0 ]]; then
  echo "Run this as root." >&2
  exit 1
fi
# shellcheck source=deploy/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

# A release's files in place of $APP's: from a tarball, or a folder it was unpacked into.
replace_code() {
  local release=$1 unpacked
  unpacked=$(mktemp -d "$HOME_DIR/app.new.XXXXXX")
  if [[ -d $release ]]; then
    cp -a "$release/." "$unpacked/"
  else
    tar -xzf "$release" -C "$unpacked"
  fi
  # A tarball of a repository host holds one folder (yaniv-club-0.3.0/): its content.
  if [[ ! -f $unpacked/manage.py && $(find "$unpacked" -mindepth 1 -maxdepth 1 | wc -l) -eq 1 ]]; then
    local inner
    inner=$(find "$unpacked" -mindepth 1 -maxdepth 1)
    mv "$inner" "$unpacked.inner" && rmdir "$unpacked" && mv "$unpacked.inner" "$unpacked"
  fi
  [[ -f $unpacked/manage.py ]] || { echo "$release holds no Yaniv Club release" >&2; rm -rf "$unpacked"; exit 1; }
  chmod 755 "$unpacked"
  rm -rf "$HOME_DIR/app.previous"
  mv "$APP" "$HOME_DIR/app.previous"
  mv "$unpacked" "$APP"
  echo "$release in $APP (the release before kept in $HOME_DIR/app.previous)"
}

say "Backup"
"$MANAGE" backup

say "The code"
if [[ -d $APP/.git ]]; then
  before=$(git -C "$APP" rev-parse --short HEAD)
  git -C "$APP" fetch --quiet --tags
  if [[ -n $REF ]]; then
    git -C "$APP" checkout --quiet "$REF"
  else
    git -C "$APP" pull --quiet --ff-only
  fi
  echo "$before -> $(git -C "$APP" rev-parse --short HEAD)"
elif [[ -n $REF && -e $REF ]]; then
  replace_code "$(realpath "$REF")"
else
  echo "$APP is no git clone: give the new release's tarball (or its folder) as the argument" >&2
  exit 2
fi
# From here on, the new release's own shared parts.
# shellcheck source=deploy/lib.sh
. "$APP/deploy/lib.sh"

say "The venv"
"$VENV/bin/pip" install --quiet "$APP"
"$VENV/bin/python" -m compileall -q "$APP" >/dev/null || true

say "Migrate, collectstatic"
# The new migrations run while the old code still serves: a release's migrations only add
# what the old code can ignore (CHANGELOG.md says when one does not).
"$MANAGE" migrate --noinput
(set -a && . "$ENV_FILE" && cd "$APP" && "$VENV/bin/python" manage.py collectstatic --noinput -v 0)
install_units
systemctl daemon-reload

say "App servers, one at a time"
for server in $(app_servers); do
  systemctl restart "$server"
  wait_for_health "${server#yaniv-club@}" || {
    echo "the other app server still serves the old release" >&2
    exit 1
  }
done
install_caddy_config
systemctl reload caddy
# The worker finishes its task on SIGTERM; what waits stays in the database for the new one.
if ! masked yaniv-club-tasks; then
  systemctl enable yaniv-club-tasks
  systemctl restart yaniv-club-tasks
fi

say "Done: $(cd "$APP" && "$VENV/bin/python" -c 'import importlib.metadata as m; print("yaniv-club", m.version("yaniv-club"))')"
