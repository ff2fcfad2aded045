"""Playing moves: htmx and plain form posts, every kind of bad input, automatic moves."""

import re
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_script_prefix
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.models import Move as MoveRow
from games.rules.autoplay import next_safe_move

from .conftest import (
    HTMX,
    board,
    find_deal,
    illegal_move,
    legal_move,
    log,
    opened,
    post_move,
    replayed,
    start,
    url,
    version_of,
)

OOB = ' hx-swap-oob="true"'


def ace_on_top(position) -> bool:
    return any(col and col[-1] // 4 == 0 for col in position.columns)


def ace_dealt_first(position) -> bool:
    """The stock's first card is an ace, and no card goes home before it is dealt (with the
    automatic moves on, none goes home on the deal)."""
    return position.stock[-1] // 4 == 0 and next_safe_move(position) is None


def message_of(response) -> str:
    """The messages shown next to the board."""
    return " ".join(
        re.findall(r'<span class="message[^"]*">([^<]*)</span>', response.content.decode())
    )


class TestMove:
    def test_a_legal_move_by_htmx_returns_only_what_it_changed(self, client, game):
        response = post_move(client, game, "deal")
        html = response.content.decode()
        assert response.status_code == 200
        # Only what a move changes, all out of band (nothing else is swapped): the table's
        # state, the piles the move touched, the counters, the catch-up poll and the
        # announcement; the controls and the other piles stay as they are.
        assert response["HX-Reswap"] == "none" and "HX-Retarget" not in response
        assert html.lstrip().startswith('<div id="table-state" hidden data-ply="1" ')
        assert f'data-version="{game.version + 1}"' in html
        assert '<input type="hidden" name="ply" value="1">' in html
        assert '<dl class="game-info" id="game-info" hx-swap-oob="true">' in html
        assert re.search(r"<dd><span data-moves>1</span></dd>", html)
        assert 'id="poll"' not in html  # it stays; play.js has it ask with the new version
        assert '<section id="board"' not in html
        # Undo became possible: its button comes again, out of band, drawn by the server.
        assert '<span class="history-buttons" id="history-buttons" hx-swap-oob="true">' in html
        assert re.search(r'id="undo">', html)
        # A deal touches the stock and the waste, and nothing else.
        pile = r'<div class="pile [^"]*" id="pile-(\w+)"[^>]*hx-swap-oob="true"'
        swapped = re.findall(pile, html)
        assert sorted(swapped) == ["s", "w"]
        assert 'data-pick="w"' in html
        assert "Dealt Three of Spades." in message_of(response)
        game.refresh_from_db()
        assert (game.ply, game.move_count) == (1, 1)
        assert log(game) == ["deal"]
        assert game.snapshot == replayed(game)
        assert game.first_move_at is not None
        # Where every card may go now, as the engine says.
        listed = re.search(r'data-legal="([^"]*)"', html).group(1).split()
        legal = [m for m in game.position().legal_moves() if not (m.is_deal or m.is_redeal)]
        assert listed and sorted(listed) == sorted(str(m) for m in legal)
        # The next move changes what is possible no more: no buttons come with it.
        again = post_move(client, game, legal_move(game)).content.decode()
        assert "history-buttons" not in again and 'id="undo"' not in again

    def test_a_move_between_columns_swaps_those_two_and_what_went_home(self, client, game):
        move = legal_move(game, besides_deal=True)
        response = post_move(client, game, move)
        html = response.content.decode()
        assert response.status_code == 200
        game.refresh_from_db()
        touched = set()
        for text in log(game):
            source, _dash, target = text.partition("-")
            touched |= {source.partition(":")[0], target}
        swapped = re.findall(r'id="pile-(\w+)"[^>]*hx-swap-oob="true"', html)
        assert set(swapped) == touched and len(swapped) == len(touched)

    def test_what_a_move_sends_is_what_the_page_then_shows(self, client, game):
        for move in ("deal", legal_move(game, besides_deal=True)):
            answer = post_move(client, game, move).content.decode().replace(OOB, "")
            page = client.get(url("game", game)).content.decode()
            # When the clock counts from is the one thing that runs on.
            answer, page = (
                re.sub(r' data-since="\d+"| name="drawn" value="[^"]*"', "", html)
                for html in (answer, page)
            )
            parts = re.findall(r'<div class="pile .*?</div>|<dl class="game-info".*?</dl>', answer)
            state = re.search(r'<div id="table-state".*?</div>', answer).group()
            assert len(parts) >= 3 and state in page
            for part in parts:
                assert part in page

    def test_without_javascript_a_move_redirects_back_with_a_message(self, client, game):
        response = post_move(client, game, "deal", htmx=False)
        assert response.status_code == 302
        assert response["Location"] == url("game", game)
        page = client.get(url("game", game)).content.decode()
        assert "Dealt Three of Spades." in page
        # The message is shown once.
        assert "Dealt Three of Spades." not in client.get(url("game", game)).content.decode()

    def test_an_illegal_move_gets_the_reason_and_changes_nothing(self, client, game):
        before = Game.objects.get(pk=game.pk).snapshot
        response = post_move(client, game, illegal_move(game))
        assert response.status_code == 422
        assert "That move is not allowed" in message_of(response)
        assert 'id="board"' in response.content.decode()
        game.refresh_from_db()
        assert game.snapshot == before and game.ply == 0 and log(game) == []

    def test_the_reason_names_cards_in_words(self, client, game):
        # Forty Thieves deal 1: the Seven of Diamonds on column 1 cannot go on the Nine of Spades.
        response = post_move(client, game, "t1-t2")
        assert response.status_code == 422
        message = message_of(response)
        assert (
            "Seven of Diamonds does not go on Nine of Spades "
            "(build down by one rank in the same suit)." in message
        )
        assert "7D" not in message

    def test_a_move_to_a_column_the_game_does_not_have_is_refused(self, client, game):
        response = post_move(client, game, "t1-t11")
        assert response.status_code == 422
        assert "no column 11" in message_of(response)

    @pytest.mark.parametrize(
        "text", ["t1-x", "T1-F1", "t1 - f1", "w-w", "deal!", "t0-t1", "x" * 500]
    )
    def test_text_that_is_not_a_move_is_400(self, client, game, text):
        response = post_move(client, game, text)
        assert response.status_code == 400
        assert "is not a move" in message_of(response)
        assert log(game) == []

    def test_a_long_garbled_move_is_not_echoed_in_full(self, client, game):
        response = post_move(client, game, "y" * 500)
        html = response.content.decode()
        assert "y" * 25 not in html and "y" * 23 + "\u2026" in html

    @pytest.mark.parametrize(
        "data",
        [{}, {"move": "deal"}, {"ply": "0"}, {"move": "", "ply": "0"}, {"move": "deal", "ply": ""}],
    )
    def test_missing_fields_are_400(self, client, game, data):
        response = client.post(url("move", game), data, headers=HTMX)
        assert response.status_code == 400
        assert "incomplete" in message_of(response)
        assert log(game) == []

    @pytest.mark.parametrize("ply", ["-1", "one", "1.0", "9" * 12, "٣"])
    def test_a_garbled_ply_is_400(self, client, game, ply):
        response = client.post(
            url("move", game),
            {"move": "deal", "version": version_of(game), "ply": ply},
            headers=HTMX,
        )
        assert response.status_code == 400
        assert log(game) == []

    @pytest.mark.parametrize(
        ("body", "content_type"),
        [
            (b"\xff\xfe\x00garbage", "application/x-www-form-urlencoded"),
            (b'{"move": "deal", "ply": 0}', "application/json"),
            (b"--x\r\nnonsense", "multipart/form-data; boundary=x"),
            (b"move=deal&ply=0&ply=1&move=%ZZ", "application/x-www-form-urlencoded"),
        ],
    )
    def test_a_garbled_body_is_400(self, client, game, body, content_type):
        response = client.generic(
            "POST", url("move", game), body, content_type=content_type, headers=HTMX
        )
        assert response.status_code == 400
        assert log(game) == []

    def test_missing_fields_without_javascript_are_400_with_the_page(self, client, game):
        response = client.post(url("move", game), {"move": "deal"})
        assert response.status_code == 400
        assert "<html" in response.content.decode()

    def test_a_stale_ply_gets_the_current_board_and_a_note(self, client, game):
        post_move(client, game, "deal")
        response = post_move(client, game, "deal", ply=0)
        assert response.status_code == 200
        assert "moved on" in message_of(response)
        assert 'data-ply="1"' in response.content.decode()
        assert log(game) == ["deal"]

    def test_a_stale_ply_without_javascript_redirects_with_the_note(self, client, game):
        post_move(client, game, "deal")
        response = post_move(client, game, "deal", ply=0, htmx=False)
        assert response.status_code == 302
        assert "moved on" in client.get(url("game", game)).content.decode()
        assert log(game) == ["deal"]

    def test_a_finished_game_takes_no_moves(self, client, game):
        client.post(url("give_up", game), board(game))
        response = post_move(client, game, "deal")
        assert response.status_code == 409
        assert "This game is over." in message_of(response)
        assert log(game) == []

    def test_someone_elses_game_is_404(self, client, other_client, game):
        response = other_client.post(
            url("move", game), {"move": "deal", "version": version_of(game), "ply": 0}, headers=HTMX
        )
        assert response.status_code == 404
        assert log(game) == []

    def test_a_request_without_the_boards_version_is_400_and_changes_nothing(self, client, game):
        response = client.post(url("move", game), {"move": "deal", "ply": 0}, headers=HTMX)
        assert response.status_code == 400
        assert "The request was incomplete" in message_of(response)
        assert log(game) == []

    def test_a_guest_whose_session_expired_starts_afresh_without_an_error(self, client, game):
        """A cookie whose session is gone is no session: the next game gets a new one."""
        key = client.session.session_key
        Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
        assert opened(client.get(reverse("pages:play_deal", args=["maria", "7"])))
        response = client.post(reverse("games:new"), {"variant": "lucas", "deal": "3"})
        assert response.status_code == 302
        assert client.session.session_key not in (None, key)
        assert Game.objects.filter(session_key=client.session.session_key).count() == 2
        assert client.get(response["Location"]).status_code == 200

    def test_a_guest_whose_session_has_expired_owns_the_game_no_more(self, client, game):
        """An expired session is no session: its games are no longer the player's."""
        key = client.session.session_key
        Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
        response = post_move(client, game, "deal")
        assert response.status_code == 404
        assert log(game) == []

    def test_a_move_reads_the_game_by_id_and_owner_once_then_writes(self, client, game):
        """A move costs the session's read, one read of
        the game by its id and its owner, then the write (the moves and the game in one
        statement on PostgreSQL)."""
        post_move(client, game, "deal")  # the day's first request renews the session, once
        game.refresh_from_db()
        data = {"move": "deal", "ply": game.ply, "version": game.version}
        with CaptureQueriesContext(connection) as queries:
            assert client.post(url("move", game), data, headers=HTMX).status_code == 200
        sql = [q["sql"] for q in queries.captured_queries]
        reads = [q for q in sql if q.startswith("SELECT") and "games_game" in q]
        assert len(reads) == 1 and "session_key = " in reads[0] and "public_id = " in reads[0]
        assert len([q for q in sql if "django_session" in q]) <= 1
        if connection.vendor == "postgresql":
            assert len(sql) <= 3
        assert log(game) == ["deal", "deal"]

    def test_get_is_not_allowed(self, client, game):
        assert client.get(url("move", game)).status_code == 405

    def test_without_the_csrf_token_a_post_is_refused(self, db):
        strict = Client(enforce_csrf_checks=True)
        html = strict.get(reverse("pages:home")).content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        response = strict.post(
            reverse("games:new"), {"variant": "maria", "csrfmiddlewaretoken": token}
        )
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        dealt = log(game)  # the cards the deal sent home, if any
        response = strict.post(
            url("move", game), {"move": "deal", "version": version_of(game), "ply": game.ply}
        )
        assert response.status_code == 403
        assert log(game) == dealt

    def test_a_move_in_a_sequence_game_moves_the_run(self, client):
        game = start(client, "forty-devils", find_deal("forty-devils", self._has_run))
        run = next(str(m) for m in game.position().legal_moves() if ":" in str(m).partition("-")[0])
        response = post_move(client, game, run)
        assert response.status_code == 200
        assert log(game)[0] == run
        game.refresh_from_db()
        assert game.snapshot == replayed(game)

    @staticmethod
    def _has_run(position) -> bool:
        return any(":" in str(m).partition("-")[0] for m in position.legal_moves())


class TestToFoundation:
    def test_a_double_click_sends_the_card_to_the_first_foundation_that_takes_it(self, client):
        deal = find_deal("forty-thieves", ace_on_top)
        session = client.session
        session["autoplay"] = {"forty-thieves": False}  # the ace stays where it was dealt
        session.save()
        game = start(client, "forty-thieves", deal)
        j = next(j for j, col in enumerate(game.position().columns) if col[-1] // 4 == 0)
        response = client.post(
            url("to_foundation", game), {"pick": f"t{j + 1}", "ply": 0, "version": 0}, headers=HTMX
        )
        assert response.status_code == 200
        assert log(game)[0] == f"t{j + 1}-f1"

    def test_the_waste_top_can_be_sent_home(self, client):
        deal = find_deal("forty-thieves", ace_dealt_first)
        game = start(client, "forty-thieves", deal)
        client.post(url("autoplay", game), {"autoplay": "off"})
        post_move(client, game, "deal")
        response = client.post(
            url("to_foundation", game),
            {"pick": "w", "version": version_of(game), "ply": 1},
            headers=HTMX,
        )
        assert response.status_code == 200
        assert log(game) == ["deal", "w-f1"]

    def test_a_card_no_foundation_takes_is_422(self, client, game):
        response = client.post(
            url("to_foundation", game),
            {"pick": "t1", "version": version_of(game), "ply": 0},
            headers=HTMX,
        )
        assert response.status_code == 422
        assert "no foundation takes Seven of Diamonds now" in message_of(response)
        assert log(game) == []

    def test_an_empty_waste_is_422(self, client, game):
        response = client.post(
            url("to_foundation", game),
            {"pick": "w", "version": version_of(game), "ply": 0},
            headers=HTMX,
        )
        assert response.status_code == 422

    @pytest.mark.parametrize("pick", ["t", "x1", "t1-f1", "q"])
    def test_a_garbled_pick_is_400(self, client, game, pick):
        response = client.post(
            url("to_foundation", game),
            {"pick": pick, "version": version_of(game), "ply": 0},
            headers=HTMX,
        )
        assert response.status_code == 400
        assert "is not a card" in message_of(response)

    @pytest.mark.parametrize("data", [{}, {"pick": "t1"}, {"ply": "0"}])
    def test_missing_fields_are_400(self, client, game, data):
        response = client.post(url("to_foundation", game), data, headers=HTMX)
        assert response.status_code == 400

    def test_a_stale_ply_gets_the_current_board(self, client, game):
        post_move(client, game, "deal")
        response = client.post(
            url("to_foundation", game),
            {"pick": "t1", "version": version_of(game), "ply": 0},
            headers=HTMX,
        )
        assert response.status_code == 200
        assert "moved on" in message_of(response)


class TestAutomaticMoves:
    def test_safe_cards_go_home_after_a_move_recorded_as_automatic(self, client):
        deal = find_deal("forty-thieves", ace_dealt_first)
        game = start(client, "forty-thieves", deal)
        post_move(client, game, "deal")
        rows = list(MoveRow.objects.filter(game=game).order_by("ply"))
        assert rows[0].notation == "deal" and not rows[0].automatic
        assert len(rows) > 1 and all(r.automatic for r in rows[1:])
        assert all(r.notation.partition("-")[2].startswith("f") for r in rows[1:])
        game.refresh_from_db()
        assert game.ply == len(rows) and game.snapshot == replayed(game)

    def test_they_can_be_turned_off_for_the_player(self, client):
        deal = find_deal("forty-thieves", ace_dealt_first)
        game = start(client, "forty-thieves", deal)
        response = client.post(url("autoplay", game), {"autoplay": "off"}, headers=HTMX)
        assert response.status_code == 200
        assert 'aria-pressed="false"' in response.content.decode()
        post_move(client, game, "deal")
        assert log(game) == ["deal"]

    def test_the_setting_is_per_game_type_and_lasts_the_session(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", ace_on_top))
        client.post(url("autoplay", game), {"autoplay": "off"})
        other = start(client, "maria", 2)
        assert 'aria-pressed="true"' in client.get(url("game", other)).content.decode()
        assert 'aria-pressed="false"' in client.get(url("game", game)).content.decode()

    def test_they_are_off_by_default_in_forty_devils(self, client):
        game = start(client, "forty-devils", find_deal("forty-devils", ace_on_top))
        assert 'aria-pressed="false"' in client.get(url("game", game)).content.decode()
        post_move(client, game, "deal")
        assert log(game) == ["deal"]
        client.post(url("autoplay", game), {"autoplay": "on"})
        post_move(client, game, "deal")
        assert len(log(game)) > 2

    def test_without_javascript_the_toggle_redirects_back(self, client, game):
        response = client.post(url("autoplay", game), {"autoplay": "off"})
        assert response.status_code == 302
        assert "are off" in client.get(url("game", game)).content.decode()

    @pytest.mark.parametrize("data", [{}, {"autoplay": "yes"}, {"autoplay": ""}])
    def test_a_bad_setting_is_400(self, client, game, data):
        response = client.post(url("autoplay", game), data, headers=HTMX)
        assert response.status_code == 400

    def test_a_legal_move_is_also_legal_after_automatic_moves(self, client, game):
        post_move(client, game, legal_move(game, besides_deal=True))
        game.refresh_from_db()
        assert game.snapshot == replayed(game)


def test_a_moves_links_follow_the_prefix_the_site_is_served_under(client, game):
    """Behind a proxy that serves the site under a path (SCRIPT_NAME), the cards' links in a
    move's answer carry it, and on a server without one they do not."""
    game.refresh_from_db()
    data = {"move": legal_move(game), "ply": game.ply, "version": game.version}
    path = url("move", game)
    with override_script_prefix("/patience/"):  # as Django's WSGI handler sets it
        answer = client.post(path, data, headers=HTMX)
    assert answer.status_code == 200
    links = re.findall(r'href="([^"?]*)\?pick=', answer.content.decode())
    assert links and set(links) == {f"/patience/g/{game.public_id}/"}
    answer = post_move(client, game, legal_move(game))
    links = re.findall(r'href="([^"?]*)\?pick=', answer.content.decode())
    assert links and set(links) == {f"/g/{game.public_id}/"}
