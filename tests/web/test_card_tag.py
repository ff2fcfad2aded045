"""The board's tags: piles, the table's state, the counters, the poll and the announcement, as
HTML written in Python for speed."""

import pytest
from django.utils import translation

from games import board
from games.board import CardView, PileView, build_board, pile_views
from games.models import Game
from games.rules import VARIANTS, card_name, first_position
from games.templatetags.cards import announcement, game_info, pile, piles, poll, table_state

TEN_OF_HEARTS = next(c for c in range(104) if card_name(c) == "TH")


@pytest.fixture
def faces_afresh():
    """Cards' words are kept per language once looked up: drawn afresh here, and after."""
    board._face.cache_clear()
    yield
    board._face.cache_clear()


def column(*cards: CardView) -> PileView:
    return PileView("t3", "column", "Column 3", list(cards), count=len(cards))


class TestCards:
    def test_a_face_down_card_keeps_its_secret(self):
        html = pile(column(CardView(None)), "/g/abc/")
        assert (
            '<span class="card back" data-card="down" role="img" '
            'aria-label="face-down card"></span>'
        ) in html
        assert 'data-card="TH"' not in html

    def test_a_card_that_can_be_picked_up_is_a_link_with_its_pick(self):
        html = pile(column(CardView(TEN_OF_HEARTS, "t3:2")), "/g/abc/")
        assert '<a class="card red" href="/g/abc/?pick=t3%3A2" data-card="TH" ' in html
        # The page's "Picked up ..." notice names it as running text does.
        assert 'data-pick="t3:2" data-words="Ten of Hearts" aria-label="10 of Hearts"' in html
        assert '<span class="corner" aria-hidden="true">10<wbr>♥</span>' in html

    def test_a_picked_card_links_back_to_the_game_and_says_so(self):
        html = pile(column(CardView(TEN_OF_HEARTS, "t3", picked=True)), "/g/abc/")
        assert 'class="card red picked" href="/g/abc/"' in html
        assert 'aria-label="10 of Hearts, picked up"' in html

    def test_a_card_speaks_the_language_in_force_each_time(self):
        """The words of a card are kept per language: a French page after an English one (in
        one process) says "10 de cœur", and the English one after it "10 of Hearts"."""
        for language, words, down in [
            ("en", "10 of Hearts", "face-down card"),
            ("fr", "10 de cœur", "carte face cachée"),
            ("en", "10 of Hearts", "face-down card"),
        ]:
            with translation.override(language):
                html = pile(column(CardView(None), CardView(TEN_OF_HEARTS)), "/g/abc/")
            assert f'aria-label="{words}"' in html
            assert f'aria-label="{down}"' in html

    def test_a_card_that_cannot_be_picked_up_is_an_image(self):
        html = pile(column(CardView(TEN_OF_HEARTS)), "/g/abc/")
        assert '<span class="card red" data-card="TH" role="img" ' in html
        assert "href" not in html and "data-pick" not in html

    def test_words_are_escaped(self, monkeypatch, faces_afresh):
        """A card's words (a translation may hold quotes) are escaped, picked up or not, and
        so is the game's URL."""
        monkeypatch.setattr(board, "card_label", lambda card: 'Dix de "cœur" <&>')
        html = pile(column(CardView(TEN_OF_HEARTS, "t3")), '/g/a"b/')
        held = pile(column(CardView(TEN_OF_HEARTS, "t3", picked=True)), "/g/abc/")
        assert 'aria-label="Dix de &quot;cœur&quot; &lt;&amp;&gt;"' in html
        assert 'href="/g/a&quot;b/?pick=t3"' in html
        assert 'aria-label="Dix de &quot;cœur&quot; &lt;&amp;&gt;, picked up"' in held


