"""The statistics page's charts as SVG, drawn on the server: no chart library in the browser.

Each chart is an ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` that sum it up; the
page puts the same figures in a table next to it for anyone who cannot see it.
"""

from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from .selectors.stats import Week

WIDTH, HEIGHT = 640, 200
#: Room for the axis labels: left, right, top, bottom.
LEFT, RIGHT, TOP, BOTTOM = 36, 8, 10, 24
#: Every how many weeks the x axis names one.
LABEL_EVERY = 4


def _n(value: float) -> str:
    """A coordinate, to a tenth of a unit."""
    return f"{value:.1f}"


def _x(n: int, count: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * n / count


def _y(value: float, top: float) -> float:
    return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (value / top if top else 0)


def weeks_with_data(weeks: list[Week]) -> list[Week]:
    """The weeks from the first that holds a game (begun or finished in it, or finished before
    it: a win rate) to this week, the last: a chart spans those, not months of nothing. This
    week alone when none does."""
    first = next(
        (n for n, w in enumerate(weeks) if w.games or w.wins or w.losses or w.rate is not None),
        len(weeks) - 1,
    )
    return weeks[first:]


def week_label(week: Week) -> str:
    if week.start.day == 1:
        # Translators: the same short date format as below, for the first day of a month,
        # where your language writes that day apart: French "j\\e\\r N" gives "1er sept.".
        # Otherwise write the same format as below.
        return date_format(week.start, pgettext("short date format, the first of a month", "j M"))
    # Translators: the date format (Django's date filter) of a week's day and month on the
    # charts' axis, short: "j M" gives "15 Jun". Write it as your language does ("j N" gives
    # "15 juin", "15 juil.", "15 jun"; "j b" gives "15 cze"; "j/n" gives "15/6").
    return date_format(week.start, pgettext("short date format", "j M"))


def _frame(weeks: list[Week], ticks: list[tuple[float, str]], top: float) -> SafeString:
    """The axes: horizontal grid lines with their labels, and every few weeks' dates."""
    lines = format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
        (
            (
                LEFT,
                WIDTH - RIGHT,
                _n(_y(v, top)),
                _n(_y(v, top)),
                LEFT - 4,
                _n(_y(v, top) + 4),
                label,
            )
            for v, label in ticks
        ),
    )
    slot = (WIDTH - LEFT - RIGHT) / len(weeks)
    dates = format_html_join(
        "",
        '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
        (
            (_n(_x(n, len(weeks)) + slot / 2), HEIGHT - 6, week_label(week))
            for n, week in enumerate(weeks)
            if n % LABEL_EVERY == (len(weeks) - 1) % LABEL_EVERY
        ),
    )
    return lines + dates


def games_and_wins(weeks: list[Week], title: str) -> SafeString:
    """Bars: games begun and games won in each week."""
    most = max([w.games for w in weeks] + [w.wins for w in weeks] + [1])
    top = max(most, 2)
    ticks = [(0, "0"), (top / 2, f"{top / 2:g}"), (top, str(top))]
    slot = (WIDTH - LEFT - RIGHT) / len(weeks)
    bar = slot * 0.4
    bars = format_html_join(
        "",
        '<rect class="{}" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>',
        (
            (
                kind,
                _n(_x(n, len(weeks)) + slot * 0.1 + (bar if kind == "wins" else 0)),
                _n(_y(value, top)),
                _n(bar),
                _n(_y(0, top) - _y(value, top)),
                text,
            )
            for n, week in enumerate(weeks)
            for kind, value, text in (
                (
                    "games",
                    week.games,
                    ngettext(
                        "Week of %(week)s: %(count)s game",
                        "Week of %(week)s: %(count)s games",
                        week.games,
                    )
                    % {"week": week_label(week), "count": week.games},
                ),
                (
                    "wins",
                    week.wins,
                    ngettext(
                        "Week of %(week)s: %(count)s win",
                        "Week of %(week)s: %(count)s wins",
                        week.wins,
                    )
                    % {"week": week_label(week), "count": week.wins},
                ),
            )
            if value
        ),
    )
    games = sum(w.games for w in weeks)
    description = ngettext(
        "Over the last %(weeks)s weeks: %(games)s game begun and %(wins)s won; "
        "the busiest week had %(most)s.",
        "Over the last %(weeks)s weeks: %(games)s games begun and %(wins)s won; "
        "the busiest week had %(most)s.",
        games,
    ) % {
        "weeks": len(weeks),
        "games": games,
        "wins": sum(w.wins for w in weeks),
        "most": max(w.games for w in weeks),
    }
    return _svg("bars", title, description, _frame(weeks, ticks, top) + bars)


def win_rate(weeks: list[Week], title: str) -> SafeString:
    """A line: the win rate over every game finished up to each week's end."""
    ticks = [(0, "0%"), (0.5, "50%"), (1, "100%")]
    slot = (WIDTH - LEFT - RIGHT) / len(weeks)
    points = [
        (_x(n, len(weeks)) + slot / 2, _y(week.rate, 1), week)
        for n, week in enumerate(weeks)
        if week.rate is not None
    ]
    line = format_html(
        '<polyline class="rate" points="{}"/>',
        " ".join(f"{x:.1f},{y:.1f}" for x, y, _week in points),
    )
    dots = format_html_join(
        "",
        '<circle class="rate" cx="{}" cy="{}" r="3"><title>{}</title></circle>',
        (
            (
                _n(x),
                _n(y),
                _("Week of %(week)s: %(rate)s%%")
                % {"week": week_label(week), "rate": round(week.rate * 100)},
            )
            for x, y, week in points
        ),
    )
    if points:
        description = _("The win rate went from %(first)s%% to %(last)s%% over these weeks.") % {
            "first": round(points[0][2].rate * 100),
            "last": round(points[-1][2].rate * 100),
        }
    else:
        description = _("No game finished yet: there is no win rate to show.")
    return _svg("line", title, description, _frame(weeks, ticks, 1) + line + dots)


def _svg(kind: str, title: str, description: str, body: SafeString) -> SafeString:
    return format_html(
        '<svg class="chart {}" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        "<title>{}</title><desc>{}</desc>{}</svg>",
        kind,
        WIDTH,
        HEIGHT,
        title,
        title,
        description,
        body,
    )
