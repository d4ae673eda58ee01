"""The command line in the pseudo-language: every subcommand's help and an error of each say
every word as a message (option names, metavars, commands, games and files aside)."""

from __future__ import annotations

import argparse
import re

import pytest

from playbook import cli
from rules.games import CARDS
from tests.support.pseudo import escaped

#: what a command line shows that is not a sentence: options, metavars (CAPITALS), `{choices}`,
#: file names, key=value examples, the program's and the games' names.
CODE = re.compile(r"--?[\w-]+|\b[A-Z][A-Z_]*\b|\{[^}]*\}|[\w./-]*\.(?:json|csv|pdf|sqlite3|ipynb)\b|\b[\w-]+=[^\s,;)]*")


def _commands() -> list[str]:
    subparsers = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(subparsers.choices)


def _said(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit):
        cli.main(argv)
    out, err = capsys.readouterr()
    return CODE.sub(" ", " ".join((out + err).split()))


def test_every_subcommands_help_and_an_error_of_each_are_said_in_the_pseudo_language(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYBOOK_LANG", "qps")
    commands = _commands()
    names = ["playbook", *commands, *(card.slug for card in CARDS), "new", "[", "]", "..."]
    assert len(commands) >= 10
    for command in [None, *commands]:
        argv = [command] if command else []
        helped = _said(capsys, [*argv, "--help"])
        assert "⟦" in helped and escaped([helped], names=names) == [], command
        refused = _said(capsys, [*argv, "--no-such-option"])
        assert "⟦" in refused and escaped([refused], names=names) == [], command
