"""Helpers for the tests of hints, "can this still be won?" and winnable deals: games a few
moves from a win or from being stuck, and the real background worker run in the test."""

import re
import signal

from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.rules import Record

from .conftest import HTMX, stuck_record, url, won_record


def run_worker() -> None:
    """Run every queued task with the real database worker, then come back.

    The worker sets its own handlers for Ctrl-C and SIGTERM; the test run gets its own back.
    """
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    try:
        call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def from_record(client: Client, record: Record) -> Game:
    """A game of ``client`` at the end of ``record``, through the "start from a record" page."""
    response = client.post(reverse("games:import"), {"text": record.to_json()})
    assert response.status_code == 302, response.content[:500]
    return Game.objects.get(public_id=response["Location"].split("/")[2])


def near_win(client: Client, moves_left: int) -> Game:
    """Indian deal 1, ``moves_left`` moves before the end of a real win."""
    record = won_record()
    return from_record(client, Record(record.variant, record.deal, record.moves[:-moves_left]))


def near_stuck(client: Client, moves_back: int = 10) -> Game:
    """A Forty Thieves game ``moves_back`` moves before it got stuck: it cannot be won."""
    record = stuck_record()
    return from_record(client, Record(record.variant, record.deal, record.moves[:-moves_back]))


def ask(client: Client, name: str, game: Game, *, htmx: bool = True, ply=None, version=None):
    """POST for a hint (``name`` "hint") or an analysis ("analysis") on the board as it is."""
    game.refresh_from_db()
    data = {
        "ply": game.ply if ply is None else ply,
        "version": game.version if version is None else version,
    }
    return client.post(url(name, game), data, headers=HTMX if htmx else {})


def answer(client: Client, name: str, game: Game, version: int, *, htmx: bool = True):
    return client.get(url(name, game), {"version": version}, headers=HTMX if htmx else {})


def said(response) -> str:
    """The answer's words, as a player reads them."""
    match = re.search(r"<span data-answer>(.*?)</span>", response.content.decode(), re.S)
    assert match, response.content.decode()[:1000]
    return match.group(1).strip()


def shown_move(response) -> dict[str, str]:
    """The move an answer highlights: its notation, source, target and board version."""
    text = response.content.decode()
    fields = dict(re.findall(r'data-hint-(move|source|target|version)="([^"]*)"', text))
    return fields
