"""The board's markup that a move's answer sends again, written in Python for speed.

``{% piles views game_url %}`` (and ``{% pile view game_url %}``): piles of the board
(``games.board.PileView``). A board draws some fifty cards, and the template engine spent about
50 µs on each card's dozen lookups and escapes; these write the same markup in a few µs.
``{% table_state %}``, ``{% game_info %}``, ``{% motion_data %}`` and ``{% announcement %}``:
the rest of what a move's answer holds (the partial ``move-answer`` of games/play.html);
``{% poll %}``, the catch-up poll. The rest of the board stays in games/play.html.

Each pile is a group (``id="pile-t3"``, ``data-pile="t3"``) holding its cards:

- a face-down card: ``<span class="card back" data-card="down" role="img" aria-label=...>``;
- a card that can be picked up: a link to the game with ``?pick=t3%3A2`` (to the game alone once
  it is picked up) that carries ``data-pick`` (the cards picked up with it) and ``data-words``
  (its name in running text, for the page's "Picked up ..." notice); where they may go
  is the board's list of moves (``BoardView.moves``), not the card's;
- any other face-up card: ``<span class="card" role="img">``;
- the stock: its deal (or redeal) button while it has one, else its back with the count.

``oob``: each pile marked to replace the one with its id out of band (htmx), as the answer to a
move sends only the piles it touched.
"""

from collections.abc import Iterable
from datetime import timedelta
from html import escape

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from solitaire import clock

from ..board import CardView, PileView
from ..models import Game
from ..pace import IDLE, drawn_token

register = template.Library()

EMPTY = '<span class="slot" aria-hidden="true"></span>'


@register.simple_tag
def piles(views: list[PileView], game_url: str, oob: bool = False) -> SafeString:
    """The piles ``views``, each with its cards (a foundation shows its top card) and, while
    cards are picked up, its "Put here" button."""
    return mark_safe("".join([_pile(view, game_url, oob) for view in views]))


@register.simple_tag
def table_state(game: Game, moves: str, oob: bool = False, drawn=None) -> SafeString:
    """The table's state: the board's ply and version and when the gap to the next action
    counts from (the move form's hidden fields: games/pace.py), whether there is something to
    redo, and ``moves``, every legal move of a card (where each pick may go, for the scripts:
    "t3:2-t7 w-f1"). ``drawn``: the moment a whole page was drawn; a board redrawn in place
    (an answer) counts from the last action."""
    since = counted_from(game, drawn)
    return mark_safe(
        f'<div id="table-state" hidden data-ply="{game.ply}" data-version="{game.version}" '
        f'data-redo="{1 if game.redo else 0}" data-legal="{escape(moves)}"{_oob(oob)}>'
        f'<input type="hidden" name="ply" value="{game.ply}">'
        f'<input type="hidden" name="version" value="{game.version}">'
        f'<input type="hidden" name="drawn" value="{drawn_token(since)}"></div>'
    )


def counted_from(game: Game, drawn):
    """When the clock counts the next gap from: the last action, or the drawing of the whole
    page if later (a page opened after the tab was closed)."""
    return max(game.updated_at, drawn) if drawn else game.updated_at


@register.simple_tag
def game_info(game: Game, redeals_left: int | None, oob: bool = False, drawn=None) -> SafeString:
    """The counters: the player's moves (the automatic ones apart), time played, the deal and
    (``redeals_left`` not None, in games with redeals) the redeals left.

    The clock's ``<time>`` carries what static/js/clock.js needs to tick on (games in play):
    ``data-ms``, the time played at the last action; ``data-since``, the milliseconds the gap
    to the next action already counts (from the last action, or from the drawing of the whole
    page, ``drawn``, if later: games/pace.py); ``data-at``, the last action's moment (a new
    one means a new action counted); ``data-idle``, the most a gap counts."""
    played = game.milliseconds_played
    moves, time, deal, redeals = (
        escape(_("Moves")),
        escape(_("Time")),
        escape(_("Deal")),
        escape(_("Redeals left")),
    )
    automatic = ""
    if game.automatic_ply:
        # Translators: after the number of the player's own moves: "23 + 7 automatic".
        text = ngettext("+ %(count)d automatic", "+ %(count)d automatic", game.automatic_ply)
        automatic = (
            f' <span class="automatic-moves" data-automatic="{game.automatic_ply}">'
            f"{escape(text % {'count': game.automatic_ply})}</span>"
        )
    if game.finish_ply:
        # Translators: after the player's own moves (and the automatic ones): "29 + 7 automatic
        # + 195 by Finish", the moves the Finish button played.
        text = ngettext("+ %(count)d by Finish", "+ %(count)d by Finish", game.finish_ply)
        automatic += (
            f' <span class="finish-moves" data-finish="{game.finish_ply}">'
            f"{escape(text % {'count': game.finish_ply})}</span>"
        )
    ticking = ""
    if not game.is_finished:
        gap = max(clock.now() - counted_from(game, drawn), timedelta(0))
        since = gap // timedelta(milliseconds=1)
        at = int(game.updated_at.timestamp() * 1000)
        idle = IDLE // timedelta(milliseconds=1)
        ticking = f' data-since="{since}" data-at="{at}" data-idle="{idle}"'
    out = [
        f'<dl class="game-info" id="game-info"{_oob(oob)}>',
        f"<div><dt>{moves}</dt><dd><span data-moves>{game.player_moves}</span>{automatic}</dd>"
        "</div>",
        f'<div><dt>{time}</dt><dd><time datetime="PT{played // 1000}.{played % 1000:03}S" '
        f'data-clock data-ms="{played}"{ticking}>{game.clock}</time></dd></div>',
        f"<div><dt>{deal}</dt><dd>{escape(game.deal)}</dd></div>",
    ]
    if redeals_left is not None:
        out.append(f"<div><dt>{redeals}</dt><dd data-redeals>{redeals_left}</dd></div>")
    out.append("</dl>")
    return mark_safe("".join(out))


