"""The board drawn as a PNG (Pillow), for a shared game's link preview (Open Graph and Twitter
cards): 1200 by 630 pixels, the size those previews ask for. Above the board, when given, a
title and a summary in the reader's language (the game, its deal, who played it, the grade, the
result, its moves and time: the shared page's own words); below, the stock and the waste, the
eight foundations and every column, as large as the room left lets them be, cards drawn as
their rank and a suit shape, red or black, face-down cards as backs.

The words are drawn in DejaVu Sans (Debian's fonts-dejavu-core: every letter of the five
languages, Polish and Vietnamese included), or, where it is not installed, in Pillow's own font,
which has no letter beyond Latin-1."""

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .rules import Position
from .rules.cards import is_red, rank_of, suit_of

WIDTH, HEIGHT = 1200, 630
#: A game's table as dealt, small, for the home page: drawn at twice the size it is shown at,
#: sharp on a screen of two pixels a point.
PICTURE_WIDTH, PICTURE_HEIGHT = 480, 240
TABLE = (22, 101, 52)
CARD = (250, 250, 246)
EDGE = (40, 40, 40)
BACK = (38, 76, 160)
RED, BLACK = (196, 30, 40), (25, 25, 25)
EMPTY = (18, 80, 42)
#: What a card's corner shows for each rank, Ace to King (the language's letters: words.py).
MARKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Suits in the notation's order: clubs, diamonds, hearts, spades.
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


#: The words' font, regular and bold (Debian's fonts-dejavu-core).
FONTS = Path("/usr/share/fonts/truetype/dejavu")
WORDS = (250, 250, 246)
#: The margin around the words, and their sizes: the title's and the summary's.
MARGIN = 28
TITLE_SIZE, SUMMARY_SIZE = 42, 28


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans at ``size``, or Pillow's own font where it is not installed."""
    path = FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def lines_of(draw: ImageDraw.ImageDraw, text: str, face, width: int) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` (a word longer than that
    stands alone on its line)."""
    lines: list[str] = []
    for word in text.split():
        if lines and draw.textlength(f"{lines[-1]} {word}", font=face) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def board_png(
    position: Position,
    title: str = "",
    summary: str = "",
    *,
    size: tuple[int, int] = (WIDTH, HEIGHT),
    marks=MARKS,
) -> bytes:
    """``position`` drawn, under ``title`` and ``summary`` when given, as PNG bytes of ``size``
    pixels, its cards' ranks as ``marks`` (Ace to King) show them."""
    image = Image.new("RGB", size, TABLE)
    draw = ImageDraw.Draw(image)
    top = 14 * size[0] // WIDTH
    if title:
        y = MARGIN - 6
        for points, bold, text, most in (
            (TITLE_SIZE, True, title, 2),
            (SUMMARY_SIZE, False, summary, 2),
        ):
            face = font(points, bold)
            for line in lines_of(draw, text, face, size[0] - 2 * MARGIN)[:most]:
                draw.text((MARGIN, y), line, fill=WORDS, font=face)
                y += int(points * 1.25)
        top = y + 12
    draw_board(draw, position, top, [str(mark) for mark in marks], size)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def draw_board(
    draw: ImageDraw.ImageDraw, position: Position, top: int, marks, size=(WIDTH, HEIGHT)
) -> None:
    """The board in the room from ``top`` down, its cards as large as the room lets them be:
    as wide as the columns allow, and no taller than the top row and the longest column, its
    cards fanned, fit in the height left."""
    across, down = size
    slots = max(len(position.columns), 10)
    gap = max(3, 8 * across // WIDTH)
    longest = max((len(c) for c in position.columns), default=1)
    # The margins and the gaps shrink with a smaller image.
    margin = max(4, 14 * across // WIDTH)
    room = down - top - margin
    # The top row, a gap, then the longest column: a card and a third of one per covered card.
    by_height = int(room / (1.4 * (2 + 0.3 * max(0, longest - 1))) - 4)
    width = max(16, min(110, (across - gap * (slots + 1)) // slots, by_height))
    height = int(width * 1.4)
    left = (across - (slots * width + (slots - 1) * gap)) // 2
    # The top row: the stock, the waste, the eight foundations.
    place = left
    pile(
        draw,
        place,
        top,
        width,
        height,
        position.stock[-1] if position.stock else None,
        False,
        marks,
    )
    place += width + gap
    pile(
        draw, place, top, width, height, position.waste[-1] if position.waste else None, True, marks
    )
    place = left + (slots - 8) * (width + gap)
    for foundation in position.foundations:
        pile(draw, place, top, width, height, foundation[-1] if foundation else None, True, marks)
        place += width + gap
    # The columns, their cards fanned down in the room left.
    below = top + height + max(6, 18 * across // WIDTH)
    strip = min(int(height * 0.3), max(8, (down - below - height - 6) // max(1, longest - 1)))
    for j, column in enumerate(position.columns):
        x = left + j * (width + gap)
        if not column:
            pile(draw, x, below, width, height, None, True, marks)
        for n, card in enumerate(column):
            pile(draw, x, below + n * strip, width, height, card, n >= position.down[j], marks)


def pile(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, card, face_up: bool, marks):
    """A card at (x, y), its rank as ``marks`` shows it, or an empty place when ``card`` is
    None."""
    box = (x, y, x + w, y + h)
    if card is None:
        draw.rounded_rectangle(box, radius=w // 10, outline=EMPTY, width=3)
        return
    if not face_up:
        draw.rounded_rectangle(box, radius=w // 10, fill=BACK, outline=CARD, width=2)
        return
    draw.rounded_rectangle(box, radius=w // 10, fill=CARD, outline=EDGE, width=1)
    colour = RED if is_red(card) else BLACK
    size = max(10, w // 4)
    rank = rank_of(card)
    draw.text((x + 4, y + 2), marks[rank - 1], fill=colour, font=font(size))
    suit(draw, suit_of(card), x + w - size // 2 - 5, y + size // 2 + 4, size // 2, colour)
    suit(draw, suit_of(card), x + w // 2, y + h // 2 + size // 3, w // 4, colour)


def suit(draw: ImageDraw.ImageDraw, which: int, cx: int, cy: int, r: int, colour) -> None:
    """A suit's shape of half-width ``r`` centred at (cx, cy)."""
    if which == DIAMONDS:
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour)
        return
    if which == CLUBS:
        small = r * 5 // 10
        for dx, dy in ((0, -r * 5 // 10), (-r * 5 // 10, r // 8), (r * 5 // 10, r // 8)):
            draw.ellipse(
                (cx + dx - small, cy + dy - small, cx + dx + small, cy + dy + small), colour
            )
    else:
        # A heart, or upside down a spade: two lobes and a point.
        sign = 1 if which == HEARTS else -1
        lobe = r // 2
        for dx in (-lobe, lobe):
            cy_lobe = cy - sign * lobe // 2
            draw.ellipse((cx + dx - lobe, cy_lobe - lobe, cx + dx + lobe, cy_lobe + lobe), colour)
        draw.polygon(
            [(cx - r, cy - sign * lobe // 3), (cx + r, cy - sign * lobe // 3), (cx, cy + sign * r)],
            fill=colour,
        )
        if which == HEARTS:
            return
    # The stem of a club or a spade.
    draw.polygon([(cx, cy), (cx - r // 2, cy + r), (cx + r // 2, cy + r)], fill=colour)
