"""The balance lab: bot games for every game, two setups compared on the same seeds, findings.

`BalanceLab()` sets up one table of bots (setup A) and, with "Compare with setup B", a second;
each setup is its bots (one per seat, or a ready-made village) and its variants in the
command line's VARIANTS syntax (`misfortune=3,2,1,0,0,0`). Run plays the games over every core
(the progress bar follows), then shows what the numbers show in words, the measures side by
side with the difference and its 95% interval, the statistics, the charts, and downloads: one
row per game as CSV, the printable PDF report and the numbers as JSON (data-URI links: Voila
serves no local files). Its `OddsPanel` gives the exact odds of a Danger World check or a
Dangerous Ideas meme action.

No rule and no statistic lives here: the numbers come from `lab`, the odds from `rules`.

Stable CSS classes (`add_class`), for browser tests and users' scripts:

- root: ``playbook-balance-lab`` (and ``playbook-root``)
- ``pb-lab-game``, ``pb-lab-bot-<i>`` (Dropdown, seat i = 0.. of setup A), ``pb-lab-add-seat``,
  ``pb-lab-remove-seat``, ``pb-lab-village`` (Leerdam's ready-made villages),
  ``pb-lab-variants`` (Text), ``pb-lab-compare`` (Checkbox), ``pb-lab-b-bot-<i>``,
  ``pb-lab-b-variants``, ``pb-lab-games``, ``pb-lab-seed``, ``pb-lab-workers``, ``pb-lab-run``,
  ``pb-lab-review`` (the text as written, reviewed by the default bots),
  ``pb-lab-progress`` (IntProgress), ``pb-lab-note``, ``pb-lab-findings``,
  ``pb-lab-comparison`` (the side-by-side table), ``pb-lab-results`` (tables),
  ``pb-lab-chart`` (a `Picture`), ``pb-lab-download`` (CSV, PDF and JSON links)
- odds: ``pb-odds``, ``pb-odds-game``, ``pb-odds-dice``, ``pb-odds-difficulty``,
  ``pb-odds-penalty``, ``pb-odds-rerolls``, ``pb-odds-pool``, ``pb-odds-seeds``,
  ``pb-odds-result``
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

import i18n
import lab
from drawing.common import card, download_link, esc
from drawing.odds import OddsForm, table_html
from i18n import _, _n, render
from lab.core import close_pool, default_workers, label_of
from lab.findings import MIN_GAMES, pct, verdict, verdict_word
from lab.report import csv_text
from playbook.heavy import ServerBusy, heavy_work
from rules import RuleError
from rules.games import CARDS, Card
from rules.games import card as game_card

from .common import Picture, StatusLine, close_tree, figure_png, plot_context
from .studio import WIDE, _row, seat_range
from .styles import style_html

__all__ = ["BalanceLab", "OddsPanel", "SetupPanel", "lab_games", "result_html"]

DEFAULT_GAMES = 100


def lab_games() -> tuple[str, ...]:
    """The games in the lab (those with a lab of their own), in menu order."""
    return tuple(game.slug for game in CARDS if game.has("lab"))


# -- balance: result tables and charts -----------------------------------------------------------


def _refusal(exc: Exception) -> str:
    """A refusal's own words in the reader's language, without the "(rule: ...)" tail."""
    return render(getattr(exc, "said", None) or getattr(exc, "message", None) or str(exc))


def _number(key: str, value: object) -> str:
    """A value for a table cell, in the reader's language: shares and rates as percentages."""
    if value is None:
        return "—"
    if isinstance(value, float) and {"share", "rate"} & set(key.split("_")):
        return pct(value, 1)
    if isinstance(value, float):
        return i18n.number(float(f"{value:g}"))
    if isinstance(value, int) and not isinstance(value, bool):
        return i18n.number(value)
    return str(value)


def _is_summary(value: object) -> bool:
    return isinstance(value, dict) and {"mean", "min", "max", "histogram"} <= set(value)


