"""``{% card card game_url %}``: one card of the board (a ``games.board.CardView``) as HTML.

A board draws some fifty cards for every move, and the template engine spent about 50 µs on
each card's dozen lookups and escapes, more than the rest of a move request's rendering put
together; this tag writes the same markup in a few µs. Everything else about the board stays in
games/play.html.

- a face-down card: ``<span class="card back" data-card="down" role="img" aria-label=...>``;
- a card that can be picked up: a link to the game with ``?pick=t3%3A2`` (to the game alone once
  it is picked up) that carries ``data-pick`` (the cards picked up with it) and ``data-to``
  (where they may go, for the scripts);
- any other face-up card: ``<span class="card" role="img">``.
"""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ..board import CardView, PileView

register = template.Library()

#: A face-up card's face: its corner (rank and suit) and its big suit mark.
FACE = (
    '<span class="corner" aria-hidden="true">{}</span>'
    '<span class="pip" aria-hidden="true">{}</span>'
)


@register.simple_tag
def card(view: CardView, game_url: str) -> SafeString:
    return mark_safe(_card(view, game_url))


@register.simple_tag
def piles(views: list[PileView], game_url: str, kind: str) -> SafeString:
    """Foundations or columns (``kind``), each a group with its cards (a foundation shows its top
    card) and, while cards are picked up, its "Put here" button: the same markup the template
    would write, for every pile in one call."""
    put_here = _("Put here")
    out = []
    for view in views:
        cards = view.cards[-1:] if kind == "foundation" else view.cards
        out.append(
            f'<div class="pile {kind}" data-pile="{view.pile}" role="group" '
            f'aria-label="{escape(view.label)}">'
        )
        if cards:
            out.extend(_card(c, game_url) for c in cards)
        else:
            out.append('<span class="slot" aria-hidden="true"></span>')
        if view.drop:
            legal = " legal" if view.drop_legal else ""
            out.append(
                f'<button type="submit" name="move" value="{escape(view.drop)}" '
                f'class="drop{legal}" aria-label="{escape(view.drop_label)}">'
                f"{escape(put_here)}</button>"
            )
        out.append("</div>")
    return mark_safe("".join(out))


def _card(view: CardView, game_url: str) -> str:
    if not view.face_up:
        return (
            f'<span class="card back" data-card="down" role="img" '
            f'aria-label="{escape(view.label)}"></span>'
        )
    face = FACE.format(escape(view.corner), escape(view.suit))
    if view.pick:
        return (
            f'<a class="{view.classes}" href="{escape(game_url + view.query)}" '
            f'data-card="{view.name}" data-pick="{escape(view.pick)}" '
            f'data-to="{escape(view.targets)}" aria-label="{escape(view.spoken)}">{face}</a>'
        )
    return (
        f'<span class="{view.classes}" data-card="{view.name}" role="img" '
        f'aria-label="{escape(view.spoken)}">{face}</span>'
    )
