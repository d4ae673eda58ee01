"""The playbook's languages: messages said in a language, plurals, numbers, the pseudo-language
the page tests read, and the catalogs (every shipped one complete, reviewed and as new as the code)."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

import i18n
from rules.games import CARDS
from rules.text import say, say_n

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "i18n" / "locales"
#: what `make messages` extracts: the same folders, files and keywords as the Makefile's.
CODE = ("rules", "lab", "drawing", "widgets", "printables", "playbook", "i18n", "notebooks")
METHODS = [("**.py", "i18n.extract:extract_python"), ("**.ipynb", "i18n.extract:extract_notebook")]
#: the rulings pages the games' pages show (the Makefile's RULINGS).
RULINGS = tuple(ROOT / "docs" / "rules" / f"{game.slug}.md" for game in CARDS if game.notebook)
KEYWORDS = {"_": None, "_n": (1, 2), "say": None, "say_n": (1, 2)}
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def catalog(lang: str):
    with (LOCALES / lang / "LC_MESSAGES" / "playbook.po").open("rb") as po:
        return read_po(po, locale=lang)


def test_a_message_is_english_until_a_language_says_it() -> None:
    candy = say_n("{n} candy", "{n} candies", 3)
    said = say("{name} keeps {what}.", name="<Ana>", what=candy)
    assert str(said) == "<Ana> keeps 3 candies."
    assert i18n.render(said, "en") == "<Ana> keeps 3 candies."
    assert i18n.render("plain text", "nl") == "plain text"


def test_the_pseudo_language_brackets_pads_and_keeps_fields_and_markup() -> None:
    said = i18n.render(say("{name} keeps <b>both</b> &amp; {n}.", name="Ana", n=2), i18n.PSEUDO)
    assert said == "⟦Ana kééps <b>böth</b> &amp; 2." + "·" * 14 + "⟧"  # 40 % of the English msgid
    nested = i18n.render(say("Took {what}", what=say_n("{n} die", "{n} dice", 2)), i18n.PSEUDO)
    assert nested.count("⟦") == 2  # the inner message is said in the pseudo-language too


def test_numbers_and_percentages_in_each_languages_format() -> None:
    assert i18n.number(1234.5, "en") == "1,234.5"
    assert i18n.number(1234.5, "nl") == "1.234,5"
    assert i18n.number(1234.5, "de") == "1.234,5"
    assert i18n.percent(0.42, "fr") == "42\xa0%"
    assert i18n.percent(0.425, "en", digits=1) == "42.5%"
    with i18n.speaking("de"):
        assert i18n.render(say("{n} units", n=1500)) == "1.500 units"  # no catalog entry: English words, German digits
    assert i18n.current() == i18n.SOURCE


@pytest.mark.parametrize(
    ("header", "lang"),
    [("nl-NL,nl;q=0.9,en;q=0.8", "nl"), ("ja,de;q=0.5", "de"), ("fr;q=0.2,es;q=0.8", "es"), ("ja", "en"), ("", "en"), ("de;q=x, ar", "ar")],
)
def test_a_browsers_accept_language_picks_the_best_shipped_language(header: str, lang: str) -> None:
    assert i18n.choose(header) == lang


def test_unknown_languages_fall_back_and_arabic_is_right_to_left() -> None:
    assert i18n.known("nl_BE") == "nl" and i18n.known("xx") == "en" and i18n.known(None) == "en"
    assert i18n.direction("ar") == "rtl" and i18n.direction("nl") == "ltr"


@functools.cache
def extracted() -> dict[str, str | None]:
    """Every marked message in the code: msgid -> msgid_plural."""
    found: dict[str, str | None] = {}
    for folder in CODE:
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
        ):
            if isinstance(message, tuple):
                found[message[0]] = message[1]
            else:
                found[message] = None
    for page in RULINGS:
        for _line, block, _comments, _context in extract_from_file("i18n.extract:extract_rulings", page, comment_tags=("TRANSLATORS:",)):
            found[block] = None
    return found


def test_the_template_is_as_new_as_the_code() -> None:
    with (ROOT / "i18n" / "playbook.pot").open("rb") as pot:
        template = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(pot) if m.id}
    missing = sorted(set(extracted()) - template)
    gone = sorted(template - set(extracted()))
    assert not missing and not gone, f"run `make messages`: new in the code {missing[:5]}, gone from it {gone[:5]}"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE])
def test_each_shipped_catalog_is_complete_reviewed_and_keeps_every_field(lang: str) -> None:
    messages = {m.id[0] if isinstance(m.id, tuple) else m.id: m for m in catalog(lang) if m.id}
    code = extracted()
    assert sorted(set(code) - set(messages)) == [], f"{lang}: run `make messages`, then translate"
    problems = []
    for msgid, message in messages.items():
        strings = list(message.string) if isinstance(message.string, tuple) else [message.string]
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated or fuzzy: {msgid!r}")
            continue
        fields = set(FIELD.findall(msgid))
        for text in strings:
            if not set(FIELD.findall(text)) <= fields | {"n"}:
                problems.append(f"a field not in the English: {msgid!r} -> {text!r}")
        if not set(FIELD.findall(strings[-1])) >= fields - {"n"}:
            problems.append(f"a field lost: {msgid!r} -> {strings[-1]!r}")
    assert not problems, f"{lang}: " + "; ".join(problems[:8])


def test_a_message_marked_inside_an_f_string_is_extracted(tmp_path: Path) -> None:
    """On Python 3.11 Babel's own extractor sees an f-string as one token: the playbook's reads the tree."""
    (tmp_path / "page.py").write_text(
        'from i18n import _, _n\n'
        'def page(n):\n'
        '    # TRANSLATORS: a button\n'
        '    return f"<b>{_(\'Join\')}</b> {_n(\'one seat\', \'many seats\', n)} {_(name)}"\n',
        encoding="utf-8",
    )
    found = [(m[2], m[3]) for m in extract_from_dir(tmp_path, method_map=[("**.py", "i18n.extract:extract_python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",))]
    assert sorted(found, key=str) == [("Join", ["TRANSLATORS: a button"]), (("one seat", "many seats"), ["TRANSLATORS: a button"])]


def test_a_catalog_compiles_and_says_its_plural_forms() -> None:
    """Arabic has six plural forms: the catalog's rule, not English's two, picks one."""
    po = catalog("ar")
    assert po.num_plurals == 6
    buffer = io.BytesIO()
    from babel.messages.mofile import write_mo

    write_mo(buffer, po)
    assert buffer.getvalue()[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")

