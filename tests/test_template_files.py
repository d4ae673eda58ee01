"""The page's own CSS and scripts, the files of the Voila template's static/ folder, as code: each
script parses, each stylesheet is whole, the template links every file and only those, and a
running server sends them compressed and to be kept a year (through a proxy's path too).
"""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest
from tornado.web import StaticFileHandler
from voila.paths import collect_static_paths

from benchmarks.bare_button import NOTEBOOK
from playbook.serve import TEMPLATE_NAME, TEMPLATES_DIR, background_server, free_port
from tests.support.ci import in_ci
from tests.support.nginx import need_nginx, running_nginx

TEMPLATE = TEMPLATES_DIR / "voila" / "templates" / TEMPLATE_NAME
STATIC = TEMPLATE / "static"
FILES = sorted(path.name for path in STATIC.iterdir() if path.is_file())
SCRIPTS = [name for name in FILES if name.endswith(".js")]
SHEETS = [name for name in FILES if name.endswith(".css")]
#: the pages' own frontend, built into static/frontend/ (make frontend, from frontend/)
FRONTEND = ["frontend/page.css", "frontend/page.js"]
#: how long a browser keeps a file asked for by its version (`playbook.voila_app.TemplateFiles`)
KEPT = "max-age=31536000, immutable"


def linked(template: str) -> list[str]:
    """The static files `template` links, in order (`resources.include_css("static/x.css")`)."""
    return re.findall(r"""resources\.include_(?:css|js)\(\s*["']static/([^"']+)["']\s*\)""", template)


def without_comments_and_strings(css: str) -> str:
    """`css` with its comments and quoted strings taken out (a brace there counts for nothing)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', '""', css)


def test_the_template_is_markup_and_links_every_file_of_its_static_folder_once() -> None:
    template = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    assert "<style" not in template and "<script" not in template, "CSS and scripts belong in static/"
    names = linked(template)
    assert sorted(names) == sorted(FILES + FRONTEND), "a file the template does not link, or a link to no file"
    assert len(names) == len(set(names))
    assert SCRIPTS and SHEETS


def test_no_file_hides_one_of_the_templates_it_extends() -> None:
    """Voila looks a template's file up in its own static/ first, then in the templates it
    extends: a file of the same name here would replace theirs (nbconvert's lab template has a
    theme-dark.css, for one)."""
    theirs = {path.name for folder in collect_static_paths(["voila", "nbconvert"], "lab") if Path(folder).is_dir() for path in Path(folder).iterdir()}
    assert "index.css" in theirs  # the folders were found
    assert set(FILES) & theirs == set()


def test_every_value_a_script_reads_from_the_header_is_there() -> None:
    """The scripts read the page's values from the header's data attributes: each one they ask
    for is written by the template, and no script holds template code of its own."""
    template = (TEMPLATE / "index.html.j2").read_text(encoding="utf-8")
    header = re.search(r"<header\b[^>]*>", template)
    assert header is not None
    given = set(re.findall(r"\b(data-[a-z-]+)=", header.group(0)))
    asked: set[str] = set()
    for name in FILES:
        text = (STATIC / name).read_text(encoding="utf-8")
        assert "{{" not in text and "{%" not in text, f"{name} holds template code"
        asked |= set(re.findall(r"""querySelector\("\.playbook-header"\)\.getAttribute\("(data-[a-z-]+)"\)""", text))
    assert asked and asked <= given, asked - given


def node() -> str:
    found = shutil.which("node")
    if found is None:
        message = "Node.js is not installed (apt-get install nodejs)"
        if in_ci():
            pytest.fail(f"{message}; CI must check the scripts")
        pytest.skip(message)
    return found


@pytest.mark.parametrize("name", SCRIPTS)
def test_each_script_parses(name: str) -> None:
    checked = subprocess.run([node(), "--check", str(STATIC / name)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("name", SHEETS)
def test_each_stylesheet_is_whole(name: str) -> None:
    """Every comment closed, every brace and bracket matched: a sheet cut short or pasted twice
    loses the rules after the break without a word from the browser."""
    css = (STATIC / name).read_text(encoding="utf-8")
    assert css.count("/*") == css.count("*/"), "a comment left open"
    depth = 0
    for at, char in enumerate(without_comments_and_strings(css)):
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, f"a brace closed before it opened, at character {at}"
    assert depth == 0, f"{depth} brace(s) left open"
    for pair in ("()", "[]"):
        bare = without_comments_and_strings(css)
        assert bare.count(pair[0]) == bare.count(pair[1]), f"{pair} unmatched"


def fetch(url: str) -> tuple[dict[str, str], bytes]:
    """(headers, body as sent) of a GET of `url` by a browser that takes gzip."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return {key.lower(): value for key, value in answer.headers.items()}, answer.read()


def check_served(page_url: str, base: str) -> None:
    """The page at `page_url` links each static file at `base` with its content's hash, and each
    (the templates' it extends too) comes compressed, to be kept a year, twice the same."""
    _headers, body = fetch(page_url)
    page = (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode("utf-8")
    links = re.findall(rf'(?:href|src)="({re.escape(base)}voila/templates/{TEMPLATE_NAME}/static/([^"?]+)\?v=([0-9a-f]+))"', page)
    assert set(FILES) <= {name for _path, name, _v in links}, page[:2000]
    scheme, _, host, _path = page_url.split("/", 3)
    for path, name, version in links:
        url = f"{scheme}//{host}{path}"
        headers, sent = fetch(url)
        assert headers.get("content-encoding") == "gzip", (name, headers)
        assert headers.get("cache-control") == KEPT, (name, headers)
        if name in FILES:
            assert version == StaticFileHandler.get_content_version(str(STATIC / name))
            assert gzip.decompress(sent) == (STATIC / name).read_bytes()
        assert fetch(url)[1] == sent  # the bytes kept from the first time


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_a_server_sends_the_pages_files_compressed_to_be_kept_a_year(tmp_path: Path) -> None:
    with background_server(NOTEBOOK, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3") as server:
        check_served(server.url, "/")


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_behind_nginx_at_a_path_the_pages_files_come_the_same(tmp_path: Path) -> None:
    need_nginx()
    with (
        background_server(NOTEBOOK, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3", base_url="/playbook/") as server,
        running_nginx(tmp_path / "nginx", free_port(), [server.port]) as proxy,
    ):
        check_served(proxy + "/playbook/", "/playbook/")


def test_the_pages_frontend_is_built_and_light() -> None:
    """`make test` builds the pages' own frontend first (`make frontend`): without it every
    browser test would test Voila's frontend instead. One script and one sheet, kept small:
    a phone parses all of it before the first button (docs/phones.md)."""
    built = STATIC / "frontend"
    if not (built / "page.js").is_file():
        reason = "the pages' frontend is not built (make frontend: Node.js and npm)"
        if in_ci():
            pytest.fail(f"{reason}; CI must test the pages as phones get them")
        pytest.skip(reason)
    assert (built / "page.js").stat().st_size < 1_200_000
    assert (built / "page.css").stat().st_size < 200_000
    assert sorted(path.suffix for path in built.iterdir()) == [".css", ".js", ".woff2", ".woff2"], "only the fonts a browser asks for"
