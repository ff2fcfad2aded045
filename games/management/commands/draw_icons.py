"""``manage.py draw_icons``: draws the site's app icons (solitaire/app.py ICONS, the Apple
touch icon) with Pillow into static/icons/, where they are committed: two cards fanned on the
table's green, the Ace of Hearts behind the Ace of Spades. "any" icons are a rounded square;
maskable ones fill their square and keep the cards inside the circle a launcher may cut
(the middle 80 %); the Apple touch icon fills its square (iOS rounds it itself).
``--check`` writes nothing and fails when a committed icon is not what the drawing gives."""

import io

from django.core.management.base import BaseCommand
from PIL import Image, ImageDraw

from games.images import HEARTS, SPADES, suit
from games.management.made import add_check, write_or_check
from solitaire.app import APPLE_TOUCH_ICON, ICONS, TABLE_GREEN

#: Each icon is drawn this many times larger, then made smaller: smooth edges.
SCALE = 4
CARD = (253, 253, 248, 255)
EDGE = (40, 40, 40, 255)
RED, BLACK = (192, 16, 43), (26, 26, 26)


def _card(width: int, which: int, colour, angle: float) -> Image.Image:
    """One card, an Ace (its suit large in the middle), turned by ``angle`` degrees."""
    height = int(width * 1.4)
    layer = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    edge = max(1, width // 40)
    draw.rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=width // 9, fill=CARD, outline=EDGE, width=edge
    )
    suit(draw, which, width // 2, height // 2, width // 4, colour)
    return layer.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)


def draw_icon(size: int, *, cards: float, rounded: bool) -> Image.Image:
    """An icon of ``size`` pixels: the cards take ``cards`` of its width; ``rounded``, the green
    is a rounded square on a clear ground, else it fills the square."""
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if rounded:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 22 // 100, fill=TABLE_GREEN)
    else:
        draw.rectangle((0, 0, big, big), fill=TABLE_GREEN)
    width = int(big * cards * 0.5)
    for which, colour, angle, shift in ((HEARTS, RED, 14, -0.19), (SPADES, BLACK, -8, 0.13)):
        card = _card(width, which, colour, angle)
        x = (big - card.width) // 2 + int(big * cards * shift)
        y = (big - card.height) // 2
        image.alpha_composite(card, (x, y))
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    return small if rounded else small.convert("RGB")


def icons() -> dict[str, Image.Image]:
    """Every icon by its file's name under static/."""
    drawn = {}
    for name, size, purpose in ICONS:
        if purpose == "maskable":
            drawn[name] = draw_icon(size, cards=0.62, rounded=False)
        else:
            drawn[name] = draw_icon(size, cards=0.8, rounded=True)
    drawn[APPLE_TOUCH_ICON] = draw_icon(180, cards=0.76, rounded=False)
    return drawn


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


class Command(BaseCommand):
    help = "Draw the app's icons into static/icons/."

    def add_arguments(self, parser):
        add_check(parser)

    def handle(self, *args, check=False, **options):
        files = {name: png(image) for name, image in icons().items()}
        write_or_check(files, self, check=check)
