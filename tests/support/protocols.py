"""What each layer's module of a game provides: the layer's `typing.Protocol`, and a check of
a module against it that names what is missing (`isinstance` with a runtime-checkable protocol
only looks for the names)."""

from __future__ import annotations

import inspect

__all__ = ["PROTOCOLS", "protocol_problems"]

#: the Protocol each layer's game modules keep, by layer: "module:Name".
PROTOCOLS = {
    "rules": "rules:RulesModule",
    "lab": "lab.core:LabModule",
    "drawing": "drawing.board:DrawingModule",
    "dashboard": "widgets.table:DashboardModule",
    "printables": "printables.document:Printables",
}


def protocol_problems(module: object, protocol: type) -> list[str]:
    """What `module` lacks of `protocol`: a name, or a parameter a caller may pass."""
    problems = []
    members = set(getattr(protocol, "__annotations__", {})) | {n for n, v in vars(protocol).items() if inspect.isfunction(v) or isinstance(v, property)}
    for name in sorted(m for m in members if not m.startswith("_")):
        if not hasattr(module, name):
            problems.append(f"no {name}")
            continue
        wanted = vars(protocol).get(name)
        if not inspect.isfunction(wanted):
            continue
        given = getattr(module, name)
        if not callable(given):
            problems.append(f"{name} is not a function")
            continue
        have = inspect.signature(given).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in have.values())
        positional = [p for p in have.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        wanted_parameters = list(inspect.signature(wanted).parameters.values())[1:]
        # Callers pass the protocol's positional-only parameters by place: the names may differ.
        by_place = [p for p in wanted_parameters if p.kind is p.POSITIONAL_ONLY]
        if len(positional) < len(by_place) and not any(p.kind is p.VAR_POSITIONAL for p in have.values()):
            problems.append(f"{name}() takes {len(positional)} arguments by place, not {len(by_place)}")
        for parameter in wanted_parameters:
            if parameter.kind is parameter.POSITIONAL_ONLY:
                continue
            mine = have.get(parameter.name)
            if mine is None and not takes_any:
                problems.append(f"{name}() takes no {parameter.name}")
            elif mine is not None and parameter.default is not parameter.empty and mine.default is mine.empty:
                problems.append(f"{name}() needs {parameter.name}, which callers may leave out")
    return problems
