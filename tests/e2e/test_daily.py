"""Two players win today's daily deal in different numbers of moves and both see the
leaderboard in that order, each their own row marked; one shares the game, and a logged-out
browser opens the link: the moves are hidden until the day is over, then it steps through the
replay."""

from datetime import UTC, datetime, time, timedelta

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import days
from games.models import Game
from games.owners import Owner
from games.rules import Move
from games.rules.solver import WON, solve
from games.services import play
from solitaire import clock as site_clock

from .conftest import BOARD, DESKTOP, SCREENSHOTS, _close, _new_page

pytestmark = pytest.mark.django_db(transaction=True)


def win_moves(position) -> list[str]:
    """A win from ``position`` found by the solver (a fixed number of positions)."""
    result = solve(position, seconds=None, max_nodes=60_000)
    assert result.status == WON
    return [str(m) for m in result.moves]


def with_a_detour(position, moves: list[str]) -> list[str]:
    """``moves`` with two more in them that cancel out: a card moved to another column and
    straight back, found by the engine along the win."""
    for n, text in enumerate(moves):
        for move in position.legal_moves():
            there = str(move)
            source, _sep, target = there.partition("-")
            if not (source.startswith("t") and target.startswith("t")) or ":" in source:
                continue
            before = position.key()
            position.play(move)
            back = Move.parse(f"{target}-{source}")
            if back in position.legal_moves():
                position.play(back)
                if position.key() == before:
                    return [*moves[:n], there, str(back), *moves[n:]]
                position.undo()
            position.undo()
        position.play(Move.parse(text))
    raise AssertionError("no detour found along the win")


def play_daily_in(page, live_server) -> Game:
    """Open today's Lucas deal in ``page``'s browser: the game the page shows."""
    page.goto(f"{live_server.url}/daily/lucas/")
    expect(page.locator(BOARD)).to_have_attribute("data-variant", "lucas")
    return Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])


def finish_by_play(game: Game, moves: list[str]) -> Game:
    """Play ``moves`` on the player's game one by one as their own moves, a second apart on the
    site's stopped clock (checked by the engine; no automatic move, no Finish, a person's pace:
    a win that ranks)."""
    owner = Owner(session_key=game.session_key)
    for ply, text in enumerate(moves, game.ply):
        site_clock.advance(timedelta(seconds=1))
        play.play_move(owner, game.public_id, ply, None, Move.parse(text), OFF)
    game.refresh_from_db()
    return game


#: The automatic moves off in Lucas: every move is the player's.
OFF = {"lucas": False}


