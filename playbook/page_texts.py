"""The words of the template's own header and scripts (templates/voila/.../static/*.js), in the
page's language.

The server puts them into every page it serves, as a JSON block (`script_block`, by
`playbook.doors.OwnPage`); `texts.js` reads it (`playbookSay`, `playbookSayN`) and puts the
header's words in place. A message with a number has its plural forms by the language's CLDR
categories ("one", "few", "other"...), which the browser's `Intl.PluralRules` picks from.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable

from babel import Locale

import i18n
from i18n import _, _n, say

__all__ = ["head_in", "page_title", "script_block", "texts"]

#: the id of the page's JSON block.
BLOCK_ID = "playbook-texts"


#: the notebooks' own titles (their metadata "title", index.html.j2's header and the browser's
#: tab), marked here for the catalogs; a game's page is titled with its name (its card's title).
PAGE_TITLES = (
    # TRANSLATORS: a page's title (header and browser tab): the balance lab, where bots play many games.
    say("Balance lab"),
    # TRANSLATORS: a page's title (header and browser tab): a class's page (join, board, monitor).
    say("Class"),
    # TRANSLATORS: a page's title (header and browser tab): the front page, which lists the tables.
    say("Welcome"),
    # TRANSLATORS: a page's title (header and browser tab): where the printed materials are made.
    say("Print studio"),
)


def page_title(english: str, lang: str | None = None) -> str:
    """A notebook's title (as its metadata writes it) in `lang`: a page's own title is
    translated, a game's name is as its card says it, anything else stays as written."""
    from rules.games import CARDS

    for said in PAGE_TITLES:
        if str(said) == english:
            return i18n.render(said, lang)
    for card in CARDS:
        if str(card.title) == english:
            return i18n.render(card.title, lang)
    return english


#: Voila's `<title>` (nbconvert's lab template): the notebook's "title", else its file's name.
_TAB_TITLE = re.compile(r"<title>([^<]*)</title>")


def head_in(head: str, lang: str) -> tuple[str, str]:
    """The page's head as Voila drew it (up to its `<title>`), its tab's title said in `lang`;
    and that title. A notebook without a "title" is named by its file, made readable as the
    header does ("new_rule" -> "New Rule")."""
    found = _TAB_TITLE.search(head)
    if found is None:
        return head, ""
    written = html.unescape(found.group(1))
    if written and written == written.lower() and " " not in written:
        written = written.replace("_", " ").replace("-", " ").title()
    title = page_title(written, lang)
    return head[: found.start()] + f"<title>{html.escape(title)}</title>" + head[found.end() :], title


def _forms(lang: str, say: Callable[[int], str]) -> dict[str, str]:
    """A plural message's form for each plural category of `lang`, with `{n}` left in."""
    rule = Locale.parse("en" if lang == i18n.PSEUDO else lang).plural_form
    samples: dict[str, int] = {}
    for n in range(200):
        samples.setdefault(rule(n), n)
    return {category: say(n).replace(i18n.number(n, lang), "{n}", 1) for category, n in samples.items()}


