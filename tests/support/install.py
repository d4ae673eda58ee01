"""Helpers for the install tests: the distribution built from a copy of the checkout, and a
fresh virtual environment outside it with the wheel installed.

Not a test module. Installing the wheel's dependencies from the package index would take
minutes; `fresh_venv` installs the wheel itself with pip (`--no-deps`) and hard-links in, from
the test run's own environment, exactly the distributions the wheel's requirements name (and
theirs, and so on), their Jupyter data files too. A requirement missing from pyproject.toml is
missing there as well, as it would be for a user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from playbook.resources import template_static_path

__all__ = ["ROOT", "build_distribution", "fresh_venv", "wheel_requirements"]

ROOT = Path(__file__).resolve().parents[2]


def build_distribution(out: Path) -> tuple[Path, Path]:
    """`python -m build` on a copy of the checkout's files (so no build folder or egg-info
    lands in the checkout): the sdist, and the wheel built from it. Returns (sdist, wheel)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    # The pages' frontend is built (make frontend), not committed: a distribution built after
    # `make` carries it, as the checkout has it.
    built = [path.relative_to(ROOT).as_posix() for path in sorted(template_static_path("frontend").glob("*"))]
    source = out / "source"
    for name in filter(None, [*listed, *built]):
        path = ROOT / name
        if path.is_file():
            target = source / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    dist = out / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
        check=True, capture_output=True,
    )
    return next(dist.glob("*.tar.gz")), next(dist.glob("*.whl"))


def wheel_requirements(wheel: Path) -> list[Requirement]:
    """The wheel's Requires-Dist for a plain install (no extras)."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(name).decode()
    requirements = [Requirement(line.split(":", 1)[1].strip()) for line in text.splitlines() if line.startswith("Requires-Dist:")]
    return [r for r in requirements if r.marker is None or r.marker.evaluate({"extra": ""})]


def _closure(requirements: list[Requirement]) -> list[metadata.Distribution]:
    """The distributions of this environment that `requirements` need, transitively."""
    found: dict[str, metadata.Distribution] = {}
    todo = list(requirements)
    while todo:
        requirement = todo.pop()
        key = canonicalize_name(requirement.name)
        if key in found:
            continue
        dist = metadata.distribution(requirement.name)  # PackageNotFoundError: not installed here
        found[key] = dist
        for line in dist.requires or []:
            nested = Requirement(line)
            extras = requirement.extras or {""}
            if nested.marker is None or any(nested.marker.evaluate({"extra": extra}) for extra in extras):
                todo.append(nested)
    return list(found.values())


def _link(source: Path, target: Path) -> None:
    """`source` (a file or a folder) at `target` as hard links, or copies across file systems.

    Not symbolic links: a web server refuses to serve a file whose real path is outside the
    folder it serves (Voila's static files, the widgets' JavaScript)."""
    def link(a: str, b: str) -> None:
        try:
            os.link(a, b)
        except OSError:
            shutil.copy2(a, b)

    if source.is_dir():
        shutil.copytree(source, target, copy_function=link, dirs_exist_ok=True)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        link(str(source), str(target))


def fresh_venv(folder: Path, wheel: Path) -> Path:
    """A new virtual environment in `folder` with `wheel` installed; returns its bin folder."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(folder)
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(folder), "platbase": str(folder)}))
    here_purelib = Path(sysconfig.get_path("purelib"))
    for dist in _closure(wheel_requirements(wheel)):
        for file in dist.files or []:
            path = Path(dist.locate_file(file)).resolve()
            try:
                top = path.relative_to(here_purelib).parts[0]
            except ValueError:  # outside site-packages: share/jupyter data is what counts
                relative = os.path.relpath(path, sys.prefix)
                if relative.startswith(os.path.join("share", "jupyter")) and path.is_file() and not (folder / relative).exists():
                    _link(path, folder / relative)
                continue
            if top != "__pycache__" and not (purelib / top).exists():
                _link(here_purelib / top, purelib / top)
    # This environment's pip, installing into the new one (`--python`): it is not a need of the wheel.
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(folder / "bin" / "python"), "install", "--quiet", "--no-deps",
         "--no-index", "--disable-pip-version-check", str(wheel)],
        check=True, capture_output=True,
    )
    return folder / "bin"
