"""What the site quotes back of a player's bad input."""


def test_a_deal_number_too_long_is_quoted_whole_or_visibly_cut(client):
    response = client.get("/en/play/forty-thieves/100000000000000000000/")
    assert response.status_code == 400
    html = response.content.decode()
    assert "100000000000000000000" in html
    response = client.get("/en/play/forty-thieves/" + "9" * 40 + "/")
    assert response.status_code == 400
    assert "9" * 23 + "\u2026" in response.content.decode()


def test_an_unknown_page_is_a_plain_404_page_of_our_own(client, settings):
    settings.DEBUG = False
    response = client.get("/en/rules/no-such-game/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Not found" in html and "All the games" in html


def test_a_bad_deal_number_on_the_home_page_is_said_at_the_top(client):
    response = client.post("/new/", {"variant": "maria", "deal": "abc"})
    assert response.status_code == 400
    html = response.content.decode()
    summary = html.index('class="error-summary"')
    assert summary < html.index("Start a game")
    assert "No game was started" in html
