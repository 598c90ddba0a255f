"""Build the Yaniv Club image and smoke-test it, with the tools of a machine that has no
Docker daemon (issue 35): buildah (vfs storage, chroot isolation) builds and runs it, and
`docker compose config` (or Debian's `docker-compose`) validates compose.yaml.

    .venv/bin/python scripts/image_check.py [--postgres postgres://postgres@127.0.0.1:5432/postgres]

0. buildah's storage: overlay in a root of its own (/var/lib/containers/yaniv-image-check,
   kept between runs) where this machine mounts it, else vfs (every layer a whole copy).
1. The base: a Debian bookworm root (debootstrap: python3, python3-venv, ca-certificates and
   this machine's CA files, for pip behind its intercepting proxy) imported as
   localhost/yaniv-club-base:bookworm-N once, then reused from buildah's storage. Only this
   build uses it (the Containerfile's default base is python:3.11-slim-bookworm).
2. The image, `buildah bud --layers`: the dependencies' layer is reused while pyproject.toml's
   list of them is unchanged; older images are pruned.
3. compose.yaml validated.
4. Server A on a database of its own (the image's commands, host network, gunicorn on
   loopback): `setup` (settings made, migrations, check --deploy, the first director),
   check --deploy at WARNING, the demo loaded; `serve` answers /health/ 200; the first
   director signs in; a referee records a round through the sync endpoint (tables:sync):
   stored, and in the database; `manage backup`.
5. The recovery drill, server B: a fresh database and state; `setup` (its own secret key and
   first director); `restore FILE` (the backup and yaniv-settings.env beside it); `serve`:
   the round is there, the referee's session from server A still signed in (the same secret
   key), the same web push key, the fresh director gone.

Each step is timed; the image's size is printed. Without buildah, podman or debootstrap (or
not as root) it says so and skips, exit 0; under CI=true that fails (exit 1).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
# overlay where the kernel lets this machine mount it (root, no copy of every layer), else vfs
# (a whole copy of the image at every step: minutes more); IMAGE_CHECK_STORAGE chooses.
STORAGE_ROOT = "/var/lib/containers/yaniv-image-check"
OVERLAY = ["--root", STORAGE_ROOT, "--runroot", "/run/yaniv-image-check", "--storage-driver"]
BUILDAH = ["buildah", *OVERLAY, "overlay"]
# Bump the number when the recipe below changes: the old base is then made again.
BASE = "localhost/yaniv-club-base:bookworm-1"
BASE_PACKAGES = "python3,python3-venv,ca-certificates"
IMAGE = "localhost/yaniv-club:check"
HOST = "yaniv.example.test"
UID = 10001  # the image's user (Containerfile)
CHECK = Path("/tmp/yaniv-image-check")
TIMES: dict[str, float] = {}


class CheckFailed(Exception):
    pass


def say(message: str) -> None:
    print(f"image-check: {message}", flush=True)


@contextlib.contextmanager
def step(name: str) -> Iterator[None]:
    say(f"== {name}")
    started = time.monotonic()
    yield
    TIMES[name] = time.monotonic() - started
    say(f"-- {name}: {TIMES[name]:.1f} s")


def run(command: list[str], **options: object) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **options)  # type: ignore[call-overload]
    if done.returncode != 0:
        shown = " ".join(command[:3] + ["…"] + command[-4:])
        raise CheckFailed(f"{shown} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done.stdout


def missing_tool() -> str | None:
    for tool in ("buildah", "podman", "debootstrap"):
        if shutil.which(tool) is None:
            return f"{tool} is missing (apt-get install buildah podman debootstrap)"
    if os.geteuid() != 0:
        return "buildah's chroot isolation and debootstrap need root"
    return None


def choose_storage() -> str:
    """overlay when it mounts here (kept in STORAGE_ROOT between runs), else vfs."""
    global BUILDAH
    wanted = os.environ.get("IMAGE_CHECK_STORAGE", "")
    if wanted != "vfs":
        probe = subprocess.run(
            [*BUILDAH, "from", "--name", "yaniv-image-check-probe", "scratch"],
            capture_output=True,
            check=False,
        )
        mounted = (
            probe.returncode == 0
            and subprocess.run(
                [*BUILDAH, "mount", "yaniv-image-check-probe"], capture_output=True, check=False
            ).returncode
            == 0
        )
        subprocess.run(
            [*BUILDAH, "rm", "yaniv-image-check-probe"], capture_output=True, check=False
        )
        if mounted or wanted == "overlay":
            return "overlay"
    BUILDAH = ["buildah", "--storage-driver", "vfs"]
    return "vfs"


def image_exists(name: str) -> bool:
    return (
        subprocess.run(
            [*BUILDAH, "inspect", "--type", "image", name], capture_output=True
        ).returncode
        == 0
    )


def make_base() -> None:
    """The Debian root the smoke build starts from, made once per machine."""
    if image_exists(BASE):
        say(f"{BASE}: kept from an earlier run")
        return
    with tempfile.TemporaryDirectory(prefix="yaniv-base-") as folder:
        root = Path(folder) / "root"
        run(
            [
                "debootstrap",
                "--variant=minbase",
                f"--include={BASE_PACKAGES}",
                "bookworm",
                str(root),
                "http://deb.debian.org/debian",
            ]
        )
        for ca in Path("/usr/local/share/ca-certificates").glob("*.crt"):
            shutil.copy(ca, root / "usr/local/share/ca-certificates" / ca.name)
        run(["chroot", str(root), "update-ca-certificates"])
        run(["chroot", str(root), "apt-get", "clean"])
        shutil.rmtree(root / "var/lib/apt/lists", ignore_errors=True)
        tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
        run(
            [
                "podman",
                *BUILDAH[1:],
                "import",
                "--change",
                "ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt",
                "-",
                BASE,
            ],
            stdin=tar.stdout,
        )
        tar.wait()


def build() -> None:
    log = CHECK / "build.log"
    say(f"buildah's output: {log}")
    command = [*BUILDAH, "bud", "--isolation", "chroot", "--network", "host", "--layers"]
    command += ["--build-arg", f"BASE={BASE}", "-f", "Containerfile", "-t", IMAGE, "."]
    with log.open("w") as out:
        done = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        raise CheckFailed(f"the build failed: {log}")
    # The images of earlier builds, now without a name: every layer is a whole copy (vfs).
    subprocess.run([*BUILDAH, "rmi", "--prune"], capture_output=True, check=False)


def image_size() -> str:
    return run([*BUILDAH, "images", "--format", "{{.Size}}", IMAGE]).strip()


def validate_compose() -> str:
    if (
        shutil.which("docker")
        and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    ):
        command = ["docker", "compose"]
    elif shutil.which("docker-compose"):
        command = ["docker-compose"]
    else:
        raise CheckFailed("neither `docker compose` nor `docker-compose` validates compose.yaml")
    run([*command, "-f", "compose.yaml", "config", "--quiet"], cwd=ROOT)
    return " ".join(command)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Phone:
    """A browser's requests to one app server, as Caddy forwards them (Host, the scheme, the
    client's address); cookies kept by name (the site's are Secure: sent here as Caddy would)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        import http.client

        headers = {"Host": HOST, "X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"}
        if self.cookies:
            headers["Cookie"] = "; ".join(
                f"{name}={value}" for name, value in self.cookies.items()
            )
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"https://{HOST}",
                "Referer": f"https://{HOST}{path}",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
            }
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            for cookie in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, response.read().decode()
        finally:
            connection.close()

    def sign_in(self, username: str, password: str) -> bool:
        _, page = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if token is None:
            raise CheckFailed("the login page has no CSRF token")
        form = {"username": username, "password": password, "csrfmiddlewaretoken": token[1]}
        status, _ = self.request("POST", "/accounts/login/", form)
        return status == 302 and "sessionid" in self.cookies


