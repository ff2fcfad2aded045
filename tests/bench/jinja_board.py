"""Django's template engine beside Jinja2 on the hottest template the site draws, the board of a
game in play (issue 41's lever "Jinja2 for the hot templates"):

    .venv/bin/python tests/bench/jinja_board.py [--renders 200] [--rounds 7]

It sets the site up as in production (debug off, a temporary SQLite file), opens a game as a
guest, and takes the context the game's view hands to ``games/play.html#board-response`` (the
board htmx asks for). Then, in each of the five languages, it draws that board with Django's
engine and with Jinja2 from ``tests/bench/jinja2/board.html`` (the same markup for a game in
play, written for Jinja2, its translations through Django's catalogues, the card tags of
``games/templatetags/cards.py`` called as functions), checks that both give the same page (the
CSRF token and the clock's reading aside, and the blank between tags), and prints the CPU time
of one drawing (the best and the median of the rounds), and of the card tags alone, which both
engines call.
"""

import argparse
import difflib
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[2]
LANGUAGES = ["en", "fr", "nl", "pl", "vi"]
#: What differs between two drawings of one board: the CSRF token (masked afresh each time)
#: and the clock's reading.
VARYING = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*|(data-since=")[^"]*')


def same_page(text: str) -> str:
    text = VARYING.sub(lambda m: m.group(1) or m.group(2), text)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", text)).strip()


def cpu_ms(draw, renders: int, rounds: int) -> tuple[float, float]:
    for _ in range(renders // 4):
        draw()
    times = []
    for _ in range(rounds):
        start = time.thread_time()
        for _ in range(renders):
            draw()
        times.append((time.thread_time() - start) / renders * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    os.chdir(ROOT)
    sys.path.insert(0, str(HERE.parent))
    folder = Path(tempfile.mkdtemp(prefix="jinja-bench-"))
    os.environ["SQLITE_PATH"] = str(folder / "bench.sqlite3")
    from move_request import setup_django, start, timed_client

    setup_django(folder / "bench.sqlite3")
    import jinja2
    from django.middleware.csrf import get_token
    from django.template.loader import get_template
    from django.urls import reverse
    from django.utils import translation
    from django.utils.safestring import mark_safe

    import games.web.draw as draw
    from games.templatetags import cards

    taken = {}
    render = draw.render

    def taking(request, template, context, status=200):
        taken.update(request=request, context=dict(context))
        return render(request, template, context, status=status)

    draw.render = taking
    client = timed_client()
    client.get("/en/")
    game = start(client, "forty-thieves", 7)
    assert client.get(f"/g/{game.public_id}/", headers={"HX-Request": "true"}).status_code == 200
    draw.render = render
    request, context = taken["request"], taken["context"]

    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE.parent / "jinja2"),
        autoescape=True,
        extensions=["jinja2.ext.i18n"],
    )
    environment.install_gettext_translations(translation, newstyle=True)
    environment.globals.update(
        url=lambda name, *args: reverse(name, args=args),
        poll=cards.poll,
        game_info=cards.game_info,
        motion_data=cards.motion_data,
        table_state=cards.table_state,
        pile=cards.pile,
        piles=cards.piles,
        announcement=cards.announcement,
    )
    jinja_board = environment.get_template("board.html")
    django_board = get_template("games/play.html#board-response")
    board = context["board"]

    def jinja_draw():
        token = f'<input type="hidden" name="csrfmiddlewaretoken" value="{get_token(request)}">'
        return jinja_board.render(context, messages=[], csrf_input=mark_safe(token))

    def tags_alone():
        url = context["game_url"]
        return "".join(
            [
                cards.poll(context["urls"]["poll"]),
                cards.game_info(context["game"], board.redeals_shown, drawn=context["drawn"]),
                cards.motion_data(context["motion"]),
                cards.table_state(context["game"], board.moves, drawn=context["drawn"]),
                cards.pile(board.stock, url),
                cards.pile(board.waste, url),
                cards.piles(board.foundations, url),
                cards.piles(board.columns, url),
                cards.announcement([], "", "success"),
            ]
        )

    print(f"{'language':<9} {'Django (best, median ms)':>25} {'Jinja2':>16} {'ratio':>6}")
    ratios = []
    for language in LANGUAGES:
        translation.activate(language)
        ours = django_board.render(context, request)
        if same_page(ours) != same_page(jinja_draw()):
            a, b = same_page(ours).split("><"), same_page(jinja_draw()).split("><")
            print("\n".join(difflib.unified_diff(a, b, lineterm="")))
            raise SystemExit(f"the two boards differ ({language})")
        django = cpu_ms(lambda: django_board.render(context, request), args.renders, args.rounds)
        jinja = cpu_ms(jinja_draw, args.renders, args.rounds)
        ratios.append(jinja[1] / django[1])
        print(
            f"{language:<9} {django[0]:>12.3f} {django[1]:>12.3f} {jinja[0]:>8.3f} {jinja[1]:>7.3f}"
            f" {ratios[-1]:>6.3f}"
        )
    tags = cpu_ms(tags_alone, args.renders, args.rounds)
    print(f"the card tags alone: {tags[0]:.3f} ms (best), {tags[1]:.3f} ms (median)")
    print(f"Jinja2 / Django, median of the languages: {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
