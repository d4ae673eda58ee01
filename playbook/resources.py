"""Where the playbook's own files are: notebooks, the Voila template, the rulings pages.

In the source tree they sit at the top (`notebooks/`, `templates/`, `docs/rules/`). The
distribution carries them as data of the `playbook` package (`playbook/notebooks/`,
`playbook/templates/`, `playbook/rulings/`; see `setup.py`), and this module finds them there
through `importlib.resources`. An editable install (`pip install -e .`, what `make test` and
`make serve` use) has no such copies, so the folders of the checkout stand in for them.
Nothing else in the project names these folders.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = [
    "CODE_ROOT",
    "DATA",
    "MissingNotebook",
    "check_notebook",
    "check_notebooks",
    "notebooks_dir",
    "rules_doc",
    "template_static",
    "templates_dir",
]

DATA = {"notebooks": "notebooks", "templates": "templates", "rulings": "docs/rules"}
"""Each data folder's name inside the package, and where it sits in the source tree."""

_PACKAGE = Path(str(resources.files("playbook")))

CODE_ROOT = _PACKAGE.parent
"""The folder the project's packages (`rules`, `widgets`, `playbook`, ...) are imported from:
site-packages when installed, the checkout in an editable install."""


def _folder(name: str) -> Path:
    """The data folder `name` of DATA: the package's copy, else the source tree's."""
    packaged = _PACKAGE / name
    if packaged.is_dir():
        return packaged
    return CODE_ROOT / DATA[name]


def notebooks_dir() -> Path:
    """The playbook's notebooks: one per game, the index, the print studio, the balance lab."""
    return _folder("notebooks")


def templates_dir() -> Path:
    """A Jupyter data folder holding the `playbook` Voila template and the pages' kernel spec
    (`playbook.page_kernel`), for the server's JUPYTER_PATH."""
    return _folder("templates")


def template_static_path(name: str) -> Path:
    """The file `name` of the Voila template's static folder."""
    return templates_dir() / "voila" / "templates" / "playbook" / "static" / name


def frontend_built() -> bool:
    """Whether the pages' own frontend is built (`make frontend`: static/frontend/page.js).
    Without it (no npm where the playbook was installed) the pages use Voila's frontend: the same
    pages, slower on a phone (docs/phones.md)."""
    return template_static_path("frontend/page.js").is_file()


def template_static(name: str) -> str:
    """The text of the file `name` of the Voila template's static folder (`board.css`): the
    pages' CSS and scripts, which the template links and JupyterLab pages are sent as text."""
    return template_static_path(name).read_text(encoding="utf-8")


def rules_doc(slug: str) -> str:
    """The text of the playbook's rulings page for the game `slug` (`docs/rules/SLUG.md`)."""
    return (_folder("rulings") / f"{slug}.md").read_text(encoding="utf-8")


class MissingNotebook(ValueError):
    """A notebook `playbook serve` would serve is not there or does not read as a notebook."""


def check_notebook(path: Path) -> None:
    """Raise MissingNotebook (one line) unless `path` is a notebook file Voila can open."""
    import json

    if not path.is_file():
        raise MissingNotebook(f"no notebook {str(path)!r}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MissingNotebook(f"{str(path)!r} is not a notebook ({type(exc).__name__}: {str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise MissingNotebook(f"{str(path)!r} is not a notebook (no list of cells)")


def check_notebooks(notebook: Path | None = None) -> None:
    """What `playbook serve` checks before it starts Voila: `notebook`, or every page of the
    playbook (the index, each game's page, the print studio, the balance lab)."""
    from rules.games import CARDS

    if notebook is not None:
        check_notebook(notebook)
        return
    folder = notebooks_dir()
    for name in ("index.ipynb", *(c.notebook for c in CARDS if c.notebook), "print_studio.ipynb", "balance_lab.ipynb"):
        check_notebook(folder / name)
