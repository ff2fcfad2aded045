"""The deployment's files agree: compose.yaml and the cluster of bin/cluster run the same hosts
with the same commands and variables; the Procfile, the supervisor's programs and the
Dockerfile use the same commands; production installs the locked dependencies, hashes
checked, without the dev extras. And the supervisor restarts a task worker killed with
SIGKILL (real processes, no namespaces needed)."""

import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


# -- a reader for the part of YAML compose.yaml uses ------------------------------------------


def read_yaml(text: str):
    """Block mappings and lists, plain and quoted scalars, flow lists of scalars, anchors
    (``&name``), aliases (``*name``) and merge keys (``<<: *name``): what compose.yaml uses.
    Anything else is an error, so the test cannot pass on a file it misread."""
    lines = []
    for raw in text.splitlines():
        line = _strip_comment(raw).rstrip()
        if line.strip():
            lines.append((len(line) - len(line.lstrip(" ")), line.strip()))
    anchors: dict[str, object] = {}
    value, end = _block(lines, 0, 0, anchors)
    assert end == len(lines), f"unread from line {end}: {lines[end]}"
    return value


def _strip_comment(line: str) -> str:
    quote = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] == " "):
            return line[:i]
    return line


def _block(lines, start: int, indent: int, anchors):
    if lines[start][1].startswith("- "):
        items, i = [], start
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            items.append(_scalar(lines[i][1][2:].strip(), anchors))
            i += 1
        return items, i
    mapping: dict = {}
    i = start
    while i < len(lines) and lines[i][0] == indent:
        key, colon, rest = lines[i][1].partition(":")
        assert colon, f"not a mapping entry: {lines[i][1]}"
        key, rest = _unquote(key.strip()), rest.strip()
        anchor = None
        if rest.startswith("&"):
            anchor, _space, rest = rest[1:].partition(" ")
        i += 1
        if rest:
            value = _scalar(rest, anchors)
        elif i < len(lines) and lines[i][0] > indent:
            value, i = _block(lines, i, lines[i][0], anchors)
        else:
            value = None
        if anchor:
            anchors[anchor] = value
        if key == "<<":
            mapping.update(value)
        else:
            mapping[key] = value
    return mapping, i


def _scalar(text: str, anchors):
    if text.startswith("*"):
        return anchors[text[1:]]
    if text.startswith("["):
        assert text.endswith("]"), text
        inner = text[1:-1].strip()
        return [_unquote(part.strip()) for part in re.findall(r'"[^"]*"|\'[^\']*\'|[^,]+', inner)]
    assert not text.startswith(("{", "|", ">", "&")), f"not read here: {text}"
    return _unquote(text)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def test_the_yaml_reader_reads_anchors_merges_and_lists():
    text = """
x: &common
  A: "1"   # a comment
  B: two
s:
  one:
    command: ["bin/web", 'x y']
    environment:
      <<: *common
      C: "#not a comment"
    ports:
      - "8000:80"
"""
    assert read_yaml(text) == {
        "x": {"A": "1", "B": "two"},
        "s": {
            "one": {
                "command": ["bin/web", "x y"],
                "environment": {"A": "1", "B": "two", "C": "#not a comment"},
                "ports": ["8000:80"],
            }
        },
    }


