"""The edge between the web and the services (games/web/edge.py, games/web/player.py): the
player on the request, one table of refusals, the event told to the page."""

import re

from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory

from games.outcomes import Event, GameError, NoWinKnown, Refused, StalePly
from games.owners import Owner
from games.web.edge import REFUSALS
from games.web.player import OwnerMiddleware

from .conftest import HTMX, board, post_move, url
from .solver_support import near_win


class CountingSession(dict):
    """A session that counts how often it is read."""

    session_key = "k" * 32
    reads = 0

    def get(self, key, default=None):
        CountingSession.reads += 1
        return super().get(key, default)


def through_the_middleware(view):
    request = RequestFactory().get("/")
    request.session, request.user = CountingSession(), AnonymousUser()
    CountingSession.reads = 0
    return request, OwnerMiddleware(view)(request)


def test_the_owner_is_worked_out_only_when_a_view_asks():
    request, _ = through_the_middleware(lambda request: HttpResponse())
    assert CountingSession.reads == 0
    assert request.owner == Owner(session_key="k" * 32) and CountingSession.reads == 1


def test_the_owner_is_the_account_when_logged_in(django_user_model, db):
    ada = django_user_model.objects.create_user("ada", password="x")

    def view(request):
        request.user = ada
        return HttpResponse(str(request.owner.user.pk))

    _, response = through_the_middleware(view)
    assert response.content == str(ada.pk).encode()


def every_refusal(kind=GameError):
    for sub in kind.__subclasses__():
        yield sub
        yield from every_refusal(sub)


def test_every_refusal_of_the_services_has_its_status_in_the_one_table():
    kinds = set(every_refusal())
    assert {StalePly, Refused, NoWinKnown} <= kinds
    assert kinds - set(REFUSALS) == set()


def event_of(response) -> str:
    return re.search(r'<div id="motion"[^>]*data-event="([^"]*)"', response.text).group(1)


def test_the_page_is_told_a_move_from_a_finish(client, game):
    assert event_of(post_move(client, game, "deal")) == Event.MOVED == "moved"
    won = near_win(client, 12)
    response = client.post(url("finish", won), board(won), headers=HTMX)
    assert event_of(response) == Event.FINISHED
