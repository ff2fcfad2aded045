"""The daily deals: one per game and day (UTC), the same for everyone, winnable, graded by the
day of the week; the player's game of the day, resumed on any device; the calendar; and the
day's leaderboard, which ranks only wins by play, with the reader's own row always shown."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats

from games import days, integrity
from games.models import DailyDeal, DailyGame, Game, GradedDeal
from games.owners import Owner
from games.rules import VARIANTS, Move
from games.rules.solver.grading import measure
from games.selectors.daily import daily_streak
from games.selectors.leaderboards import TOP, leaderboard, ranked_games
from games.services import daily, play
from games.services.graded import graded_deals
from solitaire import clock as site_clock
from solitaire import frames
from solitaire.accounts.models import Preferences

from .conftest import WON_RECORD, opened, won_record
from .test_frames import LANGUAGES, drawn

#: A Wednesday.
WEDNESDAY = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def wednesday(clock):
    """The site's clock stopped at noon UTC on a Wednesday (``clock.moment`` moves it): the
    day, its deal's grade, a win's finishing time and its rank all read this one clock."""
    clock.moment = WEDNESDAY
    return clock


def play_today(client: Client, variant: str = "lucas") -> Game:
    return opened(client.get(reverse("games:daily_play", args=[variant])))


def win(game: Game, moves: int, milliseconds: int, **counts) -> Game:
    """Mark ``game`` won with ``moves`` moves of the player's own (the leaderboard reads the
    stored counters; the test of replays below plays a real win)."""
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.WON,
        ply=moves,
        automatic_ply=0,
        milliseconds_played=milliseconds,
        finished_at=site_clock.now(),
        **counts,
    )
    game.refresh_from_db()
    return game


def board_of(client: Client, variant: str = "lucas", day: date | None = None) -> str:
    day = day or days.today()
    response = client.get(reverse("games:daily_day", args=[variant, day]))
    assert response.status_code == 200
    return response.content.decode()


class TestTheDailyDeal:
    def test_two_players_get_the_same_deal(self, client, other_client):
        assert play_today(client).deal == play_today(other_client).deal

    def test_it_changes_at_midnight_utc(self, client, clock):
        clock.moment = datetime(2026, 12, 2, 23, 59, 59, tzinfo=UTC)
        before = daily.daily_deal("maria", days.today())
        clock.moment = datetime(2026, 12, 3, 0, 0, 0, tzinfo=UTC)
        after = daily.daily_deal("maria", days.today())
        assert (before.day, after.day) == (date(2026, 12, 2), date(2026, 12, 3))
        assert before.deal != after.deal

    def test_a_day_s_deal_stays_when_the_pool_grows(self, db):
        first = daily.daily_deal("maria", days.today())
        for n in range(20):
            GradedDeal.objects.create(variant="maria", deal=str(5000 + n), grade=first.grade)
        assert daily.daily_deal("maria", days.today()).deal == first.deal

    @pytest.mark.parametrize("variant", list(VARIANTS))
    def test_it_is_a_winnable_deal_of_the_day_s_grade(self, db, variant):
        for offset in range(7):
            day = days.today() - timedelta(days=offset)
            deal = daily.daily_deal(variant, day)
            assert deal.grade == days.WEEK[day.weekday()] or not graded_deals(
                variant, days.WEEK[day.weekday()]
            )
            assert int(deal.deal) in graded_deals(variant, deal.grade)

    def test_sunday_is_expert_and_monday_easy(self):
        assert days.WEEK[date(2026, 12, 6).weekday()] == "expert"
        assert days.WEEK[date(2026, 12, 7).weekday()] == "easy"

    def test_with_no_deal_of_the_day_s_grade_a_nearby_grade_is_dealt(self, db, monkeypatch):
        monkeypatch.setattr(
            daily, "graded_deals", lambda variant, grade: {42} if grade == "hard" else set()
        )
        deal = daily.daily_deal("lucas", days.today())  # a Wednesday: medium
        assert (deal.deal, deal.grade) == ("42", "hard")

    def test_a_second_visit_resumes_the_game_on_another_device(self, db):
        get_user_model().objects.create_user("ann", password="pw")
        phone, laptop = Client(), Client()
        phone.login(username="ann", password="pw")
        laptop.login(username="ann", password="pw")
        assert play_today(phone) == play_today(laptop)
        assert DailyGame.objects.count() == 1

    def test_the_future_and_the_far_past_are_404(self, client):
        tomorrow = days.today() + timedelta(days=1)
        long_ago = days.today() - timedelta(days=days.PAST_DAYS + 1)
        for day in (tomorrow, long_ago):
            assert client.get(reverse("games:daily_day", args=["maria", day])).status_code == 404
            play = reverse("games:daily_play_day", args=["maria", day])
            assert client.post(play).status_code == 404
        assert client.get("/daily/maria/2026-02-30/").status_code == 404
        assert client.get("/daily/no-such-game/").status_code == 404
        assert not Game.objects.exists()

    def test_a_past_day_can_be_played(self, client):
        yesterday = days.today() - timedelta(days=1)
        response = client.post(reverse("games:daily_play_day", args=["maria", yesterday]))
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        assert game.deal == DailyDeal.objects.get(variant="maria", day=yesterday).deal


class TestTheDailyPage:
    def test_it_lists_the_ten_games_with_their_grade_and_the_players_result(self, client):
        won = win(play_today(client, "lucas"), 90, 60_000)
        page = client.get(reverse("games:daily")).content.decode()
        assert page.count('data-daily="') == len(VARIANTS)
        assert "medium" in page and "won in 90 moves, 1:00" in page
        assert "easier early in the week" in page
        assert won.status == Game.Status.WON

    def test_its_queries_do_not_grow_with_the_games_played(self, client):
        def queries() -> int:
            with CaptureQueriesContext(connection) as seen:
                client.get(reverse("games:daily"))
            return len(seen)

        play_today(client, "lucas")
        queries()  # the first visit of the day draws the ten deals
        one = queries()
        for variant in ("maria", "streets", "indian"):
            play_today(client, variant)
        assert queries() == one

    def test_drawn_afresh_or_from_memory_it_is_the_same_for_each_player_and_day(
        self, client, clock
    ):
        """Its head and each row's links and difficulty are kept per language and day
        (solitaire/frames.py); the streak and the results are each player's own."""
        win(play_today(client, "lucas"), 90, 60_000)
        play_today(client, "maria")  # in progress
        given_up = play_today(client, "streets")
        Game.objects.filter(pk=given_up.pk).update(status=Game.Status.GIVEN_UP)
        stranger = Client()
        frames.forget()
        for moment in (WEDNESDAY, WEDNESDAY + timedelta(days=1), WEDNESDAY + timedelta(days=4)):
            clock.moment = moment
            for lang in LANGUAGES:
                for player in (client, stranger):
                    player.post(reverse("set_language"), {"language": lang, "next": "/"})
                    fresh, first, kept = (
                        drawn(player, "/daily/", lang, kept=kept) for kept in (False, True, True)
                    )
                    assert fresh == first == kept, (moment, lang, player is client)
                    if player is client and moment == WEDNESDAY:
                        assert fresh.count('class="result"><a href="/g/') == 1

    def test_the_calendar_marks_the_days_won(self, client, clock):
        clock.moment = WEDNESDAY - timedelta(days=1)
        win(play_today(client, "maria"), 100, 600_000)
        clock.moment = WEDNESDAY
        page = client.get(reverse("games:daily_month", args=["maria", 2026, 12])).content.decode()
        assert page.count('class="won"') == 1
        assert "<caption>" in page
        assert client.get(reverse("games:daily_month", args=["maria", 2027, 1])).status_code == 404
        assert client.get(reverse("games:daily_month", args=["maria", 2026, 13])).status_code == 404