@dataclass
class Server:
    """One server of the drill: the image's commands in the working container, on a database
    and a state folder of its own; gunicorn on a loopback port."""

    name: str
    container: str
    database_url: str
    state: Path
    backups: Path
    port: int = field(default_factory=free_port)
    serving: subprocess.Popen | None = None

    def command(self, *args: str) -> list[str]:
        environment = {
            "DATABASE_URL": self.database_url,
            "ALLOWED_HOSTS": HOST,
            "CSRF_TRUSTED_ORIGINS": f"https://{HOST}",
            "TRUSTED_PROXY_COUNT": "1",
            "DIRECTOR": "hilde",
            "BIND": f"127.0.0.1:{self.port}",
            "APP_WORKERS": "2",
            "APP_THREADS": "2",
        }
        return [
            *BUILDAH,
            "run",
            "--isolation",
            "chroot",
            "--network",
            "host",
            "-v",
            f"{self.state}:/var/lib/yaniv-club",
            "-v",
            f"{self.backups}:/var/backups/yaniv-club",
            *[part for key, value in environment.items() for part in ("--env", f"{key}={value}")],
            self.container,
            "--",
            "/app/deploy/container/entrypoint.sh",
            *args,
        ]

    def run(self, *args: str) -> str:
        return run(self.command(*args))

    def shell(self, code: str) -> str:
        return self.run("manage", "shell", "--no-imports", "-c", code).strip().splitlines()[-1]

    def setting(self, name: str) -> str:
        for line in (self.state / "settings.env").read_text().splitlines():
            if line.startswith(f"{name}="):
                return line.split("=", 1)[1]
        raise CheckFailed(f"{self.name}: no {name} in its settings")

    def first_director(self) -> tuple[str, str]:
        name, password = (self.state / "first-director").read_text().split()
        return name, password

    def serve(self) -> float:
        """gunicorn started; the seconds until /health/ answers 200."""
        log = (self.state.parent / f"{self.name}-serve.log").open("ab")
        started = time.monotonic()
        self.serving = subprocess.Popen(
            self.command("serve"), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        while time.monotonic() - started < 120:
            with contextlib.suppress(OSError):
                if Phone(self.port).request("GET", "/health/")[0] == 200:
                    return time.monotonic() - started
            if self.serving.poll() is not None:
                break
            time.sleep(0.1)
        raise CheckFailed(f"{self.name}: /health/ never answered 200 (see {log.name})")

    def stop(self) -> None:
        if self.serving is not None and self.serving.poll() is None:
            os.killpg(self.serving.pid, signal.SIGTERM)
            try:
                self.serving.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.serving.pid, signal.SIGKILL)
                self.serving.wait(10)
        self.serving = None


