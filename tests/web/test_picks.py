"""Only cards the rules could move together can be picked up together."""

from .conftest import start, url


class TestPicks:
    def test_cards_that_are_not_a_run_cannot_be_picked_up_together(self, client):
        # Forty Devils deal 1, column 4 is KH 6H 8S JH: only the Jack can move.
        game = start(client, "forty-devils", 1)
        html = client.get(url("game", game)).content.decode()
        assert 'data-pick="t4"' in html
        assert 'data-pick="t4:2"' not in html and 'data-pick="t4:4"' not in html

    def test_a_pick_of_cards_that_are_not_a_run_is_refused(self, client):
        game = start(client, "forty-devils", 1)
        response = client.get(url("game", game) + "?pick=t4:4")
        assert response.status_code == 400