def result_html(result: Mapping[str, Any]) -> str:
    """The statistics `simulate` returned, as readable tables (any game's keys, laid out alike;
    each key said by its game's lab, `lab.core.label_of`)."""
    game = str(result.get("game") or "")
    labels = lab.GAMES[game].labels if game in lab.GAMES else {}

    def _label(key: str) -> str:
        said = render(label_of(key, labels))
        return said[:1].upper() + said[1:]

    bots = list(result.get("bots", ()))
    kinds = sorted(set(bots))
    seats = {kind: bots.count(kind) for kind in kinds}
    # TRANSLATORS: a row of the lab's table: how many games were played.
    facts: list[tuple[str, object]] = [(_("Games"), result.get("games")), (_("Seed"), str(result.get("seed")))]
    # TRANSLATORS: a row of the lab's table: the bot at each seat, "1: fair, 2: fair, 3: free-rider".
    facts.append((_("Seats"), ", ".join(f"{i + 1}: {b}" for i, b in enumerate(bots))))
    by_kind: list[tuple[str, Mapping[str, Any]]] = []
    summaries: list[tuple[str, Mapping[str, Any]]] = []
    others: list[tuple[str, Mapping[str, Any]]] = []
    for key, value in result.items():
        if key in ("game", "games", "seed", "bots") or isinstance(value, list):
            continue  # lists (year by year, the check sweep, findings) are charted or listed apart
        if _is_summary(value):
            summaries.append((key, value))
        elif isinstance(value, dict) and value and set(value) <= set(kinds):
            by_kind.append((key, value))
        elif isinstance(value, dict):
            others.append((key, value))
        else:
            facts.append((_label(key), _number(key, value)))
    # TRANSLATORS: a card's title in the balance lab: the facts of the games just played.
    parts = [card(_("The run"), table_html(("", ""), [(k, v if isinstance(v, str) else _number("", v)) for k, v in facts]))]
    if by_kind:
        header = [_("Strategy"), _("Seats"), *(_label(k) for k, _values in by_kind)]
        rows = [[kind, _number("", seats[kind]), *(_number(k, values.get(kind)) for k, values in by_kind)] for kind in kinds]
        # TRANSLATORS: a card's title in the balance lab: the numbers of each kind of bot.
        parts.append(card(_("By strategy"), table_html(header, rows)))
    if summaries:
        rows = [[_label(k), _number(k, s["mean"]), _number(k, s["min"]), _number(k, s["max"])] for k, s in summaries]
        # TRANSLATORS: a card's title in the balance lab: each measure's mean, least and most per game.
        parts.append(card(_("Per game"), table_html(("", _("Mean"), _("Min"), _("Max")), rows)))
    for key, values in others:
        parts.append(card(_label(key), table_html(("", ""), [(_label(str(k)), _number(str(k), v)) for k, v in values.items()])))
    return "".join(parts)


# -- the exact-odds panel -----------------------------------------------------------------------


class OddsPanel(widgets.VBox):
    """Exact chances, for every game whose drawing says how to ask for them (its `ODDS`, an
    `OddsForm`: a Danger World check, a Dangerous Ideas meme action): one number box per
    input (``pb-odds-<name>``), worked out by the game's rules' `odds_report`.

    `report` holds the last `odds_report` (plain JSON-ready data); `inputs[name]` is a box.
    """

    def __init__(self) -> None:
        self.report: dict[str, Any] | None = None
        self.forms: dict[str, OddsForm] = {game.slug: game.module("drawing").ODDS for game in CARDS if _has_odds(game)}
        self.inputs: dict[str, widgets.BoundedIntText] = {}
        self.boxes: dict[str, widgets.Widget] = {}
        for slug, form in self.forms.items():
            boxes = []
            for given in form.inputs:
                box = widgets.BoundedIntText(
                    value=given.value, min=given.low, max=given.high, description=render(given.label), tooltip=render(given.tip),
                    style=WIDE, layout=widgets.Layout(width="190px"),
                ).add_class(f"pb-odds-{given.name}")  # fmt: skip
                box.observe(lambda _change: self.compute(), "value")
                self.inputs[given.name] = box
                boxes.append(box)
            row = widgets.HBox(tuple(boxes), layout=_row())
            note = (widgets.HTML(f'<span class="pb-muted">{esc(render(form.note))}</span>'),) if form.note else ()
            self.boxes[slug] = widgets.VBox((row, *note))
        self.game = widgets.ToggleButtons(
            options=[(game_card(slug).title, slug) for slug in self.forms],
            value=next(iter(self.forms)),
            tooltips=[render(form.tooltip) for form in self.forms.values()],
        ).add_class("pb-odds-game")
        self.game.observe(lambda _change: self.compute(), "value")
        self.result = widgets.HTML().add_class("pb-odds-result")
        # TRANSLATORS: a heading in the balance lab: the exact chances of a check or an action.
        heading = widgets.HTML(f'<h3 style="margin:18px 0 4px">{esc(_("Exact odds"))}</h3>')
        super().__init__((heading, self.game, *self.boxes.values(), self.result))
        self.add_class("pb-odds")
        self.compute()

    def compute(self) -> None:
        """Work out the chance for the values shown and show it."""
        chosen = self.forms[self.game.value]
        for slug, box in self.boxes.items():
            box.layout.display = "flex" if slug == self.game.value else "none"
        self.result.value = f'<span class="pb-muted">{esc(_("Working out the exact odds…"))}</span>'
        try:
            report = game_card(self.game.value).module("rules").odds_report(*(self.inputs[given.name].value for given in chosen.inputs))
        except (RuleError, ValueError) as exc:
            self.report = None
            self.result.value = card("", f'<span class="pb-tone-bad" style="font-weight:600">✋ {esc(_refusal(exc))}</span>')
            return
        self.report = report
        self.result.value = chosen.html(report)


