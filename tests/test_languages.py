"""Who chooses a page's language, and in what order they win (playbook.languages); the class's
and table's language stored with them; the front page and the header's words in the
pseudo-language and in Dutch."""

from __future__ import annotations

import json

import pytest

import i18n
from playbook import classes as cl
from playbook.doors import busy_text, not_found_text, wrong_code_page
from playbook.languages import KERNEL_ENV, chosen_language, page_language, server_language
from playbook.page_texts import script_block, texts
from playbook.store import Store
from tests.support.classes import monitor, open_as, student
from tests.support.headless import one
from tests.support.keys import INDEX
from tests.support.pseudo import escaped, html_texts, widget_texts


def test_the_device_then_the_class_then_the_server_then_the_browser_choose() -> None:
    browser = "de-DE,de;q=0.9,en;q=0.5"
    assert page_language("es", "nl", "fr", browser) == "es"
    assert page_language(None, "nl", "fr", browser) == "nl"
    assert page_language("", "", "fr", browser) == "fr"
    assert page_language(None, "", "", browser) == "de"
    assert page_language(None, "", "", None) == "en"
    # a cookie or a stored value the playbook does not speak is no choice
    assert page_language("xx", "klingon", "", "ar") == "ar"


def test_the_class_is_looked_up_only_when_the_device_chose_nothing() -> None:
    asked: list[bool] = []

    def chosen() -> str:
        asked.append(True)
        return "nl"

    assert page_language("es", chosen, "", None) == "es" and not asked
    assert page_language(None, chosen, "", None) == "nl" and asked


def test_the_servers_default_is_its_environment() -> None:
    assert server_language({"PLAYBOOK_LANG": "ar"}) == "ar"
    assert server_language({"PLAYBOOK_LANG": "xx"}) == "" and server_language({}) == ""


def test_a_class_keeps_its_language_and_its_tables_speak_it(store: Store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4, lang="nl")
    assert cl.class_by_code(store, record.code).lang == "nl"
    assert chosen_language(store, "class.ipynb", f"code={record.code}&board={record.board_key}") == "nl"
    for name in ("Ana", "Bo", "Cy"):
        student(store, record.code, name)
    facilitator = monitor(store, record)
    facilitator.deal()
    facilitator.start()
    fresh = cl.load_class(store, record.id)
    assert fresh.tables and all(store.info(table).meta["lang"] == "nl" for table in fresh.tables)
    assert chosen_language(store, "new_rule.ipynb", f"table={fresh.tables[0]}") == "nl"


def test_an_old_class_and_an_unknown_code_choose_nothing(store: Store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4)
    assert record.lang == ""
    old = json.loads(record.to_json())
    del old["lang"]  # a class stored before languages
    assert cl.ClassRecord.from_json(json.dumps(old), 1).lang == ""
    assert chosen_language(store, "class.ipynb", f"code={record.code}") == ""
    assert chosen_language(store, "class.ipynb", "code=ZZZZZZ") == ""
    assert chosen_language(store, "new_rule.ipynb", "table=no-such-table") == ""


def test_a_language_the_playbook_does_not_speak_is_refused_and_nothing_is_made(store: Store) -> None:
    with pytest.raises(cl.ClassError) as refused:
        cl.create_class(store, "new-rule", 3, lang="xx")
    assert "no language 'xx'" in refused.value.message and cl.classes(store) == []


