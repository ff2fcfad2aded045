"""Counts players understand: Moves counts the player's own moves, the automatic ones shown
apart; the cards dealt safe to go home go there at once when automatic moves are on; a Finish
button shows itself once a win is certain and plays it out; the won panel."""

import re

import pytest
from django.urls import reverse

from games.models import Game
from games.models import Move as MoveRow
from games.owners import Owner
from games.rules import Record, first_position, get_variant
from games.rules.autoplay import next_safe_move
from games.selectors.stats import deal_record, statistics
from games.services import play as services

from .conftest import (
    HTMX,
    board,
    find_deal,
    log,
    opened,
    post_move,
    replayed,
    start,
    url,
    won_record,
)

pytestmark = pytest.mark.django_db


def ace_dealt_first(position) -> bool:
    """The stock's first card is an ace, and no card goes home before it is dealt."""
    return position.stock[-1] // 4 == 0 and next_safe_move(position) is None


def dealt_home(position) -> bool:
    """Some card is safe to go home as soon as the deal is dealt (an ace on a column's top)."""
    return next_safe_move(position) is not None


def autoplay_off(client, variant: str = "forty-thieves") -> None:
    session = client.session
    session["autoplay"] = {variant: False}
    session.save()


def near_win(client, moves_left: int) -> Game:
    """Indian deal 1, ``moves_left`` moves before a real win, started from its record."""
    record = won_record()
    near = Record(record.variant, record.deal, record.moves[:-moves_left])
    response = client.post("/import/", {"text": near.to_json()})
    assert response.status_code == 302, response.content[:300]
    return Game.objects.get(public_id=response["Location"].split("/")[2])


def counters(html: str) -> str:
    """The Moves counter's text, as shown."""
    found = re.search(r"<dt>Moves</dt><dd>(.*?)</dd>", html)
    return re.sub(r"<[^>]+>", "", found.group(1))


