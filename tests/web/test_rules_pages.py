"""Each rules page says its own game's rules, not the family's where the game differs."""

import pytest
from django.urls import reverse

from games.rules import VARIANTS


def rules_page(client, game: str) -> str:
    response = client.get(reverse("pages:rules", args=[game]))
    assert response.status_code == 200
    return response.content.decode()


def test_lucas_does_not_say_an_ace_starts_an_empty_foundation(client):
    html = rules_page(client, "lucas")
    assert "Any Ace may start an empty foundation" not in html
    assert "each starts with its Ace" in html


def test_little_forty_says_the_stock_deals_three_and_redealing_counts_as_a_move(client):
    html = rules_page(client, "little-forty")
    assert "deals its top 3 cards" in html and "deals its top card face up" not in html
    assert "dealing and redealing count as moves" in html
    assert "deals the remaining cards in the same order" in html


@pytest.mark.parametrize("game", [g for g in VARIANTS if g != "little-forty"])
def test_other_games_deal_one_card_and_have_no_redeal(client, game):
    html = rules_page(client, game)
    assert "deals its top card face up" in html
    assert "One pass through the stock: no redeal." in html