class TestTheLeaderboard:
    def test_fewer_moves_rank_first_and_ties_go_by_time(self, db):
        clients = [Client() for _ in range(3)]
        win(play_today(clients[0]), 120, 50_000)
        win(play_today(clients[1]), 100, 90_000)
        win(play_today(clients[2]), 100, 80_000)
        deal = DailyDeal.objects.get()
        ranked = leaderboard(deal, Owner()).rows
        assert [(r.moves, r.milliseconds) for r in ranked] == [
            (100, 80_000),
            (100, 90_000),
            (120, 50_000),
        ]

    @pytest.mark.parametrize("help", ["hint", "analysis", "finish"])
    def test_a_helped_win_does_not_rank_and_says_why(self, client, help):
        # A hint, an analysis and the solver's Finish each count on the game's hints.
        win(play_today(client), 80, 600_000, hint_count=1)
        page = board_of(client)
        assert "No ranked win yet" in page
        assert "does not rank: it was won with help" in page

    def test_an_imported_win_does_not_rank(self, client, monkeypatch):
        record = won_record()
        deal = daily.daily_deal(record.variant, days.today())
        DailyDeal.objects.filter(pk=deal.pk).update(deal=str(record.deal))
        response = client.post(reverse("games:import"), {"text": WON_RECORD.read_text()})
        assert response.status_code == 302
        assert Game.objects.filter(status=Game.Status.WON, deal=str(record.deal)).exists()
        page = board_of(client, record.variant)
        assert "No ranked win yet" in page
        assert "only a game opened from the daily page does" in page

    def test_a_win_after_the_day_does_not_rank(self, client, clock):
        game = play_today(client)
        clock.moment = WEDNESDAY + timedelta(days=1)
        win(game, 80, 600_000)
        assert "No ranked win yet" in board_of(client, day=WEDNESDAY.date())

    def test_a_win_played_move_by_move_ranks_and_replays_as_won(self, db):
        owner = Owner(session_key="a-player")
        game = daily.find_or_start_daily_game(owner, "lucas", days.today())
        graded = measure("lucas", game.deal_number)
        for ply, text in enumerate(graded.moves):
            site_clock.advance(timedelta(seconds=1))  # a person's pace
            won = play.play_move(
                owner, game.public_id, ply, None, Move.parse(text), {"lucas": False}
            )
        assert won.game.status == Game.Status.WON and not won.game.helped
        deal = DailyDeal.objects.get()
        rows = leaderboard(deal, owner).rows
        assert [(r.public_id, r.mine) for r in rows] == [(game.public_id, True)]
        for ranked in ranked_games(deal):
            log = ranked.log.order_by("ply").values_list("ply", "notation", "automatic")
            assert integrity.check_game(ranked, list(log)) == []

    def test_own_row_outside_the_top_is_marked_and_shown(self, client):
        deal = daily.daily_deal("lucas", days.today())
        others = []
        for n in range(TOP + 2):
            game = Game.objects.create(
                session_key=f"s{n}", variant="lucas", deal=deal.deal, snapshot="x"
            )
            DailyGame.objects.create(daily=deal, game=game)
            others.append(win(game, 50 + n, 600_000))
        mine = win(play_today(client), 500, 600_000)
        board = leaderboard(deal, _owner(client))
        assert len(board.rows) == TOP
        assert board.own is not None and board.own.mine and board.own.rank == len(others) + 1
        assert board.own.public_id == mine.public_id
        page = board_of(client)
        assert 'class="mine"' in page and "a player (you)" in page

    def test_its_queries_do_not_grow_with_its_rows(self, client):
        deal = daily.daily_deal("lucas", days.today())

        def queries() -> int:
            with CaptureQueriesContext(connection) as seen:
                board_of(client)
            return len(seen)

        def add(n: int) -> None:
            user = get_user_model().objects.create_user(f"p{n}")
            Preferences.objects.create(user=user, public_name=f"Name {n}")
            game = Game.objects.create(owner=user, variant="lucas", deal=deal.deal, snapshot="x")
            DailyGame.objects.create(daily=deal, game=game)
            win(game, 60 + n, 600_000)

        add(0)
        one = queries()
        for n in range(1, 8):
            add(n)
        assert queries() == one


