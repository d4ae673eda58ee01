"""What the playbook refuses outside the rules, each kind with its own type.

The rules refuse a move with `rules.RuleError`. Everything else the playbook turns down is a
`Refusal`: a change to a table the store did not make (`playbook.store.Refused`, and
`StaleTable` for a page that must look again), a change to a class (`playbook.classes.ClassError`),
a change the machine could not save (`playbook.store_faults.StoreFault`: a full disk, a read-only
store, the database gone), heavy work on a server that is busy (`playbook.heavy.ServerBusy`), and the command line's bad
arguments (`playbook.cli.UsageError`). A page or the command line catches the kind it can answer,
and shows its `message`: the reason, in the user's words, and nothing was changed.
"""

from __future__ import annotations

__all__ = ["Refusal"]


class Refusal(Exception):
    """Something the playbook did not do; `message` says why, `rule` names the check (for tests
    and logs, never shown)."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