def test_two_players_rank_and_a_shared_game_replays_logged_out(
    browser, live_server, screenshot, clock
):
    # Noon of today (UTC) on the site's clock, stopped: the wins come within the day.
    noon = clock.moment = datetime.combine(days.today(), time(12), UTC)
    ann_context, ann = _new_page(browser, DESKTOP)
    bob_context, bob = _new_page(browser, DESKTOP)
    guest_context, guest = _new_page(browser, DESKTOP)
    try:
        ann_game = play_daily_in(ann, live_server)
        bob_game = play_daily_in(bob, live_server)
        assert ann_game.deal == bob_game.deal and ann_game.pk != bob_game.pk
        short = win_moves(ann_game.position())
        long = with_a_detour(bob_game.position(), win_moves(bob_game.position()))
        assert finish_by_play(ann_game, short).status == Game.Status.WON
        assert finish_by_play(bob_game, long).status == Game.Status.WON

        for page, mine in ((ann, len(short)), (bob, len(long))):
            page.goto(f"{live_server.url}/daily/")
            page.get_by_role("link", name="Leaderboard of Lucas").click()
            rows = page.locator("table.leaderboard tbody tr")
            expect(rows).to_have_count(2)
            moves = [int(t) for t in rows.locator("td:nth-child(3)").all_inner_texts()]
            assert moves[0] < moves[1]
            expect(page.locator("tr.mine td:nth-child(3)")).to_have_text(str(mine))
            expect(page.locator("tr.mine th")).to_have_text("a player (you)")
        screenshot(ann, "daily-leaderboard-en")

        ann.goto(f"{live_server.url}/g/{ann_game.public_id}/")
        ann.get_by_role("button", name="Share this game").click()
        expect(ann.get_by_role("button", name="Withdraw this link")).to_be_visible()
        link = ann.url

        guest.goto(link)
        expect(guest.locator("h1")).to_contain_text("A shared game: Lucas")
        expect(guest.get_by_role("button", name="Withdraw this link")).to_have_count(0)
        # Today's moves are not shown (they would rank for whoever copied them) ...
        expect(guest.locator(".moves-hidden")).to_contain_text("once that day is over")
        expect(guest.locator(".replay-at")).to_have_count(0)
        # ... until the day is over.
        clock.moment = noon + timedelta(hours=12, seconds=1)
        guest.goto(link)
        expect(guest.locator(".moves-hidden")).to_have_count(0)
        # It opens at the deal, ready to play; Last and First step to either end.
        expect(guest.locator(".replay-at")).to_contain_text("Step 0 of")
        guest.get_by_role("link", name="Last").click()
        expect(guest.locator(".replay-at")).to_contain_text(f"Step {ann_game.ply} of")
        guest.get_by_role("link", name="First").click()
        expect(guest.locator(".replay-at")).to_contain_text("Step 0 of")
        guest.get_by_role("link", name="Forward").click()
        expect(guest.locator(".replay-at")).to_contain_text("Step 1 of")
        screenshot(guest, "shared-game-en")
        image = guest.request.get(f"{link}board.png")
        assert image.ok and image.headers["content-type"] == "image/png"
        clock.moment = noon  # the day of the deal again, for the pages below

        # The same pages in French, for a person to look at (and in English, /daily/ too).
        ann.goto(f"{live_server.url}/daily/")
        screenshot(ann, "daily-en")
        for page in (ann, guest):
            page.context.add_cookies(
                [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr", "url": live_server.url}]
            )
        ann.goto(f"{live_server.url}/daily/")
        expect(ann.locator("h1")).to_have_text("Donnes du jour")
        screenshot(ann, "daily-fr")
        ann.get_by_role("link", name="Classement du jeu Lucas").click()
        expect(ann.locator("tr.mine th")).to_have_text("un joueur (vous)")
        screenshot(ann, "daily-leaderboard-fr")
        guest.goto(link)
        expect(guest.locator("h1")).to_contain_text("Une partie partagée : Lucas")
        screenshot(guest, "shared-game-fr")
    finally:
        for context, page in ((ann_context, ann), (bob_context, bob), (guest_context, guest)):
            _close(context, page)


def in_sight(page, selector: str) -> None:
    """``selector`` is inside the window and on top at its middle (nothing covers it)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box and box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (selector, box)
    on_top = page.locator(selector).evaluate(
        """e => { const r = e.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return at !== null && (e === at || e.contains(at)); }"""
    )
    assert on_top, f"{selector} is covered"


@pytest.mark.parametrize(
    ("size", "language"),
    [("390x844", "pl"), ("844x390", "en"), ("1280x720", "pl"), ("1280x720", "en")],
)
def test_a_daily_game_says_so_warns_before_help_and_its_win_shows_its_rank(
    browser, live_server, clock, size, language
):
    clock.moment = datetime.combine(days.today(), time(12), UTC)
    width, height = (int(n) for n in size.split("x"))
    phone = width < 1000
    context, page = _new_page(
        browser, {"width": width, "height": height}, has_touch=phone, is_mobile=phone
    )
    try:
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        game = play_daily_in(page, live_server)
        words = {
            "en": ("Daily deal of", "deal off the leaderboard", "Rank"),
            "pl": (
                "Rozdanie dnia",
                "wygrana w dzisiejszym rozdaniu nie trafia do rankingu",
                "Miejsce",
            ),
        }[language]
        expect(page.locator("#daily-banner")).to_contain_text(words[0])
        expect(page.locator('[data-daily="warning"]')).to_contain_text(words[1])
        in_sight(page, "#daily-banner .daily-of")
        page.screenshot(path=str(SCREENSHOTS / f"daily-game-{language}-{size}.png"))
        assert finish_by_play(game, win_moves(game.position())).status == Game.Status.WON
        page.reload()
        expect(page.locator('[data-win="rank"]')).to_have_text("1")
        expect(page.locator("#won-panel dt", has_text=words[2])).to_be_visible()
        link = page.locator('[data-win="ranked"] a')
        link.scroll_into_view_if_needed()
        in_sight(page, '[data-win="ranked"] a')
        page.screenshot(path=str(SCREENSHOTS / f"daily-won-{language}-{size}.png"))
        link.click()
        expect(page.locator("table.leaderboard tr.mine")).to_have_count(1)
    finally:
        _close(context, page)
