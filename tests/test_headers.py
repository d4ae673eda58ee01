"""Headers that keep a lesson's keys in the room: every answer of the server says
`Referrer-Policy: no-referrer`, `nosniff` and a policy of the page's own origin (framing
refused); no request a page makes names its address; no page breaks that policy while it loads
and a move is made; no log line (the server's, nginx's) holds a key.
"""

from __future__ import annotations

import http.client
import io
import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, Response, expect
from tornado import httputil

from playbook import classes as cl
from playbook.headers import CONTENT_SECURITY_POLICY, KeysOut, SecurityHeaders, keep_keys_out_of_logs, keys_out
from playbook.serve import RunningServer, background_server, free_port, stop_server, wait_until_ready
from playbook.store import Store
from rules import GAMES, new_game
from tests.support.browser import LOAD_TIMEOUT_MS, open_dashboard
from tests.support.keys import INDEX, SERVER_KEY
from tests.support.nginx import need_nginx, running_nginx
from tests.support.tables import stored

NOTEBOOKS = {"leerdam": "leerdam.ipynb", "new-rule": "new_rule.ipynb", "danger-world": "danger_world.ipynb", "dangerous-ideas": "dangerous_ideas.ipynb"}
LEERDAM = ".playbook-leerdam"

#: collects the page's Content-Security-Policy violations, from before its first script.
VIOLATIONS_JS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(
  [e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(' ')), true);
