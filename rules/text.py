"""What the rules say, kept as English text and values until a reader's language says it.

The rules decide and never read a catalog: a refusal or a log line is a `Said`, the English
text (the catalog's msgid, with `{name}` fields) and the values to put in it. The layers that
show it (`i18n.render`) say it in the page's language; `str()` says it in English, so a `Said`
reads as before wherever a language was not asked for. `say` and `say_n` are the keywords the
message extraction looks for (`i18n/babel.cfg`): their first arguments must be literal text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Listed", "Said", "listed", "say", "say_n"]


@dataclass(frozen=True)
class Said:
    """A message: `text` (English, the msgid) with its values; `many` and `n` for a plural."""

    text: str
    values: tuple[tuple[str, object], ...] = ()
    many: str | None = None
    n: int = 1

    def __str__(self) -> str:
        template = self.text if self.many is None or self.n == 1 else self.many
        return template.format(**{key: _english(value) for key, value in self.values})


@dataclass(frozen=True)
class Listed:
    """Names (or messages) said as a list: "Ana, Bo and Cy" in English, "Ana, Bo y Cy" in Spanish."""

    items: tuple[object, ...]

    def __str__(self) -> str:
        words = [str(item) for item in self.items]
        if len(words) <= 1:
            return "".join(words)
        return ", ".join(words[:-1]) + " and " + words[-1]


def listed(items: Iterable[object]) -> Listed:
    """A list value for a message: `say("{who} share the win", who=listed(names))`."""
    return Listed(tuple(items))


def _english(value: object) -> object:
    return str(value) if isinstance(value, Said | Listed) else value


def say(text: str, **values: object) -> Said:
    """A message to be said in the reader's language: `say("{name} keeps the draw.", name=...)`.
    Values may be text (names, said as typed), numbers, or other `Said` messages."""
    return Said(text, tuple(values.items()))


def say_n(one: str, many: str, n: int, **values: object) -> Said:
    """A message with a plural: `say_n("{n} candy", "{n} candies", n)`; `{n}` is in its values."""
    return Said(one, tuple({"n": n, **values}.items()), many, n)
