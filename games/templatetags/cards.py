"""``{% piles views game_url %}``: piles of the board (``games.board.PileView``) as HTML.

A board draws some fifty cards for every move, and the template engine spent about 50 µs on
each card's dozen lookups and escapes, more than the rest of a move request's rendering put
together; this tag writes the same markup in a few µs. Everything else about the board stays in
games/play.html.

Each pile is a group (``id="pile-t3"``, ``data-pile="t3"``) holding its cards:

- a face-down card: ``<span class="card back" data-card="down" role="img" aria-label=...>``;
- a card that can be picked up: a link to the game with ``?pick=t3%3A2`` (to the game alone once
  it is picked up) that carries ``data-pick`` (the cards picked up with it); where they may go
  is the board's list of moves (``BoardView.moves``), not the card's;
- any other face-up card: ``<span class="card" role="img">``;
- the stock: its deal (or redeal) button while it has one, else its back with the count.

``oob``: each pile marked to replace the one with its id out of band (htmx), as the answer to a
move sends only the piles it touched.
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
EMPTY = '<span class="slot" aria-hidden="true"></span>'


@register.simple_tag
def piles(views: list[PileView], game_url: str, oob: bool = False) -> SafeString:
    """The piles ``views``, each with its cards (a foundation shows its top card) and, while
    cards are picked up, its "Put here" button."""
    return mark_safe("".join([_pile(view, game_url, oob) for view in views]))


@register.simple_tag
def pile(view: PileView, game_url: str) -> SafeString:
    return mark_safe(_pile(view, game_url, False))


def _pile(view: PileView, game_url: str, oob: bool) -> str:
    kind = view.kind
    classes = f"pile {kind} {view.classes}" if view.classes else f"pile {kind}"
    swap = ' hx-swap-oob="true"' if oob else ""
    label = escape(view.label)
    out = [
        f'<div class="{classes}" id="pile-{view.pile}" data-pile="{view.pile}" role="group" '
        f'aria-label="{label}"{swap}>'
    ]
    if kind == "stock":
        out.append(_stock(view, label))
    else:
        cards = view.cards[-1:] if kind == "foundation" else view.cards
        out.extend([_card(c, game_url) for c in cards] if cards else [EMPTY])
    if view.drop:
        legal = " legal" if view.drop_legal else ""
        out.append(
            f'<button type="submit" name="move" value="{escape(view.drop)}" '
            f'class="drop{legal}" aria-label="{escape(view.drop_label)}">'
            f"{escape(_('Put here'))}</button>"
        )
    out.append("</div>")
    return "".join(out)


def _stock(view: PileView, label: str) -> str:
    """The stock's deal or redeal button, else its back with the count, else its empty place."""
    if view.move == "deal":
        said = _("%(stock)s: deal") % {"stock": view.label}
        count = str(view.count)
    elif view.move == "redeal":
        said = _("Stock, empty: redeal (%(count)s left)") % {"count": view.redeals_left}
        count = "&#x21bb;"
    elif view.count:
        return (
            f'<span class="card back" data-card="down" role="img" aria-label="{label}">'
            f'<span class="count" aria-hidden="true">{view.count}</span></span>'
        )
    else:
        return f'<span class="slot" role="img" aria-label="{label}"></span>'
    return (
        f'<button type="submit" name="move" value="{view.move}" class="card back stock-button" '
        f'data-card="down" aria-label="{escape(said)}">'
        f'<span class="count" aria-hidden="true">{count}</span></button>'
    )


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
            f'aria-label="{escape(view.spoken)}">{face}</a>'
        )
    return (
        f'<span class="{view.classes}" data-card="{view.name}" role="img" '
        f'aria-label="{escape(view.spoken)}">{face}</span>'
    )