def game_page(client: Client, game: Game) -> str:
    response = client.get(reverse("games:game", args=[game.public_id]))
    assert response.status_code == 200
    return response.content.decode()


class TestTheDailyGamePage:
    """A daily game's page says it is the daily deal of its day, warns before the first hint
    that help keeps its win off the leaderboard, and its won panel gives its rank and the
    leaderboard's link (all in the page as the server sends it: no script needed)."""

    WARNING = "A hint, “Can this still be won?” or Finish keeps a win of today\u2019s deal off"

    def test_today_s_game_names_its_day_and_warns_that_help_keeps_a_win_off_the_board(self, client):
        page = game_page(client, play_today(client))
        named = f"Daily deal of {formats.date_format(days.today(), 'F j, Y')}"
        assert 'id="daily-banner"' in page and named in page
        assert 'data-daily="warning"' in page and self.WARNING in page
        assert reverse("games:daily_day", args=["lucas", days.today()]) in page

    def test_after_a_hint_it_says_the_win_will_not_rank(self, client):
        game = play_today(client)
        Game.objects.filter(pk=game.pk).update(hint_count=1)
        page = game_page(client, game)
        assert 'data-daily="helped"' in page and "its win will not rank" in page
        assert self.WARNING not in page

    def test_a_past_day_s_game_says_its_wins_rank_no_more(self, client):
        yesterday = days.today() - timedelta(days=1)
        response = client.post(reverse("games:daily_play_day", args=["maria", yesterday]))
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        page = game_page(client, game)
        assert 'data-daily="past"' in page and "new wins no longer rank" in page
        assert self.WARNING not in page

    def test_a_game_not_opened_from_the_daily_page_has_no_banner(self, client):
        response = client.post(reverse("games:new"), {"variant": "lucas", "deal": "7"})
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        assert 'id="daily-banner"' not in game_page(client, game)

    def test_a_ranked_win_shows_its_rank_and_the_leaderboard_s_link(self, client, other_client):
        win(play_today(other_client), 90, 600_000)
        mine = win(play_today(client), 100, 600_000)
        page = game_page(client, mine)
        assert 'data-win="rank">2<' in page
        assert "This win ranks on the" in page
        assert reverse("games:daily_day", args=["lucas", days.today()]) in page
        assert self.WARNING not in page

    def test_a_tie_ranks_as_its_row_on_the_leaderboard(self, client, other_client, clock):
        first = win(play_today(other_client), 100, 600_000)
        clock.advance(seconds=1)
        mine = win(play_today(client), 100, 600_000)
        deal = DailyDeal.objects.get()
        rows = {row.public_id: row.rank for row in leaderboard(deal, _owner(client)).rows}
        assert rows == {first.public_id: 1, mine.public_id: 2}
        assert 'data-win="rank">2<' in game_page(client, mine)

    def test_the_rank_and_the_link_in_french(self, client, other_client):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
        win(play_today(other_client), 90, 600_000)
        page = game_page(client, win(play_today(client), 80, 600_000))
        assert '<dt>Rang</dt><dd data-win="rank">1<' in page
        assert "Cette victoire compte au" in page
        assert reverse("games:daily_day", args=["lucas", days.today()]) in page

    def test_a_helped_win_says_it_does_not_rank_and_links_the_leaderboard(self, client):
        game = win(play_today(client), 80, 600_000, hint_count=1)
        page = game_page(client, game)
        assert 'data-win="rank"' not in page
        assert "does not rank: it was won with help" in page
        leaderboard_url = reverse("games:daily_day", args=["lucas", days.today()])
        assert f'<a href="{leaderboard_url}">Leaderboard</a>' in page


