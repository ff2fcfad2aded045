"""Django's database session engine, reading a session in one written-out statement.

Every request of a player reads their session (a guest's games hang on its key). Django's
``db.SessionStore.load`` finds the row through the ORM, whose work cost about ten times the
statement's own on a move (tests/bench/move_request.py, docs/performance.md). This engine
reads the same row, unexpired, with one SELECT through ``connection.cursor()`` and decodes it
with the engine's own ``decode``; a session that is not found (expired, or a key nobody was
given) goes to Django's own ``load``, which then forgets the key as it always does. Everything
else (saving, expiring, cycling the key, clearing) is Django's. Only public APIs are used.

It is the engine with Redis too, so that a Redis outage touches no session
(docs/operations.md, "Redis").
"""

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def load(self) -> dict:
        key = self.session_key
        if key:
            model = self.model
            alias = router.db_for_read(model)
            expires = model._meta.get_field("expire_date")
            table = connections[alias].ops.quote_name(model._meta.db_table)
            with connections[alias].cursor() as cursor:
                cursor.execute(
                    f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",
                    [key, expires.get_db_prep_value(timezone.now(), connections[alias])],
                )
                row = cursor.fetchone()
            if row is not None:
                return self.decode(row[0])
        return super().load()
