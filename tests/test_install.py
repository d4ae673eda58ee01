"""The playbook as a new user installs it: `python -m build`, the wheel in a fresh virtual
environment in another folder, `playbook serve` from an empty folder, and the pages in Chromium.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from playbook.serve import free_port, stop_server, wait_until_ready
from tests.support.browser import open_dashboard
from tests.support.install import ROOT, build_distribution, fresh_venv
from tests.support.keys import INDEX

pytestmark = pytest.mark.heavy

#: what the wheel must carry besides code, as (folder in the tree, pattern, folder in the wheel)
DATA = (("notebooks", "*.ipynb", "playbook/notebooks"), ("templates", "voila/templates/playbook/**/*", "playbook/templates"), ("docs/rules", "*.md", "playbook/rulings"))


@pytest.fixture(scope="module")
def distribution(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sdist, wheel), built once for the module."""
    return build_distribution(tmp_path_factory.mktemp("build"))


@pytest.fixture(scope="module")
def installed(distribution: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtual environment with the wheel installed."""
    return fresh_venv(tmp_path_factory.mktemp("venv"), distribution[1])


def test_the_sdist_and_the_wheel_carry_every_notebook_the_template_and_the_rulings(distribution: tuple[Path, Path]) -> None:
    sdist, wheel = distribution
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    for folder, pattern, packaged in DATA:
        files = [path.relative_to(ROOT / folder).as_posix() for path in sorted((ROOT / folder).glob(pattern)) if path.is_file()]
        assert files
        assert {f"{folder}/{name}" for name in files} <= in_sdist
        assert {f"{packaged}/{name}" for name in files} <= in_wheel
    assert "deploy/nginx/playbook-proxy.conf" in in_sdist
    # the pages' own frontend, built by make (the suite runs after it)
    assert "playbook/templates/voila/templates/playbook/static/frontend/page.js" in in_wheel
    assert not [name for name in in_wheel if name.startswith(("tests/", "benchmarks/"))]


def _clean_env(tmp: Path) -> dict[str, str]:
    """The user's environment as a new user has it: nothing pointing into the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUPYTER", "PLAYBOOK_", "VIRTUAL_ENV"))}
    env.update(PLAYBOOK_DB=str(tmp / "tables.sqlite3"), PLAYBOOK_KEY=INDEX.removeprefix("?key="))
    return env


def test_playbook_serve_refuses_a_broken_notebook_in_one_line(installed: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")
    done = subprocess.run(
        [str(installed / "playbook"), "serve", "--notebook", str(broken)],
        cwd=tmp_path, env=_clean_env(tmp_path), capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "is not a notebook" in done.stderr


def test_a_jupyterlab_page_reads_its_css_from_the_installed_package(installed: Path, tmp_path: Path) -> None:
    """In JupyterLab no template is used: the widgets send the template's stylesheets as text,
    read from the wheel's copy of the template."""
    script = (
        "from widgets.styles import style_html; from playbook.resources import templates_dir; "
        "print(templates_dir()); print(style_html('dashboard.css', 'board.css'))"
    )
    done = subprocess.run([str(installed / "python"), "-c", script], cwd=tmp_path, env=_clean_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    folder, style = done.stdout.split("\n", 1)
    assert str(ROOT) not in folder and "site-packages" in folder
    expected = "".join((ROOT / "templates/voila/templates/playbook/static" / name).read_text(encoding="utf-8") for name in ("dashboard.css", "board.css"))
    assert style == f"<style>\n{expected}</style>\n\n"


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`playbook serve` of the fresh environment, run from an empty folder: its root URL."""
    folder = tmp_path_factory.mktemp("user")
    port = free_port()
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(
        # On this machine only, and no kernels kept ready: this is about what the wheel carries
        # (kernels still starting when it stops would write their tracebacks into its log).
        [str(installed / "playbook"), "serve", "--port", str(port), "--local", "--preheat", "0"],
        cwd=folder, env=_clean_env(folder), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_until_ready(f"http://127.0.0.1:{port}", 60, process)
        yield f"http://127.0.0.1:{port}/"
    finally:
        stop_server(process)
        log.close()
    assert "Traceback" not in (folder / "serve.log").read_text(errors="replace")


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_the_installed_wheel_serves_the_index_and_a_game_with_its_rulings(served: str, page: Page) -> None:
    open_dashboard(page, served + "voila/render/index.ipynb" + INDEX, "summary")
    page.locator("summary", has_text="The games").click()
    expect(page.locator(".pb-index-new_rule")).to_be_visible()
    expect(page.locator(".pb-index-card")).to_have_count(6)

    open_dashboard(page, served + "voila/render/new_rule.ipynb", ".playbook-new-rule .pb-start")
    page.locator(".playbook-new-rule .pb-start").first.click()
    expect(page.locator(".playbook-new-rule .pb-round")).to_contain_text("Round 1")

    page.locator("summary", has_text="How the playbook reads the text").click()
    expect(page.get_by_text("seat 1 draws first every round")).to_be_visible()
