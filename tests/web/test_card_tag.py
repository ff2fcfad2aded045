"""The ``card`` template tag: a card of the board as HTML, written in Python for speed."""

from games.board import CardView
from games.rules import card_name
from games.templatetags.cards import card

TEN_OF_HEARTS = next(c for c in range(104) if card_name(c) == "TH")


class TestCardTag:
    def test_a_face_down_card_keeps_its_secret(self):
        html = card(CardView(None), "/g/abc/")
        assert html == (
            '<span class="card back" data-card="down" role="img" '
            'aria-label="face-down card"></span>'
        )

    def test_a_card_that_can_be_picked_up_is_a_link_with_its_pick_and_targets(self):
        html = card(CardView(TEN_OF_HEARTS, "t3:2", "f1 t7"), "/g/abc/")
        assert html.startswith('<a class="card red" href="/g/abc/?pick=t3%3A2" data-card="TH" ')
        assert 'data-pick="t3:2" data-to="f1 t7" aria-label="Ten of Hearts"' in html
        assert '<span class="corner" aria-hidden="true">10♥</span>' in html

    def test_a_picked_card_links_back_to_the_game_and_says_so(self):
        html = card(CardView(TEN_OF_HEARTS, "t3", "", picked=True), "/g/abc/")
        assert 'class="card red picked" href="/g/abc/"' in html
        assert 'aria-label="Ten of Hearts, picked up"' in html

    def test_a_card_that_cannot_be_picked_up_is_an_image(self):
        html = card(CardView(TEN_OF_HEARTS), "/g/abc/")
        assert html.startswith('<span class="card red" data-card="TH" role="img" ')
        assert "href" not in html and "data-pick" not in html

    def test_words_are_escaped(self):
        view = CardView(TEN_OF_HEARTS, "t3")
        view.spoken = 'Dix de "cœur" <&>'
        html = card(view, "/g/abc/")
        assert 'aria-label="Dix de &quot;cœur&quot; &lt;&amp;&gt;"' in html
