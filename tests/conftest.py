"""The fixtures every module of tests/ may use, and which tests share an xdist worker.

The helpers the tests share are a package of their own, `tests/support/` (no test module imports
another test module or this file: tests/test_suite_imports.py checks). The fixtures here:

- `store`: a fresh SQLite table store under the test's `tmp_path`;
- `location`: where a fresh store lives, once as a SQLite file and once as a PostgreSQL schema
  (`tests/support/stores.py`), for tests that must hold on both;
- `server_key` (autouse): the server key of `tests/support/keys.py` in `PLAYBOOK_KEY`;
- for the browser tests: `voila` (a Voila server per notebook), `chromium`, `page` (a Chromium
  page per test) and `devices` (a browser context per device), with `nothing_from_outside`
  (autouse) failing a test whose pages asked another host for anything.

`make test` runs the suite on every core with pytest-xdist (`-n auto --dist loadgroup`). What
runs where, without a list to keep (`pytest_collection_modifyitems` below and in ../conftest.py):

- The tests of a module that use the shared `voila` fixture run in one xdist group
  (`voila:<module>`): a notebook's server starts once per worker that needs it (a few seconds)
  and the browser modules spread over the workers instead of queueing on one. A new browser
  test that calls `voila(notebook)` joins its module's group by using the fixture.
- Any other test marked `browser` (it starts Voila or Chromium its own way, for example a
  module-scoped server fixture) runs in a group named after its module, so a module's own
  server is started once too. (The benchmark smoke test starts neither: `--quick` leaves out
  every part that does.)
- Each notebook's nbval cells run in a group named after the notebook: they share one kernel.
- Everything else is spread over the workers one test at a time. Session fixtures run once
  per worker: what a test writes goes under its own `tmp_path` (per worker), and each
  PostgreSQL store gets a fresh schema (`tests/support/stores.py`), so workers never share a table.

xdist hands out the biggest groups first; the quick tests fill the other workers meanwhile.
`make test-fast` leaves out the browsers, the notebooks and the tests marked `heavy` (a real
server, a kernel, a build), and keeps each module on one worker (`--dist loadfile`).

A game's browser test:

    import pytest
    from playwright.sync_api import Page, expect

    from playbook.serve import NOTEBOOKS_DIR
    from tests.support.browser import VoilaFactory, open_dashboard

    pytestmark = [pytest.mark.browser, pytest.mark.timeout(60)]

    def test_start_a_game(voila: VoilaFactory, page: Page) -> None:
        server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")   # one server per notebook and session
        open_dashboard(page, server.url, ".playbook-new-rule")
        page.locator(".playbook-new-rule .pb-start").click()
        expect(page.locator(".playbook-new-rule .pb-undo")).to_be_visible()

Browser tests are skipped with a reason when Debian's Chromium is missing, and fail instead
when the CI environment variable is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from playbook.serve import RunningServer, background_server
from playbook.store import Store
from tests.support.browser import (
    EXPECT_TIMEOUT_MS,
    LOAD_TIMEOUT_MS,
    OUTSIDE_REQUESTS,
    Devices,
    VoilaFactory,
    chromium_missing_reason,
    guard_hosts,
    launch_chromium,
)
from tests.support.ci import in_ci
from tests.support.keys import SERVER_KEY
from tests.support.stores import KINDS, close_stores_at, store_location


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A fresh SQLite table store."""
    return Store(tmp_path / "tables.sqlite3")


@pytest.fixture(params=KINDS)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a fresh table store lives: a SQLite file, then a PostgreSQL schema."""
    with store_location(request.param, tmp_path) as where:
        yield where
        close_stores_at(where)


@pytest.fixture(scope="session")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaFactory]:
    """`voila(notebook, pool_size=1) -> RunningServer`: Voila serving one notebook.

    Started once per (notebook, pool_size) for the whole session, on a free port, with the
    `playbook` template and its own empty table store (PLAYBOOK_DB under tmp). Its pages open
    on preheated kernels, as `playbook serve`'s do: a kernel that has run the notebook waits
    for each page, and the next one starts while the test looks at the page. Every server
    is stopped, kernels included, at the end of the session.
    """
    servers: dict[tuple[Path, int], RunningServer] = {}
    with ExitStack() as stack:

        def start(notebook: str | os.PathLike[str], pool_size: int = 1) -> RunningServer:
            key = (Path(notebook).resolve(), pool_size)
            if key not in servers:
                if not key[0].is_file():
                    raise FileNotFoundError(f"no notebook at {key[0]}")
                folder = tmp_path_factory.mktemp(f"voila-{key[0].stem}")
                servers[key] = stack.enter_context(
                    background_server(
                        key[0],
                        folder / "voila.log",
                        db_path=folder / "tables.sqlite3",
                        pool_size=pool_size,
                    )
                )
            return servers[key]

        yield start


@pytest.fixture(autouse=True)
def nothing_from_outside() -> Iterator[None]:
    """Fail a browser test whose pages asked for anything from another host."""
    OUTSIDE_REQUESTS.clear()
    yield
    if OUTSIDE_REQUESTS:
        asked = sorted(set(OUTSIDE_REQUESTS))
        OUTSIDE_REQUESTS.clear()
        pytest.fail(f"a page asked another host than its server for: {', '.join(asked[:5])}")


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """Headless Debian Chromium through Playwright."""
    reason = chromium_missing_reason()
    if reason is not None:
        if in_ci():
            pytest.fail(f"{reason}; CI must run the browser tests")
        pytest.skip(reason)
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, guarded=True)
        guard_hosts(browser, OUTSIDE_REQUESTS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium: Browser) -> Iterator[Page]:
    """A fresh page (own context: no shared cookies or storage) at 1280x800."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def devices(chromium: Browser) -> Iterator[Devices]:
    """Browser contexts, one per device (a phone's 390x844 unless a test asks otherwise)."""
    with Devices(chromium) as found:
        yield found


def xdist_group(item: pytest.Item) -> str | None:
    """The xdist group a test of tests/ runs in (see the module's docstring), or None."""
    if "voila" in getattr(item, "fixturenames", ()):
        return "voila:" + item.nodeid.split("::")[0]
    if item.get_closest_marker("browser") is not None:
        return item.nodeid.split("::")[0]
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put each browser test in its xdist group (a group a test names itself stays)."""
    for item in items:
        group = xdist_group(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(autouse=True)
def server_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("PLAYBOOK_KEY", SERVER_KEY)
    return SERVER_KEY


@pytest.fixture(autouse=True)
def english_between_tests() -> Iterator[None]:
    """Each test starts in English: a test that made this process speak another language
    (`i18n.use`, as a page's kernel does) does not leave it to the next test on the worker."""
    import i18n

    i18n.use(i18n.SOURCE)
    yield
    i18n.use(i18n.SOURCE)


@pytest.fixture
def pseudo() -> None:
    """The test's pages speak the pseudo-language (`english_between_tests` puts English back)."""
    import i18n

    i18n.use(i18n.PSEUDO)


@pytest.fixture
def dutch() -> None:
    """The test's pages speak Dutch (`english_between_tests` puts English back)."""
    import i18n

    i18n.use("nl")
