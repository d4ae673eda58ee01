"""axe-core in a Playwright page: the WCAG 2.0 and 2.1 A and AA rules, violations as readable lines.

axe-core is pinned in tools/axe/package.json (and its lock file) and installed with
`npm ci --prefix tools/axe` (`.ci/run` and `make test` do it). Where it is missing, a test that
asks for it skips with that command, and fails in CI.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.support.ci import in_ci

__all__ = ["AXE_DIR", "INSTALL", "TAGS", "axe_source", "axe_version", "collect", "describe", "note", "report", "start", "violations"]

AXE_DIR = Path(__file__).resolve().parents[2] / "tools" / "axe"
INSTALL = f"npm ci --prefix {AXE_DIR}"
#: the rule sets of WCAG 2.1 level AA: 2.0's A and AA and 2.1's own A and AA
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")


def _script() -> Path:
    return AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"


@functools.cache
def axe_source() -> str:
    """axe.min.js as text; skips the test (fails in CI) where it is not installed."""
    script = _script()
    if not script.is_file():
        reason = f"axe-core is not installed ({INSTALL})"
        if in_ci():
            pytest.fail(f"{reason}; CI must run the accessibility tests")
        pytest.skip(reason)
    return script.read_text(encoding="utf-8")


def axe_version() -> str:
    """The version tools/axe/package.json pins."""
    return str(json.loads((AXE_DIR / "package.json").read_text(encoding="utf-8"))["dependencies"]["axe-core"])


#: Starts axe on the document (or `context`) with the WCAG rule sets, violations only; the page
#: keeps the run's promise, so runs on several pages go at once (`start`, then `collect`).
_START_JS = """({tags, context}) => {
  window.__pbAxe = axe.run(context || document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
}"""
_COLLECT_JS = """async () => {
  const found = await window.__pbAxe;
  return found.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.map(String), html: n.html.slice(0, 160), summary: (n.failureSummary || '').slice(0, 300)})),
  }));
}"""


def start(page: Page, context: str | None = None) -> None:
    """Start axe-core's WCAG 2.1 A and AA rules on `page` as shown now; `collect` the result."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol: the page's Content-Security-Policy refuses
        # an inline <script> tag.
        page.evaluate(axe_source() + "\n;typeof window.axe")
    page.evaluate(_START_JS, {"tags": list(TAGS), "context": context})


def collect(page: Page) -> list[dict]:
    """The violations of the run `start` began (each: id, impact, help, nodes with target
    selectors, a snippet and why it fails)."""
    return list(page.evaluate(_COLLECT_JS))


def violations(page: Page, context: str | None = None) -> list[dict]:
    """axe-core's violations of the WCAG 2.1 A and AA rules on `page` as shown now."""
    start(page, context)
    return collect(page)


def describe(found: list[dict], where: str = "") -> list[str]:
    """One line a failing element: where, the rule, its impact, the element and what to fix."""
    lines = []
    for rule in found:
        for node in rule["nodes"]:
            fix = " ".join(node["summary"].split())
            lines.append(f"{where}: {rule['id']} ({rule['impact']}) {' '.join(node['target'])} {node['html']!r}: {fix}")
    return lines


def note(found: list[dict], where: str, problems: dict[str, list[str]], when: str = "") -> None:
    """Note each failing element of `found` in `problems` under a line that says what to fix,
    with `when` (a theme, a size) added to that line's list: a failure met in many themes and
    sizes reads once."""
    for line in describe(found, where):
        problems.setdefault(line, []).append(when)


def report(problems: dict[str, list[str]]) -> str:
    """The failures noted by `note`, one a line, each with where it was met."""
    return "\n".join(f"{line} [{', '.join(when)}]" for line, when in problems.items())