def test_the_command_line_stores_the_class_and_table_language(tmp_path, monkeypatch, capsys) -> None:
    from playbook.cli import main

    monkeypatch.setenv("PLAYBOOK_DB", str(tmp_path / "tables.db"))
    assert main(["class", "new", "leerdam", "--students", "5", "--lang", "es", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert main(["table", "new", "leerdam", "--players", "3", "--lang", "ar", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    store = Store(tmp_path / "tables.db")
    assert cl.class_by_code(store, made["code"]).lang == "es"
    assert store.info(table["table"]).meta["lang"] == "ar"
    with pytest.raises(SystemExit):
        main(["class", "new", "leerdam", "--students", "5", "--lang", "xx"])


def test_a_kernel_speaks_the_language_its_server_said(monkeypatch) -> None:
    from widgets.address import speak_page_language

    monkeypatch.setenv(KERNEL_ENV, "fr")
    try:
        speak_page_language()
        assert i18n.current() == "fr"
    finally:
        i18n.use("en")


def test_the_front_page_and_its_class_form_are_all_translated(store: Store, monkeypatch, pseudo: None) -> None:
    from widgets.front_page import TableIndex

    monkeypatch.setenv("PLAYBOOK_KEY", INDEX.split("key=")[1])
    index = TableIndex(store, query=INDEX)
    starter = index.classes
    # the lesson's length and timer (widgets.pace) and a game's own variants are other parts'
    own = [w for w in starter.children if w not in (starter.pace, starter.choices)] + [starter.game, starter.students, starter.bots, starter.language]
    texts_here = [t for w in own for t in widget_texts(w)]
    # the games' titles and the languages' own names are names
    names = ["playbook serve", *(title for title, _slug in starter.game.options), *i18n.LANGUAGES.values()]
    assert escaped(["".join(html_texts(index.list_html.value)), *texts_here], names=names) == []
    one(index, "pb-class-game").value = "new-rule"
    one(index, "pb-class-new").click()
    record = cl.classes(store)[0]
    from playbook.links import class_links, public_base

    # a message with markup inside is read whole: its text nodes joined
    made = ["".join(html_texts(one(index, name).value)) for name in ("pb-class-made", "pb-class-list")]
    assert escaped(made, names=[class_links(public_base(), record)["join"], record.code, record.title]) == []
    stranger = TableIndex(store, query="")
    assert escaped(["".join(html_texts(stranger.list_html.value))], names=["playbook serve"]) == []


def test_the_front_page_reads_dutch(store: Store, dutch: None) -> None:
    from widgets.front_page import TableIndex

    page = " ".join(widget_texts(TableIndex(store, query="")))
    assert "Lopende tafels" in page and "Tables in progress" not in page


def test_a_class_started_from_the_front_page_keeps_the_language_chosen(store: Store, monkeypatch) -> None:
    from widgets.front_page import TableIndex

    monkeypatch.setenv("PLAYBOOK_KEY", INDEX.split("key=")[1])
    index = TableIndex(store, query=INDEX)
    assert dict(one(index, "pb-class-lang").options)["العربية"] == "ar"
    one(index, "pb-class-lang").value = "ar"
    one(index, "pb-class-new").click()
    assert cl.classes(store)[0].lang == "ar"


def test_the_headers_and_scripts_words_are_all_translated_and_safe_in_html() -> None:
    said = texts(i18n.PSEUDO)
    words = [v for k, v in said.items() if isinstance(v, str) and k not in ("lang", "dir")]
    words += [form for k, v in said.items() if isinstance(v, dict) and k != "languages" for form in v.values()]
    assert len(words) > 40 and escaped(words) == []
    arabic = texts("ar")
    assert arabic["dir"] == "rtl" and set(arabic["presses"]) == {"zero", "one", "two", "few", "many", "other"}
    assert all("{n}" in form for form in arabic["seconds_left"].values())
    block = script_block("nl")
    assert "</" not in block[len('<script type="application/json" id="playbook-texts">') : -len("</script>")]
    assert html_texts(block) == [] and json.loads(block.split(">", 1)[1].rsplit("<", 1)[0])["tables"] == "Tafels"


def test_the_facilitators_page_says_which_languages_the_students_pages_read(store: Store) -> None:
    record = cl.create_class(store, "new-rule", 3, seed=4, lang="nl")
    pages = {}
    for name, lang in (("Ana", "nl"), ("Bo", "es"), ("Cy", "nl")):
        i18n.use(lang)  # each phone's kernel speaks its page's language
        try:
            pages[name] = student(store, record.code, name)
            pages[name]._presence_noted = 0.0
            pages[name]._note_presence()
        finally:
            i18n.use("en")
    assert cl.room_languages(store, record) == {"nl": 2, "es": 1}
    desk = monitor(store, record)
    line = "".join(html_texts(one(desk, "pb-class-languages").value))
    assert "Languages in the room:" in line and "Nederlands 2" in line and "Español 1" in line
    assert line.index("Nederlands") < line.index("Español")  # the most read first
    # Bo's phone switches to Arabic: the next note says so, and the monitor follows
    i18n.use("ar")
    try:
        pages["Bo"]._presence_noted = 0.0
        pages["Bo"]._note_presence()
    finally:
        i18n.use("en")
    assert cl.room_languages(store, record) == {"nl": 2, "ar": 1}
    desk.refresh()
    assert "العربية 1" in "".join(html_texts(one(desk, "pb-class-languages").value))


def test_a_phone_that_switches_language_counts_in_its_new_one_as_its_page_opens(store: Store) -> None:
    """A phone's language menu reloads its page: the page notes itself as it opens, so the
    monitor's count moves at its next look, not at the phone's next presence beat."""
    record = cl.create_class(store, "new-rule", 3, seed=4, lang="nl")
    i18n.use("es")
    try:
        bo = student(store, record.code, "Bo")  # joined: noted at once, before any beat
    finally:
        i18n.use("en")
    desk = monitor(store, record)
    assert cl.room_languages(store, record) == {"es": 1}
    assert "Español 1" in "".join(html_texts(one(desk, "pb-class-languages").value))
    assert bo.student is not None
    own_link = "?" + bo.navigator.value.split('data-href="?', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    i18n.use("ar")  # the same phone's page, opened again by its own link in Arabic
    try:
        again = open_as(store, own_link, bo.device)
        assert again.role == "student" and again.live.beats == 0
    finally:
        i18n.use("en")
    assert cl.room_languages(store, record) == {"ar": 1}
    desk.refresh()
    line = "".join(html_texts(one(desk, "pb-class-languages").value))
    assert "العربية 1" in line and "Español" not in line


def test_a_latin_name_in_an_arabic_sentence_is_isolated_and_nothing_else_changes() -> None:
    said = i18n.say("{name} keeps the draw.", name="Ana")
    assert i18n.render(said, "ar").count(i18n.ISOLATE + "Ana" + i18n.POP_ISOLATE) == 1  # its "." stays at the end
    assert i18n.ISOLATE not in i18n.render(i18n.say("{name} keeps the draw.", name="مريم"), "ar")  # an Arabic name reads in the sentence's direction
    assert i18n.render(said, "en") == "Ana keeps the draw." and i18n.ISOLATE not in i18n.render(said, "nl")
    many = i18n.render(i18n.say("{names} drew.", names=i18n.listed(["Ana", "مريم", "Zoë"])), "ar")
    assert many.count(i18n.ISOLATE) == 2  # each Latin name of a list on its own


@pytest.mark.parametrize("text", [not_found_text, busy_text])
def test_the_wrong_room_code_page_is_all_translated(text) -> None:
    page = wrong_code_page(i18n.PSEUDO, text)
    assert escaped(html_texts(page), names=["K7QM2P"]) == [] and '<html lang="qps" dir="ltr">' in page


def test_the_wrong_room_code_page_reads_dutch_and_arabic_right_to_left() -> None:
    dutch = wrong_code_page("nl", not_found_text)
    assert "<title>Klascode niet gevonden</title>" in dutch and "Room code" not in dutch
    arabic = wrong_code_page("ar", busy_text, "/playbook/")
    assert '<html lang="ar" dir="rtl">' in arabic and 'action="/playbook/j"' in arabic
    assert wrong_code_page("en", not_found_text).count("That room code is not one of this server's classes.") == 1


def test_a_table_started_from_a_games_form_keeps_the_language_chosen(store: Store) -> None:
    from tests.support.new_rule_page import start
    from widgets.new_rule import NewRuleDashboard

    dash = NewRuleDashboard(store)
    menu = one(dash, "pb-lang")
    assert menu.value == "" and dict(menu.options)["Deutsch"] == "de"
    menu.value = "de"
    start(dash)
    assert store.info(dash.table_id).meta["lang"] == "de"
    assert chosen_language(store, "new_rule.ipynb", f"table={dash.table_id}") == "de"
    other = NewRuleDashboard(store)
    start(other)  # none chosen: the table has none, and its pages speak the server's or the browser's
    assert "lang" not in store.info(other.table_id).meta


def test_the_new_game_form_reads_dutch(store: Store, dutch: None) -> None:
    from widgets.new_rule import NewRuleDashboard

    form = NewRuleDashboard(store).form
    assert (form.start_button.description, form.seed.description, form.language.description) == ("Nieuw spel starten", "Seed", "Taal")
