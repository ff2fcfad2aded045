"""What an action's answer tells the page about cards that travel (static/js/motion.js).

The answer to a move, an undo, a redo or "Finish" draws the board as it now is; the script
shows the cards travelling there from where they were. For that it needs the moves in the
order they happened, each as facts: the pile its cards left (``from``), the pile they went to
(``to``), how many (``n``; 0 for every card of the waste, a redeal), the lowest card moved
(``card``, its notation: the same card may be in two places with two decks, so the script
finds cards by pile and position, and uses the name only to draw a card it cannot see), and
the card it turned face up (``turn``; for an undo, face down again: ``face`` "down"). An undo
sends the moves taken back last first, each the way back. ``auto`` marks the automatic
moves, which follow the player's one after another.

No words here: the page says what happened in the announcement; this is for the eyes.
"""

import json
from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe

from ..board import CardView
from ..outcomes import Event, Outcome
from ..rules import card_name
from ..rules.played import Played


@dataclass
class Motion:
    """The steps of an answer as JSON (for a data attribute), and the faces of the cards they
    name (drawn hidden in the answer, for the script to copy)."""

    steps: str = "[]"
    cascade: str = "{}"
    faces: SafeString = field(default_factory=SafeString)
    #: The action's ``Event`` value: a Finish travels at its own pace, a long chain of
    #: automatic moves at a move's.
    event: str = ""


def motion_of(outcome: Outcome | None) -> Motion:
    """The motion of ``outcome`` (None: nothing travels, as on a page load or a poll)."""
    if outcome is None:
        return Motion()
    if outcome.event.travels_forward:
        played = outcome.played
        steps = [_step(p, p.source, p.target, "up") for p in played]
    elif outcome.event is Event.UNDONE:
        played = list(reversed(outcome.played))
        steps = [_step(p, p.target, p.source, "down") for p in played]
    else:
        return Motion()
    cards = {card_name(c): c for p in played for c in (p.card, p.turned_up) if c is not None}
    cascade = {}
    if outcome.position.is_won():
        for i, foundation in enumerate(outcome.position.foundations):
            cascade[f"f{i + 1}"] = [card_name(c) for c in foundation]
            cards.update({card_name(c): c for c in foundation})
    return Motion(
        steps=json.dumps(steps, separators=(",", ":")),
        cascade=json.dumps(cascade, separators=(",", ":")),
        faces=_faces(CardView(card) for card in cards.values()),
        event=outcome.event.value,
    )


def _step(played: Played, source: str, target: str, face: str) -> dict:
    if played.is_deal or played.is_redeal:
        # A deal takes from the stock to the waste; a redeal turns the waste over onto it.
        source, target = ("s", "w") if played.is_deal else ("w", "s")
        if face == "down":
            source, target = target, source
    step = {
        "from": source,
        "to": target,
        "n": played.count,
        "card": card_name(played.card) if played.card is not None else "",
    }
    if played.turned_up is not None:
        step["turn"] = card_name(played.turned_up)
        step["face"] = face
    if played.automatic:
        step["auto"] = True
    return step


def _faces(views) -> SafeString:
    """Each card drawn face up, as the board draws it (its classes and name are the board's
    own words, its face's markup is escaped already)."""
    return mark_safe(
        "".join(
            [
                f'<span class="{view.classes}" data-card="{view.name}">{view.face_html}</span>'
                for view in views
            ]
        )
    )
