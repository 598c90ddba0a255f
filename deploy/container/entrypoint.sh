#!/bin/sh
# The image's commands (Containerfile; compose.yaml runs each as a service):
#
#   setup          the settings made once (secret key, web push keys) into $YANIV_STATE,
#                  migrate, check --deploy, and the first director while the site has no
#                  account (DIRECTOR, default "director"; its password printed once and kept
#                  in $YANIV_STATE/first-director). Run it before the others, at every start.
#   serve          gunicorn on $BIND (default 0.0.0.0:$PORT, 8000; APP_WORKERS × APP_THREADS, 2 × 4)
#   worker         the background tasks' worker (TASKS_WORKER_ID: one id per worker)
#   backups        a backup every BACKUP_INTERVAL seconds (default 3600) into BACKUP_DIR
#   restore FILE   the backup FILE in place of the database, and the settings beside it
#                  (yaniv-settings.env) in place of this site's; then migrate. Stop the
#                  site and the worker first (README, "Recovery").
#   manage ...     any manage.py command, e.g. `manage createdirector anna`
#
# The settings come from the environment; SECRET_KEY and the VAPID keys, unless given there,
# from $YANIV_STATE/settings.env, which `setup` writes once and `restore` replaces.
set -eu

STATE=${YANIV_STATE:-/var/lib/yaniv-club}
SETTINGS=$STATE/settings.env
cd /app

say() { printf '%s\n' "$*" >&2; }

# Each KEY=VALUE line of the settings file, unless the environment sets KEY already.
load_settings() {
  if [ ! -f "$SETTINGS" ]; then
    [ -n "${SECRET_KEY:-}" ] || say "no $SETTINGS and no SECRET_KEY: run 'setup' first"
    return 0
  fi
  while IFS= read -r line; do
    case $line in
      '#'* | '') continue ;;
    esac
    key=${line%%=*}
    case $key in
      *[!A-Za-z0-9_]* | '') continue ;;
    esac
    eval "given=\${$key+set}"
    # shellcheck disable=SC2154 # set by the eval above
    [ "$given" = set ] || export "$line"
  done <"$SETTINGS"
}

make_settings() {
  if [ -f "$SETTINGS" ]; then
    return 0
  fi
  umask 077
  {
    echo "# Made once by 'setup': the site's secret key and web push keys (README, \"Run it"
    echo "# from an image\"). Every backup carries a copy (yaniv-settings.env) for a new server."
    python -c 'import secrets; print("SECRET_KEY=" + secrets.token_urlsafe(50))'
    SECRET_KEY=unused python manage.py vapid_keys
  } >"$SETTINGS.partial"
  mv "$SETTINGS.partial" "$SETTINGS"
  say "setup: settings made in $SETTINGS (secret key, web push keys)"
}

first_director() {
  name=${DIRECTOR:-director}
  accounts=$(python manage.py shell --no-imports -c \
    "from django.contrib.auth.models import User; print(User.objects.exists())")
  if [ "$accounts" = True ]; then
    say "setup: the site has accounts: no first director made"
    return 0
  fi
  password=${DIRECTOR_PASSWORD:-$(python -c 'import secrets; print(secrets.token_urlsafe(15))')}
  DIRECTOR_PASSWORD=$password python manage.py createdirector "$name"
  (umask 077 && printf '%s\n%s\n' "$name" "$password" >"$STATE/first-director")
  say "setup: the first director: $name, password: $password (kept in $STATE/first-director)"
}

# The settings file that came with the backup replaces this site's keys, line by line.
take_settings() {
  from=$1
  if [ ! -f "$from" ]; then
    say "restore: WARNING: no $from beside the backup: this site keeps its own secret key and"
    say "  web push keys, so every login, import token and phone subscription of the old"
    say "  server ends (README, \"Recovery\")."
    return 0
  fi
  umask 077
  [ -f "$SETTINGS" ] && cp "$SETTINGS" "$SETTINGS.before-restore"
  /app/deploy/merge-settings "$from" "$SETTINGS"
  say "restore: the old server's secret key and web push keys are this site's now"
}

case ${1:-serve} in
  setup)
    make_settings
    load_settings
    python manage.py migrate --noinput
    python manage.py check --deploy --fail-level ERROR
    first_director
    ;;
  serve)
    load_settings
    # The gunicorn workers' metrics added up (yaniv_club/metrics.py), emptied at each start.
    PROMETHEUS_MULTIPROC_DIR=$(mktemp -d)
    export PROMETHEUS_MULTIPROC_DIR
    exec gunicorn -c gunicorn.conf.py --bind "${BIND:-0.0.0.0:${PORT:-8000}}" \
      --workers "${APP_WORKERS:-2}" --threads "${APP_THREADS:-4}"
    ;;
  worker)
    load_settings
    exec python manage.py tasks_worker ${TASKS_WORKER_ID:+--worker-id "$TASKS_WORKER_ID"}
    ;;
  backups)
    load_settings
    while :; do
      python manage.py backup || say "backups: this backup failed; the next in ${BACKUP_INTERVAL:-3600} s"
      sleep "${BACKUP_INTERVAL:-3600}"
    done
    ;;
  restore)
    [ $# -eq 2 ] || { say "usage: restore FILE (a backup: .dump or .sqlite3)"; exit 2; }
    load_settings
    python manage.py restore --replace "$2"
    take_settings "$(dirname "$2")/yaniv-settings.env"
    python manage.py migrate --noinput
    say "restore: done; start the site and the worker again (they read the settings at start)"
    ;;
  manage)
    shift
    load_settings
    exec python manage.py "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