class TestPublicNames:
    def test_a_row_says_a_player_until_a_name_is_chosen(self, db):
        user = get_user_model().objects.create_user("bob", password="pw")
        bob = Client()
        bob.login(username="bob", password="pw")
        win(play_today(bob), 90, 600_000)
        assert "bob" not in board_of(Client())
        assert ">a player<" in board_of(Client())
        response = bob.post(reverse("public_name"), {"public_name": "Bobby Tables"})
        assert response.status_code == 302
        assert Preferences.objects.get(user=user).public_name == "Bobby Tables"
        assert ">Bobby Tables<" in board_of(Client())
        assert "Bobby Tables (you)" in board_of(bob)

    def test_a_name_taken_is_refused(self, db):
        first = get_user_model().objects.create_user("ann")
        Preferences.objects.create(user=first, public_name="Ace")
        get_user_model().objects.create_user("bob", password="pw")
        bob = Client()
        bob.login(username="bob", password="pw")
        response = bob.post(reverse("public_name"), {"public_name": "ace"})
        assert response.status_code == 400
        assert not Preferences.objects.filter(user__username="bob", public_name="ace").exists()

    def test_a_guest_cannot_choose_one(self, client):
        response = client.post(reverse("public_name"), {"public_name": "Ghost"})
        assert response.status_code in (302, 403)
        assert not Preferences.objects.exists()


