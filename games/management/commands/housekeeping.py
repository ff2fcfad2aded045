"""``manage.py housekeeping [--task-days N]``: what a running site must clear now and then.

Scheduled by the supervisor every hour (bin/housekeeping); safe to run at any time, while the
site serves, and as often as one likes. Three parts, each printed with what it did:

1. The games of guests whose session has expired: nobody can reach them any more (a guest's
   games hang on the session key, and an expired key is never given back). Each guest's games
   are deleted through the ownership rule, with their moves and analyses; an account's games
   are never touched, however old.
2. The expired sessions themselves (what Django's ``clearsessions`` does), after their games:
   running ``clearsessions`` on its own instead would leave those games behind for good.
3. The results of finished background tasks (successful or failed) that finished more than
   ``--task-days`` days ago (default 7); tasks waiting or running are kept.

Each batch of sessions is one transaction: a failure halfway loses nothing, and the next run
takes up where it stopped.
"""

from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from games.services.players import delete_guest_games
from solitaire import clock

#: Sessions handled per transaction.
BATCH = 500


class Command(BaseCommand):
    help = (
        "Delete the games of guests whose session expired, the expired sessions, and the "
        "results of background tasks finished long ago."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--task-days",
            type=int,
            default=7,
            help="keep the results of tasks finished within this many days (default 7)",
        )

    def handle(self, *args, task_days: int, **options):
        if task_days < 0:
            task_days = 0
        now = clock.now()
        sessions, guests, games = clear_expired_guests(now)
        self.stdout.write(f"expired sessions: {sessions} cleared")
        self.stdout.write(f"guest games: {games} deleted, of {guests} guests whose session expired")
        tasks = prune_task_results(now - timedelta(days=task_days))
        days = "1 day" if task_days == 1 else f"{task_days} days"
        self.stdout.write(f"task results: {tasks} pruned (finished more than {days} ago)")


def session_model():
    """The model of the site's session engine (a database-backed one: settings.SESSION_ENGINE)."""
    return import_module(settings.SESSION_ENGINE).SessionStore.get_model_class()


def clear_expired_guests(now) -> tuple[int, int, int]:
    """Deletes the expired sessions and their guests' games: (sessions, guests with games,
    games)."""
    Session = session_model()
    sessions = guests = games = 0
    while True:
        keys = list(
            Session.objects.filter(expire_date__lt=now)
            .order_by("expire_date")
            .values_list("session_key", flat=True)[:BATCH]
        )
        if not keys:
            break
        with transaction.atomic():
            for key in keys:
                deleted = delete_guest_games(key)
                guests += bool(deleted)
                games += deleted
            expired = Session.objects.filter(session_key__in=keys, expire_date__lt=now)
            sessions += expired.delete()[0]
    return sessions, guests, games


def prune_task_results(before) -> int:
    """Deletes the results of tasks that finished (well or not) before ``before``."""
    return DBTaskResult.objects.finished().filter(finished_at__lt=before).delete()[0]
