"""What the playbook refuses outside the rules, each kind with its own type.

The rules refuse a move with `rules.RuleError`. Everything else the playbook turns down is a
`Refusal`: a change to a table the store did not make (`playbook.store.Refused`, and
`StaleTable` for a page that must look again), a change to a class (`playbook.classes.ClassError`),
a change the machine could not save (`playbook.store_faults.StoreFault`: a full disk, a read-only
store, the database gone), heavy work on a server that is busy (`playbook.heavy.ServerBusy`), and the command line's bad
arguments (`playbook.cli.UsageError`). A page or the command line catches the kind it can answer,
and shows its `message`: the reason, in the user's words, and nothing was changed.

A reason may be a `Said` (`rules.text.say`): `message` then says it in the language of whoever
reads it (a page's kernel, a request's handler), and `str()` says it in English for logs.
"""

from __future__ import annotations

from i18n import render
from rules.text import Said

__all__ = ["Refusal"]


class Refusal(Exception):
    """Something the playbook did not do; `message` says why, `rule` names the check (for tests
    and logs, never shown; never translated)."""

    def __init__(self, message: str | Said, rule: str = "") -> None:
        super().__init__(str(message))
        self.said = message
        self.rule = rule

    @property
    def message(self) -> str:
        """The reason in the reader's language (read when shown, not when raised)."""
        return render(self.said)
