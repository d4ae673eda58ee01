"""The playbook's other home: a game notebook run in JupyterLab (the `jupyter` extra), inline.

The notebooks come out of the package with `playbook notebooks DIR`, as a user gets them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from playbook.cli import main
from playbook.serve import TEMPLATE_NAME, TEMPLATES_DIR, free_port, stop_server, wait_until_ready

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

TOKEN = "test-token-0123456789"
#: the Voila template's stylesheets, which a JupyterLab page is sent as text
STATIC = TEMPLATES_DIR / "voila" / "templates" / TEMPLATE_NAME / "static"


@pytest.fixture
def jupyterlab(tmp_path: Path) -> Iterator[str]:
    """JupyterLab on a free port of 127.0.0.1 over a folder made by `playbook notebooks`,
    with its settings, data and table store under tmp; yields its root URL."""
    folder = tmp_path / "notebooks"
    assert main(["notebooks", str(folder)]) == 0
    env = dict(os.environ)
    env.update(
        PLAYBOOK_DB=str(tmp_path / "tables.sqlite3"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
    )
    env.pop("PLAYBOOK_URL", None)
    # Every cell drawn, not only those near the screen, so that the page holds every output.
    tracker = tmp_path / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True)
    tracker.write_text('{"windowingMode": "none"}', encoding="utf-8")
    port = free_port()
    argv = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={folder}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--LabApp.news_url=",
    ]
    with (tmp_path / "jupyterlab.log").open("wb") as log:
        process = subprocess.Popen(argv, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until_ready(f"http://127.0.0.1:{port}", 90, process)
        yield f"http://127.0.0.1:{port}/"
    finally:
        stop_server(process)


def test_a_game_notebook_runs_in_jupyterlab_and_start_opens_a_table(jupyterlab: str, page: Page) -> None:
    page.goto(f"{jupyterlab}lab/tree/new_rule.ipynb?token={TOKEN}", wait_until="domcontentloaded")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(state="visible", timeout=90_000)
    expect(page.locator(".jp-StatusBar-Widget", has_text="Idle").first).to_be_visible(timeout=90_000)  # the kernel is up
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()

    start = page.locator(".jp-Notebook .playbook-new-rule .pb-start").first
    start.wait_for(state="visible", timeout=90_000)
    # No template here: the page's widgets sent the dashboards' sheet as text (`widgets.styles`).
    root = page.locator(".jp-Notebook .playbook-new-rule.playbook-root").first
    assert root.evaluate("el => getComputedStyle(el).fontSize") == "17px"  # dashboard.css: `.playbook-root`
    sent = page.locator(".jp-Notebook .playbook-new-rule style").first.evaluate("el => el.textContent")
    assert sent.strip() == (STATIC / "dashboard.css").read_text(encoding="utf-8").strip()
    start.click()
    expect(page.locator(".jp-Notebook .playbook-new-rule .pb-round").first).to_contain_text("Round 1")
    # The class links lead to a `playbook serve`, none runs here: the class card says how to start one.
    expect(page.locator(".jp-Notebook .pb-serve-hint").first).to_contain_text("playbook serve")
    seat = page.locator(".jp-Notebook .pb-seat-link-0").first.get_attribute("href") or ""
    assert seat.startswith("http://localhost:8866/voila/render/new_rule.ipynb?table="), seat
    # The rulings cell reads docs/rules/ through the package, as in Voila.
    expect(page.get_by_text("seat 1 draws first every round").first).to_be_attached()
