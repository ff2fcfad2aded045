"""Deals by difficulty: the grades are deterministic and calibrated per game, the pool keeps
only wins that replay, "New game" deals a graded deal of the difficulty asked for, and the
pages show a deal's grade where it is known."""

import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import tasks
from games.models import Game, GradedDeal
from games.rules import VARIANTS
from games.rules.solver import grading
from games.services import daily, graded, searches

from .conftest import post_move, start


def new_at(client, variant: str, grade: str):
    return client.post(reverse("games:new"), {"variant": variant, "grade": grade})


def game_of(response) -> Game:
    assert response.status_code == 302, response.content[:300]
    return Game.objects.get(public_id=response["Location"].split("/")[2])


class TestGrading:
    def test_the_same_deal_gets_the_same_figures_every_time(self):
        first, again = grading.measure("lucas", 1), grading.measure("lucas", 1)
        assert first.won and first == again
        assert first.effort == first.nodes + grading.LENGTH_WEIGHT * first.length

    def test_a_deal_not_won_within_the_positions_is_expert(self):
        assert grading.grade_of((10, 20, 30), None) == "expert"

    def test_the_cuts_give_each_grade_its_share(self):
        cuts = grading.cuts_of(list(range(1, 101)))
        assert cuts == (40, 70, 90)
        grades = [grading.grade_of(cuts, effort) for effort in range(1, 101)]
        assert grading.shares(grades) == dict(zip(grading.GRADES, grading.SHARES, strict=True))

    def test_a_higher_effort_never_gets_an_easier_grade(self):
        cuts = (100, 200, 300)
        order = [grading.GRADES.index(grading.grade_of(cuts, e)) for e in range(0, 400, 7)]
        assert order == sorted(order)

    @pytest.mark.parametrize("variant", list(VARIANTS))
    def test_every_game_is_calibrated_to_sensible_shares(self, variant):
        wins = [grade for _deal, grade in grading.sample_wins(variant)]
        assert len(wins) >= 8, "too few wins in the sample to cut"
        assert len(grading.cuts_for(variant)) == 3
        for grade, target in zip(grading.GRADES, grading.SHARES, strict=True):
            assert abs(wins.count(grade) / len(wins) - target) <= 0.15, (grade, wins)

    def test_the_command_prints_each_games_shares(self, db, capsys):
        call_command("grades", "maria", "lucas")
        out = capsys.readouterr().out
        assert "maria:" in out and "lucas:" in out and "easy" in out and "expert" in out


class TestThePool:
    def test_a_win_that_replays_is_kept_with_its_grade(self, db):
        found = grading.measure("lucas", 2)
        row = graded.keep_graded(found)
        assert row is not None and row.grade == grading.grade(found)
        assert 2 in graded.graded_deals("lucas", row.grade)

    def test_moves_that_do_not_win_are_not_kept(self, db):
        found = grading.measure("lucas", 2)
        forged = grading.Graded("lucas", 3, True, found.nodes, found.length, found.moves)
        assert graded.keep_graded(forged) is None
        assert not GradedDeal.objects.filter(variant="lucas", deal="3").exists()

    def test_the_worker_grades_a_run_of_deals(self, db):
        kept = tasks.grade_deals.call("lucas", 5, 2)
        assert kept == [5, 6]
        assert GradedDeal.objects.filter(variant="lucas").count() == 2

    def test_the_command_fills_the_pool(self, db, capsys):
        call_command("grades", "lucas", "--fill", "1")
        assert GradedDeal.objects.filter(variant="lucas", deal=str(graded.FIRST_GRADED)).exists()


