"""The suite under Debian's faketime (``make test-dates``). The servers a test starts of its own
(Redis, PostgreSQL) run on the real clock, as they would anyway: ``real_clock_env``. And
libfaketime 0.9.10 refuses
Python's ``time.sleep`` (a sleep until a deadline on the monotonic clock, which
``FAKETIME_DONT_FAKE_MONOTONIC`` leaves real) with EINVAL, at once, however long the sleep;
``select`` with a timeout it lets through. Under faketime a refused sleep sleeps that way."""

import errno
import os
import select
import time


def mend_sleep() -> None:
    """Under libfaketime (``FAKETIME`` set), a sleep refused with EINVAL waits in ``select``."""
    if "FAKETIME" not in os.environ or getattr(time.sleep, "mended", False):
        return
    sleep = time.sleep

    def mended(seconds: float) -> None:
        try:
            sleep(seconds)
        except OSError as error:
            if error.errno != errno.EINVAL or seconds < 0:
                raise
            select.select([], [], [], seconds)

    mended.mended = True
    time.sleep = mended


def real_clock_env() -> dict[str, str]:
    """This process's environment without libfaketime: for a server a test starts of its own
    (redis-server does not start under it)."""
    faked = ("LD_PRELOAD", "FAKETIME", "FAKETIME_DONT_FAKE_MONOTONIC", "DONT_FAKE_MONOTONIC")
    return {name: value for name, value in os.environ.items() if name not in faked}