"""


# -- without a server ----------------------------------------------------------------------


def test_keys_out_takes_every_query_value_and_room_code_out_and_leaves_the_rest() -> None:
    line = "404 GET /voila/render/leerdam.ipynb?table=T1&seat=2&key=SECRET (10.0.0.5) 3.1ms"
    assert keys_out(line) == "404 GET /voila/render/leerdam.ipynb?table=…&seat=…&key=… (10.0.0.5) 3.1ms"
    assert keys_out("302 GET /playbook/j/K7QM2P (10.0.0.5)") == "302 GET /playbook/j/… (10.0.0.5)"
    # tornado's repr of a request puts the URI in quotes.
    assert "SECRET" not in keys_out("HTTPServerRequest(uri='/x?facilitator=SECRET', remote_ip='1.2.3.4')")
    assert keys_out("Kernel started: 7cda4fb5-3fc3") == "Kernel started: 7cda4fb5-3fc3"


def test_a_log_record_and_its_traceback_lose_their_keys() -> None:
    try:
        raise ValueError("bad request /voila/render/x.ipynb?key=SECRET2")
    except ValueError:
        record = logging.LogRecord("tornado.application", logging.ERROR, __file__, 1, "Uncaught exception %s", ("GET /x?key=SECRET1",), exc_info=sys.exc_info())
    assert KeysOut().filter(record)
    written = logging.Formatter().format(record)
    assert "Uncaught exception GET /x?key=…" in written and "ValueError" in written
    assert "SECRET" not in written


def test_a_record_is_written_without_keys_and_a_loggers_own_filters_still_see_it_as_logged() -> None:
    logger = logging.getLogger("playbook.tests.headers")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    logger.propagate = False
    seen: list[object] = []
    logger.addFilter(lambda record: seen.append(record.msg) or True)
    keeper = keep_keys_out_of_logs([logger])
    try:
        logger.warning("refused %s", "/voila/render/x.ipynb?seat=1&key=S3CRET")
    finally:
        logger.removeHandler(handler)
        for each in [handler, *logging.getLogger().handlers, logging.lastResort, *(logging.getLogger(f"tornado.{name}") for name in ("access", "application", "general"))]:
            if each is not None:
                each.removeFilter(keeper)
    assert stream.getvalue() == "refused /voila/render/x.ipynb?seat=…&key=…\n"
    assert seen == ["refused %s"]


def _request() -> httputil.HTTPServerRequest:
    return httputil.HTTPServerRequest(start_line=httputil.RequestStartLine("GET", "/", "HTTP/1.1"), headers=httputil.HTTPHeaders({"Host": "127.0.0.1"}))


def test_an_html_answer_gets_one_nonce_for_each_of_its_scripts_even_split_between_chunks() -> None:
    transform = SecurityHeaders(_request())
    headers = httputil.HTTPHeaders({"Content-Type": "text/html; charset=UTF-8", "Content-Length": "99"})
    _, headers, first = transform.transform_first_chunk(200, headers, b"<html><script>voila_process(1, 2)</script><scr", False)
    rest = transform.transform_chunk(b"ipt src='x.js'></script><p>&lt;script&gt;</p>", False) + transform.transform_chunk(b"", True)
    nonce = re.search(r"'nonce-([^']+)'", headers["Content-Security-Policy"])
    assert nonce and "Content-Length" not in headers
    assert (first + rest).decode().count(f'<script nonce="{nonce[1]}"') == 2
    assert b"&lt;script&gt;" in rest  # escaped text is no tag
    assert headers["Referrer-Policy"] == "no-referrer" and headers["X-Content-Type-Options"] == "nosniff"
    # A stylesheet keeps the policy without a nonce, its bytes as they were.
    css = SecurityHeaders(_request())
    _, css_headers, body = css.transform_first_chunk(200, httputil.HTTPHeaders({"Content-Type": "text/css"}), b"a{}", True)
    assert css_headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY and body == b"a{}"


# -- a server of every page ----------------------------------------------------------------


@dataclass
class Lesson:
    server: RunningServer
    store: Store
    #: page kind -> its address (the server's root left out).
    pages: dict[str, str]
    leerdam_table: str
    #: every key and room code of the lesson's links.
    secrets: set[str] = field(default_factory=set)


def _secrets_of(address: str) -> set[str]:
    return {value for _name, value in parse_qsl(urlsplit(address).query) if len(value) >= 6}


@pytest.fixture(scope="module")
def lesson(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lesson]:
    """Every notebook served as `playbook serve` serves them, a table of each game and a class."""
    folder = tmp_path_factory.mktemp("headers")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PLAYBOOK_KEY", SERVER_KEY)
        with background_server(None, folder / "voila.log", db_path=folder / "tables.sqlite3") as server:
            store = Store(folder / "tables.sqlite3")
            links = {}
            for slug in NOTEBOOKS:
                names = ("Ana", "Bo", "Cy") if slug == "danger-world" else ("Ana", "Bo", "Cy", "Di")
                links[slug] = stored(store, new_game(slug, GAMES[slug].setup(names=names), 3))
            record = cl.create_class(store, "new-rule", 3)
            render = "voila/render/"
            pages = {
                "index": render + "index.ipynb" + INDEX,
                "print studio": render + "print_studio.ipynb",
                "balance lab": render + "balance_lab.ipynb",
                "class": f"j/{record.code}",
                "board": render + "leerdam.ipynb" + links["leerdam"][1]["board"],
                "seat": render + "leerdam.ipynb" + links["leerdam"][1]["seats"][0]["url"],
                **{slug: render + notebook + links[slug][1]["facilitator"] for slug, notebook in NOTEBOOKS.items()},
            }
            lesson = Lesson(server, store, pages, links["leerdam"][0])
            lesson.secrets = {SERVER_KEY, record.code, *(s for page in pages.values() for s in _secrets_of(page))}
            yield lesson


@dataclass
class Visit:
    """What one page asked for and was sent."""

    page: Page
    requests: list[Request] = field(default_factory=list)
    responses: list[Response] = field(default_factory=list)

    def violations(self) -> list[str]:
        return list(self.page.evaluate("window.__violations"))


def visit(context: BrowserContext, url: str) -> Visit:
    context.add_init_script(VIOLATIONS_JS)
    seen = Visit(context.new_page())
    context.on("request", lambda request: seen.requests.append(request))
    context.on("response", lambda response: seen.responses.append(response))
    open_dashboard(seen.page, url, ".playbook-root")
    return seen


def make_a_move(kind: str, lesson: Lesson, page: Page) -> None:
    """A press that goes to the kernel and redraws: a pledge on the seat, a name on the class
    page; elsewhere the header's light/dark switch, which restyles the whole page."""
    if kind == "seat":
        page.locator(f"{LEERDAM} .pb-pledge input").fill("2")
        page.locator(f"{LEERDAM} .pb-pledge-confirm").click()
        deadline = time.monotonic() + 20
        while [change["kind"] for change in lesson.store.changes(lesson.leerdam_table)].count("play") < 1:
            assert time.monotonic() < deadline, "the pledge was not stored"
            time.sleep(0.2)
    elif kind == "class":
        page.locator(".playbook-class-join .pb-name-box input").fill("Ana")
        page.locator(".playbook-class-join .pb-join-class").click()
        expect(page.locator(".playbook-class-student")).to_contain_text("You are in")
    else:
        page.locator(".playbook-theme").click()
        expect(page.locator(".playbook-theme")).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(500)  # what the move loads


