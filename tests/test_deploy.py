"""Installed and deployed: where the playbook finds its files, the base URL and the public URL
of `playbook serve`, the running server that JupyterLab's links lead to (no server started)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

import pytest

from playbook import resources, running, serve
from playbook.cli import main
from playbook.links import public_base
from widgets.address import serve_hint


def test_the_notebooks_template_and_rulings_are_found_through_the_package() -> None:
    assert {p.name for p in resources.notebooks_dir().glob("*.ipynb")} >= {"index.ipynb", "new_rule.ipynb", "leerdam.ipynb"}
    assert (resources.templates_dir() / "voila" / "templates" / serve.TEMPLATE_NAME / "index.html.j2").is_file()
    assert resources.rules_doc("leerdam").startswith("# Leerdam")
    resources.check_notebooks()  # every page of the playbook is there and reads as a notebook


@pytest.mark.parametrize(("given", "path"), [("/playbook/", "/playbook/"), ("playbook", "/playbook/"), ("/a/b", "/a/b/"), ("", "/"), ("/", "/")])
def test_a_base_url_is_a_path_with_a_slash_at_both_ends(given: str, path: str) -> None:
    assert serve.base_path(given) == path


def test_a_whole_address_is_not_a_base_url() -> None:
    with pytest.raises(ValueError, match="public URL"):
        serve.base_path("https://school.example/playbook/")


def test_voila_serves_under_the_base_url() -> None:
    assert "--Voila.base_url=/playbook/" in serve.voila_command(base_url="playbook")
    assert not [a for a in serve.voila_command() if "base_url" in a]


class _Voila:
    """Stands in for the Voila process `serve()` starts."""

    started: ClassVar[list[tuple[list[str], dict[str, str]]]] = []

    def __init__(self, argv: list[str], env: dict[str, str], **_: Any) -> None:
        self.started.append((argv, env))
        self.pid = os.getpid()

    def wait(self) -> int:
        return 0


@pytest.fixture
def fake_voila(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[list[str], dict[str, str]]]:
    monkeypatch.setattr(serve.subprocess, "Popen", _Voila)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for name in ("PLAYBOOK_URL", "PLAYBOOK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    _Voila.started = []
    return _Voila.started


def test_the_public_url_makes_the_links_and_its_path_the_base_url(fake_voila: list, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve.serve(port=9123, public_url="https://school.example/playbook/") == 0
    argv, env = fake_voila[0]
    assert "--Voila.base_url=/playbook/" in argv and "--Voila.port=9123" in argv
    assert env["PLAYBOOK_URL"] == "https://school.example/playbook"
    assert "https://school.example/playbook/voila/render/index.ipynb?key=" in capsys.readouterr().out
    assert running.server_url() is None  # forgotten once it stopped


def test_the_base_url_from_the_environment_without_a_public_url(fake_voila: list, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PLAYBOOK_BASE_URL", "/games")
    serve.serve(port=9124, ip="127.0.0.1")  # local only: the links say localhost
    argv, env = fake_voila[0]
    assert "--Voila.base_url=/games/" in argv
    assert env["PLAYBOOK_URL"] == "http://localhost:9124/games"
    assert "http://localhost:9124/games/voila/render/index.ipynb" in capsys.readouterr().out


def test_links_made_outside_voila_lead_to_the_running_playbook_serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for name in ("PLAYBOOK_URL", "VOILA_PREHEAT"):
        monkeypatch.delenv(name, raising=False)
    assert public_base() == "http://localhost:8866"
    assert "playbook serve" in serve_hint()
    running.record("http://10.1.2.3:8866/", os.getpid())
    assert public_base() == "http://10.1.2.3:8866"
    assert serve_hint() == ""
    running.forget(os.getpid())
    dead = 2**22 + 1  # above Linux's largest process id
    running.record("http://gone:1/", dead)
    assert running.server_url() is None


def test_playbook_notebooks_copies_them_out_and_keeps_what_is_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["notebooks", str(tmp_path / "mine")]) == 0
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == sorted(p.name for p in resources.notebooks_dir().glob("*.ipynb"))
    assert main(["notebooks", str(tmp_path / "mine")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["notebooks", str(tmp_path / "mine"), "--force"]) == 0



@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--base-url", "https://school.example/playbook/"], "is not a path such as /playbook/"),
        (["serve", "--notebook", "nothere.ipynb"], "argument --notebook: no notebook 'nothere.ipynb'"),
    ],
)
def test_serve_refuses_in_one_line_with_exit_2(argv: list[str], message: str, fake_voila: list, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert fake_voila == []  # no Voila started


def test_a_public_url_needs_a_scheme_and_a_host(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--public-url", "school.example/playbook"])
    assert stopped.value.code == 2
    assert "is not an address such as https://school.example/playbook/" in capsys.readouterr().err