#: a setting as the variants box takes it ("max_rounds=none", "bots=hoarder*4", "cap=200"), or a
#: setting's name ("max_rounds"): the same in every language, as it is typed.
_SETTING = re.compile(r"(?<![\w&#])[a-z]+(?:_[a-z]+)*=[^\s,;)]+|(?<![\w&#])[a-z]+(?:_[a-z]+)+(?![\w=])")


def settings_as_typed(escaped: str) -> str:
    """Escaped text with each setting it names shown as code: what to type into the variants
    box, not words of the sentence (and a phone may not break it mid-name)."""
    return _SETTING.sub(lambda found: f"<code>{found.group()}</code>", escaped)


def _has_odds(game: Card) -> bool:
    """Whether the lab can ask `game` for exact odds: its drawing says how (`ODDS`)."""
    return game.has("drawing") and isinstance(getattr(game.module("drawing"), "ODDS", None), OddsForm)


# -- one setup: bots and variants ------------------------------------------------------------


class SetupPanel(widgets.VBox):
    """One setup of the lab: a bot per seat (or a ready-made village) and its variants."""

    def __init__(self, prefix: str, title: str) -> None:
        self.prefix = prefix
        self.slug = lab_games()[0]
        self.bot_menus: tuple[widgets.Dropdown, ...] = ()
        self.seats = widgets.GridBox(layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(250px, 1fr))", grid_gap="2px 12px"))
        # TRANSLATORS: a button in the balance lab: one more bot seat.
        self.add_button = widgets.Button(description=_("Add seat"), icon="plus").add_class(f"{prefix}add-seat")
        # TRANSLATORS: a button in the balance lab: one bot seat fewer.
        self.remove_button = widgets.Button(description=_("Remove seat"), icon="minus").add_class(f"{prefix}remove-seat")
        self.village = widgets.Dropdown(description=_("Village"), style=WIDE, layout=widgets.Layout(width="300px")).add_class(f"{prefix}village")
        # TRANSLATORS: the box of a setup's variants (the rules' options, as in "misfortune=3,2,1,0,0,0").
        self.variants = widgets.Text(description=_("Variants"), style=WIDE, layout=widgets.Layout(width="520px")).add_class(f"{prefix}variants")
        self.bot_help = widgets.HTML()
        self.add_button.on_click(lambda _button: self.set_seats(len(self.bot_menus) + 1))
        self.remove_button.on_click(lambda _button: self.set_seats(len(self.bot_menus) - 1))
        self.village.observe(self._village_chosen, "value")
        super().__init__(
            (
                # TRANSLATORS: beside a setup's name, as in "Setup A · bots, one per seat".
                widgets.HTML(f"<b>{esc(title)}</b> · {esc(_('bots, one per seat'))}"),
                self.seats,
                widgets.HBox((self.add_button, self.remove_button, self.village), layout=_row()),
                self.variants,
                self.bot_help,
            )
        )

    def set_game(self, slug: str) -> None:
        self.slug = slug
        self.set_seats(len(lab.DEFAULT_BOTS[slug]), reset=True)
        # Ready-made tables of bots (Leerdam's villages), named as the game names a table.
        line_ups = list(lab.GAMES[slug].line_ups)
        self.village.description = render(game_card(slug).words.Table)
        # TRANSLATORS: the first, empty choice of a menu.
        self.village.options = [(_("— choose —"), "")] + [(render(label_of(v, lab.GAMES[slug].labels)), v) for v in line_ups]
        self.village.value = ""
        self.village.layout.display = "flex" if line_ups else "none"
        self.variants.value = ""
        self.variants.placeholder = render(lab.GAMES[slug].variant_example)
        lines = "".join(f"<li><b>{esc(name)}</b>: {esc(lab.bot_doc(slug, name))}</li>" for name in lab.BOTS[slug])
        self.bot_help.value = f'<details class="pb-muted"><summary>{esc(_("What each bot does"))}</summary><ul style="margin:2px 0">{lines}</ul></details>'

    def set_seats(self, count: int, reset: bool = False, bots: Sequence[str] | None = None) -> None:
        """Show `count` seat menus (kept within the game's range); new seats get the default bots."""
        low, high = seat_range(self.slug)
        count = min(max(count, low), high)
        kept = () if reset or bots is not None else self.bot_menus[:count]
        defaults = list(bots or lab.DEFAULT_BOTS[self.slug])
        menus = list(kept)
        for i in range(len(menus), count):
            menus.append(
                widgets.Dropdown(
                    options=list(lab.BOTS[self.slug]), value=defaults[i % len(defaults)], description=_("Seat {seat}", seat=str(i + 1)), style=WIDE,
                    layout=widgets.Layout(width="240px"),
                ).add_class(f"{self.prefix}bot-{i}")
            )
        dropped = [m for m in self.bot_menus if m not in menus]
        self.bot_menus = tuple(menus)
        self.seats.children = self.bot_menus
        close_tree(dropped)
        self.add_button.disabled = count >= high
        self.remove_button.disabled = count <= low
        title = render(game_card(self.slug).title)
        self.add_button.tooltip = _n("{game} seats at most {n}", "{game} seats at most {n}", high, game=title) if count >= high else _("Add a bot seat")
        self.remove_button.tooltip = _n("{game} needs at least {n} seat", "{game} needs at least {n} seats", low, game=title) if count <= low else _("Remove the last seat")

    def _village_chosen(self, change: Mapping[str, Any]) -> None:
        if change["new"]:
            village = lab.GAMES[self.slug].line_ups[change["new"]]
            self.set_seats(len(village), bots=village)

    def copy(self, other: SetupPanel) -> None:
        """Take another setup's bots and variants (a starting point for setup B)."""
        bots = [m.value for m in other.bot_menus]
        self.set_seats(len(bots), bots=bots)
        self.variants.value = other.variants.value

    def spec(self) -> lab.Spec:
        """The setup to run; RuleError when the variants do not make one."""
        return lab.spec(self.slug, self.variants.value, [m.value for m in self.bot_menus])


