#!/usr/bin/env bash
# Install Yaniv Club on a fresh Debian 12 (bookworm) or Ubuntu server, as root, from a git
# clone or from a release's tarball unpacked anywhere (README, "A server in one command"):
#
#   apt-get update && apt-get install -y git && git clone <the repository> /srv/yaniv-club/app
#   /srv/yaniv-club/app/deploy/install.sh yaniv.example.be [director-username] [acme-email]
#
# Debian's PostgreSQL, Redis and Caddy; a system user `yaniv`; the venv; the secret key and
# the web push keys generated once into /etc/yaniv-club/env; migrate, collectstatic; the first
# director while the site has no account (their password printed once, and kept in
# /etc/yaniv-club/first-director for root); two app servers behind Caddy (automatic HTTPS for
# the domain; the ACME email, if given, goes in /etc/caddy/yaniv-club.local, the operator's
# own file), the task worker and the hourly backup. Run it again at any time: every step
# checks what is there first, so a second run changes nothing (the secrets, the database, the
# accounts and the operator's files stay). DNS of the domain must point at the server for the
# certificate.
set -euo pipefail

DOMAIN=${1:-}
DIRECTOR=${2:-director}
ACME_EMAIL=${3:-}
if [[ $EUID -ne 0 ]]; then
  echo "Run this as root." >&2
  exit 1
fi
if [[ ! $DOMAIN =~ ^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$ ]]; then
  echo "Usage: $0 DOMAIN [director-username] [acme-email]   (e.g. $0 yaniv.example.be)" >&2
  exit 2
fi
if [[ -n $ACME_EMAIL && ! $ACME_EMAIL =~ ^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+$ ]]; then
  echo "Not an email address: $ACME_EMAIL" >&2
  exit 2
fi

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=deploy/lib.sh
. "$SOURCE/deploy/lib.sh"

say "Debian packages"
export DEBIAN_FRONTEND=noninteractive
PACKAGES=(python3 python3-venv python3-pip git ca-certificates curl postgresql redis-server caddy)
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "all installed"
fi

say "System user yaniv"
if ! id yaniv >/dev/null 2>&1; then
  adduser --system --group --home "$HOME_DIR" --no-create-home --shell /usr/sbin/nologin yaniv
fi
install -d -o root -g root -m 755 "$HOME_DIR" /var/lib/yaniv-club
install -d -o root -g yaniv -m 750 "$CONF"
install -d -o yaniv -g yaniv -m 700 "$BACKUPS"

say "The code in $APP"
if [[ $SOURCE == "$APP" ]]; then
  echo "in place"
elif [[ -e $APP ]]; then
  echo "$APP exists: kept as it is (deploy/upgrade.sh brings a new release)"
elif [[ -d $SOURCE/.git ]]; then
  git clone --quiet "$SOURCE" "$APP"
else
  # A release's tarball unpacked elsewhere: its files, without git (upgrade.sh then takes the
  # next release's tarball).
  install -d -m 755 "$APP"
  cp -a "$SOURCE/." "$APP/"
  echo "copied from $SOURCE"
fi
if [[ -d $APP/.git ]]; then
  git config --global --add safe.directory "$APP" 2>/dev/null || true
fi

say "The venv in $VENV"
[[ -x $VENV/bin/python ]] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
"$VENV/bin/pip" install --quiet "$APP"
# Compiled here, once: the services may not write under /srv (ProtectSystem=strict).
"$VENV/bin/python" -m compileall -q "$APP" >/dev/null || true

# What Caddy reads (deploy/yaniv.caddy): the domain, the static files, the app servers.
cat >"$CONF/caddy.env" <<EOF
YANIV_DOMAIN=$DOMAIN
YANIV_HOST=$DOMAIN
YANIV_STATIC=$APP/staticfiles
YANIV_UPSTREAMS="$(printf '127.0.0.1:%s ' "${PORTS[@]}" | sed 's/ $//')"
EOF
chmod 644 "$CONF/caddy.env"

say "PostgreSQL"
read -r PG_VERSION PG_CLUSTER PGPORT < <(pg_lsclusters --no-header | awk 'NR == 1 {print $1, $2, $3}')
export PGPORT
if systemd_running; then
  systemctl enable --now postgresql
else
  # No systemd here: start the cluster ourselves for the migrations (it starts at boot).
  pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" status >/dev/null 2>&1 ||
    pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start
fi
psql_postgres() { runuser -u postgres -- psql --quiet --no-align --tuples-only "$@"; }
if [[ $(psql_postgres -c "SELECT 1 FROM pg_roles WHERE rolname = 'yaniv'") != 1 ]]; then
  runuser -u postgres -- createuser yaniv
