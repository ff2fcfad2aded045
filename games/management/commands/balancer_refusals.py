"""``manage.py balancer_refusals [--check]``: writes deploy/refusals.map, the answers the
balancer (deploy/haproxy.cfg) gives a client it refuses before any app server sees it, in each
of the site's languages: the short page the site itself draws for a refused client
(``429_brief.html``) and, for an htmx request, the sentence alone for the page's message area;
and the page the site itself answers when it cannot serve a request for a moment (``503.html``),
for a request no app server could take.
``--check`` writes nothing and fails when the file is not what the templates and catalogues
give now (the suite runs it: a changed sentence or a new language cannot leave the balancer
behind)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.template.loader import render_to_string
from django.utils import translation

from solitaire.limits import wait_words

MAP = Path(settings.BASE_DIR) / "deploy" / "refusals.map"
#: How long the balancer asks a refused client to wait: its window (haproxy.cfg, "the door").
RETRY_AFTER = 10


def refusals() -> str:
    """The map's text: a line per key, ``<language>`` for a refusal's page, ``<language>-htmx``
    for its sentence alone and ``<language>-503`` for the page of a request no app server could
    take; each answer on one line, as HAProxy's maps want."""
    lines = [
        "# The balancer's answers to a client it refuses (deploy/haproxy.cfg), one a line:",
        "# written by `manage.py balancer_refusals` from templates/429_brief.html and the",
        "# catalogues; do not edit by hand.",
    ]
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            message = str(wait_words(RETRY_AFTER))
            page = render_to_string("429_brief.html", {"message": message})
            sentence = render_to_string("429.html#message", {"message": message})
            unavailable = render_to_string("503.html")
        lines.append(f"{language} {' '.join(page.split())}")
        lines.append(f"{language}-htmx {' '.join(sentence.split())}")
        lines.append(f"{language}-503 {' '.join(unavailable.split())}")
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = "Write deploy/refusals.map, the balancer's refusals in each language."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="compare, write nothing")

    def handle(self, *args, check, **options):
        text = refusals()
        if check:
            if not MAP.exists() or MAP.read_text(encoding="utf-8") != text:
                raise CommandError(f"{MAP} is out of date: run manage.py balancer_refusals")
            self.stdout.write(f"{MAP} is up to date.")
            return
        MAP.write_text(text, encoding="utf-8")
        self.stdout.write(f"Wrote {MAP}.")