# -- the balance lab ----------------------------------------------------------------------------


class BalanceLab(widgets.VBox):
    """Setups A (and B), games, seed and workers; Run plays them with `lab.simulate` or
    `lab.compare` and lays out the findings, numbers, charts and downloads.

    Attributes tests and scripts rely on: `game`, `setup_a`, `setup_b`, `bot_menus` (setup A's),
    `add_button`, `remove_button`, `compare`, `games`, `seed`, `workers`, `run_button`,
    `progress`, `findings`, `comparison`, `results`, `chart`, `download`, `status`, `odds`;
    after a run, `result` (a `lab.Run` or `lab.Comparison`).
    """

    def __init__(self) -> None:
        self.result: Any = None
        self.game = widgets.Dropdown(
            options=[(render(game_card(slug).title), slug) for slug in lab_games()], description=_("Game"), style=WIDE, layout=widgets.Layout(width="300px")
        ).add_class("pb-lab-game")
        self.note = widgets.HTML().add_class("pb-lab-note")
        # TRANSLATORS: the first of the two tables of bots the lab compares.
        self.setup_a = SetupPanel("pb-lab-", _("Setup A"))
        # TRANSLATORS: the second of the two tables of bots the lab compares.
        self.setup_b = SetupPanel("pb-lab-b-", _("Setup B"))
        self.compare = widgets.Checkbox(value=False, description=_("Compare with setup B (the same seeds)"), indent=False, layout=widgets.Layout(width="auto")).add_class("pb-lab-compare")
        self.games = widgets.BoundedIntText(value=DEFAULT_GAMES, min=1, max=game_card(lab_games()[0]).lab_max_games, description=_("Games"), style=WIDE, layout=widgets.Layout(width="190px")).add_class("pb-lab-games")
        # TRANSLATORS: the number that makes a run's dice the same every time it is played.
        self.seed = widgets.IntText(value=1, description=_("Seed"), style=WIDE, layout=widgets.Layout(width="170px")).add_class("pb-lab-seed")
        # TRANSLATORS: how many processor cores play the games at once.
        self.workers = widgets.BoundedIntText(value=default_workers(), min=1, max=default_workers(), description=_("Cores"), style=WIDE, layout=widgets.Layout(width="150px")).add_class("pb-lab-workers")
        # TRANSLATORS: a button: play the games of the setup.
        self.run_button = widgets.Button(description=_("Run"), button_style="primary", icon="play").add_class("pb-lab-run")
        self.review_button = widgets.Button(
            # TRANSLATORS: a button: the bots play the game's text as written.
            description=_("Review the text"), icon="book", tooltip=_("What the default bots find in the text as written, with intervals")
        ).add_class("pb-lab-review")
        self.progress = widgets.IntProgress(value=0, min=0, max=DEFAULT_GAMES, description=_n("{n} game", "{n} games", 0), style=WIDE).add_class("pb-lab-progress")
        self.status = StatusLine()
        self.findings = widgets.HTML().add_class("pb-lab-findings")
        self.comparison = widgets.HTML().add_class("pb-lab-comparison")
        self.results = widgets.HTML().add_class("pb-lab-results")
        self.chart = Picture(layout=widgets.Layout(max_width="100%", display="none")).add_class("pb-lab-chart")
        self.download = widgets.HTML().add_class("pb-lab-download")
        self.odds = OddsPanel()

        self.game.observe(lambda _change: self._game_changed(), "value")
        self.compare.observe(lambda _change: self._compare_changed(), "value")
        self.run_button.on_click(lambda _button: self.run())
        self.review_button.on_click(lambda _button: self.review())
        super().__init__(
            (
                widgets.HTML(style_html("dashboard.css")),
                self.game,
                self.note,
                self.setup_a,
                self.compare,
                self.setup_b,
                widgets.HBox((self.games, self.seed, self.workers, self.run_button, self.review_button), layout=_row()),
                self.progress,
                self.status,
                self.findings,
                self.comparison,
                self.chart,
                self.download,
                self.results,
                self.odds,
            )
        )
        self.add_class("playbook-root")
        self.add_class("playbook-balance-lab")
        self._game_changed()

    @property
    def bot_menus(self) -> tuple[widgets.Dropdown, ...]:
        return self.setup_a.bot_menus

    @property
    def add_button(self) -> widgets.Button:
        return self.setup_a.add_button

    @property
    def remove_button(self) -> widgets.Button:
        return self.setup_a.remove_button

    def set_seats(self, count: int, reset: bool = False) -> None:
        self.setup_a.set_seats(count, reset)

    def _game_changed(self) -> None:
        slug = self.game.value
        note = lab.GAMES[slug].note
        self.note.value = f'<div class="pb-muted" style="margin:4px 0 8px;line-height:1.4"><span aria-hidden="true">ⓘ</span> {settings_as_typed(esc(render(note)))}</div>' if note else ""
        self.games.max = game_card(slug).lab_max_games
        self.setup_a.set_game(slug)
        self.setup_b.set_game(slug)
        self._compare_changed()
        self._clear_results()

    def _compare_changed(self) -> None:
        if self.compare.value and self.setup_b.layout.display != "flex":
            self.setup_b.copy(self.setup_a)
        self.setup_b.layout.display = "flex" if self.compare.value else "none"

    def _clear_results(self) -> None:
        self.result = None
        for html in (self.findings, self.comparison, self.results, self.download):
            html.value = ""
        self.chart.show(b"", "")
        self.chart.layout.display = "none"
        self.status.clear()

    def run(self) -> bool:
        """Play the games (the progress bar follows) and show what they show; False if refused."""
        slug = self.game.value
        games, seed = self.games.value, self.seed.value
        self._clear_results()
        try:
            spec_a = self.setup_a.spec()
            spec_b = self.setup_b.spec() if self.compare.value else None
        except (RuleError, ValueError) as exc:
            self.status.refuse(_("That setup does not make a game: {reason}.", reason=_refusal(exc)))
            return False
        total = games * (2 if spec_b else 1)
        title = render(game_card(slug).title)
        self.progress.max, self.progress.value = total, 0
        self.progress.description = _played(0, total)
        step = max(1, total // 100)

        def progress(done: int) -> None:
            if done % step == 0 or done >= total or done - self.progress.value >= step:
                self.progress.value = done
                self.progress.description = _played(done, total)

        self.run_button.disabled = True
        self.status.info(_n("Playing {n} game of {game}…", "Playing {n} games of {game}…", total, game=title))
        try:
            # one of the server's few heavy slots: pages are separate kernels, each may fill its cores
            with heavy_work("this lab run"):
                if spec_b is None:
                    result = lab.simulate(slug, games, seed, spec_a, workers=self.workers.value, progress=progress)
                else:
                    result = lab.compare(slug, spec_a, spec_b, games, seed, workers=self.workers.value, progress=progress)
        except (RuleError, ServerBusy, ValueError) as exc:
            if getattr(exc, "rule", "") in ("busy", "workers"):
                self.status.refuse(_("Nothing was started: {reason}.", reason=_refusal(exc)))
            else:
                self.status.refuse(_("The bots could not play: {reason}.", reason=_refusal(exc)))
            return False
        finally:
            self.run_button.disabled = False
        self.progress.value = total
        self.progress.description = _played(total, total)
        self.status.info(_("Laying out the results and writing the report…"))
        self.show(result)
        self.status.ok(_n("{n} game of {game} played with seed {seed}.", "{n} games of {game} played with seed {seed}.", total, game=title, seed=str(seed)))
        return True

    def review(self) -> bool:
        """Review the chosen game's text as written with its default bots (the Games box, at
        least 30) and show the sentences; False if refused."""
        slug, games, seed = self.game.value, self.games.value, self.seed.value
        self._clear_results()
        total = lab.review_games(slug, games)  # with New Rule's hoarder table, twice the games
        self.progress.max, self.progress.value = total, 0

        title = render(game_card(slug).title)

        def progress(done: int) -> None:
            self.progress.value = done
            self.progress.description = _played(done, total)

        self.review_button.disabled = self.run_button.disabled = True
        self.status.info(_n("Reviewing the text of {game}: {n} game by its default bots…", "Reviewing the text of {game}: {n} games by its default bots…", games, game=title))
        try:
            with heavy_work("this review"):
                result = lab.review(slug, games, seed, workers=self.workers.value, progress=progress)
        except (RuleError, ServerBusy, ValueError) as exc:
            self.status.refuse(_("Nothing was reviewed: {reason}.", reason=_refusal(exc)))
            return False
        finally:
            self.review_button.disabled = self.run_button.disabled = False
        self.result = result
        self.findings.value = findings_html(_("{game} as written: what the bots find", game=title), result.findings)
        self.results.value = result_html(result.run.as_dict())
        said = dict(game=title, setup=result.run.spec.text, seed=str(seed))
        self.status.ok(_n("{n} game of {game} as written ({setup}), seed {seed}.", "{n} games of {game} as written ({setup}), seed {seed}.", games, **said))
        return True

    def close(self) -> None:
        """Close the page's lab: its worker processes stop with it."""
        close_pool()
        super().close()

    def show(self, result: Any) -> None:
        """Lay out a `lab.Run` or `lab.Comparison`: findings, tables, charts and downloads."""
        from lab.plots import comparison_figures

        self.result = result
        compared = isinstance(result, lab.Comparison)
        if compared:
            self.findings.value = findings_html(_("What changed from A to B"), result.findings)
            self.comparison.value = comparison_html(result)
            self.results.value = (
                findings_html(_("Setup A shows"), result.a.findings) + findings_html(_("Setup B shows"), result.b.findings)
            )
            with plot_context():  # fonts for every name, a colour, marker and dash per series
                figures = comparison_figures(result, lab.GAMES[result.game].labels)
            games = len(result.a.rows)
        else:
            self.findings.value = findings_html(_("What the numbers show"), result.findings + _extra_findings(result))
            self.results.value = result_html(result.as_dict())
            with plot_context():
                figures = result.figures()
            games = len(result.rows)
        if compared:
            said = _n("Charts of the {n} game: the findings above, drawn for setup A and setup B", "Charts of the {n} games: the findings above, drawn for setup A and setup B", games)
        else:
            said = _n("Charts of the {n} game: the findings above, drawn", "Charts of the {n} games: the findings above, drawn", games)
        self.chart.show(_png(figures), said)
        self.chart.layout.display = "block"
        name = f"{result.game}-{'compare' if compared else 'run'}-{games}-games-seed-{result.a.seed if compared else result.seed}"
        from printables.balance_report import build_pdf

        self.download.value = " · ".join(
            (
                download_link(csv_text(result), f"{name}.csv", _("One row per game (CSV)"), "text/csv"),
                download_link(build_pdf(result), f"{name}.pdf", _("The report (PDF)"), "application/pdf"),
                download_link(json.dumps(result.as_dict(), indent=2), f"{name}.json", _("The numbers (JSON)")),
            )
        )


def _extra_findings(run: Any) -> list[Any]:
    return [lab.Finding(f["key"], f["text"], f["numbers"]) for f in run.extras.get("sweep_findings", [])]


def _png(figures: Sequence[Any]) -> bytes:
    """The charts one above the other, as one PNG for the page."""
    if len(figures) == 1:
        return figure_png(figures[0])
    import io

    from PIL import Image

    images = [Image.open(io.BytesIO(figure_png(f))).convert("RGB") for f in figures]
    canvas = Image.new("RGB", (max(i.width for i in images), sum(i.height for i in images)), "white")
    y = 0
    for image in images:
        canvas.paste(image, (0, y))
        y += image.height
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


def _played(done: int, total: int) -> str:
    # TRANSLATORS: the lab's progress bar: "40 / 100 games" played.
    return _n("{done} / {n} game", "{done} / {n} games", total, done=done)


def findings_html(title: str, findings: Sequence[Any]) -> str:
    if not findings:
        return card(title, f'<span class="pb-muted">{esc(_("No finding holds in this run."))}</span>')
    items = "".join(f"<li style='margin:3px 0'>{esc(f.text)}</li>" for f in findings)
    return card(title, f"<ul style='margin:0;padding-left:18px;line-height:1.4'>{items}</ul>")


def comparison_html(comparison: Any) -> str:
    """Each measure for A and B, the difference and its 95% interval, and whether it is noise."""
    games = len(comparison.a.rows)
    rows = []
    for r in comparison.table:
        # TRANSLATORS: an interval in a table cell: "1.2 to 3.4".
        interval = _("{low} to {high}", low=_number("", r["low"]), high=_number("", r["high"]))
        rows.append((render(label_of(r["measure"], lab.GAMES[comparison.game].labels, readable=False)), _number("", r["a"]), _number("", r["b"]), _number("", r["difference"]), interval, verdict_word(verdict(r, games))))
    if games >= MIN_GAMES:
        rule = _n(
            '{n} game each on the same seeds; 95% t intervals, paired game by game; "different" holds over all {measures} measures together (Holm, 5% family-wise).',
            '{n} games each on the same seeds; 95% t intervals, paired game by game; "different" holds over all {measures} measures together (Holm, 5% family-wise).',
            games, measures=len(comparison.table),
        )
    else:
        rule = _n(
            "{n} game each on the same seeds; 95% t intervals, paired game by game; fewer than {minimum} games: the numbers, but no verdict.",
            "{n} games each on the same seeds; 95% t intervals, paired game by game; fewer than {minimum} games: the numbers, but no verdict.",
            games, minimum=MIN_GAMES,
        )
    setups = f'<p class="pb-muted">A: {esc(comparison.a.spec.text)}<br>B: {esc(comparison.b.spec.text)}<br>{esc(rule)}</p>'
    # TRANSLATORS: the columns of the lab's comparison: a measure, its value in A and B, the difference and its interval.
    header = (_("Measure"), "A", "B", "B − A", _("95% interval"), "")
    # TRANSLATORS: a card's title: setups A and B, measure by measure.
    return card(_("Side by side"), setups + table_html(header, rows))
