"""What an answer tells the page about cards that travel (#motion, games/web/motion.py): the
moves in order, as facts; undo the way back; after a win the foundations' cards; nothing on a
page load or a refusal."""

import json
import re
from html import unescape

from games.rules import Move, Record, card_name, first_position, get_variant

from .conftest import find_deal, log, post_move, start, won_record
from .solver_support import from_record, near_win
from .test_undo_redo import ace_dealt_first, redo, undo


def motion(response) -> dict:
    """The #motion element of an answer: its steps, its cascade and the faces it holds."""
    html = response.content.decode()
    found = re.search(r'<div id="motion"[^>]*data-steps="([^"]*)" data-cascade="([^"]*)"', html)
    assert found, "the answer has no #motion"
    holder = html[found.start() : html.index("</div>", found.start())]
    return {
        "steps": json.loads(unescape(found.group(1))),
        "cascade": json.loads(unescape(found.group(2))),
        "faces": re.findall(r'data-card="([^"]+)"', holder),
    }


def test_a_deal_says_from_the_stock_to_the_waste_and_which_card(client, game):
    position = game.position()
    top = card_name(position.stock[-1])
    said = motion(post_move(client, game, "deal"))
    assert said["steps"] == [{"from": "s", "to": "w", "n": 1, "card": top}]
    assert said["faces"] == [top]


def test_automatic_moves_follow_the_players_move_in_order(client):
    game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
    said = motion(post_move(client, game, "deal"))
    played = log(game)
    assert len(said["steps"]) == len(played) > 1
    assert "auto" not in said["steps"][0]
    assert all(step["auto"] for step in said["steps"][1:])
    for step, text in zip(said["steps"][1:], played[1:], strict=True):
        source, target = text.split("-")
        assert (step["from"], step["to"]) == (source.split(":")[0], target)


def test_undo_sends_the_moves_back_last_first(client):
    game = start(client, "forty-thieves", find_deal("forty-thieves", ace_dealt_first))
    forward = motion(post_move(client, game, "deal"))["steps"]
    back = motion(undo(client, game))["steps"]
    assert [(s["from"], s["to"], s["card"]) for s in back] == [
        (s["to"], s["from"], s["card"]) for s in reversed(forward)
    ]
    again = motion(redo(client, game))["steps"]
    assert [(s["from"], s["to"]) for s in again] == [(s["from"], s["to"]) for s in forward]


def turning_move(record: Record) -> int:
    """The index of the first move of ``record`` that turns a card face up."""
    position = first_position(get_variant(record.variant), record.deal)
    for n, text in enumerate(record.moves):
        down = sum(position.down)
        position.play(Move.parse(text))
        if sum(position.down) < down:
            return n
    raise AssertionError("no move of the record turns a card up")


def test_a_card_turned_up_is_named_and_turns_back_down_on_undo(client):
    record = won_record()
    n = turning_move(record)
    game = from_record(client, Record(record.variant, record.deal, record.moves[:n]))
    said = motion(post_move(client, game, record.moves[n]))
    step = said["steps"][0]
    assert step["face"] == "up" and step["turn"] in said["faces"]
    back = motion(undo(client, game))["steps"][-1]
    assert (back["face"], back["turn"]) == ("down", step["turn"])


def test_a_win_sends_the_foundations_cards_for_the_cascade(client):
    record = won_record()
    game = near_win(client, 1)
    said = motion(post_move(client, game, record.moves[-1]))
    game.refresh_from_db()
    assert game.status == "won"
    cards = [card for pile in said["cascade"].values() for card in pile]
    assert len(cards) == 104
    assert set(said["faces"]) >= set(cards)


def test_a_page_and_a_refusal_send_no_motion(client, game):
    page = client.get(f"/g/{game.public_id}/")
    assert motion(page)["steps"] == []
    refused = post_move(client, game, "t1-t1")
    assert motion(refused)["steps"] == []
