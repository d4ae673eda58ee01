"""The drawing layer (`drawing/`) without a kernel: it loads no widgets, imports only the rules
and itself, and draws every game's board, moment by moment, from plain states."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import lab
from drawing.board import scene_html
from drawing.chart import chart_svg
from drawing.common import SERIES_COLOURS, percent
from drawing.timeline import Timeline, scenes_for
from rules import GAMES, Game
from rules.games import CARDS

DRAWING = Path(__file__).resolve().parent.parent / "drawing"
MODULES = sorted("drawing" if path.stem == "__init__" else f"drawing.{path.stem}" for path in DRAWING.glob("*.py"))
#: a name a page must never read as markup.
HOSTILE = "<b>Bo</b> & Co"


@pytest.mark.parametrize("module", MODULES)
def test_a_drawing_module_loads_no_widgets(module: str) -> None:
    """Each module alone, in a fresh interpreter: neither ipywidgets nor a page's module comes with it."""
    look = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'ipykernel', 'widgets', 'playbook', 'printables')))\n"
    )
    done = subprocess.run([sys.executable, "-c", look], capture_output=True, text=True, timeout=120, cwd=DRAWING.parent, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


def test_every_games_scenes_load_without_widgets() -> None:
    """The board finds each game's scenes through its card; loading all of them brings no widget."""
    look = (
        "import sys\n"
        "from drawing.timeline import scenes_for\n"
        "from rules.games import CARDS\n"
        "print([scenes_for(game.slug).slug for game in CARDS])\n"
        "print('ipywidgets' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", look], capture_output=True, text=True, timeout=120, cwd=DRAWING.parent, check=False)
    assert done.returncode == 0, done.stderr
    slugs, widgets_loaded = done.stdout.split("\n")[:2]
    assert slugs == repr([game.slug for game in CARDS]) and widgets_loaded == "False"


def test_drawing_imports_the_rules_the_languages_and_itself_only() -> None:
    allowed = {"rules", "i18n", "drawing", "__future__", "babel"} | set(sys.stdlib_module_names)
    found = set()
    for path in DRAWING.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(path.name, alias.name.split(".")[0]) for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add((path.name, node.module.split(".")[0]))
    assert {(name, top) for name, top in found if top not in allowed} == set()


# -- one percent for the room ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "chance, decimals, said",
    [
        (Fraction(15, 36), 0, "42%"),
        (Fraction(1, 250), 0, "<1%"),  # possible, so never "0%"
        (Fraction(249, 250), 0, ">99%"),  # not certain, so never "100%"
        (Fraction(0), 0, "0%"),
        (Fraction(1), 0, "100%"),
        (0.632, 1, "63.2%"),
        (Fraction(1, 2000), 1, "<0.1%"),
        (Fraction(1999, 2000), 1, ">99.9%"),
        (0.0, 1, "0.0%"),
    ],
)
def test_a_chance_never_reads_as_impossible_or_certain_when_it_is_not(chance: Fraction | float, decimals: int, said: str) -> None:
    assert percent(chance, decimals) == said


def test_the_board_chart_draws_its_series_in_the_screen_palette() -> None:
    svg = chart_svg("Scores", ["R1", "R2", "R3"], lines=[(f"{HOSTILE} {k}", [k, k + 1, None]) for k in range(12)])
    assert svg.count("<polyline") == 12
    assert all(colour in svg for colour in SERIES_COLOURS)
    assert HOSTILE not in svg and "&lt;b&gt;Bo&lt;/b&gt; &amp; Co" in svg


# -- every game's board, moment by moment -----------------------------------------------------------------


def played(slug: str, steps: int = 400) -> Game:
    """A table of the game's default bots, played `steps` actions or to its end."""
    default = lab.DEFAULT_BOTS[slug]
    rules = GAMES[slug]
    names = (HOSTILE, *(f"{bot} {i + 1}" for i, bot in enumerate(default[1:])))
    game = Game(rules, rules.setup(names=names), 7)
    if slug == "danger-world":
        return encounter(game, steps)
    bots = [lab.BOTS[slug][name] for name in default]
    rng = random.Random(7)
    while not rules.over(game.state) and len(game.actions) < steps:
        seat = rules.waiting_for(game.state)[0]
        game.apply(bots[seat](game.state, seat, rng))
    return game


def encounter(game: Game, steps: int) -> Game:
    """Danger World's party: its sheets, then checks by a lab player, the GM spending every botch on hits."""
    from lab.danger_world import ASPECTS, SHEET, _gm_hits, player_bot
    from rules import danger_world as dw

    players = len(game.setup.names)
    for seat in range(players):
        game.apply(dw.CreateCharacter(seat=seat, character=seat, stats=SHEET, aspects=ASPECTS))
    bot, rng, turn = player_bot("bold", 6), random.Random(7), 0
    while not game.state.over and len(game.actions) < steps:
        state = game.state
        if state.phase == "gm":
            game.apply(dw.SpendBotches(seat=players, options=tuple(dw.GmOption(o, state.check.actor) for o in _gm_hits(state.check.botches))))
        elif state.phase == "lock":
            game.apply(bot(state, state.check.actor, rng))
        else:
            able = [i for i, c in enumerate(state.characters) if not c.dead and not c.knocked_out]
            if not able:
                break
            game.apply(bot(state, able[turn % len(able)], rng))
            turn += 1
    return game


@pytest.mark.parametrize("slug", [game.slug for game in CARDS])
def test_every_moment_of_a_game_draws_as_a_board_scene_without_a_kernel(slug: str) -> None:
    game = played(slug)
    timeline = Timeline.of(game)
    scenes = scenes_for(slug)
    assert len(timeline.moments) > 1
    for k, moment in enumerate(timeline.moments):
        scene = scenes.scene(moment.state)
        page = scene_html(scene, timeline.chart(k), "A table")
        assert f'data-phase="{scene.phase}"' in page
        assert HOSTILE not in page  # every name escaped
    assert "<svg" in timeline.chart()
