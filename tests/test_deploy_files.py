"""The deploy's files (issue 35): the operator's Caddy additions survive every install and
upgrade, a backup's settings take a new server's place line by line, and compose.yaml and the
Caddyfiles are what Caddy and Compose accept. The scripts' functions run here in a folder of
their own (deploy/lib.sh's YANIV_* variables); the whole install is the nspawn drill's
(scripts/image_check.py runs the image's)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


@pytest.fixture
def server(tmp_path: Path) -> dict[str, str]:
    """A server's folders under tmp_path, and a `caddy` that accepts any configuration (the
    real one is asked below, with the paths made this test's)."""
    for folder in ("etc-caddy", "etc-yaniv", "state", "bin"):
        (tmp_path / folder).mkdir()
    (tmp_path / "etc-yaniv" / "caddy.env").write_text("YANIV_DOMAIN=yaniv.example.be\n")
    fake = tmp_path / "bin" / "caddy"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
        "YANIV_APP": str(ROOT),
        "YANIV_CONF": str(tmp_path / "etc-yaniv"),
        "YANIV_CADDY_DIR": str(tmp_path / "etc-caddy"),
        "YANIV_STATE_DIR": str(tmp_path / "state"),
    }


def install_caddy_config(environment: dict[str, str], **extra: str) -> subprocess.CompletedProcess:
    """deploy/lib.sh's install_caddy_config, as install.sh and upgrade.sh run it."""
    return subprocess.run(
        ["bash", "-c", f"set -euo pipefail; . {DEPLOY / 'lib.sh'}; install_caddy_config"],
        env={**environment, **extra},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_operators_caddy_additions_survive_every_install_and_upgrade(server):
    caddy = Path(server["YANIV_CADDY_DIR"])
    first = install_caddy_config(server, ACME_EMAIL="hilde@example.be")
    assert first.returncode == 0, first.stderr
    local = caddy / "yaniv-club.local"
    assert "\temail hilde@example.be\n" in local.read_text()
    assert (caddy / "Caddyfile").read_bytes() == (DEPLOY / "Caddyfile").read_bytes()

    # The venue box: the operator's own certificate, in their file.
    edited = local.read_text().replace(
        "\t#tls /etc/caddy/certs/fullchain.pem", "\ttls /etc/caddy/certs/fullchain.pem"
    )
    local.write_text(edited)
    for _ in range(2):  # an upgrade, and install.sh run again
        again = install_caddy_config(server, ACME_EMAIL="someone-else@example.be")
        assert again.returncode == 0, again.stderr
        assert "WARNING" not in again.stderr
    assert local.read_text() == edited
    assert sorted(path.name for path in caddy.iterdir()) == ["Caddyfile", "yaniv-club.local"]


def test_a_caddyfile_someone_edited_is_kept_beside_and_the_operator_told_where_edits_go(server):
    caddy = Path(server["YANIV_CADDY_DIR"])
    assert install_caddy_config(server).returncode == 0
    theirs = (
        (caddy / "Caddyfile")
        .read_text()
        .replace(
            "\timport yaniv\n",
            "\ttls /etc/letsencrypt/live/hall/fullchain.pem key.pem\n\timport yaniv\n",
        )
    )
    (caddy / "Caddyfile").write_text(theirs)

    upgrade = install_caddy_config(server)
    assert upgrade.returncode == 0
    (kept,) = caddy.glob("Caddyfile.edited-*")
    assert kept.read_text() == theirs
    assert f"kept as {kept}" in upgrade.stderr and "yaniv-club.local" in upgrade.stderr
    assert (caddy / "Caddyfile").read_bytes() == (DEPLOY / "Caddyfile").read_bytes()


def test_a_caddyfile_of_an_earlier_release_is_replaced_without_a_word(server, tmp_path):
    """A server installed before the scripts kept a record: its Caddyfile is a release's own
    (git knows it), not an edit."""
    if not (ROOT / ".git").exists():
        pytest.skip("no git history here (a tarball): the release's files cannot be told")
    old = subprocess.run(
        ["git", "show", "0f341a2:deploy/Caddyfile"], cwd=ROOT, capture_output=True, check=False
    )
    if old.returncode != 0:
        pytest.skip("a shallow clone: release 0f341a2's Caddyfile is not in its history")
    caddy = Path(server["YANIV_CADDY_DIR"])
    (caddy / "Caddyfile").write_bytes(old.stdout)
    upgrade = install_caddy_config(server)
    assert upgrade.returncode == 0 and "WARNING" not in upgrade.stderr
    assert not list(caddy.glob("Caddyfile.edited-*"))


def test_merge_settings_puts_the_backups_keys_in_place_and_keeps_the_rest(tmp_path):
    into = tmp_path / "env"
    into.write_text(
        "# the server's settings\nDEBUG=0\nSECRET_KEY=new-servers\nALLOWED_HOSTS=a.be\n"
        "VAPID_PRIVATE_KEY=new-private\n"
    )
    into.chmod(0o640)
    carried = tmp_path / "yaniv-settings.env"
    carried.write_text(
        "# SECRET: whoever reads this file…\nSECRET_KEY=old-servers\n"
        "VAPID_PRIVATE_KEY=old-private\nVAPID_PUBLIC_KEY=old-public\n"
    )
    done = subprocess.run([DEPLOY / "merge-settings", carried, into], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert into.read_text().splitlines() == [
        "# the server's settings",
        "DEBUG=0",
        "SECRET_KEY=old-servers",
        "ALLOWED_HOSTS=a.be",
        "VAPID_PRIVATE_KEY=old-private",
        "VAPID_PUBLIC_KEY=old-public",
    ]
    assert into.stat().st_mode & 0o777 == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["env", "yaniv-settings.env"]


def caddy_validates(caddyfile: Path, **environment: str) -> str:
    assert shutil.which("caddy"), "apt-get install caddy (.ci/run does)"
    done = subprocess.run(
        ["caddy", "adapt", "--config", str(caddyfile), "--adapter", "caddyfile"],
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow  # Caddy
def test_a_servers_caddyfile_takes_the_operators_email_and_certificate(tmp_path):
    local = tmp_path / "yaniv-club.local"
    caddyfile = tmp_path / "Caddyfile"
    caddyfile.write_text(
        (DEPLOY / "Caddyfile")
        .read_text()
        .replace("/srv/yaniv-club/app/deploy/yaniv.caddy", str(DEPLOY / "yaniv.caddy"))
        .replace("/etc/caddy/yaniv-club.local", str(local))
    )
    site = {
        "YANIV_DOMAIN": "yaniv.example.be",
        "YANIV_HOST": "yaniv.example.be",
        "YANIV_STATIC": str(tmp_path),
        "YANIV_UPSTREAMS": "127.0.0.1:8001 127.0.0.1:8002",
    }
    template = (DEPLOY / "caddy.local").read_text()
    # Untouched, the operator's file adds nothing: an automatic certificate, no email.
    local.write_text(template)
    plain = caddy_validates(caddyfile, **site)
    assert '"email"' not in plain and '"module":"internal"' not in plain
    assert '"subjects":["yaniv.example.be"]' not in plain
    local.write_text(template.replace("\t#email you@example.be", "\temail hilde@example.be"))
    assert '"email":"hilde@example.be"' in caddy_validates(caddyfile, **site)
    own = "\t#tls /etc/caddy/certs/fullchain.pem /etc/caddy/certs/privkey.pem"
    assert own in template
    local.write_text(template.replace(own, "\ttls internal"))
    assert '"module":"internal"' in caddy_validates(caddyfile, **site)


@pytest.mark.slow  # Caddy
def test_composes_caddyfile_proxies_everything_and_takes_the_operators_options(tmp_path):
    caddyfile = tmp_path / "Caddyfile"
    caddyfile.write_text(
        (DEPLOY / "compose" / "Caddyfile")
        .read_text()
        .replace("/etc/caddy/yaniv.caddy", str(DEPLOY / "yaniv.caddy"))
    )
    site = {"YANIV_DOMAIN": "yaniv.example.be", "YANIV_HOST": "yaniv.example.be"}
    site["YANIV_UPSTREAMS"] = "127.0.0.1:8000"
    plain = caddy_validates(caddyfile, **site)
    # No static files from disk here: the site serves them (a new image's, without a volume).
    assert '"file_server"' not in plain and '"reverse_proxy"' in plain
    chosen = caddy_validates(
        caddyfile,
        **site,
        CADDY_OPTIONS="email hilde@example.be",
        CADDY_SITE_OPTIONS="tls internal",
    )
    assert '"module":"internal"' in chosen


def compose_command() -> list[str]:
    if shutil.which("docker"):
        version = subprocess.run(["docker", "compose", "version"], capture_output=True)
        if version.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    message = "neither `docker compose` nor `docker-compose`: apt-get install docker-compose"
    if os.environ.get("CI"):
        pytest.fail(f"CI validates compose.yaml, but {message}")
    pytest.skip(message)


@pytest.mark.slow  # docker compose
def test_compose_yaml_is_valid_and_runs_one_image_for_every_part_of_the_site():
    import yaml

    done = subprocess.run(
        [*compose_command(), "-f", "compose.yaml", "config"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={key: value for key, value in os.environ.items() if not key.startswith("YANIV_")},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    services = yaml.safe_load(done.stdout)["services"]
    assert set(services) == {"setup", "site", "worker", "backups", "db", "redis", "caddy"}
    ours = {name: services[name] for name in ("setup", "site", "worker", "backups")}
    assert {service["image"] for service in ours.values()} == {"yaniv-club:local"}
    assert {name: service["command"] for name, service in ours.items()} == {
        "setup": ["setup"],
        "site": ["serve"],
        "worker": ["worker"],
        "backups": ["backups"],
    }
    for name in ("site", "worker", "backups"):
        assert services[name]["depends_on"]["setup"]["condition"] == (
            "service_completed_successfully"
        )
    assert services["site"]["environment"]["ALLOWED_HOSTS"] == "localhost"
    assert "/health/" in " ".join(services["site"]["healthcheck"]["test"])
    assert services["caddy"]["environment"]["YANIV_UPSTREAMS"] == "site:8000"
    assert services["db"]["image"].startswith("postgres:15")
    # The database and the cache have no way in or out but the site's own containers.
    assert yaml.safe_load(done.stdout)["networks"]["back"]["internal"] is True
    assert set(services["db"]["networks"]) == set(services["redis"]["networks"]) == {"back"}


# --- deploy/restore.sh: a new server from the backup alone ----------------------------------


@pytest.fixture
def restoring(server, tmp_path) -> dict[str, str]:
    """restore.sh's world: systemctl, curl and runuser that log what they are asked, a
    yaniv-manage that logs too (and fails a restore when told), the server's env file."""
    if os.geteuid() != 0:
        pytest.skip("restore.sh runs as root")
    bin_folder = tmp_path / "bin"
    log = tmp_path / "calls"
    stubs = {
        "systemctl": f'echo "systemctl $*" >>{log}; [ "$1" = is-enabled ] && echo enabled; exit 0',
        "curl": f'echo "curl $*" >>{log}',
        "runuser": 'shift 3; exec "$@"',
        "manage": f'echo "manage $*" >>{log}; [ "$1 ${{FAIL_RESTORE:-}}" != "restore 1" ]',
    }
    for name, body in stubs.items():
        (bin_folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_folder / name).chmod(0o755)
    env_file = Path(server["YANIV_CONF"]) / "env"
    env_file.write_text("DEBUG=0\nSECRET_KEY=the-new-servers\nALLOWED_HOSTS=yaniv.example.be\n")
    env_file.chmod(0o640)
    backups = tmp_path / "copy"
    backups.mkdir()
    (backups / "yaniv-20261128-170000-000000.dump").write_bytes(b"PGDMP...")
    (backups / "yaniv-settings.env").write_text(
        "# SECRET\nSECRET_KEY=the-old-servers\nVAPID_PUBLIC_KEY=old-public\n"
    )
    return {**server, "YANIV_MANAGE": str(bin_folder / "manage"), "CALLS": str(log)}


def restore_sh(environment: dict[str, str], backup: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(DEPLOY / "restore.sh"), str(backup)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_restore_sh_puts_the_backup_and_its_settings_in_place_between_a_stop_and_a_start(
    restoring, tmp_path
):
    backup = tmp_path / "copy" / "yaniv-20261128-170000-000000.dump"
    done = restore_sh(restoring, backup)
    assert done.returncode == 0, done.stdout + done.stderr
    calls = Path(restoring["CALLS"]).read_text().splitlines()
    steps = [line for line in calls if not line.startswith(("systemctl is-enabled", "curl"))]
    assert steps == [
        "systemctl stop yaniv-club-backup.timer yaniv-club-backup.service yaniv-club-tasks "
        "yaniv-club@8001 yaniv-club@8002",
        "manage backup",  # the database as it was: the restore can be undone
        f"manage restore --replace {backup}",
        "manage migrate --noinput",
        "systemctl start yaniv-club-tasks",
        "systemctl start yaniv-club@8001",
        "systemctl start yaniv-club@8002",
        "systemctl start yaniv-club-backup.timer",
    ]
    assert sum(line.startswith("curl") for line in calls) == 2  # each app server's /health/
    env_file = Path(restoring["YANIV_CONF"]) / "env"
    assert env_file.read_text().splitlines() == [
        "DEBUG=0",
        "SECRET_KEY=the-old-servers",
        "ALLOWED_HOSTS=yaniv.example.be",
        "VAPID_PUBLIC_KEY=old-public",
    ]
    assert env_file.stat().st_mode & 0o777 == 0o640
    (before,) = env_file.parent.glob("env.before-restore-*")
    assert "SECRET_KEY=the-new-servers" in before.read_text()


def test_restore_sh_without_the_settings_file_says_what_ends_and_goes_on(restoring, tmp_path):
    (tmp_path / "copy" / "yaniv-settings.env").unlink()
    done = restore_sh(restoring, tmp_path / "copy" / "yaniv-20261128-170000-000000.dump")
    assert done.returncode == 0
    assert "every login, import token and phone subscription of the old server ends" in (
        " ".join(done.stderr.split())
    )
    env_file = Path(restoring["YANIV_CONF"]) / "env"
    assert "SECRET_KEY=the-new-servers" in env_file.read_text()


def test_a_restore_that_fails_starts_the_site_again_on_its_own_database_and_settings(
    restoring, tmp_path
):
    done = restore_sh(
        {**restoring, "FAIL_RESTORE": "1"},
        tmp_path / "copy" / "yaniv-20261128-170000-000000.dump",
    )
    assert done.returncode != 0
    calls = Path(restoring["CALLS"]).read_text().splitlines()
    assert "manage migrate --noinput" not in calls
    assert calls[-1] == "systemctl start yaniv-club-backup.timer"
    assert "systemctl start yaniv-club@8002" in calls
    env_file = Path(restoring["YANIV_CONF"]) / "env"
    assert "SECRET_KEY=the-new-servers" in env_file.read_text()
