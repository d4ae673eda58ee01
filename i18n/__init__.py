"""The playbook in the reader's language: gettext catalogs (one domain, `playbook`), Babel's
plural rules and number formats, and which language a page speaks.

Marked text: `_("Keep both")` says a message now, `_n("{n} seat", "{n} seats", n)` with a
plural; the rules' `say`/`say_n` (`rules.text`) keep a message to be said later, by `render`.
Fields are `{name}`; values are put in after translation (numbers in the language's format,
text such as players' names as typed). Catalogs are `i18n/locales/LANG/LC_MESSAGES/playbook.po`;
the build compiles them to `.mo` beside them in the wheel (`setup.py`); a checkout without `.mo`
reads the `.po` (compiled in memory, once). `docs/translating.md` says how to add a language.

The language: a page's kernel speaks one at a time (`use`, set from the page's address, the
class's or table's choice, or the browser's `Accept-Language`); a server's handler speaks the
request's (`speaking`). `qps` is the pseudo-language the tests read: every message accented,
padded by 40 % and bracketed, so any text the catalogs missed shows up without brackets.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from importlib import resources

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

from rules.decisions import COLUMN_LABELS
from rules.decisions import csv_text as write_csv
from rules.text import Listed, Said, listed, say, say_n

__all__ = [
    "DOMAIN",
    "ISOLATE",
    "LANGUAGES",
    "POP_ISOLATE",
    "PSEUDO",
    "SOURCE",
    "Listed",
    "Said",
    "_",
    "_n",
    "catalog_text",
    "choose",
    "column_id",
    "csv_text",
    "current",
    "direction",
    "header_cell",
    "listed",
    "number",
    "percent",
    "render",
    "say",
    "say_n",
    "speaking",
    "use",
]

DOMAIN = "playbook"
SOURCE = "en"
PSEUDO = "qps"

LANGUAGES: Mapping[str, str] = {
    "en": "English",
    "nl": "Nederlands",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "ar": "العربية",
}
"""The shipped languages, each by its own name (as a language menu offers them)."""

_RIGHT_TO_LEFT = frozenset({"ar", "he", "fa", "ur"})

_default = SOURCE
_speaking: ContextVar[str | None] = ContextVar("speaking", default=None)


def current() -> str:
    """The language being spoken: the request's (`speaking`), else this process's (`use`)."""
    return _speaking.get() or _default


def use(lang: str) -> None:
    """This process (a page's kernel) speaks `lang` from now on."""
    global _default
    _default = known(lang)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak `lang` inside the block (a request's handler, a printout for one language)."""
    token = _speaking.set(known(lang))
    try:
        yield
    finally:
        _speaking.reset(token)


def known(lang: str | None) -> str:
    """`lang` if the playbook speaks it (or its base language: `nl-BE` is `nl`), else English."""
    if not lang:
        return SOURCE
    lang = lang.strip().replace("_", "-")
    if lang == PSEUDO or lang in LANGUAGES:
        return lang
    base = lang.split("-")[0].lower()
    return base if base in LANGUAGES else SOURCE


def choose(accept_language: str | None) -> str:
    """The best shipped language for a browser's `Accept-Language` header ("nl-NL,nl;q=0.9,en;q=0.8"),
    English when it names none of them."""
    offered: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        match = re.search(r"q=([^;]*)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0  # a quality that is not a number: not asked for
        base = tag.strip().split("-")[0].lower()
        if base in LANGUAGES and quality > 0:
            offered.append((-quality, i, base))
    return min(offered)[2] if offered else SOURCE


def direction(lang: str | None = None) -> str:
    """"rtl" for a language written right to left, else "ltr"."""
    return "rtl" if known(lang or current()).split("-")[0] in _RIGHT_TO_LEFT else "ltr"


@functools.cache
def _catalog(lang: str) -> gettext.NullTranslations:
    """The language's compiled catalog: the built `.mo`, else its `.po` compiled in memory."""
    folder = resources.files(__name__) / "locales" / lang / "LC_MESSAGES"
    compiled = folder / f"{DOMAIN}.mo"
    if compiled.is_file():
        return gettext.GNUTranslations(io.BytesIO(compiled.read_bytes()))
    source = folder / f"{DOMAIN}.po"
    if not source.is_file():
        return gettext.NullTranslations()
    with source.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _translate(text: str, many: str | None, n: int, lang: str) -> str:
    if lang == PSEUDO:
        return pseudo(text if many is None or n == 1 else many)
    catalog = _catalog(lang) if lang != SOURCE else gettext.NullTranslations()
    return catalog.gettext(text) if many is None else catalog.ngettext(text, many, n)


def catalog_text(text: str, lang: str) -> str:
    """`text` as `lang`'s catalog has it, its braces left as they are (a notebook's Markdown,
    said whole, has no fields); English, the pseudo-language and a text the catalog lacks as
    they are."""
    lang = known(lang)
    if lang in (SOURCE, PSEUDO):
        return text
    return _catalog(lang).gettext(text)


def _value(value: object, lang: str) -> object:
    if isinstance(value, Said):
        return _say(value, lang)
    if isinstance(value, Listed):
        words = [str(_value(item, lang)) for item in value.items]
        if lang in (SOURCE, PSEUDO):  # the English the playbook always wrote: "A, B and C"
            return str(Listed(tuple(words)))
        return format_list(words, locale=_locale(lang)) if words else ""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return number(value, lang)
    if isinstance(value, str):
        return _isolated(value, lang)
    return value


#: FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: the text between them keeps its own
#: direction, as HTML's `<bdi>`, and moves nothing beside it.
ISOLATE, POP_ISOLATE = "\u2068", "\u2069"


def _isolated(value: str, lang: str) -> str:
    """A value written left to right (a player's name, a typed word, an English word) inside a
    right-to-left sentence, isolated: left to the bidi algorithm, the punctuation after it
    ("Ana?") would jump to its other end. A value in the sentence's own direction (an Arabic
    name, a number) is left as it is, and nothing changes in a left-to-right language."""
    if direction(lang) != "rtl" or not any(unicodedata.bidirectional(ch) == "L" for ch in value):
        return value
    return ISOLATE + value + POP_ISOLATE


def _say(said: Said, lang: str) -> str:
    template = _translate(said.text, said.many, said.n, lang)
    return template.format(**{key: _value(value, lang) for key, value in said.values})


def render(message: Said | Listed | str, lang: str | None = None) -> str:
    """A message said in `lang` (the current language by default); a list of names (`listed`)
    as that language lists them ("Ana, Bo en Cy"); plain text as it is."""
    if isinstance(message, Said):
        return _say(message, lang or current())
    if isinstance(message, Listed):
        return str(_value(message, lang or current()))
    return message


def _(text: str, **values: object) -> str:
    """`text` in the current language, its `{fields}` filled from `values`."""
    return _say(say(text, **values), current())


def _n(one: str, many: str, n: int, **values: object) -> str:
    """The plural form for `n` in the current language; `{n}` is in its values."""
    return _say(say_n(one, many, n, **values), current())


# -- CSV files: data in the reader's language -----------------------------------------------------


def header_cell(column: str, label: Said | str | None = None, lang: str | None = None) -> str:
    """A CSV's header cell for the column whose id is `column` ("step"): in English the id, as
    every CSV had it; in another language `label` said in it, the id after it in parentheses
    ("Jaar of ronde (step)"): a spreadsheet reads the language, a script the id (`column_id`).
    A column without a label keeps its id."""
    lang = known(lang or current())
    if lang == SOURCE or label is None:
        return column
    return f"{render(label, lang)} ({column})"


_TRAILING_ID = re.compile(r"\(([^()]+)\)\s*$")


def column_id(cell: str) -> str:
    """The column id in a header cell `header_cell` wrote: "Tafel (table)" and "table" -> "table"."""
    found = _TRAILING_ID.search(cell)
    return found.group(1) if found else cell.strip()


def csv_text(
    rows: Sequence[Mapping[str, object]],
    bom: bool = True,
    columns: Sequence[str] = (),
    labels: Mapping[str, Said | str] = COLUMN_LABELS,
    lang: str | None = None,
) -> str:
    """Rows as CSV text in `lang` (the current language): each header cell `header_cell` with
    its label from `labels` (by default the debrief's columns), each message in a cell said in
    the language. Numbers stay plain numbers and ids stay ids: a CSV is data, no locale's
    separators. The one writer (`rules.decisions.csv_text`) writes it."""
    lang = known(lang or current())
    fields = list(columns or (rows[0] if rows else ()))
    said = [{key: render(value, lang) if isinstance(value, Said | Listed) else value for key, value in row.items()} for row in rows]
    return write_csv(said, bom=bom, columns=fields, header={column: header_cell(column, labels.get(column), lang) for column in fields})


def _locale(lang: str) -> Locale:
    try:
        return Locale.parse(SOURCE if lang == PSEUDO else lang)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(SOURCE)


def number(value: float, lang: str | None = None) -> str:
    """`value` in the language's digits and separators ("1,234.5"; Dutch "1.234,5")."""
    return format_decimal(value, locale=_locale(lang or current()))


def percent(fraction: float, lang: str | None = None, digits: int = 0) -> str:
    """A fraction as the language writes a percentage ("42%", French "42 %")."""
    pattern = None if digits == 0 else "#,##0." + "0" * digits + "%"
    return format_percent(fraction, format=pattern, locale=_locale(lang or current()))


_ACCENTED = dict(zip("AaCcEeIiNnOoUuYy", "ÅåÇçÉéÎîÑñÖöÛûÝý", strict=True))
# Fields, markup tags and entities keep their text: the page and `format` must still read them.
_KEPT = re.compile(r"\{[^{}]*\}|<[^<>]*>|&[#\w]+;")


def pseudo(text: str) -> str:
    """The pseudo-language: "Keep both" -> "⟦Kéép bóth·····⟧"; fields and markup as they are."""
    out: list[str] = []
    at = 0
    for kept in _KEPT.finditer(text):
        out.append("".join(_ACCENTED.get(c, c) for c in text[at : kept.start()]))
        out.append(kept.group())
        at = kept.end()
    out.append("".join(_ACCENTED.get(c, c) for c in text[at:]))
    padding = "·" * max(1, round(len(text) * 0.4))
    return "⟦" + "".join(out) + padding + "⟧"