# -- the files ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compose() -> dict:
    return read_yaml((ROOT / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def cluster_hosts() -> dict[str, str]:
    """bin/cluster's hosts: name -> what runs there."""
    text = (ROOT / "bin" / "cluster").read_text()
    block = re.search(r"^HOSTS=\(\n(.*?)^\)", text, re.S | re.M)
    assert block, "bin/cluster lists its hosts in HOSTS=( ... )"
    hosts = {}
    for line in block.group(1).splitlines():
        name, _address, programs = line.strip().strip('"').split(" ", 2)
        hosts[name] = programs
    return hosts


def env_file(path: Path) -> dict[str, str]:
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _eq, value = line.partition("=")
            values[key] = value
    return values


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def test_compose_runs_the_clusters_hosts_with_the_same_supervised_programs(compose, cluster_hosts):
    services = compose["services"]
    supervised = {
        name: programs
        for name, programs in cluster_hosts.items()
        if programs not in ("balancer", "data")
    }
    assert supervised == {"app1": "web", "app2": "web", "worker": "worker housekeeping"}
    for name, programs in supervised.items():
        assert services[name]["command"] == ["bin/supervise"], name
        assert services[name]["environment"]["SUPERVISOR_PROGRAMS"] == programs, name
        # bin/cluster starts those hosts with the same command.
    cluster = (ROOT / "bin" / "cluster").read_text()
    assert (
        'SUPERVISOR_PROGRAMS=$programs \\\n        spawn "$name" supervise "$ROOT/bin/supervise"'
        in (cluster)
    )
    # The release step: the Procfile's, run once by both before any app server.
    assert services["release"]["command"] == [procfile()["release"]]
    assert '"$ROOT/bin/release"' in cluster
    for name in supervised:
        assert services[name]["depends_on"]["release"]["condition"] == (
            "service_completed_successfully"
        )
    assert set(services) == {"postgres", "redis", "release", *supervised, "lb"}


def test_compose_and_the_cluster_give_the_site_the_same_variables(compose):
    cluster_env = env_file(ROOT / "deploy" / "cluster.env")
    # bin/cluster adds the secret key (made at the first start) and the static files' folder.
    cluster_names = set(cluster_env) | {"DJANGO_SECRET_KEY", "DJANGO_STATIC_ROOT"}
    for name in ("release", "app1", "app2", "worker"):
        environment = dict(compose["services"][name]["environment"])
        environment.pop("SUPERVISOR_PROGRAMS", None)
        assert set(environment) == cluster_names, name
    environment = compose["x-environment"]
    # The same settings where the two do not differ by nature (addresses, secrets).
    for name in ("DJANGO_HTTPS", "DJANGO_CLIENT_IP_HEADER", "WEB_CONCURRENCY", "TASK_WORKERS"):
        assert environment[name] == cluster_env[name], name
    assert cluster_env["DJANGO_CLIENT_IP_HEADER"] == "X-Forwarded-For"


def test_the_balancer_is_configured_alike_in_both(compose):
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    used = set(re.findall(r"\$\{(\w+)\}", config))
    assert used == {"BALANCER_BIND", "APP1", "APP2", "HAPROXY_SOCKET"}
    balancer = compose["services"]["lb"]
    assert set(balancer["environment"]) == used
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in balancer["volumes"]
    # Its refusals (the door) beside it, where the configuration finds them.
    assert "default-path config" in config and "map(refusals.map)" in config
    assert "./deploy/refusals.map:/usr/local/etc/haproxy/refusals.map:ro" in balancer["volumes"]
    cluster = (ROOT / "bin" / "cluster").read_text()
    for name in used:
        assert re.search(rf"export .*\b{name}=", cluster), name
    assert 'haproxy -W -db -f "$ROOT/deploy/haproxy.cfg"' in cluster
    # It adds the client's address and sends each app server no more requests at once than
    # the server has workers.
    assert "option forwardfor" in config
    assert "option http-buffer-request" in config
    maxconn = re.search(r"default-server .*maxconn (\d+)", config)
    assert (
        maxconn and maxconn.group(1) == env_file(ROOT / "deploy" / "cluster.env")["WEB_CONCURRENCY"]
    )


def test_the_supervisors_programs_run_the_procfiles_commands():
    lines = procfile()
    assert set(lines) == {"release", "web", "worker", "housekeeping"}
    for name in ("web", "worker", "housekeeping"):
        text = (ROOT / "deploy" / "supervisor" / f"{name}.conf").read_text()
        command = re.search(r"^command = (.*)$", text, re.M).group(1)
        assert command == f"%(ENV_SITE_ROOT)s/{lines[name]}", name
        assert re.search(r"^autorestart = true$", text, re.M), name


def test_the_web_process_never_migrates_the_release_does():
    for name in ("web", "worker", "supervise", "serve"):
        assert "migrate" not in (ROOT / "bin" / name).read_text(), name
    release = (ROOT / "bin" / "release").read_text()
    for step in ("migrate --noinput", "createcachetable", "collectstatic --noinput"):
        assert f"manage.py {step}" in release
    assert "bin/release" in (ROOT / "bin" / "serve").read_text()


def test_production_installs_the_locked_dependencies_without_the_dev_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lock = (ROOT / "requirements.lock").read_text()
    pins = dict(re.findall(r"^([a-z0-9-]+)==(\S+) \\\n    --hash=sha256:[0-9a-f]{64}$", lock, re.M))
    assert len(pins) == lock.count("==") == lock.count("--hash=sha256:")

    def name(requirement: str) -> str:
        return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group()).lower()

    assert {name(r) for r in project["dependencies"]} <= set(pins)
    assert not {name(r) for r in project["optional-dependencies"]["dev"]} & set(pins)
    docker = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock" in docker
    assert "[dev]" not in docker


# -- the supervisor, for real -------------------------------------------------------------------


def supervisorctl(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        ["supervisorctl", "-c", "deploy/supervisord.conf", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return result.stdout


@pytest.mark.slow
@pytest.mark.skipif(
    subprocess.run(["which", "supervisord"], capture_output=True).returncode != 0,
    reason="Debian's supervisor is not installed (make test installs it)",
)
def test_the_supervisor_restarts_a_task_worker_killed_mid_work(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(
        DJANGO_SECRET_KEY="k3y-for-the-tests-" + "x7Q9" * 12,
        SQLITE_PATH=str(tmp_path / "site.sqlite3"),
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_ALLOWED_HOSTS="localhost",
        PY=sys.executable,
        SUPERVISOR_DIR=str(tmp_path / "supervisor"),
        SUPERVISOR_PROGRAMS="worker",
        TASK_WORKERS="2",
    )
    (tmp_path / "supervisor").mkdir()
    release = subprocess.run(
        ["bin/release"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert release.returncode == 0, release.stderr
    log = open(tmp_path / "supervise.log", "w")  # noqa: SIM115 (closed below)
    supervisor = subprocess.Popen(["bin/supervise"], cwd=ROOT, env=env, stdout=log, stderr=log)
    try:

        def running() -> dict[str, int]:
            found = re.findall(
                r"^(worker:worker-\d)\s+RUNNING\s+pid (\d+)", supervisorctl(env, "status"), re.M
            )
            return {name: int(pid) for name, pid in found}

        deadline = time.monotonic() + 60
        while len(running()) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        before = running()
        assert len(before) == 2, (tmp_path / "supervise.log").read_text()[-2000:]
        name, pid = sorted(before.items())[0]
        os.kill(pid, 9)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            after = running()
            if name in after and after[name] != pid:
                break
            time.sleep(0.5)
        assert name in after and after[name] != pid, "the killed worker was started again"
        assert {k: v for k, v in after.items() if k != name} == {
            k: v for k, v in before.items() if k != name
        }, "the other worker kept running"
    finally:
        supervisor.terminate()
        supervisor.wait(timeout=60)
        log.close()
    # Stopping the supervisor stopped its workers too.
    assert not [p for p in after.values() if Path(f"/proc/{p}").exists()]
