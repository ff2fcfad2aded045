"""Django's database session engine, reading a session in one written-out statement.

Every request of a player reads their session (a guest's games hang on its key). Django's
``db.SessionStore.load`` finds the row through the ORM, whose work cost about ten times the
statement's own on a move (tests/bench/move_request.py, docs/performance.md). This engine
reads the same row, unexpired, with one SELECT through ``connection.cursor()`` and decodes it
with the engine's own ``decode``; a session that is not found (expired, or a key nobody was
given) goes to Django's own ``load``, which then forgets the key as it always does. Everything
else (saving, expiring, cycling the key, clearing) is Django's. Only public APIs are used.

A session's stored text is signed, and checking the signature (an HMAC, a base64 and a
decompression) was two thirds of the session's read on a move (docs/performance.md). The same
text always decodes to the same data, and a player's text changes only when their session is
written, so ``decode`` keeps, per process, the texts it checked lately with their data
serialized (by the session's own serializer) and hands out a fresh copy of it; a text not
kept is checked as always, and one that fails its check is never kept.

It is the engine with Redis too, so that a Redis outage touches no session
(docs/operations.md, "Redis").
"""

import threading
from functools import lru_cache

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

#: How many checked session texts each process keeps (a few hundred bytes each).
CHECKED = 4096


class SessionStore(db.SessionStore):
    def load(self) -> dict:
        key = self.session_key
        if key:
            alias = router.db_for_read(self.model)
            connection = connections[alias]
            expires = self.model._meta.get_field("expire_date")
            now = expires.get_db_prep_value(timezone.now(), connection)
            with connection.cursor() as cursor:
                cursor.execute(_select(self.model, alias), [key, now])
                row = cursor.fetchone()
            if row is not None:
                return self.decode(row[0])
        return super().load()

    def decode(self, session_data: str) -> dict:
        checked = _checked.get(session_data)
        if checked is not None:
            return self.serializer().loads(checked)
        data = super().decode(session_data)
        if data:
            with _lock:
                if len(_checked) >= CHECKED:
                    _checked.pop(next(iter(_checked)))
                _checked[session_data] = self.serializer().dumps(data)
        return data


#: Session texts whose signature was checked, and their data serialized, oldest first.
_checked: dict[str, bytes] = {}
_lock = threading.Lock()


@lru_cache(maxsize=8)
def _select(model, alias: str) -> str:
    # The table's name as the model declares it (Django's default, django_session, needs no
    # quoting on any database).
    table = model._meta.db_table
    return f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s"
