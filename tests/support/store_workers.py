"""Processes that act on one stored table at once, for the store's race tests.

Each worker opens its own `Store` (its own connections, its own cache), acts, and writes one
JSON line per submission to its own file: what it asked, with which version, and whether the
store took it (new version, rows written or undone) or refused it (rule, message). The test then
checks every line against the database. Run under the "spawn" start method: nothing is shared
but the database.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import lab
from playbook.store import Change, Claim, HandOver, Play, Refused, Store, Table, Undo
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import action_to_json


def _submit(store: Store, table_id: str, change: Change, seen: int, out: Any, who: str) -> tuple[Table | None, str]:
    """Submit and write the line; the table as it stands, and the rule of a refusal ("" if none)."""
    line: dict[str, Any] = {"who": who, "change": change.kind, "seen": seen}
    if isinstance(change, Play):
        line["action"] = action_to_json(change.action)
    if isinstance(change, HandOver):
        line["seat"], line["bot"] = change.seat, change.bot
    if isinstance(change, Claim):
        line["seat"] = change.seat
    try:
        outcome = store.submit(table_id, change, seen)
    except Refused as exc:
        line.update(result="refused", rule=exc.rule, message=exc.message)
        out.write(json.dumps(line) + "\n")
        out.flush()
        return exc.table, exc.rule
    line.update(result="ok", version=outcome.table.version, appended=list(outcome.appended), undone=list(outcome.undone), behind=outcome.behind)
    out.write(json.dumps(line) + "\n")
    out.flush()
    return outcome.table, ""


def simultaneous(location: str, table_id: str, seat: int, barrier: Any, out_path: str) -> None:
    """Two secret simultaneous choices at one moment, each sent with the version seen before it
    (so all but the first are behind): a pledge and an allocation in Leerdam, a pick in New Rule."""
    store = Store(location)
    with Path(out_path).open("w") as out:
        table = store.load(table_id)
        state = table.game.state
        if table.game.rules.slug == "leerdam":
            barrier.wait()
            after, _ = _submit(store, table_id, Play(ld.Contribute(seat=seat, units=1)), table.version, out, f"seat {seat}")
            barrier.wait()  # everyone has pledged: the reveal is in
            table = store.load(table_id) if after is None else after
            plan = (ld.Assignment(seat, "subsistence", 2),)
            barrier.wait()
            _submit(store, table_id, Play(ld.Allocate(seat=seat, plan=plan)), table.version, out, f"seat {seat}")
        else:
            colour = next(c for c in state.colours if state.count(seat, c))
            barrier.wait()
            _submit(store, table_id, Play(nr.Pick(seat=seat, colour=colour)), table.version, out, f"seat {seat}")
    store.close()


def racer(location: str, table_id: str, role: str, index: int, attempts: int, out_path: str) -> None:
    """One of the race test's processes on a Leerdam table of 8 households.

    "seat": plays household `index` (a fair bot's choice when the table waits for it, else now
    and then a gift), half the time from a stale copy of the table. "undo": presses Undo.
    "hand-over": hands households 6 and 7 to a bot and back, and plays them while they are people's.
    """
    store = Store(location)
    rng = random.Random(f"racer:{role}:{index}")
    fair = lab.BOTS["leerdam"]["fair"]
    seen: Table | None = None
    with Path(out_path).open("w") as out:
        done = taken = tries = 0
        # Seats make `attempts` submissions; Undo and hand-over keep going until `attempts // 5`
        # of theirs went through (they need an up-to-date page, so most are beaten to it).
        while tries < attempts * 40 and (done < attempts if role == "seat" else taken < max(1, attempts // 5) and done < attempts * 12):
            tries += 1
            time.sleep(rng.uniform(0.001, 0.01) if role == "seat" else rng.uniform(0.005, 0.03))
            # An Undo or a hand-over looks afresh each time; seat moves come from stale copies too.
            if seen is None or role != "seat" or rng.random() < 0.5:
                seen = store.load(table_id)
            state = seen.game.state
            change: Change | None = None
            if role == "undo":
                change = Undo()
            elif role == "hand-over":
                seat = rng.choice((6, 7))
                waiting = seat in state.waiting_for() and seat not in seen.bots
                if waiting and rng.random() < 0.6:
                    change = Play(fair(state, seat, rng))
                else:
                    change = HandOver(seat, None if seat in seen.bots else "fair")
            else:
                seat = index
                if seat in state.waiting_for():
                    change = Play(fair(state, seat, rng))
                elif state.households[seat].wealth > 0 and rng.random() < 0.3:
                    change = Play(ld.Gift(seat=seat, to=(seat + 1) % state.n, wealth=1))
            if change is None:
                seen = None
                continue
            for _ in range(1 if role == "seat" else 4):
                seen, refusal = _submit(store, table_id, change, seen.version, out, f"{role} {index}")
                done += 1
                taken += not refusal and not isinstance(change, Play)
                if refusal != "stale" or role == "seat":
                    break
                # Told the table moved on, a person looks again and presses once more.
                seen = store.load(table_id)
        while role == "hand-over" and tries < attempts * 80:
            # Leave households 6 and 7 to bots, so the others' game goes on without this process.
            tries += 1
            seen = store.load(table_id)
            human = [s for s in (6, 7) if s not in seen.bots]
            if not human:
                break
            _submit(store, table_id, HandOver(human[0], "fair"), seen.version, out, f"{role} {index}")
            done += 1
        out.write(json.dumps({"who": f"{role} {index}", "submitted": done}) + "\n")
    store.close()


def claimer(location: str, table_id: str, seat: int, key: str | None, barrier: Any, out_path: str) -> None:
    """A device that takes `seat` at the moment every other claimer does: by the seat's own link
    (`key`, the slip's key) or by the join code (`key` None), with a new key of its own."""
    from playbook.access import new_key

    store = Store(location)
    seen = store.version(table_id)
    mine = new_key()
    with Path(out_path).open("w") as out:
        barrier.wait(60)
        table, rule = _submit(store, table_id, Claim(seat, mine, key=key), seen, out, f"seat {seat}")
        won = not rule and table is not None
        out.write(json.dumps({"who": f"seat {seat}", "new_key": mine, "won": won, "version": table.version if won else None}) + "\n")
    store.close()