def texts(lang: str, title: str = "", cells: dict[str, str] | None = None) -> dict[str, object]:
    """Every word the header and the scripts say, in `lang`: a str, or a plural's forms. With
    the page's `title` (in `lang`, `head_in`), the header shows it and the loading words say it;
    with its notebook's Markdown `cells` (HTML by cell number: `playbook.prose.cell_htmls`),
    prose.js puts them in place."""
    with i18n.speaking(lang):
        said = i18n.current()
        return {
            "lang": said,
            "dir": i18n.direction(said),
            **({"page_title": title} if title else {}),
            **({"cells": cells} if cells else {}),
            # the header (index.html.j2): data-pb-text names these
            "skip_game": _("Skip to the game"),
            "skip_seat": _("Skip to your seat"),
            "nav": _("Playbook pages"),
            # TRANSLATORS: a link in the page's header to the front page, which lists the tables.
            "tables": _("Tables"),
            # TRANSLATORS: a link in the page's header to the print studio (a noun-like label).
            "print": _("Print"),
            # TRANSLATORS: a link in the page's header to the balance lab.
            "lab": _("Lab"),
            # TRANSLATORS: a link in the page's header to the game's rules, further down the page.
            "rules": _("Rules"),
            "theme_title": _("Switch between a light and a dark page"),
            # TRANSLATORS: a button: switch the page to its dark look.
            "dark": _("Dark"),
            # TRANSLATORS: a button: switch the page to its light look.
            "light": _("Light"),
            # TRANSLATORS: the label of the language menu in the page's header.
            "language": _("Language"),
            "language_title": _("This device's language: the page reopens in it, on the same seat"),
            # contrast.js
            "contrast_label": _("More contrast"),
            # TRANSLATORS: a short button in the header: more contrast.
            "contrast_word": _("Contrast"),
            "contrast_title": _("Darker text, firmer edges and a bolder focus ring"),
            # countdown.js
            "time_up": _("Time is up."),
            "seconds_left": _forms(said, lambda n: _n("{n} second left.", "{n} seconds left.", n)),
            "your_seconds_left": _forms(said, lambda n: _n("Your decision: {n} second left.", "Your decision: {n} seconds left.", n)),
            # TRANSLATORS: the label of a student's own countdown (the same words as the timer's).
            "your_time": _("Your time"),
            # loading.js
            "setting_up": _("Setting up {title}…", title=title or "{title}"),
            "setting_up_of": _("Setting up {title}… ({index} of {count})", title=title or "{title}", index="{index}", count="{count}"),
            # reconnect.js, live.js
            "offline": _("This device is offline. Trying again…"),
            "cannot_reach": _("This page cannot reach the server. Trying again…"),
            "not_sent_yet": _forms(said, lambda n: _n("Not sent yet: {n} press made since.", "Not sent yet: {n} presses made since.", n)),
            "tried": _forms(said, lambda n: _n("Tried {n} time in {seconds} s.", "Tried {n} times in {seconds} s.", n, seconds="{seconds}")),
            "presses": _forms(said, lambda n: _n("{n} press", "{n} presses", n)),
            # TRANSLATORS: the buttons pressed (their labels, quoted) and how many presses: “Pledge” (2 presses).
            "named_presses": _("{names} ({presses})", names="{names}", presses="{presses}"),
            "connected": _("Connected again."),
            "connected_sent": _("Connected again. Sent now, made meanwhile: {presses}.", presses="{presses}"),
            "lost_table": _("This page lost its table. Reopening it…"),
            "back_after": _("Back after the connection was lost."),
            "reopened": _("This page was reopened."),
            "not_sent": _(
                "Not sent: {presses}, made while the server could not be reached: press again if you still mean it. The table kept everything before.",
                presses="{presses}",
            ),
            "unsure": _("{presses}, pressed just before, may not have reached the table: check, and press again if it did not.", presses="{presses}"),
            "nothing_lost": _("Nothing you pressed was lost."),
            # starting.js
            "did_not_come": _("This page did not come up. Trying again in {seconds} s…", seconds="{seconds}"),
            "opening": _(
                "Opening this page… {seconds} s. The server is opening many pages at once, so pages take turns: this one comes up by itself. Keep it open.",
                seconds="{seconds}",
            ),
            "try_n": _("(Try {attempt}.)", attempt="{attempt}"),
            # the language menu: each language by its own name
            "languages": dict(i18n.LANGUAGES),
        }


def script_block(lang: str, title: str = "", cells: dict[str, str] | None = None) -> str:
    """The page's texts as a `<script type="application/json">` block, safe inside HTML: ASCII only,
    since it comes before the page's `<meta charset>` (a browser reads the charset from the first
    kilobyte)."""
    body = json.dumps(texts(lang, title, cells)).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{BLOCK_ID}">{body}</script>'
