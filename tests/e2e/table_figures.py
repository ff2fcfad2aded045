"""The table's figures on a screen, read in the browser: how much of the table the cards cover,
the smallest corner letter, whether the page scrolls, and what covers a card.

Shared by the phone table's browser tests (test_phone_table.py) and the script that prints the
figures for every game at every size (tests/bench/phone_table.py).
"""

#: The sizes the table is made for: four phones, upright and sideways, and a laptop.
SIZES = {
    "360x640": {"width": 360, "height": 640},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "412x915": {"width": 412, "height": 915},
    "1280x720": {"width": 1280, "height": 720},
}


def is_phone(size: str) -> bool:
    return size != "1280x720"


#: The figures of the table as drawn. The cards' area is each pile's cards' outline (a
#: column's cards overlap and touch, so their bounding box is their union) over the table's
#: (#board's) area; the corner letters are those of every face-up card, covered or not.
FIGURES = """() => {
    const board = document.querySelector('#board');
    const table = board.getBoundingClientRect();
    let covered = 0;
    for (const pile of board.querySelectorAll('[data-pile]')) {
        const boxes = [...pile.querySelectorAll(':scope > .card, :scope .card')]
            .map(c => c.getBoundingClientRect()).filter(r => r.width && r.height);
        if (!boxes.length) continue;
        const left = Math.min(...boxes.map(r => r.left)), top = Math.min(...boxes.map(r => r.top));
        const right = Math.max(...boxes.map(r => r.right));
        const bottom = Math.max(...boxes.map(r => r.bottom));
        covered += (right - left) * (bottom - top);
    }
    const corners = [...board.querySelectorAll('.card:not(.back) .corner')]
        .map(c => parseFloat(getComputedStyle(c).fontSize));
    const cards = [...board.querySelectorAll('.tableau .card')].map(c => c.getBoundingClientRect());
    const e = document.scrollingElement;
    return {
        coverage: covered / (table.width * table.height),
        screen: covered / (innerWidth * innerHeight),
        corner: Math.min(...corners),
        card: {
            width: Math.min(...cards.map(r => r.width)),
            height: Math.min(...cards.map(r => r.height)),
        },
        tableTop: table.top,
        scrolls: e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1,
    };
}"""

#: Every box of an answer or announcement in sight (#announce's messages, #assist's answers,
#: the held card's note) that overlaps a card: [what, card] pairs.
COVERING = """() => {
    const boxes = [...document.querySelectorAll(
        '#announce .message, #assist .assist-answer, .pick-note')]
        .filter(e => e.checkVisibility({opacityProperty: true, visibilityProperty: true}));
    const cards = [...document.querySelectorAll('#board .card')]
        .filter(c => c.checkVisibility({visibilityProperty: true}));
    const found = [];
    for (const box of boxes) {
        const a = box.getBoundingClientRect();
        for (const card of cards) {
            const b = card.getBoundingClientRect();
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 0.5 && y > 0.5) {
                found.push([box.className, card.dataset.card || card.className]);
            }
        }
    }
    return found;
}"""


def figures(page) -> dict:
    return page.evaluate(FIGURES)


def covering(page) -> list:
    return page.evaluate(COVERING)