fi
if [[ $(psql_postgres -c "SELECT 1 FROM pg_database WHERE datname = 'yaniv'") != 1 ]]; then
  runuser -u postgres -- createdb --owner yaniv --encoding UTF8 yaniv
fi

say "Secrets and settings in $ENV_FILE"
if [[ ! -f $ENV_FILE ]]; then
  secret=$("$VENV/bin/python" -c "import secrets; print(secrets.token_urlsafe(50))")
  sed -e "s|@SECRET_KEY@|$secret|" -e "s|@DOMAIN@|$DOMAIN|g" -e "s|@PGPORT@|$PGPORT|" "$APP/deploy/env.template" >"$ENV_FILE"
  echo "written (secret key generated)"
else
  echo "kept as it is (its secret key stays)"
fi
# The web push key pair (notifications), made once: a new pair would end every subscription.
if ! grep -q '^VAPID_PRIVATE_KEY=.' "$ENV_FILE"; then
  (cd "$APP" && SECRET_KEY=unused "$VENV/bin/python" manage.py vapid_keys) >>"$ENV_FILE"
  echo "web push keys generated"
fi
chown root:yaniv "$ENV_FILE"
chmod 640 "$ENV_FILE"

# manage.py as the site runs it: the yaniv user, the environment file.
cat >/usr/local/bin/yaniv-manage <<EOF
#!/bin/sh
# manage.py of Yaniv Club, as the site's user with its settings: yaniv-manage backup, …
set -a; . $ENV_FILE; set +a
cd $APP && exec runuser -u yaniv -- $VENV/bin/python manage.py "\$@"
EOF
chmod 755 /usr/local/bin/yaniv-manage

say "Migrate, collectstatic"
/usr/local/bin/yaniv-manage migrate --noinput
(set -a && . "$ENV_FILE" && cd "$APP" && "$VENV/bin/python" manage.py collectstatic --noinput -v 0)
/usr/local/bin/yaniv-manage check --deploy --fail-level ERROR

say "The first director"
# Only while the site has no account: after a restore the backup's accounts are the site's,
# and a second run of this script adds nobody.
accounts=$(/usr/local/bin/yaniv-manage shell --no-imports -c \
  "from django.contrib.auth.models import User; print(User.objects.exists())")
if [[ $accounts == True ]]; then
  echo "the site has accounts: none added"
else
  password=$("$VENV/bin/python" -c "import secrets; print(secrets.token_urlsafe(15))")
  (umask 077 && printf '%s\n%s\n' "$DIRECTOR" "$password" >"$CONF/first-director")
  DIRECTOR_PASSWORD=$password /usr/local/bin/yaniv-manage createdirector "$DIRECTOR"
  echo "Director $DIRECTOR, password: $password (kept in $CONF/first-director for root)"
fi

say "systemd units and Caddy"
install_units
install -d /etc/systemd/system/caddy.service.d
printf '[Service]\nEnvironmentFile=%s\n' "$CONF/caddy.env" >/etc/systemd/system/caddy.service.d/yaniv-club.conf
install -d -o caddy -g caddy /var/log/caddy
install_caddy_config
UNITS=(postgresql redis-server caddy yaniv-club-backup.timer yaniv-club-tasks)
mapfile -t -O "${#UNITS[@]}" UNITS < <(app_servers)
ENABLE=()
for unit in "${UNITS[@]}"; do
  if masked "$unit"; then
    echo "$unit is masked on this host: left alone"
  else
    ENABLE+=("$unit")
  fi
done
if systemd_running; then
  systemctl daemon-reload
  systemctl enable --now "${ENABLE[@]}"
  # A second run: the app servers, the worker and Caddy take the code and configuration as
  # they are now.
  for unit in "${ENABLE[@]}"; do
    case $unit in yaniv-club@* | yaniv-club-tasks) systemctl restart "$unit" ;; esac
  done
  systemctl reload-or-restart caddy
else
  systemctl enable "${ENABLE[@]}"
  echo "systemd is not running here: the services are enabled and start at the next boot"
fi

say "Done"
echo "https://$DOMAIN/ (the certificate comes once DNS points here). Backups: $BACKUPS, hourly,"
echo "with yaniv-settings.env beside them (the secret key): copy both off the server (README)."
echo "manage.py as the site runs it: yaniv-manage <command>. Upgrades: $APP/deploy/upgrade.sh."
echo "A new server from a backup: $APP/deploy/restore.sh FILE. Your Caddy additions: $CADDY_LOCAL"
