"""The `playbook` command line, called in-process through `main(argv)`."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from lab.core import play_out
from lab.new_rule import balanced_bot
from playbook.cli import main, parser
from rules import new_game
from rules import new_rule as nr
from rules.core import rng_for


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def saved_game(tmp_path: Path, names: tuple[str, ...] = ("Ana", "Bo", "Cy", "Di")) -> Path:
    game = new_game("new-rule", nr.Setup(names=names), 21)
    play_out(game, [balanced_bot] * len(names), rng_for(21, 0))
    path = tmp_path / "saved.json"
    path.write_text(game.to_json(), encoding="utf-8")
    return path


def _commands() -> list[str]:
    (sub,) = (a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def test_the_playbook_lists_every_command() -> None:
    out = io.StringIO()
    parser().print_help(out)
    listed = {line.split()[0] for line in out.getvalue().splitlines() if line.startswith("    ") and line.strip()}
    assert listed >= set(_commands()), out.getvalue()


@pytest.mark.parametrize("command", _commands())
def test_every_command_explains_itself(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert "usage: playbook " + command in capsys.readouterr().out


def test_simulate_is_reproducible_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, first, _ = run(capsys, "simulate", "new-rule", "--games", "20", "--seed", "4", "--json")
    assert code == 0
    _, second, _ = run(capsys, "simulate", "new-rule", "--games", "20", "--seed", "4", "--json")
    _, other, _ = run(capsys, "simulate", "new-rule", "--games", "20", "--seed", "5", "--json")
    assert first == second and first != other
    assert first.count("\n") == 1  # one line of JSON
    stats = json.loads(first)
    assert stats["games"] == 20
    assert sum(stats["endings"].values()) == 20
    assert sum(stats["rounds_played"]["histogram"].values()) == 20
    assert set(stats["win_share_per_seat_by_bot"]) == {"balanced", "random"}


def test_simulate_refuses_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "new-rule", "--games", "2", "--bots", "balanced,clever,random")
    assert code == 2 and "unknown bot 'clever'" in err


def test_replay_prints_standings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "replay", str(saved_game(tmp_path)))
    assert code == 0
    report = json.loads(out)
    assert report["game"] == "new-rule" and report["over"] is True
    assert sorted(row["name"] for row in report["standings"]) == ["Ana", "Bo", "Cy", "Di"]
    assert report["standings"][0]["rank"] == 1


def test_replay_refuses_a_damaged_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    path.write_text(path.read_text(encoding="utf-8")[:200], encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert "damaged or truncated" in err


def test_print_blank_pads_for_named_players(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pdf = tmp_path / "pads.pdf"
    code, _, _ = run(capsys, "print", "new-rule", "--players", "3", "--names", "Zoë,<b>Bo & Co,Cy 🎲", "--page", "letter", "-o", str(pdf))
    assert code == 0
    reader = PdfReader(pdf)
    text = "".join(page.extract_text() for page in reader.pages)
    for name in ("Zoë", "<b>Bo & Co", "Cy"):
        assert name in text
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(float(width)), round(float(height))) == (612, 792)


def test_print_refuses_names_that_do_not_match_the_count(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "print", "new-rule", "--players", "4", "--names", "A,B", "-o", str(tmp_path / "x.pdf"))
    assert code == 2 and "2 names" in err
    assert not (tmp_path / "x.pdf").exists()


def test_print_what_you_played(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pdf = tmp_path / "played.pdf"
    code, _, _ = run(capsys, "print", "new-rule", "--game-file", str(saved_game(tmp_path)), "-o", str(pdf))
    assert code == 0
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Ana" in text and "Di" in text


def test_leerdam_replay_simulate_and_print(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from lab import BOTS
    from rules import leerdam as ld

    game = new_game("leerdam", ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Ed")), 4)
    play_out(game, [BOTS["leerdam"][b] for b in ("fair", "free-rider", "altruist", "conditional", "fair")], rng_for(4, 0))
    path = tmp_path / "village.json"
    path.write_text(game.to_json(), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and json.loads(out)["over"] is True
    assert {row["name"] for row in json.loads(out)["standings"]} == {"Ana", "Bo", "Cy", "Di", "Ed"}
    code, out, _ = run(capsys, "simulate", "leerdam", "--games", "3", "--seed", "2", "--bots", "fair,fair,free-rider,altruist,conditional", "--json")
    stats = json.loads(out)
    assert code == 0 and stats["games"] == 3 and set(stats["mean_vp_by_strategy"]) == {"fair", "free-rider", "altruist", "conditional"}
    pdf = tmp_path / "leerdam.pdf"
    code, _, _ = run(capsys, "print", "leerdam", "--players", "7", "-o", str(pdf))
    assert code == 0 and "Village board" in "".join(p.extract_text() for p in PdfReader(pdf).pages)


def test_dangerous_ideas_odds_and_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "dangerous-ideas", "--pool", "8", "--seeds", "1")
    report = json.loads(out)
    assert code == 0
    assert report["by_seeds_spent_at_most"]["0"]["fraction"] == "13/18"  # 26 of 36 rolls are 8 or less
    assert report["success"]["probability"] > report["by_seeds_spent_at_most"]["0"]["probability"]
    code, _, err = run(capsys, "odds", "dangerous-ideas")
    assert code == 2 and "--pool" in err
    code, out, _ = run(capsys, "simulate", "dangerous-ideas", "--games", "2", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["games"] == 2


def test_danger_world_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "danger-world", "--dice", "2", "--difficulty", "2", "--rerolls", "0")
    report = json.loads(out)
    assert code == 0 and report["exact"] == "1/36"  # only two 2s make a set with two dice
    code, _, err = run(capsys, "odds", "danger-world", "--dice", "3")
    assert code == 2 and "--difficulty" in err
    code, _, err = run(capsys, "odds", "danger-world", "--dice", "3", "--difficulty", "9")
    assert code == 2 and "playbook odds: error: argument --difficulty: 9 is out of range (2-6)" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "99999"], "playbook serve: error: argument --port: 99999 is out of range (1-65535)"),
        (["serve", "--notebook", "nothere.ipynb"], "playbook serve: error: argument --notebook: no notebook 'nothere.ipynb'"),
        (["odds", "dangerous-ideas", "--pool", "-3"], "playbook odds: error: argument --pool: -3 is out of range (0-100)"),
        (["print", "new-rule", "--players", "61", "-o", "x.pdf"], "playbook print: error: argument --players: new-rule takes 3-5 players at one table, or a class of 6-60"),
        (["print", "all", "--players", "21", "-o", "x.pdf"], "playbook print: error: argument --players: all prints for a group of 1-20, not 21"),
        (["print", "all", "--players", "4", "-o", "/missing/dir/x.pdf"], "playbook print: error: argument -o/--output: folder '/missing/dir' does not exist"),
        (["simulate", "new-rule", "--games", "0"], "playbook simulate: error: argument --games: 0 is out of range (1-1000000)"),
    ],
)
def test_refusals_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    try:
        code = main(argv)
    except SystemExit as done:
        code = done.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert not Path("/missing/dir").exists()


def test_version_and_help_name_ranges_and_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("playbook ")
    with pytest.raises(SystemExit):
        main(["print", "--help"])
    out = capsys.readouterr().out
    assert "new-rule 3-5" in out and "(default a4)" in out and "example:" in out


def test_print_all_for_any_group_with_seat_links(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "print", "all", "--players", "2", "-o", str(tmp_path / "two.pdf"))
    assert code == 0 and "New Rule takes 3-5 players: not printed for 2" in err
    links = tmp_path / "links.json"
    links.write_text('{"board": "b", "facilitator": "f", "seats": [{"seat": 0, "name": "Ana", "url": "http://h/?seat=0&key=k"}]}', encoding="utf-8")
    code, _, err = run(capsys, "print", "leerdam", "--players", "3", "--seat-links", str(links), "-o", str(tmp_path / "l.pdf"))
    assert code == 0 and "Leerdam is written for 5-10 households" in err
    text = "".join(p.extract_text() for p in PdfReader(tmp_path / "l.pdf").pages)
    assert "http://h/?seat=0&key=k" in text


@pytest.mark.heavy
def test_compare_two_setups_on_the_same_seeds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ("compare", "leerdam", "--a", "bots=fair*7", "--b", "bots=fair*7,misfortune=3,2,1,0,0,0", "--games", "30", "--seed", "2", "--workers", "1")
    code, out, _ = run(capsys, *args, "--json", "--csv", str(tmp_path / "games.csv"), "--pdf", str(tmp_path / "report.pdf"))
    report = json.loads(out)
    assert code == 0 and report["games"] == 30 and "misfortune=3,2,1,0,0,0" in report["b"]
    measures = {m["measure"]: m for m in report["measures"]}
    assert measures["mean VP per household"]["difference"] < 0 and {"low", "high", "noise"} <= set(measures["final dyke"])
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 61
    assert "Side by side" in "".join(p.extract_text() for p in PdfReader(tmp_path / "report.pdf").pages)
    _, again, _ = run(capsys, *args, "--json")
    assert again == out  # the same seed, the same numbers
    code, _, err = run(capsys, "compare", "leerdam", "--b", "misfortune=1", "--games", "2")
    assert code == 2 and "misfortune takes 6 values" in err


@pytest.mark.heavy
def test_danger_world_simulates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "danger-world", "--games", "5", "--seed", "1", "--variant", "sweep_trials=5,gm=danger", "--workers", "1", "--json")
    report = json.loads(out)
    assert code == 0 and report["games"] == 5 and report["gm"] == "danger" and len(report["check_sweep"]) == 660
    assert report["hits_per_encounter"]["max"] == 0  # the danger script buys no hits


def test_review_says_in_words_what_the_bots_found(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", "leerdam", "--games", "40", "--workers", "1", "--quiet")
    assert code == 0 and out.startswith("leerdam: the text as written, 40 games")
    assert "- What wins: a free-rider wins" in out and "The dyke falls to 1 in" in out and "95% interval" in out
    code, out, _ = run(capsys, "review", "new-rule", "--games", "30", "--workers", "1", "--json")
    report = json.loads(out)
    assert code == 0 and "max_rounds=none" in report["setup"] and "winner-scores-0" in {f["key"] for f in report["findings"]}


def test_the_lab_refuses_more_workers_than_cores(capsys: pytest.CaptureFixture[str]) -> None:
    from lab.core import default_workers

    code, _, err = run(capsys, "simulate", "leerdam", "--games", "40", "--workers", str(default_workers() + 1))
    assert code == 2 and f"this machine has {default_workers()} core" in err