class TestPiles:
    def test_a_pile_is_a_named_group_with_an_id_for_swapping(self):
        html = pile(column(), "/g/abc/")
        assert html == (
            '<div class="pile column" id="pile-t3" data-pile="t3" role="group" '
            'aria-label="Column 3"><span class="slot" aria-hidden="true"></span></div>'
        )

    def test_out_of_band_piles_replace_the_ones_with_their_ids(self):
        board = build_board(first_position(VARIANTS["forty-thieves"], 1))
        html = piles(board.columns[:2], "/g/abc/", True)
        assert html.count('hx-swap-oob="true"') == 2
        assert 'id="pile-t1"' in html and 'id="pile-t2"' in html and 'id="pile-t3"' not in html
        assert "hx-swap-oob" not in piles(board.columns[:2], "/g/abc/")

    def test_a_foundation_shows_its_top_card_only(self):
        board = build_board(first_position(VARIANTS["lucas"], 1))
        html = piles(board.foundations[:1], "/g/abc/")
        assert html.count('class="card') == 1 and 'data-card="A' in html

    def test_the_stock_deals_while_it_has_cards(self):
        board = build_board(first_position(VARIANTS["forty-thieves"], 1))
        html = pile(board.stock, "/g/abc/")
        assert '<button type="submit" name="move" value="deal"' in html
        assert 'aria-label="Stock, 64 cards: deal"' in html
        assert '<span class="count" aria-hidden="true">64</span>' in html

    def test_an_empty_stock_offers_a_redeal_while_one_is_left(self):
        view = PileView("s", "stock", "Stock, 0 cards", move="redeal", redeals_left=1)
        html = pile(view, "/g/abc/")
        assert 'value="redeal"' in html and "redeal (1 left)" in html

    def test_a_stock_that_cannot_deal_is_drawn_without_a_button(self):
        board = build_board(first_position(VARIANTS["forty-thieves"], 1), playable=False)
        html = pile(board.stock, "")
        assert "<button" not in html and 'aria-label="Stock, 64 cards"' in html
        empty = pile(PileView("s", "stock", "Stock, 0 cards"), "")
        assert '<span class="slot" role="img" aria-label="Stock, 0 cards"></span>' in empty

    def test_little_fortys_waste_is_fanned(self):
        board = build_board(first_position(VARIANTS["little-forty"], 1))
        assert pile(board.waste, "/g/abc/").startswith('<div class="pile waste fanned" id="pile-w"')


class TestAnswerParts:
    def test_the_table_state_carries_the_ply_version_redo_and_legal_moves(self):
        game = Game(ply=7, version=9, redo=[["t1-t2"]], deal="5")
        html = table_state(game, "t3:2-t7 w-f1")
        assert html.startswith('<div id="table-state" hidden data-ply="7" data-version="9" ')
        assert 'data-redo="1" data-legal="t3:2-t7 w-f1">' in html
        assert '<input type="hidden" name="ply" value="7">' in html
        assert '<input type="hidden" name="version" value="9">' in html

    def test_the_counters_show_redeals_only_in_games_that_have_them(self):
        game = Game(ply=3, milliseconds_played=75_999, deal="42")
        html = game_info(game, None)
        assert "<dd><span data-moves>3</span></dd>" in html and ">1:15</time>" in html
        assert "<dd>42</dd>" in html
        assert "Redeals left" not in html
        assert "<dd data-redeals>1</dd>" in game_info(game, 1, True)
        assert 'id="game-info" hx-swap-oob="true"' in game_info(game, 1, True)

    def test_the_polls_answer_replaces_the_board(self):
        html = poll("/g/abc/poll/")
        assert 'hx-get="/g/abc/poll/"' in html
        # Asked when catchup.js says (less often while nothing changes), and on coming back.
        assert 'hx-trigger="catchup, visibilitychange from:document"' in html
        assert 'hx-target="#board" hx-swap="outerHTML"' in html
        # No trigger filter: htmx would have to evaluate it as code, which the policy forbids.
        assert "[" not in html

    def test_the_stock_is_drawn_again_with_the_waste(self):
        # Its redeal button depends on whether the waste has cards.
        position = first_position(VARIANTS["little-forty"], 3)
        assert [v.pile for v in pile_views(position, ["w", "t2"])] == ["s", "w", "t2"]
        assert [v.pile for v in pile_views(position, ["t2", "f1"])] == ["f1", "t2"]

    def test_the_announcement_escapes_what_it_says(self):
        html = announcement((), 'Moved <b>"x"</b>', "warning")
        assert html == (
            '<span class="message warning">Moved &lt;b&gt;&quot;x&quot;&lt;/b&gt;</span>'
        )
