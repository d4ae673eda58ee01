"""The shape of the tree: what the issue that made the game cards promised stays true.

- A game is what its card says (`rules.games`): no dict keyed by a game's name and no branch on
  a game's name outside the card and the game's own modules.
- Imports point one way: no import circle among the project's modules, counting the game
  modules a layer loads through `Card.module(layer)` and any `importlib.import_module`.
- No module of `widgets/` grows past a reader's length.

Everything here reads the source as text (`ast`); nothing is imported but the cards.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.games import CARDS, LAYERS
from tests.support.protocols import PROTOCOLS, protocol_problems

ROOT = Path(__file__).resolve().parent.parent
#: the project's packages, bottom layer first.
PACKAGES = ("rules", "i18n", "lab", "drawing", "printables", "widgets", "playbook")
#: code that is not a package but still chooses games: it may name them, not branch on them.
OTHER_CODE = ("benchmarks",)
#: the longest module `widgets/` may hold (lines).
WIDGETS_MOST_LINES = 1200


def _sources(folders: tuple[str, ...]) -> Iterator[tuple[str, Path]]:
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield name, path


def _game_modules() -> dict[str, str]:
    """Each game's own modules (every layer's), by module name: they may name their game."""
    return {path: game.slug for game in CARDS for path in game.modules.values()}


SLUGS = frozenset(game.slug for game in CARDS)


def _slug_constants(node: ast.AST) -> set[str]:
    """The game slugs a constant, or a tuple/list/set of constants, holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & SLUGS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_slug_constants(e) for e in node.elts)) if node.elts else set()
    return set()


def _what_names_a_game(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None and _slug_constants(key):
                    yield node.lineno, f"a dict keyed by game name ({ast.unparse(key)})"
                    break
        elif isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if _slug_constants(side):
                    yield node.lineno, f"a branch on a game's name: {ast.unparse(node)}"
                    break
        elif isinstance(node, ast.match_case) and _slug_constants(getattr(node.pattern, "value", ast.Constant(None))):
            yield node.lineno, "a match on a game's name"


def test_no_code_outside_the_cards_keys_or_branches_on_a_games_name() -> None:
    own = _game_modules()
    found = []
    for name, path in _sources(PACKAGES + OTHER_CODE):
        if name == "rules.games" or name in own:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in _what_names_a_game(tree)]
    assert not found, "ask the game's card (rules/games.py) instead:\n" + "\n".join(found)


def _module_of(name: str, known: set[str]) -> str | None:
    """The project module `name` (a module, or a name inside one) belongs to."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(through_cards: bool = True) -> dict[str, set[str]]:
    """Every project module and the project modules it imports, at the top or inside a function,
    by an import statement, `importlib.import_module("...")` or (with `through_cards`) a
    card's `.module("layer")`."""
    sources = dict(_sources(PACKAGES))
    known = set(sources)
    by_layer = {layer: {game.modules[layer] for game in CARDS if layer in game.modules} for layer in LAYERS}
    graph: dict[str, set[str]] = {}
    for name, path in sources.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                imported |= {base} | {f"{base}.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                argument = node.args[0] if node.args else None
                if node.func.attr == "import_module" and name != "rules.games":  # the cards' own loader
                    assert isinstance(argument, ast.Constant), f"{path}:{node.lineno}: import a module by its name, or through a game's card"
                    imported.add(str(argument.value))
                elif through_cards and node.func.attr == "module" and isinstance(argument, ast.Constant) and argument.value in by_layer:
                    imported |= by_layer[argument.value]
        graph[name] = {m for m in (_module_of(i, known) for i in imported) if m and m != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_through_cards_and_importlib(tmp_path: Path) -> None:
    graph = import_graph()
    assert "rules.leerdam" in graph["rules"]  # through the card: rules/__init__ loads GAMES by `.module("rules")`
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles() -> None:
    found = circles(import_graph())
    assert not found, "modules that import each other, directly or around a circle:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_layers_import_downwards_only() -> None:
    """rules import nothing of the project; i18n (the languages) nothing but rules; drawing nothing
    but rules and i18n; no layer imports widgets or playbook but themselves."""
    allowed = {
        "rules": {"rules"},
        "i18n": {"rules", "i18n"},
        "lab": {"rules", "i18n", "lab"},
        "drawing": {"rules", "i18n", "drawing"},
        "printables": {"rules", "i18n", "lab", "printables"},
    }
    wrong = []
    for name, imports in import_graph().items():
        layer = name.partition(".")[0]
        for other in imports:
            if layer in allowed and other.partition(".")[0] not in allowed[layer]:
                wrong.append(f"{name} imports {other}")
    assert not wrong, "\n".join(sorted(wrong))


def _own_game(module: str) -> str | None:
    """The game whose own module `module` is: a card's, or one split off it (widgets.leerdam_x)."""
    for game in CARDS:
        for path in game.modules.values():
            if module == path or module.startswith((path + "_", path + ".")):
                return game.slug
    return None


def test_shared_code_reaches_a_game_only_through_its_card() -> None:
    """A module that serves every game imports none of them by name: it asks the card."""
    wrong = []
    for name, imports in import_graph(through_cards=False).items():
        if _own_game(name) is None:
            wrong += [f"{name} imports {other}" for other in sorted(imports) if _own_game(other) is not None]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", sorted((ROOT / "widgets").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_widgets_modules_stay_readable(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= WIDGETS_MOST_LINES, f"{path.relative_to(ROOT)} is {lines} lines: split it by subject"


# -- what each layer's module of a game provides ---------------------------------------------------

@pytest.mark.parametrize("layer", sorted(PROTOCOLS))
@pytest.mark.parametrize("slug", [game.slug for game in CARDS])
def test_each_games_module_keeps_its_layers_protocol(slug: str, layer: str) -> None:
    game = CARDS[slug]
    path, _, name = PROTOCOLS[layer].partition(":")
    protocol = getattr(importlib.import_module(path), name)
    module = game.module(layer)  # type: ignore[arg-type]  # a layer of LAYERS, as a string
    assert not protocol_problems(module, protocol), f"{game.modules[layer]}: {protocol_problems(module, protocol)}"
    assert isinstance(module, protocol)


def test_the_protocol_check_finds_what_a_module_lacks() -> None:
    import types

    import rules

    module = types.ModuleType("half")
    module.RULES = object()
    module.decisions = lambda game, reveal=True: []
    assert protocol_problems(module, rules.RulesModule) == ["decisions() takes no reveal_pledges", "decisions() takes no render", "no timeout_move"]
    module.timeout_move = lambda state, seat: None
    assert protocol_problems(module, rules.RulesModule) == ["decisions() takes no reveal_pledges", "decisions() takes no render"]
    del module.RULES
    assert "no RULES" in protocol_problems(module, rules.RulesModule)
