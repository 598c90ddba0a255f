"""Settings for Yaniv Club, all from environment variables.

The defaults give a development site on an embedded SQLite file; production
sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL (PostgreSQL).
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    # Only for development: never used once DEBUG is off.
    SECRET_KEY = "django-insecure-yaniv-club-development-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    # Django's form templates, found by the site's renderer (FORM_RENDERER) behind its own.
    "django.forms",
    "django_htmx",
    "template_partials",
    "axes",
    # django-ninja: only so that the API's docs page (Swagger UI) is served from its static
    # files instead of a CDN, which the Content-Security-Policy would refuse.
    "ninja",
    # Background tasks (Django 6's Tasks, backported) kept in the database: `tasks_worker`.
    "django_tasks",
    "django_tasks_db",
    # Prometheus metrics (yaniv_club/metrics.py): requests, errors, latency by view. Only its
    # middlewares: its database and cache wrappers are not used.
    "django_prometheus",
    # The apps by domain, each importing only those above it (docs/architecture.md).
    "tournaments",
    "hall",
    "seasons",
    "printing",
    "notifications",
    # The project's own commands (the demo).
    "yaniv_club",
]

MIDDLEWARE = [
    # First and (but for axes) last: the request's latency and answer as the client had them.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    # Outside everything that writes a page's body: the HTML as sent, gzipped but where its
    # URL holds a secret (BREACH: yaniv_club/middleware.py).
    "yaniv_club.middleware.PageCompressionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Where whitenoise's documentation puts it, right after SecurityMiddleware: a static file
    # gets nosniff but not the page policies below, which a browser reads on documents and
    # workers only (the service worker, /sw.js, is a view and has them). The same headers
    # as Caddy's static files (deploy/yaniv.caddy), and 3 KB less of a phone's cold load.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The Content-Security-Policy (SECURE_CSP below).
    "yaniv_club.csp.ContentSecurityPolicyMiddleware",
    # The Permissions-Policy (PERMISSIONS_POLICY below).
    "yaniv_club.middleware.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the switcher's cookie, else the browser's Accept-Language, else English.
    "django.middleware.locale.LocaleMiddleware",
    # The read API (/api/): CORS, HEAD and OPTIONS, every error as JSON with a code; inside
    # the language (its errors are translated), around everything else.
    "api.middleware.ReadApiMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "yaniv_club.middleware.DatabaseUnavailableMiddleware",
    "yaniv_club.middleware.WriteLogMiddleware",
    # Too many wrong table codes from one address: 429.
    "tournaments.middleware.TooManyGuessesMiddleware",
    # Outside axes' answer, so that a locked-out login is counted as the client had it.
    "django_prometheus.middleware.PrometheusAfterMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its own answer.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy: our own scripts, styles, images and connections only; no inline
# script or style (htmx's indicator styles are in site.css; the chart and the QR codes are
# SVG styled by attributes), no plugins, no framing, forms post to this site only.
# <script type="application/json"> (json_script) is data, not a script: it needs nothing.
# The browser features the pages may use: none of the sensors, the camera, the microphone,
# position or payment (nothing here needs them); full screen and keeping the screen awake for
# the hall's screens, from this site only. Push notifications are no feature of this header.
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), "
    "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), "
    "publickey-credentials-get=(), usb=(), xr-spatial-tracking=(), fullscreen=(self), "
    "screen-wake-lock=(self)"
)
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, a wrong password ending the login there (tournaments.backends).
    "tournaments.backends.Accounts",
    # Only for the sessions it signed in before Accounts came (a session names its backend;
    # CHANGELOG): Accounts ends every login, this one is never asked to check a password.
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: five wrong passwords for one username from one address lock that
# pair out for 15 minutes. Not the address alone: a whole hall shares one Wi-Fi address.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The address is the client's, not the proxy's: behind TRUSTED_PROXY_COUNT proxies, the one
# they forwarded for (the same rule as the table codes' guess limit). Without it, every client
# behind the proxy shares its address, and anyone could lock any known username.
AXES_CLIENT_IP_CALLABLE = "tournaments.addresses.client_address"

ROOT_URLCONF = "yaniv_club.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournaments.context_processors.manage_link",
            ],
        },
    },
]

WSGI_APPLICATION = "yaniv_club.wsgi.application"

# The embedded default is a SQLite file in the project folder; production
# points DATABASE_URL at PostgreSQL (postgres://user@host:5432/name).
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several gunicorn workers share the file at a venue: a write takes the lock when it
    # begins (a reader turning writer cannot deadlock), readers never wait for the writer
    # (WAL), and a write waits up to 20 s for another one instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A cache every process shares when there is more than one (gunicorn workers, app servers):
# CACHE_URL=redis://127.0.0.1:6379/0, Django's own Redis backend. Without it, each process
# keeps its own in memory. Sessions are read from it first and kept in the database.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES: dict[str, dict[str, Any]]
if CACHE_URL:
    CACHES = {
        "default": {
            # Django's RedisCache whose errors are misses: Redis down never fails a page
            # or a save (yaniv_club/cache.py). A stopped or unreachable Redis is given up on
            # within half a second, not the operating system's connect timeout.
            "BACKEND": "yaniv_club.cache.FailSafeRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "yaniv",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

FIXTURE_DIRS = [BASE_DIR / "fixtures"]

# Background work (ratings, the report, notifications) runs as tasks kept in the database:
# durable (a worker's death loses nothing) and run by `manage.py tasks_worker` (README:
# "Notifications and background tasks").
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# /health/ says the tasks are late when the oldest task due waited this long (no worker?).
TASKS_LATE_SECONDS = int(os.environ.get("TASKS_LATE_SECONDS", "120"))

# Web push (notifications/): the site's VAPID key pair, made by `manage.py vapid_keys`; without
# it the site offers no notifications. VAPID_SUBJECT: how a push service reaches the site's
# operator (mailto: or https:).
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:webmaster@localhost")
# A subscription ends by itself this many days after the tournament's last day.
NOTIFICATIONS_DAYS_AFTER = int(os.environ.get("NOTIFICATIONS_DAYS_AFTER", "3"))
# Bounds: messages one phone gets, and one tournament sends, in any hour (beyond: dropped).
NOTIFICATIONS_PER_PHONE = int(os.environ.get("NOTIFICATIONS_PER_PHONE", "30"))
NOTIFICATIONS_PER_TOURNAMENT = int(os.environ.get("NOTIFICATIONS_PER_TOURNAMENT", "5000"))
# Seconds a push service has for one message, all of it (connect, send, the whole answer);
# a message claimed by a task that went silent for
# this long is another task's to send.
NOTIFICATIONS_TIMEOUT = int(os.environ.get("NOTIFICATIONS_TIMEOUT", "10"))
NOTIFICATIONS_CLAIM_SECONDS = int(os.environ.get("NOTIFICATIONS_CLAIM_SECONDS", "120"))
# Seconds one task sends for before the rest of its event's messages go to a task behind
# the others (a report queued meanwhile waits this long, plus one message's deadline, at most).
NOTIFICATIONS_TASK_SECONDS = int(os.environ.get("NOTIFICATIONS_TASK_SECONDS", "20"))
# Messages a worker posts at once (to push services answering in tens of milliseconds).
NOTIFICATIONS_CONCURRENCY = int(os.environ.get("NOTIFICATIONS_CONCURRENCY", "8"))
# Push services are reached over https only, at public addresses (notifications/endpoints.py).
# NOTIFICATIONS_LOCAL_SERVICES: host:port pairs allowed on a private address (the tests' push
# service on loopback), and with NOTIFICATIONS_ALLOW_HTTP over http: never in production.
NOTIFICATIONS_ALLOW_HTTP = env_bool("NOTIFICATIONS_ALLOW_HTTP", False)
NOTIFICATIONS_LOCAL_SERVICES = [
    name for name in os.environ.get("NOTIFICATIONS_LOCAL_SERVICES", "").split(",") if name
]
# An optional allow-list of push service hosts (".mozilla.com": a domain and its subdomains);
# empty: any host whose every address is public.
NOTIFICATIONS_PUSH_HOSTS = [
    name for name in os.environ.get("NOTIFICATIONS_PUSH_HOSTS", "").split(",") if name
]
# A subscription whose messages were given up this many times in a row is removed.
NOTIFICATIONS_FAILURES = int(os.environ.get("NOTIFICATIONS_FAILURES", "3"))
# Subscriptions one phone (its endpoint) may hold at once, and one address (an IPv6 /64) may
# make in an hour.
NOTIFICATIONS_SUBSCRIPTIONS_PER_PHONE = int(
    os.environ.get("NOTIFICATIONS_SUBSCRIPTIONS_PER_PHONE", "20")
)
NOTIFICATIONS_SUBSCRIPTIONS_PER_ADDRESS = int(
    os.environ.get("NOTIFICATIONS_SUBSCRIPTIONS_PER_ADDRESS", "60")
)
# `manage.py backup` writes here (the deploy: /var/backups/yaniv-club) and keeps the newest
# BACKUP_KEEP (the deploy's hourly timer keeps 48: two days; deploy/env.template).
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", BASE_DIR / "backups"))
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "14"))

_VALIDATORS = "django.contrib.auth.password_validation"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"{_VALIDATORS}.UserAttributeSimilarityValidator"},
    {"NAME": f"{_VALIDATORS}.MinimumLengthValidator"},
    {"NAME": f"{_VALIDATORS}.CommonPasswordValidator"},
    {"NAME": f"{_VALIDATORS}.NumericPasswordValidator"},
]

LOGIN_URL = "login"
# Behind this many reverse proxies the client's address is the one they forwarded for
# (X-Forwarded-For, the n-th from the right); 0: the connection's own address (no proxy).
# 0 unless configured, in production too: trusting the header where gunicorn is reached
# directly let any client choose its address and escape every limit (issue 22). The
# deployment behind one TLS proxy sets 1.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
# Table codes and screen links: wrong ones an address (CODE_GUESSES) and the whole site
# (CODE_GUESSES_ALL) may try within a window (seconds) before further wrong ones get a 429; a
# right one always opens.
CODE_GUESSES = 20
CODE_GUESSES_ALL = 500
CODE_GUESS_WINDOW = 15 * 60
# The public API (/api/v1/): requests one client address may make per window (seconds)
# before a 429 with Retry-After. A read API answers cheaply (304s from one small query), and
# one address may be a whole venue's wifi or a test run: 3,000 a minute stops a runaway
# client, not a reader.
API_REQUESTS = int(os.environ.get("API_REQUESTS", "3000"))
API_WINDOW = int(os.environ.get("API_WINDOW", "60"))
# PDF, CSV and JSON downloads one client address may make per minute before a 429 with
# Retry-After (the render bound, EXPENSIVE_RENDERS, holds the whole site's renders).
DOWNLOADS_PER_MINUTE = int(os.environ.get("DOWNLOADS_PER_MINUTE", "30"))

# Email, for the password reset: EMAIL_URL=smtp://user:password@host:587 (STARTTLS on 587,
# or ?tls=1), smtps://user:password@host:465 (TLS from the start), console:// (mails printed to
# the log: a test site). Without it the site sends no email, and the password-reset pages are
# 404 (the login page offers none): a director resets a referee's password on the people page.
EMAIL_URL = os.environ.get("EMAIL_URL", "")


def email_settings(url: str) -> dict[str, object]:
    """Django's EMAIL_* settings from `EMAIL_URL`; user and password are percent-decoded."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    if parts.scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme not in {"smtp", "smtps"} or not parts.hostname:
        raise ImproperlyConfigured(
            "EMAIL_URL must be smtp://user:password@host:port, smtps://… or console://"
        )
    ssl = parts.scheme == "smtps"
    port = parts.port or (465 if ssl else 587)
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_SSL": ssl,
        "EMAIL_USE_TLS": not ssl
        and (port == 587 or query.get("tls", ["0"])[0].lower() in {"1", "true", "yes"}),
        "EMAIL_TIMEOUT": 10,
    }


