"""The debrief handout (results, charts, the story) for all four games, one table and a class,
what it keeps secret, and `playbook debrief SAVE.json --csv --pdf` from a save file, refusing
damaged and forged files without writing anything."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pypdf
import pytest

from playbook.cli import main
from printables import common, debrief
from rules import Game, decisions_of
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import _digest
from tests.support.anonymous_village import world
from tests.support.pdfs import pages_text
from tests.support.phases import play
from tests.support.played import danger_world_game, played

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    return {
        "leerdam": played("leerdam", 5),
        "new-rule": played("new-rule", 4),
        "dangerous-ideas": played("dangerous-ideas", 3),
        "danger-world": danger_world_game(),
    }


HEADINGS = {
    "leerdam": ("Pledged in all, year by year, against the thresholds", "The dyke: after the pledges", "VP by household", "Wealth by household"),
    "new-rule": ("The infection, round by round", "Candies in each bowl", "Who is out", "Round by round"),
    "danger-world": ("The party", "Every check: the set made against the difficulty", "The danger track after each check", "The checks"),
    "dangerous-ideas": ("Points at the end of each chapter", "The setting", "Chapter 1", "The trees as they stand"),
}


@pytest.mark.parametrize("slug", ["leerdam", "new-rule", "dangerous-ideas", "danger-world"])
def test_the_handout_holds_the_results_the_charts_and_the_story(games, slug) -> None:
    game = games[slug]
    pdf = debrief.build_pdf([("Table 1", game)])
    text = " ".join(pages_text(pdf))
    assert "debrief: Table 1" in text and "The story in a few lines" in text
    for heading in HEADINGS[slug]:
        assert heading in text, heading
    for name in ("<b>Ana</b>", "Bo & Co"):  # as typed: markup printed, never read
        assert name in text
    if slug != "danger-world":
        _, seat, _ = game.rules.standings(game.state)[0]
        assert ("The winner:" in text or "A shared win:" in text) and game.setup.names[seat] in text
    # Every page renders, and the same game gives the same bytes.
    for index in range(common.page_count(pdf)):
        image = common.render_png(pdf, index)
        assert image.size[1] == 842 and image.getbbox() is not None
    assert debrief.build_pdf([("Table 1", game)]) == pdf


def test_a_class_handout_has_every_village_and_compares_them_year_by_year() -> None:
    villages = [("Village 1", played("leerdam", 5, seed=3)), ("Village 2", played("leerdam", 6, seed=8))]
    pages = pages_text(debrief.build_pdf(villages, title="Class 7B"))
    assert any("Leerdam debrief: Village 1" in p for p in pages) and any("Leerdam debrief: Village 2" in p for p in pages)
    # The comparison closes the handout (its charts' numbers may run onto a page of their own).
    compared = next(i for i, p in enumerate(pages) if "The villages compared, year by year" in p)
    assert compared > max(i for i, p in enumerate(pages) if "Leerdam debrief: Village" in p)
    assert "Village 1" in pages[compared] and "Village 2" in pages[compared]
    last = " ".join(pages[compared:])
    assert "Pledged per household, village by village" in last and "The dyke at each year's end" in last
    longest = max(len(g.state.years) for _, g in villages)
    assert f" {longest} pledged " in last  # the last year has its row


def test_a_class_handout_refuses_tables_of_two_games(games) -> None:
    with pytest.raises(ValueError, match="same game"):
        debrief.build_pdf([("1", games["leerdam"]), ("2", games["new-rule"])])
    with pytest.raises(ValueError, match="at least one"):
        debrief.build_pdf([])


def test_picks_are_printed_only_when_the_facilitator_reveals_them(games) -> None:
    game = games["new-rule"]
    shown = " ".join(pages_text(debrief.build_pdf([("T", game)], reveal=True)))
    kept = " ".join(pages_text(debrief.build_pdf([("T", game)], reveal=False)))
    assert "Picks" in shown and "Picks" not in kept and "What happened" in kept


def test_leerdams_pledges_by_household_print_only_where_allowed(games) -> None:
    game = games["leerdam"]
    named = " ".join(pages_text(debrief.build_pdf([("T", game)])))
    kept = " ".join(pages_text(debrief.build_pdf([("T", game)], reveal_pledges=False)))
    assert "Pledges" in named and "Most given to the dyke" in named
    assert "Pledges 1 2" not in kept and "Most given to the dyke" not in kept and "The most pledged in one year" in kept


def _section(pages: list[str], label: str) -> list[str]:
    """The pages of one table's section of a handout (their running foot names the table),
    page numbers left out."""
    return [re.sub(r"page \d+", "page", page) for page in pages if f"Debrief · {label}" in page]


def test_a_class_handout_names_no_secret_of_a_table_still_playing(games) -> None:
    """One New Rule table finished, one in its second round: the handout reveals the finished
    table's picks (each table once it is over) and prints the other exactly as a handout that
    reveals nothing would, in either order: no pick, no draw."""
    finished = ("Table 1", games["new-rule"])
    going = ("Table 2", play(Game(nr.RULES, nr.Setup(names=("Dee", "Eli", "Fay")), 5, keep=None), lambda g: g.state.round == 2 and any(g.state.picks)))
    kept = _section(pages_text(debrief.build_pdf([going], reveal=False)), "Table 2")
    told = _section(pages_text(debrief.build_pdf([going], reveal=True)), "Table 2")
    assert told != kept and "Dee: " in " ".join(told)  # the table has secrets: its picks so far
    for tables in ([finished, going], [going, finished]):
        pages = pages_text(debrief.build_pdf(tables))
        assert _section(pages, "Table 2") == kept
        assert "Picks" in " ".join(_section(pages, "Table 1"))


def test_a_class_handout_names_no_household_of_an_anonymous_village_still_playing() -> None:
    """Anonymous pledges shown for the class (`reveal_pledges`): the finished village's households
    are named, the village still in its third year prints as if nothing were revealed."""
    finished = ("Village 1", world(0))
    going = ("Village 2", play(Game(ld.RULES, ld.Setup(names=("Dee", "Eli", "Fay", "Gus", "Hal"), anonymous=True, max_years=9), 5, keep=None), lambda g: g.state.year == 3 and any(p is not None for p in g.state.pledges)))
    pages = pages_text(debrief.build_pdf([finished, going], reveal_pledges=True))
    shown = " ".join(_section(pages, "Village 1"))
    assert "VP by household" in shown and "Most given to the dyke" in shown and "Pledges 1 2" in shown
    assert _section(pages, "Village 2") == _section(pages_text(debrief.build_pdf([going], reveal=False, reveal_pledges=False)), "Village 2")
    still = " ".join(_section(pages, "Village 2"))
    assert "VP by household" not in still and "Most given to the dyke" not in still and "Pledges 1" not in still


# -- the command line ----------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("slug", ["leerdam", "new-rule", "dangerous-ideas", "danger-world"])
def test_debrief_writes_the_csv_and_the_handout_from_a_save_file(capsys, tmp_path: Path, games, slug) -> None:
    game = games[slug]
    save = tmp_path / "table.json"
    save.write_text(game.to_json(), encoding="utf-8")
    code, _, err = run(capsys, "debrief", str(save), "--csv", str(tmp_path / "d.csv"), "--pdf", str(tmp_path / "d.pdf"))
    assert code == 0, err
    raw = (tmp_path / "d.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    found = decisions_of(game)
    assert len(rows) == len(found) == sum(1 for a in game.actions if not a.chance)
    assert [r["decision"] for r in rows] == [d.decision for d in found] and rows[0]["table"] == "table"
    assert "debrief: table" in pages_text((tmp_path / "d.pdf").read_bytes())[0]


def test_a_public_debrief_names_no_draw(capsys, tmp_path: Path, games) -> None:
    save = tmp_path / "nr.json"
    save.write_text(games["new-rule"].to_json(), encoding="utf-8")
    assert run(capsys, "debrief", str(save), "--csv", str(tmp_path / "all.csv"))[0] == 0
    assert run(capsys, "debrief", str(save), "--public", "--csv", str(tmp_path / "public.csv"))[0] == 0
    assert " drew " in (tmp_path / "all.csv").read_text(encoding="utf-8-sig")
    public = (tmp_path / "public.csv").read_text(encoding="utf-8-sig")
    assert " drew " not in public and "takes a colour in secret" in public


def test_debrief_refuses_a_damaged_or_forged_file_and_writes_nothing(capsys, tmp_path: Path, games) -> None:
    game = games["new-rule"]
    outputs = ("--csv", str(tmp_path / "d.csv"), "--pdf", str(tmp_path / "d.pdf"))
    damaged = tmp_path / "damaged.json"
    damaged.write_text(game.to_json()[:-40], encoding="utf-8")
    code, _, err = run(capsys, "debrief", str(damaged), *outputs)
    assert code == 2 and "damaged or truncated" in err
    record = json.loads(game.to_json())
    drawn = next(a for a in record["actions"] if a["kind"] == "drawn")
    drawn["candies"] = ["red", "red"] if drawn["candies"] != ["red", "red"] else ["blue", "blue"]
    body = {k: v for k, v in record.items() if k != "digest"}
    record["digest"] = _digest(body)  # a forger recomputes the checksum; the replay still catches it
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run(capsys, "debrief", str(forged), *outputs)
    assert code == 2 and "do not replay" in err
    assert not (tmp_path / "d.csv").exists() and not (tmp_path / "d.pdf").exists()
    code, _, err = run(capsys, "debrief", str(forged))
    assert code == 2 and "--csv" in err


def test_an_anonymous_village_prints_no_households_numbers_until_the_facilitator_shows_them() -> None:
    import lab
    from lab.core import play_out
    from rules import leerdam as ld
    from rules.core import Game, rng_for
    from tests.support.played import NAMES, AnonymousSetup

    bots = [lab.BOTS["leerdam"][b] for b in lab.DEFAULT_BOTS["leerdam"]]
    game = play_out(Game(ld.RULES, AnonymousSetup(names=NAMES), 3), (bots * 5)[:5], rng_for(3, -1))
    kept = " ".join(pages_text(debrief.build_pdf([("V", game)])))
    assert "Each household's score stays its own" in kept and "VP by household" not in kept and "Most given" not in kept
    assert "Pledged in all, year by year" in kept  # the village's totals are public in every variant
    shown = " ".join(pages_text(debrief.build_pdf([("V", game)], reveal_pledges=True)))
    assert "VP by household" in shown and "Most given to the dyke" in shown and ("The winner:" in shown or "A shared win:" in shown)


def test_debrief_writes_only_what_is_asked_on_the_page_asked(capsys, tmp_path: Path, games) -> None:
    save = tmp_path / "dw.json"
    save.write_text(games["danger-world"].to_json(), encoding="utf-8")
    same = str(tmp_path / "both")
    code, _, err = run(capsys, "debrief", str(save), "--csv", same, "--pdf", same)
    assert code == 2 and "same file" in err and not Path(same).exists()
    assert run(capsys, "debrief", str(save), "--pdf", str(tmp_path / "l.pdf"), "--page", "letter")[0] == 0
    page = pypdf.PdfReader(io.BytesIO((tmp_path / "l.pdf").read_bytes())).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert not list(tmp_path.glob("*.csv"))


def test_debrief_of_a_class_from_its_villages_save_files(capsys, tmp_path: Path) -> None:
    one, two = tmp_path / "village1.json", tmp_path / "village2.json"
    one.write_text(played("leerdam", 5, seed=3).to_json(), encoding="utf-8")
    two.write_text(played("leerdam", 6, seed=8).to_json(), encoding="utf-8")
    code, _, err = run(capsys, "debrief", str(one), str(two), "--csv", str(tmp_path / "c.csv"), "--pdf", str(tmp_path / "c.pdf"))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO((tmp_path / "c.csv").read_text(encoding="utf-8-sig"), newline="")))
    assert {r["table"] for r in rows} == {"village1", "village2"}
    assert any("The villages compared, year by year" in p for p in pages_text((tmp_path / "c.pdf").read_bytes()))
    other = tmp_path / "nr.json"
    other.write_text(played("new-rule", 3).to_json(), encoding="utf-8")
    code, _, err = run(capsys, "debrief", str(one), str(other), "--pdf", str(tmp_path / "x.pdf"))
    assert code == 2 and "different games" in err and not (tmp_path / "x.pdf").exists()
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    code, _, err = run(capsys, "debrief", str(one), str(broken), "--pdf", str(tmp_path / "x.pdf"))
    assert code == 2 and "broken.json" in err and not (tmp_path / "x.pdf").exists()


def test_debrief_explains_itself(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["debrief", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and "usage: playbook debrief" in out and "--public" in out and "example:" in out
