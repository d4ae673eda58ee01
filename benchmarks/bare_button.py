"""The bare one-button notebook: the baseline for start-up timings and the browser smoke test.

`python -m benchmarks.bare_button` (re)writes benchmarks/bare_button.ipynb, without outputs.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

__all__ = ["BUTTON_CLASS", "CLICKED", "NOTEBOOK", "SOURCE", "build", "write"]

NOTEBOOK = Path(__file__).resolve().parent / "bare_button.ipynb"
BUTTON_CLASS = "bare-button"
CLICKED = "Clicked 1"

SOURCE = f'''\
import ipywidgets as widgets

button = widgets.Button(description="Click me")
button.add_class("{BUTTON_CLASS}")
clicks = 0


def on_click(b: widgets.Button) -> None:
    global clicks
    clicks += 1
    b.description = f"Clicked {{clicks}}"


button.on_click(on_click)
button'''


def build() -> nbformat.NotebookNode:
    """The notebook: one code cell, no outputs, a Python 3 kernel."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["title"] = "Bare button"
    nb.metadata["playbook_ready"] = f".{BUTTON_CLASS}"  # what the template's watchdog waits for
    cell = nbformat.v4.new_code_cell(SOURCE)
    cell.id = "bare-button"  # fixed, so rewriting the file changes nothing
    nb.cells = [cell]
    nbformat.validate(nb)
    return nb


def write(path: Path = NOTEBOOK) -> Path:
    """Write the notebook to `path` and return it."""
    nbformat.write(build(), path)
    return path


if __name__ == "__main__":
    print(write())