class TestSplit:
    def test_the_automatic_moves_are_shown_apart_from_the_players(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
        answer = post_move(client, game, "deal").content.decode()
        game.refresh_from_db()
        automatic = MoveRow.objects.filter(game=game, automatic=True).count()
        assert automatic >= 1 and game.automatic_ply == automatic and game.player_moves == 1
        shown = f"1 + {automatic} automatic"
        assert counters(answer) == shown
        assert counters(client.get(url("game", game)).content.decode()) == shown

    def test_undo_takes_the_automatic_count_back_and_redo_brings_it_again(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
        post_move(client, game, "deal")
        game.refresh_from_db()
        automatic = game.automatic_ply
        client.post(url("undo", game), board(game), headers=HTMX)
        game.refresh_from_db()
        assert (game.player_moves, game.automatic_ply) == (0, 0)
        assert counters(client.get(url("game", game)).content.decode()) == "0"
        client.post(url("redo", game), board(game), headers=HTMX)
        game.refresh_from_db()
        assert (game.player_moves, game.automatic_ply) == (1, automatic)

    def test_without_automatic_moves_nothing_is_shown_apart(self, client, game):
        html = post_move(client, game, "deal").content.decode()
        assert counters(html) == "1" and "automatic-moves" not in html

    def test_the_lists_of_games_count_the_players_moves(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
        post_move(client, game, "deal")
        game.refresh_from_db()
        assert game.ply > 1
        for page in ("/my/", "/my/history/"):
            html = client.get(page).content.decode()
            assert "1 move," in html and f"{game.ply} moves" not in html, page


class TestStatistics:
    def test_fewest_moves_and_average_moves_count_the_players_moves(self, client):
        owner = Owner(session_key=start(client).session_key)
        record = won_record()
        helped = services.start_from_record(owner, record)
        alone = services.start_from_record(owner, record)
        # The same win, most of it played by the automatic moves in one of them.
        Game.objects.filter(pk=helped.pk).update(automatic_ply=record_length(record) - 100)
        figures = statistics(owner).overall
        assert figures.fewest.public_id == helped.public_id and figures.fewest.moves == 100
        assert figures.average_moves == (100 + record_length(record)) / 2
        html = client.get("/my/statistics/").content.decode()
        assert re.search(r'data-figure="fewest"><a href="[^"]+">100</a>', html)
        assert alone.player_moves == record_length(record)

    def test_the_best_on_a_deal_is_the_win_with_fewest_of_the_players_moves(self, client):
        game = near_win(client, 12)
        owner = Owner(session_key=client.session.session_key)
        first = services.start_from_record(owner, won_record())
        Game.objects.filter(pk=first.pk).update(automatic_ply=300)
        record = deal_record(owner, game)
        assert record.best.public_id == first.public_id
        assert record.best.moves == record_length(won_record()) - 300


def record_length(record: Record) -> int:
    return len(record.moves)


class TestAutomaticMovesOnTheDeal:
    def test_cards_dealt_safe_go_home_at_once_as_automatic_moves(self, client):
        deal = find_deal("forty-thieves", dealt_home)
        game = start(client, "forty-thieves", deal)
        rows = list(MoveRow.objects.filter(game=game).order_by("ply"))
        assert rows and all(r.automatic for r in rows)
        assert all(r.notation.partition("-")[2].startswith("f") for r in rows)
        game.refresh_from_db()
        assert game.ply == game.automatic_ply == len(rows) and game.player_moves == 0
        assert game.snapshot == replayed(game) and next_safe_move(game.position()) is None
        # Not a game played yet: no first move, not counted, and the deal link reuses it.
        assert game.first_move_at is None and game.move_count == 0
        assert statistics(Owner(session_key=game.session_key)).overall.played == 0
        again = client.get(reverse("pages:play_deal", args=["forty-thieves", deal]))
        assert opened(again) == game

    def test_undo_never_takes_back_the_deals_automatic_moves(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", dealt_home))
        dealt = log(game)
        html = client.get(url("game", game)).content.decode()
        assert re.search(r'id="undo"[^>]* disabled', html)
        response = client.post(url("undo", game), board(game), headers=HTMX)
        assert response.status_code == 409 and "There is no move to undo." in response.text
        post_move(client, game, "deal")
        client.post(url("undo", game), board(game), headers=HTMX)
        assert log(game) == dealt

    def test_restart_goes_back_to_the_deal_as_first_played(self, client):
        game = start(client, "forty-thieves", find_deal("forty-thieves", dealt_home))
        dealt = log(game)
        post_move(client, game, "deal")
        post_move(client, game, "deal")
        response = client.post(url("restart", game), board(game), headers=HTMX)
        assert response.status_code == 200
        game.refresh_from_db()
        assert log(game) == dealt and game.automatic_ply == len(dealt)
        assert game.snapshot == replayed(game) and game.player_moves == 0

    def test_with_automatic_moves_off_the_deal_stays_as_dealt(self, client):
        deal = find_deal("forty-thieves", dealt_home)
        autoplay_off(client)
        game = start(client, "forty-thieves", deal)
        assert log(game) == [] and game.ply == 0
        assert game.snapshot == first_position(get_variant("forty-thieves"), deal).text()

    def test_forty_devils_deals_stay_as_dealt_by_default(self, client):
        game = start(client, "forty-devils", find_deal("forty-devils", dealt_home))
        assert log(game) == []


class TestFinish:
    def test_a_win_without_a_choice_shows_finish_and_finish_plays_it_out(self, client):
        game = near_win(client, 12)
        finish = game.finish
        assert len(finish) == 12
        html = client.get(url("game", game)).content.decode()
        button = re.search(r'<button [^>]*id="finish-win"[^>]*>', html).group(0)
        assert "hidden" not in button and url("finish", game) in button
        response = client.post(url("finish", game), board(game), headers=HTMX)
        assert response.status_code == 200 and 'id="won-panel"' in response.text
        game.refresh_from_db()
        assert game.status == "won" and log(game) == won_record().moves[:-12] + finish
        assert game.hint_count == 0 and game.snapshot == replayed(game) and game.finish == []

    def test_a_quick_search_proves_a_win_that_needs_a_choice(self, client):
        # Sixteen moves from the end the win moves a card between columns first.
        assert not won_record().moves[-16].partition("-")[2].startswith("f")
        game = near_win(client, 16)
        assert game.finish
        client.post(url("finish", game), board(game))
        game.refresh_from_db()
        assert game.status == "won"

    def test_finish_appears_after_the_move_that_makes_the_win_certain(self, client):
        """A move's answer sends the Finish button when it shows itself or hides: shown after
        the move that makes the win certain, hidden again by the undo of that move, and left
        as it is by the moves between (the page keeps it)."""
        game = near_win(client, 60)
        assert game.finish == []
        autoplay_off(client, "indian")
        sent, answers = [], []
        for move in won_record().moves[-60:-12]:
            answers.append(answer := post_move(client, game, move).content.decode())
            game.refresh_from_db()
            button = re.search(r'<button [^>]*id="finish-win"[^>]*>', answer)
            sent.append((bool(game.finish), button and "hidden" not in button.group(0)))
        assert sent[-1][0], "the win is certain twelve moves from the end"
        first = next(n for n, (certain, _shown) in enumerate(sent) if certain)
        assert sent[first][1] is True
        for (was, _shown), (certain, shown) in zip(sent[first:], sent[first + 1 :], strict=False):
            assert shown is (None if certain == was else certain)
        oob = r'<span class="sure-finish" id="sure-finish" hx-swap-oob="true">'
        assert re.search(oob, answers[first])
        # Back to before the first certain board, by undoing: Finish hides itself again.
        for _ in sent[first:]:
            answer = client.post(url("undo", game), board(game), headers=HTMX).content.decode()
            game.refresh_from_db()
        assert game.finish == []
        assert re.search(r'<button [^>]*id="finish-win"[^>]* hidden', answer)
        page = client.get(url("game", game)).content.decode()
        assert re.search(r'<button [^>]*id="finish-win"[^>]* hidden', page)

    def test_no_certain_win_hides_finish_and_refuses_it(self, client, game):
        html = client.get(url("game", game)).content.decode()
        assert re.search(r'<button [^>]*id="finish-win"[^>]* hidden', html)
        response = client.post(url("finish", game), board(game), headers=HTMX)
        assert response.status_code == 409
        assert "No win is known from this board" in response.text
        assert log(game) == []

    def test_finish_on_an_older_board_gets_the_current_one(self, client):
        game = near_win(client, 12)
        stale = board(game)
        autoplay_off(client, "indian")
        post_move(client, game, won_record().moves[-12])
        response = client.post(url("finish", game), stale, headers=HTMX)
        assert response.status_code == 200 and "moved on" in response.text
        game.refresh_from_db()
        assert game.status == "playing"


def win_by_hand(client, game: Game):
    """Play the last moves of the Indian win one by one, as the player (automatic moves off),
    with no Finish. The answer to the last move."""
    autoplay_off(client, "indian")
    for move in won_record().moves[game.ply :]:
        response = post_move(client, game, move)
        assert response.status_code == 200, response.content[:300]
    game.refresh_from_db()
    assert game.status == "won" and game.finish_ply == 0
    return response


class TestWonPanel:
    def figures(self, html: str) -> dict[str, str]:
        found = re.findall(r'<dd data-win="(\w+)">(.*?)</dd>', html)
        return {name: re.sub(r"<[^>]+>", "", text) for name, text in found}

    def test_a_first_win_shows_its_moves_time_and_a_streak_of_one(self, client):
        game = near_win(client, 12)
        Game.objects.filter(pk=game.pk).update(milliseconds_played=252_000)
        win_by_hand(client, game)
        figures = self.figures(client.get(url("game", game)).content.decode())
        assert figures["moves"] == str(len(won_record().moves))
        assert figures["time"] == game.clock and game.clock.startswith("4:1")
        assert figures["best"] == "This win: your first of this deal"
        assert figures["streak"] == "1 win in a row"

    def test_a_later_win_shows_the_best_before_it_and_the_streak(self, client):
        first = near_win(client, 12)
        win_by_hand(client, first)
        second = near_win(client, 12)
        # This one is the longer: the first stays the best.
        Game.objects.filter(pk=second.pk).update(milliseconds_played=10**9)
        response = win_by_hand(client, second)
        figures = self.figures(response.text)
        assert figures["best"] == f"{first.player_moves} moves, {first.clock}"
        assert url("game", first) in response.text
        assert figures["streak"] == "2 wins in a row"

    def test_a_loss_ends_the_streak(self, client):
        first = near_win(client, 12)
        win_by_hand(client, first)
        Game.objects.filter(pk=first.pk).update(milliseconds_played=600_000)
        lost = start(client, "indian", 2)
        post_move(client, lost, "deal")
        client.post(url("give_up", lost), board(lost))
        again = near_win(client, 12)
        response = win_by_hand(client, again)
        figures = self.figures(response.text)
        assert figures["streak"] == "1 win in a row"
        assert figures["best"].startswith("This win: a new best (it was ")
        assert figures["best"].endswith(", 10:00)")