if EMAIL_URL:
    globals().update(email_settings(EMAIL_URL))
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_URL)
# The sender of the site's emails.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# A referee comes to keep the score: their tables first (directors see theirs there too).
LOGIN_REDIRECT_URL = "tables:mine"
LOGOUT_REDIRECT_URL = "public:home"

# The site speaks English, Dutch and French: the browser's language picks one, the switcher
# in the header another (a cookie). URLs carry no language: they are printed on QR codes.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as the site writes them in each language ("21 November 2026", "21 november 2026").
FORMAT_MODULE_PATH = ["yaniv_club.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Brussels")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the files: the project's folder, or one of a test's or benchmark's
# own (two servers collecting into one folder at once trip over each other's files).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # whitenoise's (hashed, .br and .gz beside each file), our scripts and styles
            # minified first (yaniv_club/storage.py).
            else "yaniv_club.storage.MinifiedStaticFilesStorage"
        )
    },
}

# LOG_FORMAT=json writes one JSON object a line (for a log collector); plain is for people.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "yaniv_club.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": os.environ.get("LOG_FORMAT", "plain" if DEBUG else "json"),
        }
    },
    "filters": {"answered_unavailable": {"()": "yaniv_club.logs.AnsweredUnavailable"}},
    "loggers": {"django.request": {"filters": ["answered_unavailable"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Forms render with the site's templates first: templates/django/forms/errors/list/ul.html
# announces a field's errors (role="alert"; Django sets aria-invalid on the field).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"
