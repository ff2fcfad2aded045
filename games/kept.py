"""Facts that never change once written, kept per process once read: the game page asks for
them on every load, and each would be a query.

- A deal's grade, once known: a grade is written once (``games/services/graded.py``) and
  never changed. A deal not graded yet is asked again next time: it may be graded since.
- The daily deal a game was opened for, or that it was opened for none: the link is written
  in the transaction that creates the game (``games/services/daily.py``), before anyone can
  ask for its page, and never afterwards.

The same class keeps the shared links' images (games/web/share.py), which change: each is kept
with the version it was drawn for, and ``put`` replaces it with a newer one.

Each fact is kept under a key that names it whole (a game's primary key with its public id, so a
key never names another game, even where a database reuses a deleted row's key), at most
``MOST_KEPT`` of each, the least recently used going first. ``forget()`` empties them.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

#: At most this many facts of each kind per process.
MOST_KEPT = 4096


class Kept:
    """Values read once and kept, the least recently used dropped past ``most``."""

    def __init__(self, most: int = MOST_KEPT) -> None:
        self.most = most
        self._values: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()

    def get[T](
        self, key: Hashable, read: Callable[[], T], keep: Callable[[T], bool] = lambda _v: True
    ) -> T:
        """The value kept for ``key``; else ``read()``, kept when ``keep`` says so."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = read()
        if keep(value):
            self.put(key, value)
        return value

    def put(self, key: Hashable, value: object) -> None:
        """Keep ``value`` for ``key``, in place of any value kept for it before."""
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.most:
                self._values.popitem(last=False)

    def forget(self) -> None:
        with self._lock:
            self._values.clear()


#: A deal's known grade, by (game type, deal number as text).
GRADES = Kept()
#: The daily deal each game was opened for (None: none), by (primary key, public id).
DAYS = Kept()


def forget() -> None:
    """Drop every kept fact (a test that rewrites what is kept as never changing)."""
    GRADES.forget()
    DAYS.forget()
