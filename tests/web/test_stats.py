"""The statistics page: every definition it states, its figures, charts and query count."""

import re
from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games import charts
from games.models import Game
from games.owners import Owner
from games.rules import Move, Record
from games.selectors.stats import WEEKS, Week, statistics, week_starts
from solitaire import clock as site_clock

from . import services_support as services
from .conftest import HTMX, legal_move, start, stuck_record, url, version_of, won_record

STATS = reverse("games:statistics")


@pytest.fixture
def player(client, django_user_model):
    user = django_user_model.objects.create_user("ada", password="pw-long-enough")
    client.force_login(user)
    return Owner(user=user)


def won(owner: Owner) -> Game:
    return services.start_from_record(owner, won_record())


def given_up(owner: Owner, variant: str = "forty-thieves", deal: int = 1) -> Game:
    game = services.start_game(owner, variant, deal)
    services.play(game, 0, Move.parse("deal"), autoplay=False)
    services.give_up(game)
    game.refresh_from_db()
    return game


def stuck(owner: Owner) -> Game:
    return services.start_from_record(owner, stuck_record())


def unfinished(owner: Owner, variant: str = "lucas") -> Game:
    game = services.start_game(owner, variant, 5)
    services.play(game, 0, Move.parse("deal"), autoplay=False)
    return game


def figure(html: str, name: str) -> str:
    match = re.search(rf'data-figure="{name}">(.*?)</dd>', html, re.S)
    assert match, name
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def page(client, path: str = STATS) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


class TestDefinitions:
    def test_a_win_is_all_cards_on_the_foundations(self, client, player):
        won(player)
        figures = statistics(player).overall
        assert (figures.played, figures.won, figures.lost, figures.unfinished) == (1, 1, 0, 0)
        assert figures.win_rate == 1

    def test_giving_up_is_a_loss(self, client, player):
        given_up(player)
        figures = statistics(player).overall
        assert (figures.played, figures.won, figures.lost) == (1, 0, 1)
        assert figures.win_rate == 0

    def test_a_stuck_game_is_a_loss_and_has_finished(self, client, player):
        game = stuck(player)
        assert game.status == "stuck" and game.finished_at is not None
        figures = statistics(player).overall
        assert (figures.lost, figures.unfinished) == (1, 0)

    def test_undoing_out_of_stuck_makes_the_game_unfinished_again(self, client, player):
        game = stuck(player)
        services.undo(game, game.ply)
        game.refresh_from_db()
        assert game.status == "playing" and game.finished_at is None
        figures = statistics(player).overall
        assert (figures.played, figures.lost, figures.unfinished) == (1, 0, 1)
        assert figures.win_rate is None and figures.current_streak == 0

    def test_restarting_a_stuck_game_makes_it_unfinished_again(self, client, player):
        game = stuck(player)
        services.restart(game)
        game.refresh_from_db()
        assert game.status == "playing" and game.finished_at is None
        assert statistics(player).overall.unfinished == 1

    def test_a_game_with_no_move_does_not_count(self, client, player):
        services.start_game(player, "forty-thieves", 1)
        services.give_up(services.start_game(player, "lucas", 2))
        figures = statistics(player).overall
        assert (figures.played, figures.won, figures.lost) == (0, 0, 0)
        assert "No game counts yet" in page(client)

    def test_a_game_counts_once_its_first_move_is_made(self, client):
        game = start(client)
        assert statistics(Owner(session_key=client.session.session_key)).overall.played == 0
        client.post(
            url("move", game),
            {"move": legal_move(game), "version": version_of(game), "ply": 0},
            headers=HTMX,
        )
        assert statistics(Owner(session_key=client.session.session_key)).overall.played == 1

    def test_win_rate_leaves_out_unfinished_games(self, client, player):
        won(player)
        given_up(player)
        unfinished(player)
        unfinished(player, "maria")
        figures = statistics(player).overall
        assert (figures.played, figures.unfinished) == (4, 2)
        assert figures.win_rate == 0.5

    def test_streaks_run_across_games_of_different_kinds_in_finish_order(self, client, player):
        won(player)  # Indian
        given_up(player, "forty-thieves")
        won(player)
        won(player)
        stuck(player)  # Forty Thieves
        won(player)
        result = statistics(player)
        overall = result.overall
        assert (overall.current_streak, overall.current_streak_won) == (1, True)
        assert overall.best_streak == 2
        indian = result.scope("indian")
        assert (indian.current_streak, indian.best_streak) == (4, 4)
        forty = result.scope("forty-thieves")
        assert (forty.current_streak, forty.current_streak_won, forty.best_streak) == (2, False, 0)

    def test_a_streak_follows_the_order_games_finished_not_began(self, client, player):
        first = services.start_game(player, "forty-thieves", 1)
        services.play(first, 0, Move.parse("deal"), autoplay=False)
        won(player)
        services.give_up(first)  # began first, finished last
        overall = statistics(player).overall
        assert (overall.current_streak, overall.current_streak_won) == (1, False)