REFEREE_TABLE = """
import json
from tournaments.models import Table
tables = Table.objects.filter(referee__username="referee1", game__finished=False)
table = tables.order_by("pk").first()
game = table.game
print(json.dumps({"table": table.pk, "number": game.round_count + 1, "seats": table.seats.count(),
                  "version": game.version}))
"""
STORED = """
from tournaments.models import GameChange, Round
print(GameChange.objects.filter(client_id="{client}").count(),
      Round.objects.filter(game__table_id={table}, number={number}).count())
"""


def record_a_round(server: Server, referee: Phone) -> dict:
    """The referee's phone sends a round through the sync endpoint; it is stored, once."""
    table = json.loads(server.shell(REFEREE_TABLE))
    client = str(uuid.uuid4())
    hands = {
        f"hand_{seat}": hand for seat, hand in enumerate([3, 12, 15, 20, 9][: table["seats"]], 1)
    }
    change = {
        "action": "record",
        "client_id": client,
        "number": table["number"],
        "ending": "yaniv:1",
        "version": table["version"],
        **hands,
    }
    status, answer = referee.request("POST", f"/tables/{table['table']}/sync/", change)
    if status != 200 or json.loads(answer)["status"] != "stored":
        raise CheckFailed(f"the round was not stored: {status} {answer[:300]}")
    table["client"] = client
    if server.shell(STORED.format(**table)).split() != ["1", "1"]:
        raise CheckFailed("the round the sync endpoint stored is not in the database")
    return table


def smoke(server: Server) -> tuple[Phone, dict]:
    """Server A: setup, the checks, a director and a referee at work, a backup."""
    with step("A: setup (settings, migrate, check --deploy, first director)"):
        server.run("setup")
    server.run("manage", "check", "--deploy", "--fail-level", "WARNING")
    with step("A: the demo loaded"):
        server.run("manage", "load_demo", "--force")
    with step("A: serve until /health/ 200"):
        TIMES["start (serve to /health/ 200)"] = server.serve()
    director = Phone(server.port)
    if (
        not director.sign_in(*server.first_director())
        or director.request("GET", "/manage/")[0] != 200
    ):
        raise CheckFailed("the first director cannot sign in and reach /manage/")
    referee = Phone(server.port)
    if not referee.sign_in("referee1", "referee-demo"):
        raise CheckFailed("the demo's referee cannot sign in")
    table = record_a_round(server, referee)
    say(f"A: round {table['number']} of table {table['table']} stored through tables:sync")
    with step("A: backup"):
        server.run("manage", "backup")
    server.stop()
    return referee, table