class TestTheDailyStreak:
    def test_days_in_a_row_with_a_daily_won_on_the_day(self, client, clock):
        for offset in (3, 1, 0):
            clock.moment = WEDNESDAY - timedelta(days=offset)
            win(play_today(client, "maria"), 90, 600_000)
        clock.moment = WEDNESDAY
        assert daily_streak(_owner(client)) == 2
        page = client.get(reverse("games:daily")).content.decode()
        assert "Your daily streak: 2 days in a row." in page

    def test_a_past_day_won_later_makes_no_streak(self, client):
        yesterday = days.today() - timedelta(days=1)
        response = client.post(reverse("games:daily_play_day", args=["maria", yesterday]))
        win(Game.objects.get(public_id=response["Location"].split("/")[2]), 90, 600_000)
        assert daily_streak(_owner(client)) == 0

    def test_the_statistics_show_it(self, client):
        win(play_today(client, "maria"), 90, 600_000)
        page = client.get(reverse("games:statistics")).content.decode()
        assert "Daily streak" in page


class TestLanguages:
    @pytest.mark.parametrize("language", ["fr", "nl", "pl", "vi"])
    def test_every_daily_page_is_translated(self, client, language):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        play_today(client)
        pages = [
            reverse("games:daily"),
            reverse("games:daily_day", args=["lucas", days.today()]),
            reverse("games:daily_month", args=["lucas", 2026, 12]),
        ]
        english = (
            "Daily deals",
            ">Leaderboard<",
            "easier early in the week",
            ">Rank<",
            "Your result",
            "a player",
            "Earlier month",
            "daily deal of",
        )
        for page in pages:
            text = client.get(page).content.decode()
            assert f'lang="{language}"' in text
            assert [words for words in english if words in text] == [], page


def _owner(client: Client) -> Owner:
    return Owner(session_key=client.session.session_key)


def test_a_days_page_says_the_game_is_in_progress_once_beside_its_resume_button(client):
    game = play_today(client, "maria")
    page = client.get(reverse("games:daily_day", args=["maria", days.today()])).content.decode()
    mine = page[page.index('class="daily-mine"') :]
    mine = mine[: mine.index("</p>")]
    assert "Your game: in progress" in mine and "resume" not in mine
    assert page.count("Resume your game") == 1
    # The daily page's table, with no button beside it, still links the game.
    listing = client.get("/daily/").content.decode()
    resume = reverse("games:game", args=[game.public_id])
    assert f'<a href="{resume}">in progress: resume' in listing
