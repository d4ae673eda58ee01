"""The dashboards' CSS: files of the Voila template's static folder, never Python strings.

`dashboard.css` is every dashboard's look, `class.css` the class page's, `board.css` the board's
(a table's on the projector, its scenes in the debrief), and a game with a look of its own has
a file named for it (`leerdam.css`). The template links them all on every page it serves,
hashed and kept by the browser a year (`playbook.voila_app.TemplateFiles`), so a page's kernel
sends none of them.

In JupyterLab no template is used (the notebooks also play inline there): the widget that
names a sheet sends its text in a `<style>` instead, read from the installed package, so that
both pages get the same rules. A page's root names the sheets of its page (`dashboard.css` and
its game's), a board its own.
"""

from __future__ import annotations

import functools

from playbook.links import in_voila
from playbook.resources import template_static

__all__ = ["sheet_text", "style_html"]


@functools.cache
def sheet_text(name: str) -> str:
    """The text of the template's stylesheet `name` (`board.css`), read once per kernel."""
    return template_static(name)


def style_html(*sheets: str) -> str:
    """What an HTML widget sends for the template's stylesheets `sheets` (in the cascade's order):
    nothing under Voila, whose template links them; in JupyterLab a `<style>` of their text."""
    if in_voila() or not sheets:
        return ""
    return "<style>\n" + "".join(sheet_text(name) for name in sheets) + "</style>\n"
