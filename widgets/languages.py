"""Which languages the room reads: the facilitator's page (the class monitor) says how many
students' pages speak each (each language by its own name), so a teacher knows whose phone
reads Spanish or Arabic while the board reads the class's language."""

from __future__ import annotations

from collections.abc import Mapping

import i18n
from drawing.common import esc
from i18n import _

__all__ = ["room_languages_html"]


def room_languages_html(counts: Mapping[str, int]) -> str:
    """"Languages in the room: Nederlands 20 · Español 3", the most read first; "" for none."""
    if not counts:
        return ""
    shown = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    # each language by its own name, marked as that language (a screen reader reads it so)
    listed = " · ".join(f'<span lang="{esc(code)}">{esc(i18n.LANGUAGES.get(code, code))}</span> {esc(i18n.number(n))}' for code, n in shown)
    # TRANSLATORS: on the facilitator's page, before the languages the students' phones read, each with how many.
    return '<div class="pb-muted">{} {}</div>'.format(esc(_("Languages in the room:")), listed)