class TestFigures:
    def test_wins_figures_link_to_their_games(self, client, player):
        game = won(player)
        html = page(client)
        link = url("game", game)
        assert f'<a href="{link}">{game.ply}</a>' in html
        assert figure(html, "fewest") == str(game.ply)
        assert figure(html, "average-moves") == str(game.ply)
        assert figure(html, "fastest") == game.clock

    def test_a_win_with_an_undo_is_not_a_clean_win(self, client, player):
        record = won_record()
        won(player)
        game = services.start_from_record(player, Record(record.variant, 1, record.moves[:-1]))
        services.undo(game, game.ply)
        game.refresh_from_db()
        services.redo(game, game.ply)
        game.refresh_from_db()
        services.play(game, game.ply, Move.parse(record.moves[-1]), autoplay=False)
        game.refresh_from_db()
        assert game.status == "won" and game.undo_count == 1
        assert statistics(player).overall.clean_wins == 1
        assert statistics(player).overall.won == 2

    def test_fastest_win_is_the_one_with_least_time(self, client, player):
        slow, fast = won(player), won(player)
        slow.milliseconds_played, fast.milliseconds_played = 600_400, 299_800
        Game.objects.bulk_update([slow, fast], ["milliseconds_played"])
        figures = statistics(player).overall
        assert figures.fastest.public_id == fast.public_id
        assert figures.fastest.clock == "4:59"
        assert figures.average_milliseconds == 450_100
        assert figures.average_clock == "7:30"

    def test_each_game_type_has_its_own_figures(self, client, player):
        won(player)
        given_up(player, "forty-thieves")
        unfinished(player, "lucas")
        html = page(client)
        assert 'data-game="indian"' in html and 'data-game="forty-thieves"' in html
        assert 'data-game="maria"' not in html
        lucas = page(client, reverse("games:variant_statistics", args=["lucas"]))
        assert figure(lucas, "played") == "1" and figure(lucas, "unfinished") == "1"
        maria = page(client, reverse("games:variant_statistics", args=["maria"]))
        assert figure(maria, "played") == "0"

    def test_an_unknown_game_type_is_not_found(self, client, player):
        response = client.get(reverse("games:variant_statistics", args=["snap"]))
        assert response.status_code == 404

    def test_the_page_states_the_definitions(self, client, player):
        html = page(client)
        assert "How these are counted" in html
        assert "Won / (won + lost)" in html
        assert "in the order they finished" in html

    def test_a_guest_sees_only_this_browsers_games(self, client, other_client):
        game = start(client)
        client.post(
            url("move", game),
            {"move": legal_move(game), "version": version_of(game), "ply": 0},
            headers=HTMX,
        )
        assert figure(page(client), "played") == "1"
        assert figure(page(other_client), "played") == "0"


