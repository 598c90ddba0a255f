# What deploy/install.sh, upgrade.sh and restore.sh share: sourced by them (bash, as root).

# The YANIV_* variables are for tests/test_deploy_files.py, which runs these functions in a
# folder of its own; a server has none of them.
HOME_DIR=/srv/yaniv-club
APP=${YANIV_APP:-$HOME_DIR/app}
VENV=$HOME_DIR/venv
CONF=${YANIV_CONF:-/etc/yaniv-club}
ENV_FILE=$CONF/env
BACKUPS=${YANIV_BACKUPS:-/var/backups/yaniv-club}
# manage.py as the site runs it (install.sh writes it).
MANAGE=${YANIV_MANAGE:-/usr/local/bin/yaniv-manage}
CADDY_DIR=${YANIV_CADDY_DIR:-/etc/caddy}
# The operator's additions to Caddy's configuration: made once, never written again.
CADDY_LOCAL=$CADDY_DIR/yaniv-club.local
# The Caddyfile these scripts wrote last: one that differs from it was edited by someone.
CADDY_WRITTEN=${YANIV_STATE_DIR:-/var/lib/yaniv-club}/Caddyfile.written
PORTS=(8001 8002)
UNIT_FILES=(yaniv-club@.service yaniv-club-tasks.service yaniv-club-backup.service yaniv-club-backup.timer)

say() { printf '\n== %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }

# systemd runs (a real server), or not (a chroot, a container being built): then units are
# enabled for the next boot and PostgreSQL is started by hand for the migrations.
systemd_running() { [[ -d /run/systemd/system ]]; }

app_servers() { printf 'yaniv-club@%s\n' "${PORTS[@]}"; }

# A unit the operator masked (`systemctl mask yaniv-club-backup.timer`: the backups run on
# another host) is never enabled or started again by these scripts.
masked() { [[ $(systemctl is-enabled "$1" 2>/dev/null) == masked* ]]; }

install_units() {
  local unit
  for unit in "${UNIT_FILES[@]}"; do
    install -m 644 "$APP/deploy/systemd/$unit" /etc/systemd/system/
  done
}

# The Host and scheme an app server expects behind Caddy.
site_host() { (. "$ENV_FILE" && echo "${ALLOWED_HOSTS%%,*}"); }

wait_for_health() {
  local port=$1 host
  host=$(site_host)
  for _ in $(seq 60); do
    if curl --silent --fail --max-time 2 -H "Host: $host" -H "X-Forwarded-Proto: https" \
      "http://127.0.0.1:$port/health/" >/dev/null; then
      echo "127.0.0.1:$port answers"
      return 0
    fi
    sleep 1
  done
  echo "127.0.0.1:$port does not answer /health/ after a minute: see journalctl -u yaniv-club@$port" >&2
  return 1
}

# A Caddyfile these scripts wrote once: the last one they recorded, or any release's own
# deploy/Caddyfile (a server installed before they kept a record).
caddyfile_was_ours() {
  local file=$1 commit
  [[ -f $CADDY_WRITTEN ]] && cmp -s "$CADDY_WRITTEN" "$file" && return 0
  [[ -e $APP/.git ]] || return 1
  for commit in $(git -C "$APP" log --format=%H -- deploy/Caddyfile 2>/dev/null); do
    git -C "$APP" show "$commit:deploy/Caddyfile" 2>/dev/null | cmp -s - "$file" && return 0
  done
  return 1
}

# Debian's own /etc/caddy/Caddyfile, as the caddy package installed it.
caddyfile_is_debians() {
  [[ $CADDY_DIR == /etc/caddy ]] && ! dpkg --verify caddy 2>/dev/null | grep -q ' /etc/caddy/Caddyfile$'
}

# /etc/caddy/Caddyfile is ours, written at every run; the operator's additions live in
# $CADDY_LOCAL, made once (with ACME_EMAIL, if given) and never written again. A Caddyfile
# someone edited is kept beside it, and the operator told where the edits belong now.
install_caddy_config() {
  local target=$CADDY_DIR/Caddyfile kept
  if [[ ! -f $CADDY_LOCAL ]]; then
    install -m 644 "$APP/deploy/caddy.local" "$CADDY_LOCAL"
    if [[ -n ${ACME_EMAIL:-} ]]; then
      sed -i "s|^\t#email you@example.be$|\temail $ACME_EMAIL|" "$CADDY_LOCAL"
    fi
    echo "$CADDY_LOCAL made: your additions go there (never written again)"
  fi
  if [[ -f $target ]] && ! cmp -s "$APP/deploy/Caddyfile" "$target" && ! caddyfile_was_ours "$target"; then
    if caddyfile_is_debians && [[ ! -f $target.debian ]]; then
      kept=$target.debian
    else
      kept=$target.edited-$(date +%Y%m%d-%H%M%S)
      warn "$target had edits of your own: kept as $kept. Put them (tls, email, …) in" \
        "$CADDY_LOCAL, which no install or upgrade writes, then: systemctl reload caddy"
    fi
    cp -p "$target" "$kept"
  fi
  install -m 644 "$APP/deploy/Caddyfile" "$target"
  install -D -m 644 "$APP/deploy/Caddyfile" "$CADDY_WRITTEN"
  (set -a && . "$CONF/caddy.env" && caddy validate --config "$target" --adapter caddyfile >/dev/null 2>&1) \
    || { echo "Caddy refuses $target (with $CADDY_LOCAL): caddy validate says why" >&2; return 1; }
}