class TestNewGameAtADifficulty:
    @pytest.mark.parametrize("grade", grading.GRADES)
    def test_the_deal_is_a_winnable_deal_of_that_grade(self, client, grade):
        game = game_of(new_at(client, "forty-thieves", grade))
        assert game.deal_number in daily.graded_deals("forty-thieves", grade)

    def test_deals_not_yet_played_come_first(self, client):
        pool = daily.graded_deals("maria", "easy")
        dealt = {game_of(new_at(client, "maria", "easy")).deal_number for _ in range(len(pool))}
        assert dealt == pool

    def test_a_pool_running_low_asks_the_workers_for_more_once(self, client):
        new_at(client, "maria", "expert")
        new_at(client, "maria", "expert")
        assert searches.gradings_under_way() == {"maria"}

    def test_with_no_deal_of_that_grade_a_random_deal_is_dealt_and_the_page_says_so(
        self, client, monkeypatch
    ):
        monkeypatch.setattr(daily, "graded_deals", lambda variant, grade: set())
        game = game_of(new_at(client, "streets", "hard"))
        page = client.get(reverse("games:game", args=[game.public_id]))
        assert "No deal of that difficulty is known yet" in page.content.decode()

    def test_any_deal_stays_a_random_deal(self, client, monkeypatch):
        monkeypatch.setattr(daily, "graded_deal", lambda *a: pytest.fail("graded"))
        game_of(new_at(client, "streets", ""))

    def test_an_unknown_grade_is_a_400(self, client):
        assert new_at(client, "streets", "impossible").status_code == 400
        assert not Game.objects.exists()

    def test_the_home_page_offers_the_difficulties(self, client):
        page = client.get(reverse("pages:home")).content.decode()
        assert 'name="grade"' in page and 'value="expert"' in page


class TestGradesShown:
    def test_the_game_page_shows_a_graded_deal_s_grade(self, client):
        deal, grade = grading.sample_wins("forty-thieves")[0]
        game = start(client, "forty-thieves", deal)
        page = client.get(reverse("games:game", args=[game.public_id])).content.decode()
        assert f'<span class="deal-grade">({grade})</span>' in page

    def test_an_ungraded_deal_shows_none(self, client):
        game = start(client, "forty-thieves", 999_999_937)
        page = client.get(reverse("games:game", args=[game.public_id])).content.decode()
        assert "deal-grade" not in page

    def test_the_history_shows_grades_without_a_query_per_row(self, client):
        def queries() -> int:
            with CaptureQueriesContext(connection) as seen:
                assert client.get(reverse("games:history")).status_code == 200
            return len(seen)

        def played(deal: int) -> None:
            assert post_move(client, start(client, "lucas", deal), "deal").status_code == 200

        GradedDeal.objects.create(variant="lucas", deal="776", grade="medium")
        played(776)
        one = queries()
        for deal, _grade in grading.sample_wins("lucas")[:3]:
            played(deal)
        GradedDeal.objects.create(variant="lucas", deal="777", grade="hard")
        played(777)
        assert queries() == one
        assert "hard," in client.get(reverse("games:history")).content.decode()

    def test_the_rules_page_gives_the_shares(self, client):
        page = client.get(reverse("pages:rules", args=["maria"])).content.decode()
        assert "Deals by difficulty" in page and "expert" in page


def test_the_committed_calibration_is_written_as_the_command_writes_it():
    text = grading.CALIBRATION.read_text(encoding="utf-8")
    assert grading.calibration_text(json.loads(text)) == text


def test_the_command_calibrates_a_sample(db, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(grading, "CALIBRATION", tmp_path / "grades.json")
    grading.calibration.cache_clear()
    grading.sample_wins.cache_clear()
    try:
        call_command("grades", "lucas", "--calibrate", "--deals", "3")
        written = json.loads((tmp_path / "grades.json").read_text())
    finally:
        grading.calibration.cache_clear()
        grading.sample_wins.cache_clear()
    assert list(written["games"]) == ["lucas"]
    assert [entry[0] for entry in written["games"]["lucas"]["sample"]] == [1, 2, 3]
    assert len(written["games"]["lucas"]["cuts"]) == 3
    assert "lucas: 3 of 3 sample deals won" in capsys.readouterr().out