def policy(response: Response) -> dict[str, str]:
    """A response's Content-Security-Policy as directive -> sources (a directive said twice
    counts once, the first time, as in a browser: Jupyter's API answers add a stricter
    `default-src` to the server's, which a browser leaves aside)."""
    sources: dict[str, str] = {}
    for part in response.headers.get("content-security-policy", "").split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            sources.setdefault(name, value)
    return sources


PAGE_KINDS = ["index", "print studio", "balance lab", "class", "board", "seat", *NOTEBOOKS]


@pytest.mark.browser
@pytest.mark.timeout(240)
@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_a_page_and_everything_it_loads_keep_its_key_and_break_no_policy(kind: str, lesson: Lesson, chromium: Browser) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        seen = visit(context, lesson.server.url + lesson.pages[kind])
        make_a_move(kind, lesson, seen.page)
        assert seen.violations() == []
        answers = [r for r in seen.responses if r.url.startswith(("http:", "https:"))]
        assert len(answers) > 30, "a page loads the template's scripts and styles and its frontend"
        for response in answers:
            assert response.headers.get("referrer-policy") == "no-referrer", response.url
            assert response.headers.get("x-content-type-options") == "nosniff", response.url
            sources = policy(response)
            assert sources.get("frame-ancestors") == "'none'", response.url
            assert sources.get("default-src") == "'self'" and sources.get("connect-src") == "'self'", response.url
            assert "'unsafe-inline'" not in sources.get("script-src", "") and "'unsafe-eval'" not in sources.get("script-src", ""), response.url
        documents = [r for r in answers if r.request.resource_type == "document"]
        assert documents and all("'nonce-" in policy(r)["script-src"] for r in documents)
        # No request names the page: the key is in the page's address alone.
        with_referer = [(r.url, r.headers.get("referer")) for r in seen.requests if r.headers.get("referer")]
        assert with_referer == []
        assert not any(secret in r.url for r in seen.requests if not r.is_navigation_request() for secret in lesson.secrets if secret), "a request carries a key"
    finally:
        context.close()


