"""The site's one clock (solitaire/clock.py): every rule that asks what time or day it is asks
it, so a test that sets it sets it for all of them: a game's times, the daily deal's day, the
week a game counts in, the player's today in their own time zone."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import days
from games.models import Game
from games.owners import Owner
from games.selectors.stats import statistics
from solitaire import clock as site_clock

#: Sunday 6 December 2026, two seconds before Monday (UTC).
SUNDAY_NIGHT = datetime(2026, 12, 6, 23, 59, 58, tzinfo=UTC)


class TestTheClock:
    def test_it_runs_with_the_wall_clock_until_stopped(self):
        before = timezone.now()
        assert before <= site_clock.now() <= timezone.now()

    def test_stopped_it_shows_its_moment_until_moved_or_run(self, clock):
        clock.moment = SUNDAY_NIGHT
        assert site_clock.now() == SUNDAY_NIGHT
        assert clock.advance(seconds=3) == SUNDAY_NIGHT + timedelta(seconds=3)
        site_clock.run()
        assert site_clock.now().year >= 2026 and site_clock.now() != SUNDAY_NIGHT

    def test_a_moment_without_a_time_zone_is_refused(self):
        with pytest.raises(ValueError):
            site_clock.stop_at(datetime(2026, 12, 6, 12, 0))

    def test_only_a_stopped_clock_is_moved_by_hand(self):
        with pytest.raises(RuntimeError):
            site_clock.advance(timedelta(seconds=1))

    @pytest.mark.parametrize(
        ("zone", "local_day"),
        [
            ("UTC", date(2026, 12, 6)),
            ("Pacific/Kiritimati", date(2026, 12, 7)),
            ("America/Adak", date(2026, 12, 6)),
        ],
    )
    def test_the_players_today_is_the_day_in_their_zone(self, clock, zone, local_day):
        clock.moment = SUNDAY_NIGHT
        with timezone.override(zone):
            assert site_clock.localdate() == local_day
            # The daily deal's day is UTC's wherever the player is.
            assert days.today() == date(2026, 12, 6)


@pytest.mark.django_db
class TestEveryRuleReadsIt:
    def test_a_game_is_begun_played_and_finished_at_the_clocks_moment(self, clock):
        client = Client()
        clock.moment = SUNDAY_NIGHT
        response = client.post(reverse("games:new"), {"variant": "forty-thieves", "deal": "1"})
        game = Game.objects.get(public_id=response["Location"].split("/")[2])
        assert game.created_at == SUNDAY_NIGHT
        clock.advance(seconds=3)
        game.refresh_from_db()
        data = {"ply": game.ply, "version": game.version, "confirm": "yes"}
        client.post(reverse("games:give_up", args=[game.public_id]), data)
        game.refresh_from_db()
        assert game.status == Game.Status.GIVEN_UP
        assert game.finished_at == SUNDAY_NIGHT + timedelta(seconds=3)

    def test_the_weeks_of_the_charts_end_with_the_clocks_week(self, clock):
        owner = Owner(session_key="a-player")
        clock.moment = SUNDAY_NIGHT
        with timezone.override("UTC"):
            assert statistics(owner).overall.weeks[-1].start == date(2026, 11, 30)
            clock.advance(seconds=3)  # Monday 7 December
            assert statistics(owner).overall.weeks[-1].start == date(2026, 12, 7)
        with timezone.override("America/Adak"):  # still Sunday afternoon there
            assert statistics(owner).overall.weeks[-1].start == date(2026, 11, 30)

    def test_the_daily_page_deals_the_clocks_day(self, clock):
        client = Client()
        clock.moment = SUNDAY_NIGHT
        page = client.get(reverse("games:daily")).content.decode()
        assert "December 6" in page or "Dec. 6" in page
        clock.advance(seconds=3)
        page = client.get(reverse("games:daily")).content.decode()
        assert "December 7" in page or "Dec. 7" in page
