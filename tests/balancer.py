"""Debian's HAProxy with the site's own configuration (deploy/haproxy.cfg) in front of a test
server, for the tests of what the balancer does: the door, its 503, a page that waits for it."""

import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAPROXY = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
#: Why a test of the balancer does not run.
MISSING = "HAProxy is not installed (make system-packages)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def balancer(app: str, folder: Path) -> Iterator[tuple[int, subprocess.Popen]]:
    """HAProxy with deploy/haproxy.cfg in front of the app server at ``app`` (host:port, both of
    the configuration's servers): the port it listens on (127.0.0.1), and its process. Its
    admin socket is ``folder``/haproxy.sock (``command``)."""
    port = free_port()
    env = {
        "PATH": "/usr/sbin:/usr/bin:/bin",
        "BALANCER_BIND": f"127.0.0.1:{port}",
        "APP1": app,
        "APP2": app,
        "HAPROXY_SOCKET": str(folder / "haproxy.sock"),
    }
    process = subprocess.Popen(
        [HAPROXY, "-W", "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield port, process
    finally:
        process.terminate()
        process.wait(10)


def command(folder: Path, line: str) -> str:
    """One command to the balancer's admin socket (``disable server apps/app1``): its answer."""
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(folder / "haproxy.sock"))
        s.sendall(line.encode() + b"\n")
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
    return answer.decode()
