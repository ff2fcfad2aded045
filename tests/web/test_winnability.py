"""How winnable each game is: the solver's answers for fresh deals, recorded by every search
of a deal from its start, and shown on the rules page, the game's page and the statistics."""

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import tasks
from games.models import DealSearch
from games.rules import VARIANTS, Move, first_position
from games.rules.solver import LOST, UNKNOWN, WON, SolveResult
from games.rules.solver.grading import sample_size, sample_wins
from games.selectors import deals
from games.services import winnability

from .conftest import post_move, start
from .solver_support import ask, run_worker

# Lucas deal 9002 is won in a fraction of a second.
QUICK = ("lucas", 9002)


def answer(status: str) -> SolveResult:
    return SolveResult(status, [], 100, 0.5)


def test_a_search_of_a_deal_is_recorded_with_its_budget(db):
    result = winnability.search_deal(*QUICK, seconds=5)
    assert result.status == WON
    row = DealSearch.objects.get()
    assert (row.variant, row.deal, row.seconds, row.status) == ("lucas", "9002", 5.0, WON)
    assert row.nodes == result.nodes > 0


def test_a_decided_answer_replaces_not_decided_never_the_other_way(db):
    winnability.record_search("maria", 7, 10, answer(UNKNOWN))
    winnability.record_search("maria", 7, 10, answer(LOST))
    winnability.record_search("maria", 7, 10, answer(UNKNOWN))
    assert DealSearch.objects.get().status == LOST
    winnability.record_search("maria", 7, 60, answer(UNKNOWN))  # another budget: its own row
    assert DealSearch.objects.count() == 2
    with pytest.raises(KeyError):
        winnability.record_search("snap", 7, 10, answer(WON))


def test_the_figures_are_per_budget_the_most_searched_first(db):
    for deal, status in enumerate([WON, WON, LOST, UNKNOWN], 1):
        winnability.record_search("maria", deal, 10, answer(status))
    winnability.record_search("maria", 1, 60, answer(WON))
    rows = deals.winnabilities("maria")
    assert [(r.seconds, r.tried, r.won, r.lost, r.unknown) for r in rows] == [
        (10.0, 4, 2, 1, 1),
        (60.0, 1, 1, 0, 0),
    ]
    assert rows[0].won_percent == 50
    assert deals.winnability("lucas") is None


def test_the_rules_page_says_how_winnable_the_game_is(client):
    page = client.get(reverse("pages:rules", args=["maria"])).content.decode()
    # Before this site's solver has tried a deal, the line gives the calibration sample's
    # figures, which the deals' difficulties below it are shares of: never "not tried" above
    # figures of what it won.
    tried, won = sample_size("maria"), len(sample_wins("maria"))
    assert 0 < won < tried
    assert f"the solver won {won} of the {tried} deals it tried in its sample" in page
    assert "Deals by difficulty, of the deals the solver won" in page
    assert "has not tried any deal" not in page
    for deal, status in enumerate([WON, WON, LOST], 1):
        winnability.record_search("maria", deal, 10, answer(status))
    page = client.get(reverse("pages:rules", args=["maria"])).content.decode()
    assert "of 3 deals the solver tried at 10 s a deal, 2 won and 1 proved lost" in page
    assert reverse("pages:winnability", args=["maria"]) in page
    # Another game's figures are its own.
    other = client.get(reverse("pages:rules", args=["lucas"])).content.decode()
    assert "of 3 deals" not in other
    assert "deals it tried in its sample" in other


def test_before_any_search_the_games_page_gives_the_sample_as_the_rules_page_does(client):
    page = client.get(reverse("pages:winnability", args=["maria"])).content.decode()
    tried, won = sample_size("maria"), len(sample_wins("maria"))
    assert f"the solver won {won} of the {tried} deals it tried in its sample" in page
    assert "has not tried any deal" not in page