def recover(old: Server, new: Server, referee: Phone, table: dict) -> None:
    """Server B: freshly set up, then the backup alone (and the settings beside it) restored."""
    with step("B: setup of a fresh server"):
        new.run("setup")
    if new.setting("SECRET_KEY") == old.setting("SECRET_KEY"):
        raise CheckFailed("a fresh server made the old one's secret key")
    fresh_director = new.first_director()
    backup = max(old.backups.glob("yaniv-*.dump"))
    with step("B: restore (the backup and its settings, migrate)"):
        new.run("restore", f"/var/backups/yaniv-club/{backup.name}")
    with step("B: serve until /health/ 200"):
        new.serve()
    for name in ("SECRET_KEY", "VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"):
        if new.setting(name) != old.setting(name):
            raise CheckFailed(f"the restored server's {name} is not the old one's")
    if new.shell(STORED.format(**table)).split() != ["1", "1"]:
        raise CheckFailed("the round recorded on server A is not on server B")
    referee.port = new.port
    if referee.request("GET", f"/tables/{table['table']}/")[0] != 200:
        raise CheckFailed("the referee's session of server A is not signed in on server B")
    if Phone(new.port).sign_in(*fresh_director) or not Phone(new.port).sign_in(
        *old.first_director()
    ):
        raise CheckFailed("server B's accounts are not the backup's")
    new.stop()


@contextlib.contextmanager
def databases(admin_url: str) -> Iterator[tuple[str, str]]:
    """Two empty databases on the PostgreSQL server of `admin_url`, dropped afterwards."""
    import psycopg

    names = ("yaniv_image_check_a", "yaniv_image_check_b")
    server = admin_url.rsplit("/", 1)[0]

    def recreate(create: bool) -> None:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                if create:
                    admin.execute(f'CREATE DATABASE "{name}"')

    recreate(True)
    try:
        yield f"{server}/{names[0]}", f"{server}/{names[1]}"
    finally:
        recreate(False)


@contextlib.contextmanager
def servers(admin_url: str) -> Iterator[tuple[Server, Server]]:
    """Servers A and B in one working container of the image (its files are the image's)."""
    folders = [CHECK / name for name in ("a-state", "b-state", "backups")]
    for folder in folders:
        folder.mkdir(parents=True)
        os.chown(folder, UID, UID)
    container = run([*BUILDAH, "from", "--pull-never", IMAGE]).strip()
    made: list[Server] = []
    try:
        with databases(admin_url) as (first, second):
            made += [
                Server("A", container, first, folders[0], folders[2]),
                Server("B", container, second, folders[1], folders[2]),
            ]
            yield made[0], made[1]
            for server in made:
                server.stop()
    finally:
        for server in made:
            server.stop()
        subprocess.run([*BUILDAH, "rm", container], capture_output=True, check=False)


def report(size: str, validator: str) -> None:
    import resource

    say(f"image {IMAGE}: {size}; compose.yaml valid ({validator} config)")
    for name, seconds in TIMES.items():
        say(f"  {seconds:7.1f} s  {name}")
    used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    user, system = sum(u.ru_utime for u in used), sum(u.ru_stime for u in used)
    say(f"passed in {TIMES['all']:.0f} s (CPU {user:.0f} s user, {system:.0f} s system)")


def stop_on_terminate(signum: int, frame: object) -> None:
    # A CI run stopped: the servers, the container and the databases go (the `finally`s).
    raise SystemExit(f"stopped by signal {signum}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get(
            "IMAGE_CHECK_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"
        ),
        help="a PostgreSQL server's maintenance database (15, as the image's pg_dump)",
    )
    parser.add_argument(
        "--no-build", action="store_true", help=f"test {IMAGE} as it is (built before)"
    )
    parser.add_argument(
        "--keep", action="store_true", help=f"keep {CHECK} (logs, state) after a pass too"
    )
    options = parser.parse_args()
    problem = missing_tool()
    if problem is not None:
        if os.environ.get("CI"):
            say(f"FAILED: CI builds and tests the image, but {problem}")
            return 1
        say(f"SKIPPED, the image was not built: {problem}")
        return 0
    started = time.monotonic()
    signal.signal(signal.SIGTERM, stop_on_terminate)
    shutil.rmtree(CHECK, ignore_errors=True)
    CHECK.mkdir(parents=True)
    say(f"buildah's storage: {choose_storage()} ({' '.join(BUILDAH[1:])})")
    try:
        if not options.no_build:
            with step("base image"):
                make_base()
            with step("image build"):
                build()
        with step("compose.yaml validated"):
            validator = validate_compose()
        with servers(options.postgres) as (first, second):
            referee, table = smoke(first)
            with step("the recovery drill (B: setup, restore, serve)"):
                recover(first, second, referee, table)
    except CheckFailed as error:
        say(f"FAILED: {error}")
        say(f"the build's and servers' logs: {CHECK}")
        return 1
    TIMES["all"] = time.monotonic() - started
    report(image_size(), validator)
    if not options.keep:
        shutil.rmtree(CHECK, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
