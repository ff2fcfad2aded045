"""axe-core, the accessibility checker, run on a page in the browser (tests/e2e/
test_accessibility.py; docs/accessibility.md).

axe-core is an npm devDependency (package.json; `make test` installs it with esbuild). The
site's Content Security Policy refuses a script added to the page, so its source is evaluated
through the DevTools protocol, which the policy does not govern.

Each run's findings are kept in test-artifacts/axe/ (one JSON file per page and state);
``python -m tests.e2e.axe`` counts them by impact.
"""

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
FINDINGS = ROOT / "test-artifacts" / "axe"

#: axe's default rules, and with them every rule of these tags (WCAG 2.0, 2.1 and 2.2, A and
#: AA), some of which axe leaves off by default.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: Rules turned off, each with why (docs/accessibility.md says the same).
OFF: dict[str, str] = {}
#: The impacts that fail a test.
FAILING = ("serious", "critical")
#: Moderate findings kept, each rule with why (docs/accessibility.md says the same); any other
#: moderate finding fails too.
KEPT: dict[str, str] = {}
IMPACTS = ("critical", "serious", "moderate", "minor")

RUN = """async ([tags, off]) => {
    const rules = {};
    for (const rule of axe.getRules(tags)) rules[rule.ruleId] = {enabled: true};
    for (const id of off) rules[id] = {enabled: false};
    const results = await axe.run(document, {rules, resultTypes: ["violations"]});
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help, tags: v.tags,
        nodes: v.nodes.map(n => ({target: n.target.join(" "), html: n.html.slice(0, 300),
                                  summary: n.failureSummary})),
    }));
}"""


def violations(page) -> list[dict]:
    """Every violation axe finds on ``page`` as it is now."""
    if not SOURCE.exists():
        raise AssertionError(f"{SOURCE} is missing: `npm ci` installs axe-core (make test does)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # The source as an expression of its own (not a function for Playwright to call).
        page.evaluate(SOURCE.read_text() + "\n;true")
    return page.evaluate(RUN, [TAGS, list(OFF)])


def keep(name: str, found: list[dict]) -> None:
    """Keep the findings on one page and state, for ``counts``."""
    FINDINGS.mkdir(parents=True, exist_ok=True)
    (FINDINGS / f"{name}.json").write_text(json.dumps(found, indent=1))


def failing(found: list[dict]) -> list[dict]:
    """The findings that fail: serious or critical, and moderate ones not kept (``KEPT``)."""
    return [
        v
        for v in found
        if v["impact"] in FAILING or (v["impact"] == "moderate" and v["id"] not in KEPT)
    ]


def described(found: list[dict]) -> str:
    return "\n".join(
        f"- {v['impact']} {v['id']} ({v['help']}): "
        + "; ".join(f"{n['target']} {n['html'][:120]}" for n in v["nodes"][:4])
        for v in found
    )


def counts(folder: Path = FINDINGS) -> tuple[Counter, Counter, Counter]:
    """Over the kept findings: the violations (a rule on a page) and the elements by impact,
    and the pages each rule was found on."""
    rules, elements, where = Counter(), Counter(), Counter()
    for path in sorted(folder.glob("*.json")):
        for v in json.loads(path.read_text()):
            rules[v["impact"]] += 1
            elements[v["impact"]] += len(v["nodes"])
            where[f"{v['impact']} {v['id']}"] += 1
    return rules, elements, where


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else FINDINGS
    rules, elements, where = counts(folder)
    pages = len(list(folder.glob("*.json")))
    print(f"{pages} pages and states checked")
    for impact in IMPACTS:
        print(f"{impact:9} {rules[impact]:4} violations, {elements[impact]:4} elements")
    for rule, times in sorted(where.items()):
        print(f"  {rule}: on {times} pages")