def test_the_games_page_gives_every_budget_and_the_deals_proved_lost(client):
    winnability.record_search("indian", 12, 10, answer(WON))
    winnability.record_search("indian", 34, 10, answer(LOST))
    winnability.record_search("indian", 56, 60, answer(UNKNOWN))
    response = client.get(reverse("pages:winnability", args=["indian"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-seconds="10.0"' in page and 'data-seconds="60.0"' in page
    assert reverse("pages:play_deal", args=["indian", "34"]) in page
    assert reverse("pages:play_deal", args=["indian", "12"]) not in page
    assert "Deals proved lost" in page


def test_an_unknown_game_has_no_page(client):
    assert client.get(reverse("pages:winnability", args=["snap"])).status_code == 404


def test_the_statistics_set_the_solvers_share_beside_the_win_rate(client):
    stats = reverse("games:variant_statistics", args=["maria"])
    assert 'data-figure="solver-wins"' not in client.get(stats).content.decode()
    for deal, status in enumerate([WON, LOST, UNKNOWN, UNKNOWN], 1):
        winnability.record_search("maria", deal, 10, answer(status))
    page = client.get(stats).content.decode()
    assert 'data-figure="solver-wins"' in page
    assert "25% of 4 deals at 10 s" in page
    assert page.index('data-figure="win-rate"') < page.index('data-figure="solver-wins"')


def test_the_command_fills_the_figures_in_bulk_and_extends_them(db, capsys):
    call_command("winnability", "lucas", "--deals", "2", "--seconds", "3", "--start", "9002")
    out = capsys.readouterr().out
    assert "lucas 9002: won" in out
    assert "of 2 deals tried" in out
    assert DealSearch.objects.filter(variant="lucas", seconds=3).count() == 2
    # Again: the deals searched at this budget are skipped, the next ones searched.
    call_command("winnability", "lucas", "--deals", "1", "--seconds", "3", "--start", "9002")
    assert "lucas 9004:" in capsys.readouterr().out
    assert DealSearch.objects.filter(variant="lucas", seconds=3).count() == 3


@pytest.mark.parametrize(
    "args",
    [["snap"], ["lucas", "--deals", "0"], ["lucas", "--seconds", "0"], ["lucas", "--start", "0"]],
)
def test_the_command_refuses_bad_input_and_records_nothing(db, args):
    with pytest.raises(CommandError):
        call_command("winnability", *args)
    assert not DealSearch.objects.exists()


def test_a_top_up_by_hand_records_every_answer(db):
    call_command(
        "find_winnable_deals", "lucas", "--start", "9002", "--count", "1", "--seconds", "3"
    )
    assert DealSearch.objects.get().status == WON


def test_an_answer_for_a_position_is_kept_only_at_the_deals_start(db):
    position = first_position(VARIANTS["maria"], 5)
    assert winnability.record_if_fresh("maria", "5", position, 10, answer(LOST))
    moved = position.copy()
    moved.play(Move.parse("deal"))
    assert not winnability.record_if_fresh("maria", "5", moved, 10, answer(WON))
    assert not winnability.record_if_fresh("maria", "6", position, 10, answer(WON))
    assert not winnability.record_if_fresh("snap", "5", position, 10, answer(WON))
    assert not winnability.record_if_fresh("maria", "x5", position, 10, answer(WON))
    assert [(r.deal, r.status) for r in DealSearch.objects.all()] == [("5", LOST)]


@pytest.mark.django_db(transaction=True)  # the worker, run here, closes its connections
class TestTheSitesOwnSearches:
    """Every search the site runs on a fresh deal counts: the top-up of winnable deals, and
    "Can this still be won?" asked before the player's first move (the deal's own automatic
    moves lose no win)."""

    def test_the_top_up_records_every_deal_it_tries(self, db):
        tasks.find_winnable_deals.enqueue("lucas", 9002, 2, 2)
        run_worker()
        assert sorted(DealSearch.objects.values_list("deal", flat=True)) == ["9002", "9003"]

    def test_can_this_still_be_won_at_the_deal_counts(self, client):
        game = start(client, *QUICK)
        assert game.player_moves == 0 and game.ply == game.automatic_ply
        assert ask(client, "analysis", game).status_code == 200
        run_worker()
        row = DealSearch.objects.get()
        assert (row.variant, row.deal, row.status) == ("lucas", "9002", WON)
        assert row.seconds == settings.SOLVER_ANALYSIS_SECONDS

    def test_can_this_still_be_won_after_a_move_does_not(self, client):
        game = start(client, *QUICK)
        post_move(client, game, "deal")
        ask(client, "analysis", game)
        run_worker()
        assert not DealSearch.objects.exists()