@pytest.mark.heavy
@pytest.mark.xdist_group("tests/test_headers.py")  # with the browser tests: one server for the module
def test_a_404_for_an_address_with_a_key_is_logged_without_it(lesson: Lesson) -> None:
    """Voila's 404, tornado's own, a static file refused and an API 404: each answer carries
    the headers, and the server's log (its stderr) names the address without the key."""
    host = urlsplit(lesson.server.url)
    asked = {
        "/voila/render/nowhere.ipynb?table=T&seat=1&key=SECRET-ONE": 404,
        "/nowhere?key=SECRET-TWO": 404,
        "/voila/static/nowhere.js?key=SECRET-THREE": 403,
        "/api/kernels/nowhere?key=SECRET-FOUR": 404,
        "/j/SECRETFIVE": 404,  # no class has this code: the door says so (playbook.doors)
    }
    for address, status in asked.items():
        connection = http.client.HTTPConnection(host.hostname or "127.0.0.1", host.port, timeout=30)
        connection.request("GET", address)
        answer = connection.getresponse()
        answer.read()
        connection.close()
        assert answer.status == status, address
        assert answer.getheader("Referrer-Policy") == "no-referrer", address
        assert "frame-ancestors 'none'" in (answer.getheader("Content-Security-Policy") or ""), address
        assert answer.getheader("X-Content-Type-Options") == "nosniff", address
    deadline = time.monotonic() + 10
    while "nowhere.ipynb?table=…&seat=…&key=…" not in lesson.server.log_path.read_text(errors="replace"):
        assert time.monotonic() < deadline, lesson.server.log_tail()
        time.sleep(0.2)
    log = lesson.server.log_path.read_text(errors="replace")
    assert "404 GET /nowhere?key=… " in log
    assert "SECRET" not in log
    assert not any(secret in log for secret in lesson.secrets)


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_behind_nginx_the_headers_arrive_and_its_access_log_holds_no_key(lesson: Lesson, chromium: Browser, tmp_path: Path) -> None:
    need_nginx()
    port = free_port()
    with running_nginx(tmp_path / "nginx", port, [lesson.server.port], prefix="/") as proxy:
        context = chromium.new_context(viewport={"width": 390, "height": 844})
        context.set_default_timeout(LOAD_TIMEOUT_MS)
        try:
            seen = visit(context, f"{proxy}/{lesson.pages['board']}")
            seen.page.goto(f"{proxy}/{lesson.pages['class']}", wait_until="domcontentloaded")
            seen.page.locator(".playbook-class-join").wait_for(state="visible")
            assert seen.violations() == []
            answers = [r for r in seen.responses if r.url.startswith(proxy)]
            assert len(answers) > 30
            for response in answers:
                assert response.headers.get("referrer-policy") == "no-referrer", response.url
                assert "frame-ancestors 'none'" in response.headers.get("content-security-policy", ""), response.url
            assert [r.url for r in seen.requests if r.headers.get("referer")] == []
        finally:
            context.close()
    log = (tmp_path / "nginx" / "access.log").read_text(errors="replace")
    lines = log.splitlines()
    assert len(lines) > 30 and any("/voila/render/leerdam.ipynb " in line for line in lines)
    assert any("/j/... " in line for line in lines)
    assert "?" not in log and not any(secret in log for secret in lesson.secrets)


@pytest.mark.heavy
@pytest.mark.timeout(120)
def test_the_terminal_of_playbook_serve_holds_no_key_of_a_request(tmp_path: Path) -> None:
    """`playbook serve` as a teacher starts it: what its terminal shows (Voila's stdout and
    stderr are its own) names requests without their keys; the one key is the facilitator's
    link it prints at start, on purpose."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PLAYBOOK_DB": str(tmp_path / "tables.sqlite3"), "PLAYBOOK_KEY": SERVER_KEY}
    argv = [sys.executable, "-m", "playbook.cli", "serve", "--port", str(port), "--local", "--preheat", "0"]
    with (tmp_path / "terminal.txt").open("wb") as terminal:
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=terminal, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until_ready(f"http://127.0.0.1:{port}", 60, process)
        for address in ("/voila/render/nowhere.ipynb?table=T&seat=1&key=SECRET-SEAT", "/nowhere?facilitator=SECRET-DESK"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", address)
            assert connection.getresponse().status == 404
            connection.close()
        deadline = time.monotonic() + 10
        while "404 GET /nowhere?facilitator=…" not in (tmp_path / "terminal.txt").read_text(errors="replace"):
            assert time.monotonic() < deadline, (tmp_path / "terminal.txt").read_text(errors="replace")
            time.sleep(0.2)
    finally:
        stop_server(process)
    shown = (tmp_path / "terminal.txt").read_text(errors="replace")
    assert "nowhere.ipynb?table=…&seat=…&key=…" in shown
    assert "SECRET" not in shown
    assert [line for line in shown.splitlines() if SERVER_KEY in line] == [f"    http://localhost:{port}/voila/render/index.ipynb?key={SERVER_KEY}"]