class TestCharts:
    def test_charts_are_svg_with_a_text_alternative(self, client, player):
        won(player)
        html = page(client)
        assert html.count('<svg class="chart') == 2
        assert 'role="img"' in html and "<desc>" in html
        assert "figures as a table" in html
        table = html[html.index('<details class="chart-table">') : html.index("</details>")]
        assert table.count("<tr>") == 1 + 1  # this week, the only one with a game

    def test_the_charts_span_only_the_weeks_there_are_games_in(self, client, player):
        old = won(player)
        weeks_ago = site_clock.now() - timedelta(weeks=3)
        Game.objects.filter(pk=old.pk).update(first_move_at=weeks_ago, finished_at=weeks_ago)
        given_up(player)
        html = page(client)
        table = html[html.index('<details class="chart-table">') : html.index("</details>")]
        assert table.count("<tr>") == 4 + 1  # three weeks ago, the two between, this week
        bars = html[html.index('<svg class="chart') : html.index("</svg>")]
        # Each week a quarter of the chart's width: its bars 0.4 of that, 59.6 of 596.
        assert 'class="games"' in bars and 'width="59.6"' in bars

    def test_a_week_with_no_game_before_the_first_is_left_out(self):
        weeks = [Week(date(2026, 11, 2)), Week(date(2026, 11, 9), games=1)]
        weeks.append(Week(date(2026, 11, 16)))
        assert [w.start.day for w in charts.weeks_with_data(weeks)] == [9, 16]
        assert len(charts.weeks_with_data([Week(date(2026, 11, 2))] * 3)) == 1

    def test_weeks_count_games_begun_and_won_and_the_win_rate_so_far(self, client, player):
        won(player)
        given_up(player)
        weeks = statistics(player).overall.weeks
        assert len(weeks) == WEEKS
        assert (weeks[-1].games, weeks[-1].wins, weeks[-1].losses) == (2, 1, 1)
        assert weeks[-1].rate == 0.5 and weeks[0].rate is None

    def test_games_finished_before_the_charts_weeks_count_in_the_rate(self, client, player):
        old = won(player)
        long_ago = site_clock.now() - timedelta(weeks=60)
        Game.objects.filter(pk=old.pk).update(first_move_at=long_ago, finished_at=long_ago)
        given_up(player)
        weeks = statistics(player).overall.weeks
        assert weeks[0].rate == 1 and weeks[-1].rate == 0.5
        assert sum(w.games for w in weeks) == 1

    def test_weeks_are_iso_weeks_ending_with_this_one(self):
        starts = week_starts(date(2026, 11, 29))  # a Sunday
        assert starts[-1] == date(2026, 11, 23) and starts[-1].weekday() == 0
        assert starts[0] == date(2026, 11, 23) - timedelta(weeks=WEEKS - 1)


class TestQueries:
    def queries(self, client) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(STATS).status_code == 200
        return len(captured)

    def make(self, player, count: int) -> None:
        kinds = [won, given_up, stuck, unfinished]
        for n in range(count):
            kinds[n % len(kinds)](player)

    def test_the_statistics_page_costs_the_same_for_3_and_30_games(self, client, player):
        self.make(player, 3)
        self.queries(client)  # the day's first request renews the session: a write, once
        few = self.queries(client)
        self.make(player, 27)
        assert self.queries(client) == few
        assert few <= 10

    def test_a_game_page_shows_the_best_on_its_deal_in_a_full_page_only(self, client, player):
        best = won(player)
        again = services.start_game(player, "indian", 1)
        html = page(client, url("game", again))
        assert "Your best on this deal" in html and url("game", best) in html
        response = client.post(
            url("move", again),
            {"move": "deal", "version": version_of(again), "ply": 0},
            headers=HTMX,
        )
        assert b"Your best on this deal" not in response.content

    def test_a_deal_not_yet_won_says_how_often_it_was_played(self, client, player):
        given_up(player, "forty-thieves", 1)
        given_up(player, "forty-thieves", 1)
        again = services.start_game(player, "forty-thieves", 1)
        html = page(client, url("game", again))
        assert "You played this deal 2 times before, not yet won." in html

    def test_a_first_game_of_a_deal_says_nothing_of_bests(self, client, player):
        game = services.start_game(player, "forty-thieves", 77)
        assert "deal-record" not in page(client, url("game", game))


@pytest.mark.parametrize(
    ("language", "june", "july"),
    [
        ("en", "15 Jun", "15 Jul"),
        # French: "Jui" would be June and July alike; Dutch and Polish write months small.
        ("fr", "15 juin", "15 juil."),
        ("nl", "15 jun", "15 jul"),
        ("pl", "15 cze", "15 lip"),
        ("vi", "15/6", "15/7"),
    ],
)
def test_the_charts_weeks_are_dated_as_each_language_writes_a_short_date(language, june, july):
    with translation.override(language):
        labels = [charts.week_label(Week(date(2026, month, 15))) for month in (6, 7)]
    assert labels == [june, july]


@pytest.mark.parametrize(
    "language, first",
    [("en", "1 Sep"), ("fr", "1er sept."), ("nl", "1 sep"), ("pl", "1 wrz"), ("vi", "1/9")],
)
def test_a_week_that_starts_a_month_is_dated_as_the_language_writes_the_first(language, first):
    with translation.override(language):
        assert charts.week_label(Week(date(2026, 9, 1))) == first