@register.simple_tag
def motion_data(motion, oob: bool = False) -> SafeString:
    """The cards that travelled to this board, for static/js/motion.js (games/web/motion.py):
    the moves as facts, the foundations' cards after a win, and the faces of the cards they
    name. Nothing here is shown."""
    return mark_safe(
        f'<div id="motion" hidden data-steps="{escape(motion.steps)}" '
        f'data-cascade="{escape(motion.cascade)}" data-event="{escape(motion.event)}"'
        f"{_oob(oob)}><template>{motion.faces}</template>"
        "</div>"
    )


@register.simple_tag
def poll(poll_url: str) -> SafeString:
    """Catching up with another device or tab: ask whether the game moved on when catchup.js
    says it is time (every 3 s at first, then less and less often while nothing changes) and
    at once when the page comes back in sight. play.js adds the version of the board shown at
    that moment, and holds the question back while a request is under way or cards are held
    (an htmx trigger filter would do that, but htmx would have to evaluate it as code, which
    the site's policy forbids). The element stays as it is while moves are played, and its
    answer (the board as it now is) replaces the board by its id."""
    return mark_safe(
        f'<div id="poll" hidden data-poll hx-get="{escape(poll_url)}" '
        'hx-trigger="catchup, visibilitychange from:document" '
        'hx-target="#board" hx-swap="outerHTML"></div>'
    )


@register.simple_tag
def announcement(notes: Iterable = (), message: str = "", level: str = "success") -> SafeString:
    """What happened, for the live region: the messages (``notes``, Django's) and ``message``."""
    out = [
        f'<span class="message {escape(note.tags)}">{conditional_escape(note)}</span> '
        for note in notes
    ]
    if message:
        out.append(f'<span class="message {escape(level)}">{conditional_escape(message)}</span>')
    return mark_safe("".join(out))


def _oob(oob: bool) -> str:
    return ' hx-swap-oob="true"' if oob else ""


@register.simple_tag
def pile(view: PileView, game_url: str) -> SafeString:
    return mark_safe(_pile(view, game_url, False))


def _pile(view: PileView, game_url: str, oob: bool) -> str:
    kind = view.kind
    classes = f"pile {kind} {view.classes}" if view.classes else f"pile {kind}"
    label = escape(view.label)
    # How many cards the stock holds, for the scripts, which never read it from the count shown.
    held = f' data-cards="{view.count}"' if kind == "stock" else ""
    out = [
        f'<div class="{classes}" id="pile-{view.pile}" data-pile="{view.pile}"{held} role="group" '
        f'aria-label="{label}"{_oob(oob)}>'
    ]
    if kind == "stock":
        out.append(_stock(view, label))
    else:
        cards = view.cards[-1:] if kind == "foundation" else view.cards
        url = escape(game_url)
        out.extend([_card(c, url) for c in cards] if cards else [EMPTY])
    if view.drop:
        legal = " legal" if view.drop_legal else ""
        put_here = _("Put here")
        out.append(
            f'<button type="submit" name="move" value="{escape(view.drop)}" '
            f'class="drop{legal}" aria-label="{escape(view.drop_label)}">'
            f"{escape(put_here)}</button>"
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
    """A card; ``game_url`` escaped already (a pick's query needs no escaping: it is quoted)."""
    if not view.face_up:
        return (
            f'<span class="card back" data-card="down" role="img" '
            f'aria-label="{view.spoken_html}"></span>'
        )
    if view.pick:
        return (
            f'<a class="{view.classes}" href="{game_url}{view.query}" '
            f'data-card="{view.name}" data-pick="{escape(view.pick)}" '
            f'data-words="{view.words_html}" aria-label="{view.spoken_html}">{view.face_html}</a>'
        )
    return (
        f'<span class="{view.classes}" data-card="{view.name}" role="img" '
        f'aria-label="{view.spoken_html}">{view.face_html}</span>'
    )
