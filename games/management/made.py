"""What the commands that make the site's own files (draw_icons, synthesise_sounds) share:
writing the files into static/, or with ``--check`` failing when a committed one differs."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError


def add_check(parser) -> None:
    parser.add_argument("--check", action="store_true", help="fail if a file is out of date")


def write_or_check(files: dict[str, bytes], command, *, check: bool) -> None:
    """Write ``files`` (bytes by name under static/), or check them (``check``)."""
    root = Path(settings.BASE_DIR) / "static"
    stale = []
    for name, data in files.items():
        path = root / name
        if check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        command.stdout.write(f"{name}: {len(data)} bytes")
    if stale:
        name = command.__module__.rsplit(".", 1)[-1]
        raise CommandError(f"out of date: {', '.join(stale)}: run manage.py {name}")
