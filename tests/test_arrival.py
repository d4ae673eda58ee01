"""A class arriving at once, without a browser: turns to build, one device per seat, rebased
facilitator actions, names a page can show, files only the server's account can read.

The browser side (twelve seat pages opened in the same second) is in test_browser_arrival.py.
"""

from __future__ import annotations

import base64
import html
import json
import multiprocessing
import os
import re
import signal
import socket
import stat
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from playbook.access import resolve, table_keys
from playbook.pacing import SLOT_COUNT_ENV, SLOTS_ENV, take_turn
from playbook.serve import IOPUB_TIMEOUT, background_server, kept_server_key, serve_settings, voila_command
from playbook.store import Claim, Refused, Store
from rules import RuleError, new_game
from rules import leerdam as ld
from rules.confusables import CONFUSABLES, VERSION
from rules.core import check_names, look_alike, look_alike_pair, name_keys, skeleton
from rules.games import CARDS
from tests.support.headless import find, links, one
from tests.support.leerdam_page import pledge
from tests.support.leerdam_page import start as start_leerdam
from tests.support.store_workers import claimer
from tests.support.stores import run_alone
from tests.support.turn_workers import hold, wait_for_turn
from widgets.leerdam import LeerdamDashboard

pytestmark = pytest.mark.timeout(180)


# -- every page comes up: the server's settings and the turns ------------------------------------


def test_the_executor_waits_for_late_output_on_every_server() -> None:
    """nbclient's 4 s default dropped the dashboards of pages opened together."""
    argv = voila_command()
    assert f"--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}" in argv and IOPUB_TIMEOUT >= 60
    assert any(a.startswith("--VoilaExecutor.startup_timeout=") and int(a.split("=")[1]) >= 120 for a in argv)


def test_kernels_started_together_cannot_race_for_a_port() -> None:
    """Over TCP, 30 kernels started at once picked ports and then lost them to each other
    ("Address already in use": six pages of thirty never came)."""
    assert "--KernelManager.transport=ipc" in voila_command()


class VoilaPools:
    """Voila's kernel pools as `refill_when_quiet` sees them: `fill_if_needed` starts (here:
    notes) kernels until a notebook's pool has its configured size; a page takes the oldest."""

    def __init__(self, sizes: dict[str, int]) -> None:
        import asyncio

        self.kernel_pools_config = {"default": {"pool_size": 0}, **{name: {"pool_size": size} for name, size in sizes.items()}}
        self._pools: dict[str, list] = {}
        self.fills: list[tuple[float | None, str | None, dict]] = []
        self._future = asyncio.get_running_loop().create_future

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        self.fills.append((delay, notebook_name, kwargs))
        pool = self._pools.setdefault(notebook_name, [])
        for _ in range(self.kernel_pools_config[notebook_name]["pool_size"] - len(pool)):
            started = self._future()
            started.set_result({"kernel_id": f"k{len(self.fills)}-{len(pool)}"})
            pool.append(started)

    def take(self, name: str, **kwargs) -> None:
        """A page takes a ready kernel; Voila asks for its replacement."""
        self._pools[name].pop(0)
        self.fill_if_needed(notebook_name=name, **kwargs)


def test_ready_kernels_are_made_up_only_once_the_arrivals_pause() -> None:
    """Taking a ready kernel does not start its replacement in the middle of the class's arrival."""
    import asyncio

    from playbook.voila_app import refill_when_quiet

    async def settled(_pools, _started) -> None:
        pass

    async def arrive() -> tuple[list, int]:
        pools = VoilaPools({"leerdam.ipynb": 5})
        refill_when_quiet(pools, quiet=0.3, step=5, settled=settled)
        pools.fill_if_needed(delay=0, notebook_name="leerdam.ipynb")  # the first fill: at once
        assert len(pools.fills) == 1 and len(pools._pools["leerdam.ipynb"]) == 5
        for _ in range(5):  # five pages take ready kernels, 0.1 s apart
            pools.take("leerdam.ipynb", extra_kernel_env_variables={"X": "1"})
            await asyncio.sleep(0.1)
        assert len(pools.fills) == 1 and not pools._pools["leerdam.ipynb"], "made up during the arrivals"
        await asyncio.sleep(0.5)
        return pools.fills, len(pools._pools["leerdam.ipynb"])

    fills, ready = run_alone(arrive)
    assert fills[1:] == [(0, "leerdam.ipynb", {"extra_kernel_env_variables": {"X": "1"}})] and ready == 5


def test_ready_kernels_are_made_up_a_cores_worth_at_a_time() -> None:
    """Not thirty kernels starting together beside a class that has just started to play: the
    pool is made up `step` kernels at a time, each step once the last one's kernels have
    settled, and a page that takes a kernel meanwhile stops it until the next pause."""
    import asyncio

    from playbook.voila_app import refill_when_quiet

    async def arrive() -> list[int]:
        pools = VoilaPools({"class.ipynb": 7})
        steps: list[int] = []
        go = asyncio.Event()

        async def settled(_pools, started) -> None:
            steps.append(len(started))
            await go.wait()
            go.clear()

        refill_when_quiet(pools, quiet=0.2, step=2, settled=settled)
        pools.fill_if_needed(delay=0, notebook_name="class.ipynb")
        for _ in range(7):
            pools.take("class.ipynb")
        await asyncio.sleep(0.4)
        ready = [len(pools._pools["class.ipynb"])]  # the first step, waiting to settle
        go.set()
        await asyncio.sleep(0.05)
        ready.append(len(pools._pools["class.ipynb"]))
        pools.take("class.ipynb")  # a late student: the refill stops
        go.set()
        await asyncio.sleep(0.1)
        ready.append(len(pools._pools["class.ipynb"]))
        await asyncio.sleep(0.3)  # the next pause: made up again, step by step
        for _ in range(3):
            go.set()
            await asyncio.sleep(0.05)
        ready.append(len(pools._pools["class.ipynb"]))
        assert pools.kernel_pools_config["class.ipynb"] == {"pool_size": 7}  # as configured, after every step
        return ready + steps

    ready_and_steps = run_alone(arrive)
    assert ready_and_steps[:4] == [2, 4, 3, 7]
    assert ready_and_steps[4:] == [2, 2, 2, 2]  # two steps, stopped; then 3 -> 5 -> 7


def test_a_refill_step_waits_for_its_kernels_to_go_quiet() -> None:
    """A step has settled once its kernels' processes use almost no processor: a busy kernel
    holds the next step back (up to the step's limit), an idle one lets it go at the first look.
    Decided on the looks taken, not on time: a loaded machine gives a busy loop little processor."""
    import asyncio

    from playbook.voila_app import kernels_settled

    class Kernels:
        def get_kernel(self, kernel_id: str):
            return type("Kernel", (), {"provisioner": type("Provisioner", (), {"pid": 4242})()})()

    def looks(per_window: float) -> tuple[int, list[int]]:
        taken: list[int] = []

        def used(pids: list[int]) -> float:
            taken.append(pids[0])
            return per_window * len(taken)

        async def wait() -> None:
            started = asyncio.get_running_loop().create_future()
            started.set_result({"kernel_id": "k"})
            await kernels_settled(Kernels(), [started], most=0.6, window=0.05, used=used)

        run_alone(wait)
        return len(taken), taken

    busy, pids = looks(per_window=0.05)  # a whole window of processor in each window
    assert busy >= 8 and set(pids) == {4242}  # looked until the step's limit
    assert looks(per_window=0.0)[0] == 2  # the first look after the start: quiet, so go


def test_processor_seconds_grow_for_a_busy_process_and_not_for_an_idle_one() -> None:
    import subprocess
    import sys

    from playbook.pacing import cpu_seconds

    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(0.3)
        busy_at, idle_at = cpu_seconds([busy.pid]), cpu_seconds([idle.pid])
        deadline = time.monotonic() + 20  # however loaded the machine, the loop gets some turns
        while cpu_seconds([busy.pid]) - busy_at < 0.1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert cpu_seconds([busy.pid]) - busy_at >= 0.1
        assert cpu_seconds([idle.pid]) - idle_at < 0.05
        assert cpu_seconds([]) == 0.0
    finally:
        busy.kill()
        idle.kill()
        busy.wait()
        idle.wait()


def test_the_headline_settings_keep_kernels_ready_for_the_class() -> None:
    settings = serve_settings(class_size=30)
    pools = json.loads(next(a.split("=", 1)[1] for a in settings.args if a.startswith("--VoilaKernelManager.kernel_pools_config=")))
    assert pools["default"]["pool_size"] == 0
    assert pools["class.ipynb"]["pool_size"] == 30  # every phone of the class opens the class page
    # One pool per game played on devices (its card's `devices`), empty while nothing waits on it:
    # a phone's seat is built in its class page.
    played_on_devices = [c.notebook for c in CARDS if c.devices]
    assert all(pools[notebook]["pool_size"] == 0 for notebook in played_on_devices)
    assert settings.ready_kernels == 30 and serve_settings(class_size=12).ready_kernels == 12
    # A class made before the server starts (next week's lesson): its game's page a third of it.
    assert serve_settings(class_size=12, waiting={"leerdam.ipynb": 4}).ready_kernels == 16
    assert json.loads(serve_settings(class_size=200).args[1].split("=", 1)[1])["class.ipynb"]["pool_size"] == 40
    assert "--VoilaConfiguration.preheat_kernel=True" in settings.args
    assert serve_settings(class_size=30, preheat=0).args == ()


def test_the_seats_of_tables_prepared_for_the_lesson_get_kernels_ready_on_their_game_page(store: Store) -> None:
    """Slips handed out before the lesson: a class opens those seat links together, so the game's
    page keeps one ready kernel per seat waiting (not a bot's, not a class's, not an old table's)."""
    from playbook.serve import WAITING_WITHIN_S, seats_waiting

    names = tuple(f"H{i}" for i in range(15))
    for seed in (1, 2):
        store.create(new_game("leerdam", ld.Setup(names=names), seed), meta={"bots": {"0": "fair"}, **table_keys(15)})
    store.create(new_game("leerdam", ld.Setup(names=names[:5]), 3), meta={"bots": {}, "class": "C1", **table_keys(5)})
    waiting = seats_waiting(store)
    assert waiting == {"leerdam.ipynb": 28}  # two tables of 15, one bot each; the class's table comes through the class page
    assert seats_waiting(store, now=time.time() + WAITING_WITHIN_S + 60) == {}  # yesterday's tables are not today's lesson
    pools = json.loads(next(a.split("=", 1)[1] for a in serve_settings(class_size=30, waiting=waiting).args if "kernel_pools_config" in a))
    assert pools["leerdam.ipynb"]["pool_size"] == 28
    assert pools["new_rule.ipynb"]["pool_size"] == 0  # no table or class of it today
    assert json.loads(next(a.split("=", 1)[1] for a in serve_settings(class_size=30, waiting={"leerdam.ipynb": 90}).args if "kernel_pools_config" in a))["leerdam.ipynb"]["pool_size"] == 40


def test_a_game_pages_ready_kernels_follow_the_tables_prepared_while_the_server_runs(store: Store) -> None:
    """The teacher starts the server, then saves tables and hands out slips: the game's page
    grows its ready kernels to the seats no device holds yet (never past the cap, never below
    its start), and lets them shrink back once the seats are held."""
    import logging

    from playbook.serve import seats_waiting
    from playbook.voila_app import ready_for_tables

    class Pools:
        log = logging.getLogger("pools")

        def __init__(self) -> None:
            self.kernel_pools_config = {"default": {"pool_size": 0}, "class.ipynb": {"pool_size": 30}, "leerdam.ipynb": {"pool_size": 5}, "new_rule.ipynb": {"pool_size": 5}}
            self.fills: list[str | None] = []

        def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
            self.fills.append(notebook_name)

    pools = Pools()
    look = ready_for_tables(pools, lambda: seats_waiting(store), most=40)
    run_alone(look)
    assert pools.fills == [] and pools.kernel_pools_config["leerdam.ipynb"]["pool_size"] == 5  # nothing saved yet
    names = tuple(f"H{i}" for i in range(12))
    table_id = store.create(new_game("leerdam", ld.Setup(names=names), 1), meta={"bots": {}, **table_keys(12)})
    run_alone(look)
    assert pools.kernel_pools_config["leerdam.ipynb"]["pool_size"] == 12 and pools.fills == ["leerdam.ipynb"]
    assert pools.kernel_pools_config["new_rule.ipynb"]["pool_size"] == 5 and pools.kernel_pools_config["class.ipynb"]["pool_size"] == 30
    keys = store.info(table_id).meta["seat_keys"]
    for seat in range(10):  # ten phones are on their seats
        store.submit(table_id, Claim(seat, new_key=f"device-key-of-seat-{seat:02d}", key=keys[str(seat)]), store.version(table_id))
    run_alone(look)
    assert pools.kernel_pools_config["leerdam.ipynb"]["pool_size"] == 5  # two seats wait: the pool it started with
    assert pools.fills == ["leerdam.ipynb"]  # a smaller pool is not made up


def test_the_class_pages_ready_kernels_follow_the_students_still_expected(store: Store) -> None:
    """Once a class has arrived only a few class-page kernels are made up (a late student, the
    board on another screen), not the thirty the server started with; a new class grows them."""
    from playbook import classes as cl
    from playbook.serve import students_expected
    from playbook.voila_app import ready_for_tables

    class Pools:
        log = None

        def __init__(self) -> None:
            self.kernel_pools_config = {"default": {"pool_size": 0}, "class.ipynb": {"pool_size": 30}, "leerdam.ipynb": {"pool_size": 5}}
            self.fills: list[str | None] = []

        def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
            self.fills.append(notebook_name)

    pools = Pools()
    look = ready_for_tables(pools, lambda: students_expected(store), most=40, class_floor=5)
    size = lambda: pools.kernel_pools_config["class.ipynb"]["pool_size"]  # noqa: E731
    run_alone(look)
    assert students_expected(store) == {} and size() == 30  # no class yet: ready for the one to come
    record = cl.create_class(store, "leerdam", 12, seed=1)
    run_alone(look)
    assert students_expected(store) == {"class.ipynb": 12, "leerdam.ipynb": 4} and size() == 12
    assert pools.kernel_pools_config["leerdam.ipynb"]["pool_size"] == 5  # a third of the class, no fewer than it started with
    for i in range(9):
        record = cl.submit(store, record.id, cl.Join(f"S{i}", f"device-key-of-student-{i:02d}"), record.version)
    run_alone(look)
    assert size() == 5 and pools.fills == []  # three still to come: the floor
    cl.create_class(store, "new-rule", 35, seed=2)
    run_alone(look)
    assert students_expected(store) == {"class.ipynb": 38, "leerdam.ipynb": 4, "new_rule.ipynb": 5} and size() == 38 and pools.fills == ["class.ipynb"]
    assert students_expected(store, now=time.time() + 2 * 24 * 3600) == {}  # yesterday's classes are not today's lesson
    assert pools.kernel_pools_config["leerdam.ipynb"]["pool_size"] == 5


def test_kernels_take_turns_across_processes(tmp_path) -> None:
    """With one turn, a second process builds only once the first has handed the turn on."""
    context = multiprocessing.get_context("spawn")
    held, go = context.Event(), context.Event()
    released_at, got_at = context.Value("d", 0.0), context.Value("d", 0.0)
    first = context.Process(target=hold, args=(str(tmp_path), held, go, released_at))
    first.start()
    assert held.wait(30)
    second = context.Process(target=wait_for_turn, args=(str(tmp_path), got_at))
    second.start()
    second.join(0.5)
    assert second.is_alive() and got_at.value == 0.0  # still waiting for its turn
    go.set()
    first.join(30)
    second.join(30)
    assert second.exitcode == 0 and got_at.value >= released_at.value > 0


def test_a_kernel_that_dies_holding_its_turn_hands_it_on(tmp_path) -> None:
    context = multiprocessing.get_context("spawn")
    held, go, released_at = context.Event(), context.Event(), context.Value("d", 0.0)
    first = context.Process(target=hold, args=(str(tmp_path), held, go, released_at))
    first.start()
    assert held.wait(30)
    os.kill(first.pid, signal.SIGKILL)
    first.join(30)
    turn = take_turn(str(tmp_path), 1, max_wait=30)
    assert turn.held
    turn.release()


def test_a_kernel_made_ready_in_advance_gives_way_to_pages_that_are_waiting(tmp_path) -> None:
    """While a page someone opened waits or builds, the pool's new kernels do not take turns."""
    import threading

    mark = tmp_path / f"page-{os.getpid()}"  # a live process: a page still on its way
    mark.touch()
    (tmp_path / "page-999999999").touch()  # a page whose kernel died: no longer in the way
    got: list = []
    ready = threading.Thread(target=lambda: got.append(take_turn(str(tmp_path), 2, max_wait=60, give_way=True)))
    ready.start()
    ready.join(0.6)
    assert ready.is_alive() and not got  # two free turns, and still it waits
    mark.unlink()  # the page has built
    ready.join(30)
    assert got and got[0].held
    assert not (tmp_path / "page-999999999").exists()
    got[0].release()
    page = take_turn(str(tmp_path), 2, max_wait=5)  # a page's own kernel never gives way
    assert page.held
    page.release()


def _first_cell(folder: Path, code: str) -> tuple[str, list[str]]:
    """Run `code` as the first cell of a page's kernel (a real one, on Unix sockets beside
    `folder` as under `playbook serve`) whose turns are in `folder`, one turn: what it printed,
    and the folder's files once the cell has ended, the kernel alive."""

    async def run() -> tuple[str, list[str]]:
        from jupyter_client.manager import AsyncKernelManager

        env = {name: value for name, value in os.environ.items() if name != "VOILA_PREHEAT"}  # a page's kernel, not a ready one
        env.update({SLOTS_ENV: str(folder), SLOT_COUNT_ENV: "1"})
        manager = AsyncKernelManager(kernel_name="python3", transport="ipc", ip=str(folder.parent / "kernel"))
        await manager.start_kernel(env=env)
        client = manager.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=120)
            printed: list[str] = []
            hook = lambda msg: printed.append(msg["content"]["text"]) if msg["msg_type"] == "stream" else None  # noqa: E731
            reply = await client.execute_interactive(code, timeout=120, output_hook=hook)
            assert reply["content"]["status"] == "ok", reply["content"]
            return "".join(printed), sorted(os.listdir(folder))
        finally:
            client.stop_channels()
            await manager.shutdown_kernel(now=True)

    return run_alone(run, timeout=300)


@pytest.mark.heavy
@pytest.mark.parametrize("turn", ["taken", "none to take"])
def test_a_pages_waiting_mark_is_gone_once_its_page_is_built(tmp_path, turn) -> None:
    """While a page's kernel waits for its turn and builds, its mark in the turns folder makes
    the kernels made ready in advance give way; once its first cell has run, the mark is gone,
    whether the page had a turn or built without one (a turn it could not open)."""
    turns = tmp_path / "turns"
    turns.mkdir()
    if turn == "none to take":
        (turns / "slot-0").mkdir()  # the only turn's lock file cannot be opened
    printed, after = _first_cell(turns, "import os, widgets\nprint(os.getpid(), sorted(os.listdir(os.environ['PLAYBOOK_SLOTS'])))")
    pid, during = printed.split(" ", 1)
    assert f"page-{pid}" in during, printed  # marked while it built
    assert [name for name in after if name.startswith("page-")] == [], after


def test_outside_a_server_nothing_waits(monkeypatch) -> None:
    monkeypatch.delenv("PLAYBOOK_SLOTS", raising=False)
    assert not take_turn().held


def _leave_while_the_socket_opens(port: int, kernel: str, cookie: str) -> None:
    """Ask for a kernel's socket as a page does (with the page's cookie: playbook.doors), and go
    away at once (a phone locked)."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(
            f"GET /api/kernels/{kernel}/channels?session_id=gone HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            "Sec-WebSocket-Protocol: v1.kernel.websocket.jupyter.org\r\n\r\n".encode()
        )


@pytest.mark.heavy
def test_a_page_closed_while_its_socket_opens_leaves_no_traceback_in_the_teachers_terminal(tmp_path) -> None:
    """jupyter_server went on with a socket closed before its handshake and wrote three tracebacks
    for it (voila_app.KernelSocket); the server still answers the next page."""
    notebook = tmp_path / "page.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('here')")]), notebook)
    with background_server(notebook, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3") as server:
        with urllib.request.urlopen(server.url, timeout=60) as answer:
            page = answer.read().decode()
            cookie = "; ".join(header.split(";", 1)[0] for header in answer.headers.get_all("Set-Cookie", []))
        kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
        assert kernel, "the page names its kernel"
        for _ in range(20):
            _leave_while_the_socket_opens(server.port, kernel.group(1), cookie)
            time.sleep(0.1)
        time.sleep(1)
        assert "here" in urllib.request.urlopen(server.url, timeout=60).read().decode()
    log = (tmp_path / "voila.log").read_text(errors="replace")  # complete once the server has stopped
    assert "Traceback" not in log
    assert re.search(r"\b499 GET /api/kernels/\S+/channels", log)  # some closed inside the window


# -- one device per seat -----------------------------------------------------------------------------


def test_opening_a_seat_link_claims_the_seat_with_a_key_of_its_own(store) -> None:
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={})
    slip = links(host)["seats"][1]["url"]
    phone = LeerdamDashboard(store, query=slip)
    assert phone.role == "seat" and phone.seat == 1
    meta = store.info(host.table_id).meta
    assert "1" in meta["claims"] and f"key={meta['seat_keys']['1']}" not in slip
    mine = html.unescape(phone.navigator.value)
    assert f"key={meta['seat_keys']['1']}" in mine and f'data-seat-of="{host.table_id}"' in mine  # kept by this device
    # The join page offers only seats no device holds.
    join = LeerdamDashboard(store, query=links(host)["join"])
    assert not find(join, "pb-claim-1") and find(join, "pb-claim-0") and find(join, "pb-claim-2")
    # Until the page shows the seat (its first heartbeat), the slip may claim it again (a reload
    # before the page came up); once it has, the slip on another device opens nothing, and says why.
    assert "slip" in meta["claims"]["1"] and not meta["claims"]["1"]["confirmed"]
    phone.heartbeat.click()
    assert store.info(host.table_id).meta["claims"]["1"]["confirmed"] and "slip" not in store.info(host.table_id).meta["claims"]["1"]
    other = LeerdamDashboard(store, query=slip)
    assert other.role == "denied" and other.game is None and "another device" in other.status.message
    # The device itself, reloaded (its address bar holds the seat's new link), is back on its seat.
    link = mine.split('data-href="', 1)[1].split('"', 1)[0]
    assert link.startswith("?")  # this page's own address, with the seat's new key
    again = LeerdamDashboard(store, query=link)
    assert again.role == "seat" and again.seat == 1 and store.info(host.table_id).meta["seat_keys"] == meta["seat_keys"]
    # The facilitator sees the seat held, without its key, and releases it.
    host.refresh()
    row = html.unescape(host.class_panel.rows.children[1].children[0].value)
    assert "on a device" in row and meta["seat_keys"]["1"] not in row
    one(host, "pb-release-1").click()
    assert phone.refresh() and phone.role == "denied" and "data-forget" in phone.navigator.value


def test_a_page_reloaded_before_it_showed_its_seat_claims_it_again(store) -> None:
    """The watchdog (or a student) reloads a seat page whose dashboard never reached the browser:
    the slip still opens the seat, and the page that never showed loses it."""
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy"), bots={})
    slip = links(host)["seats"][2]["url"]
    never_shown = LeerdamDashboard(store, query=slip)
    reloaded = LeerdamDashboard(store, query=slip)
    assert reloaded.role == "seat" and reloaded.seat == 2
    assert never_shown.refresh() and never_shown.role == "denied"
    reloaded.heartbeat.click()  # now it shows: the slip is spent
    assert LeerdamDashboard(store, query=slip).role == "denied"
    reloaded.refresh()
    assert reloaded.role == "seat" and reloaded.game is not None


@pytest.mark.heavy
def test_devices_claiming_at_once_get_one_seat_each(location, tmp_path) -> None:
    """Eight processes at the same moment: four open the same slip of seat 0, four press seat 1
    on the join page. One device gets seat 1. The slip's claims follow one another (a slip may
    claim again until a page shows the seat), and the last of them holds seat 0."""
    store = Store(location)
    names = ("Ana", "Bo", "Cy", "Di", "Ed")
    meta = {"bots": {}, **table_keys(len(names))}
    table_id = store.create(new_game("leerdam", ld.Setup(names=names), 5), meta=meta)
    slip = meta["seat_keys"]["0"]
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(8)
    jobs = [(location, table_id, 0, slip, barrier, str(tmp_path / f"slip{i}.jsonl")) for i in range(4)]
    jobs += [(location, table_id, 1, None, barrier, str(tmp_path / f"join{i}.jsonl")) for i in range(4)]
    processes = [context.Process(target=claimer, args=job) for job in jobs]
    for p in processes:
        p.start()
    for p in processes:
        p.join(120)
        assert p.exitcode == 0
    lines = [json.loads(line) for path in sorted(tmp_path.glob("*.jsonl")) for line in path.read_text().splitlines()]
    winners = [line for line in lines if line.get("won")]
    by_code = [w for w in winners if w["who"] == "seat 1"]
    by_slip = sorted((w for w in winners if w["who"] == "seat 0"), key=lambda w: w["version"])
    assert len(by_code) == 1 and by_slip
    after = store.info(table_id).meta
    assert set(after["claims"]) == {"0", "1"}
    assert after["seat_keys"]["1"] == by_code[0]["new_key"] and after["seat_keys"]["0"] == by_slip[-1]["new_key"]
    assert after["seat_keys"]["0"] != slip and after["seat_keys"]["2"] == meta["seat_keys"]["2"]
    assert len([c for c in store.changes(table_id) if c["kind"] == "claim"]) == len(winners)
    store.close()


def test_a_claim_without_a_key_of_its_own_is_refused(store) -> None:
    table_id = store.create(new_game("leerdam", ld.Setup(names=("Ana", "Bo", "Cy")), 5), meta={"bots": {}, **table_keys(3)})
    with pytest.raises(Refused, match="new key"):
        store.submit(table_id, Claim(0, ""), store.version(table_id))
    assert store.info(table_id).meta["claims"] == {}


# -- the facilitator's buttons during a busy class -----------------------------------------------------


def test_a_handover_from_a_page_that_is_behind_a_burst_of_pledges_goes_through(store) -> None:
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    phones = [LeerdamDashboard(store, query=links(host)["seats"][s]["url"]) for s in range(3)]
    for phone in phones:
        one(phone, "pb-pledge").value = 1
        one(phone, "pb-pledge-confirm").click()
        assert phone.status.kind != "refuse", phone.status.message
    assert host.version < store.version(host.table_id)  # the facilitator's page has not looked
    assert host.hand_over(4, "fair") is True, host.status.message
    assert store.load(host.table_id).bots == {4: "fair"}


def test_a_stale_undo_says_what_moved_and_the_next_click_takes_back_the_last_move(store) -> None:
    host = LeerdamDashboard(store, query="")
    start_leerdam(host, names=("Ana", "Bo", "Cy", "Di", "Ed"), bots={})
    pledge(host, 0, 2)
    phone = LeerdamDashboard(store, query=links(host)["seats"][1]["url"])
    one(phone, "pb-pledge").value = 1
    one(phone, "pb-pledge-confirm").click()
    host.undo()  # the page still shows Ana's pledge as the last move
    assert host.status.kind == "refuse" and "nothing was done" in host.status.message
    assert "Undo now takes back Bo's" in host.status.message
    assert store.load(host.table_id).game.state.pledges[:2] == (2, 1)  # nothing undone yet
    host.undo()
    assert store.load(host.table_id).game.state.pledges[1] is None and host.status.kind == "ok"


# -- names a page can show -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "names, reason",
    [
        (("\u200b\u200b", "Bo", "Cy"), "no visible character"),
        (("\u3164", "Bo", "Cy"), "no visible character"),
        (("Bo", "Bo\u200b", "Cy"), "look the same"),
        (("Ana", "Ａｎａ", "Cy"), "look the same"),
        (("Ana", "An\u034fa", "Cy"), "look the same"),  # a combining grapheme joiner draws nothing
        (("Bo", "Bo\u17b4", "Cy"), "look the same"),  # nor does Khmer's inherent vowel
        (("\u034f\u17b4", "Bo", "Cy"), "no visible character"),
        (("Ana", "Ana", "Cy"), "the same name"),
        (("Ana", "ANA", "Cy"), "the same name (“Ana” and “ANA”)"),
        (("Ana\u202eXY", "Bo", "Cy"), "text-direction control (U+202E)"),
        (("Ana\u2066", "Bo", "Cy"), "text-direction control (U+2066)"),
        (("Ana\x00", "Bo", "Cy"), "control character (U+0000)"),
    ],
)
def test_a_name_that_cannot_be_seen_or_passes_for_another_is_refused_with_its_reason(names, reason) -> None:
    with pytest.raises(RuleError, match=re.escape(reason)) as refused:
        check_names(names, 3, 5)
    assert refused.value.rule == "names"


def test_names_in_every_script_still_pass() -> None:
    names = ("محمد علي", "फ़ातिमा", "👩\u200d💻 Dev", "<b>&amp;", "רותי", "王小明", "रुम", "रम", "❤\ufe0f Jo", "ស្រី")
    assert check_names(names, 3, 10) == names


#: Pairs of names that look the same on a page, each second one made to pass for the first: letters
#: of other alphabets (Cyrillic, Greek, Armenian), digits, I and l, rn and m, another form of the
#: same letters, and marks that draw nothing.
LOOK_ALIKES = (
    ("Ana", "\u0410na"),  # Cyrillic А
    ("ana", "\u0430na"),  # Cyrillic а
    ("Bo", "\u0412o"),  # Cyrillic В
    ("Tom", "\u0422\u043em"),  # Cyrillic Т and о
    ("Elena", "\u0415l\u0435n\u0430"),  # Cyrillic Е, е, а
    ("Jose", "J\u043ese"),  # Cyrillic о
    ("Max", "M\u0430\u0445"),  # Cyrillic а and х
    ("Joy", "J\u043e\u0443"),  # Cyrillic о and у
    ("Ari", "\u0410r\u0456"),  # Cyrillic А and Ukrainian і
    ("Ali", "A\u0406i"),  # Ukrainian І looks like l
    ("Nina", "\u039dina"),  # Greek Ν
    ("Anna", "\u0391nna"),  # Greek Α
    ("Kim", "\u039aim"),  # Greek Κ
    ("Eva", "\u0395va"),  # Greek Ε
    ("Pia", "\u03a1ia"),  # Greek Ρ
    ("Mo", "M\u0585"),  # Armenian օ
    ("OTTO", "0TT0"),  # digit zero
    ("Ali", "A1i"),  # digit one
    ("PayPal", "PayPaI"),  # capital I
    ("Ivan", "lvan"),  # small l
    ("Arnie", "Amie"),  # m looks like rn
    ("Ana", "\uff21\uff4e\uff41"),  # full-width letters
    ("Ana", "An\u034fa"),  # a combining grapheme joiner draws nothing
    ("Bo", "Bo\u17b4"),  # nor does Khmer's inherent vowel
)

REAL_NAMES = (
    # Latin: English, Spanish, Portuguese, French, German, Dutch, Italian, Polish, Turkish, Vietnamese, African, Nordic
    "Ana", "Ann", "Anna", "Anne", "Annie", "Hanna", "Hannah", "Bo", "Cy", "Di", "Ed", "Al", "Eli", "Ella", "Ellie", "Elle",
    "Ian", "Lan", "Ion", "Lon", "Ida", "Ira", "Isla", "Ivan", "Ivy", "Iris", "Ines", "Ilse", "Ilya", "Lu", "Li", "Lia", "Lea", "Leo", "Liam",
    "Lily", "Lila", "Lola", "Luca", "Lucas", "Luis", "Luiz", "Louis", "Louise", "Neil", "Nell", "Nils", "Noah", "Nora", "Kai", "Kal",
    "Mia", "Max", "Maya", "Mila", "Milo", "Mike", "Emma", "Emily", "Emil", "Emilia", "Amy", "Ami", "Ari", "Ali", "Alia", "Aliyah",
    "Olivia", "Oliver", "Ola", "Olga", "Otto", "Omar", "Oscar", "Sam", "Sara", "Sarah", "Sofia", "Sophie", "Tom", "Tim", "Tina", "Theo",
    "Jan", "Jana", "Joan", "Joana", "Jonas", "Juan", "Julia", "Julie", "Jules", "Carmen", "Carla", "Carlos", "Diego", "Lucía", "Lucia",
    "María", "Maria", "Mario", "Marie", "Marta", "Martin", "José", "Jose", "João", "Inês", "Chloé", "Zoé", "Zoe", "Renée", "René",
    "Jürgen", "Jörg", "Björn", "Søren", "Åsa", "Ørjan", "Agnieszka", "Łukasz", "Małgorzata", "Wojciech", "Zoë", "Çağla", "Şule",
    "İlker", "Ilker", "Ayşe", "Ahmet", "Mehmet", "Nguyễn", "Nguyên", "Trần", "Phương", "Chidi", "Ngozi", "Kwame", "Amara", "Thandiwe",
    "Wim", "Willem", "Kim", "Kira", "Rhea", "Rim", "Arnie", "Amir", "Amira", "Dan", "Dana", "Clara", "Cleo", "Dora", "Dilan", "Dylan",
    "Finn", "Fin", "Noor", "Nour", "Sven", "Vera", "Wes", "Yara", "Yuki", "Zara", "Zeynep", "Ben", "Bob", "Rob", "Rod", "Ron",
    # Cyrillic
    "Анна", "Аня", "Иван", "Ирина", "Ольга", "Олег", "Пётр", "Петр", "Саша", "Сергей", "Мария", "Дмитрий", "Екатерина",
    "Наталья", "Татьяна", "Юлия", "Алексей", "Богдан", "Оксана", "Тарас", "Віталій", "Олена", "Єва", "Ева", "Яна", "Никола", "Ђорђе",
    # Greek
    "Άννα", "Νίκος", "Γιώργος", "Ελένη", "Μαρία", "Δημήτρης", "Σοφία", "Κώστας", "Ιωάννα", "Αλέξανδρος", "Ζωή", "Φώτης",
    # Arabic
    "محمد", "أحمد", "علي", "فاطمة", "مريم", "يوسف", "عمر", "خالد", "ليلى", "سارة", "نور", "حسن", "حسين", "زينب", "هدى", "كريم",
    "رنا", "سلمى", "ياسين", "إبراهيم",
    # Hebrew
    "דוד", "רון", "רותי", "שרה", "נועה", "יוסי", "מיכל", "אבי", "תמר", "יונתן", "אורי", "נועם", "שירה", "איתי", "דנה",
    # Chinese, Japanese, Korean
    "王小明", "李娜", "张伟", "刘洋", "陈静", "杨帆", "王芳", "李伟", "さくら", "ゆい", "はると", "ハナ", "エリカ", "ケンジ", "太郎",
    "花子", "민준", "서연", "지우", "하은", "도윤",
    # Devanagari, Thai
    "रुम", "रम", "प्रिया", "अर्जुन", "สมชาย", "มาลี",
)


def test_ana_and_ana_with_a_cyrillic_a_cannot_sit_at_one_table_and_the_refusal_says_why() -> None:
    with pytest.raises(RuleError) as refused:
        check_names(("Ana", "\u0410na", "Cy"), 3, 5)
    assert refused.value.rule == "names"
    assert refused.value.message == (
        "two seats have names that look the same (“Ana” and “\u0410na”, the second is written partly in another alphabet: Cyrillic \u0410 (U+0410) looks like Latin A)"
    )


@pytest.mark.parametrize("first, second", LOOK_ALIKES)
def test_names_that_look_alike_are_refused_in_either_order(first, second) -> None:
    assert first != second and look_alike(first, second) and look_alike(second, first)
    for names in ((first, second, "Cy"), (second, "Cy", first)):
        with pytest.raises(RuleError, match="look the same") as refused:
            check_names(names, 3, 5)
        assert refused.value.rule == "names" and "(“" in refused.value.message
    assert check_names((first, "Cy", "Di"), 3, 5) and check_names((second, "Cy", "Di"), 3, 5)  # each alone is a name


@pytest.mark.parametrize(
    "first, second, why",
    [
        ("PayPal", "PayPaI", "in the second, I (U+0049) looks like l"),
        ("Arnie", "Amie", "in the second, m (U+006D) looks like rn"),
        ("Amie", "Arnie", "in the first, m (U+006D) looks like rn"),
        ("OTTO", "0TT0", "in the second, 0 (U+0030) looks like O"),
        ("Nina", "\u039dina", "the second is written partly in another alphabet: Greek \u039d (U+039D) looks like Latin N"),
        ("Ana", "\uff21\uff4e\uff41", "the second is written in another form of the same letters: \uff21 (U+FF21) is A"),
        ("Ana", "An\u034fa", "the second holds a character that draws nothing (U+034F)"),
    ],
)
def test_the_refusal_says_what_makes_two_names_look_alike(first, second, why) -> None:
    with pytest.raises(RuleError) as refused:
        check_names((first, second, "Cy"), 3, 5)
    assert refused.value.message.endswith(f", {why})")


def test_distinct_names_in_many_scripts_never_pass_for_one_another() -> None:
    assert len(REAL_NAMES) >= 200 and len(set(REAL_NAMES)) == len(REAL_NAMES)
    assert check_names(REAL_NAMES, 1, len(REAL_NAMES)) == REAL_NAMES
    assert look_alike_pair(REAL_NAMES) is None
    # Among them, names one letter apart that casefolding and the confusables must keep apart.
    for first, second in (("Ana", "Ann"), ("Lu", "Li"), ("Neil", "Nell"), ("Ian", "Lan"), ("Ali", "All"), ("Eli", "Ell"), ("Kai", "Kal"), ("Ion", "Lon"), ("Ilker", "İlker"), ("Lucia", "Lucía")):
        assert not look_alike(first, second), (first, second)


def test_the_same_name_case_aside_is_still_the_same_name() -> None:
    with pytest.raises(RuleError, match=re.escape("the same name (“Ivan” and “IVAN”)")):
        check_names(("Ivan", "IVAN", "Cy"), 3, 5)
    assert name_keys("Ivan")[1] == name_keys("ivan")[1] == name_keys("IVAN")[1]


def test_the_skeleton_is_uts_39s_with_the_generated_table() -> None:
    assert VERSION == "18.0.0" and len(CONFUSABLES) > 6000
    assert CONFUSABLES["\u0410"] == "A" and CONFUSABLES["m"] == "rn" and CONFUSABLES["0"] == "O" and CONFUSABLES["|"] == "l"
    assert skeleton("\u0410na") == skeleton("Ana") == "Ana"
    assert skeleton("\u00e9") == "e\u0301"  # NFD, then the table, then NFD again


def test_the_table_maker_reads_confusables_txt_and_writes_a_module_that_reads_back() -> None:
    from tools.make_confusables import VERSION as MADE_FROM
    from tools.make_confusables import module

    text = (
        "\ufeff# confusables.txt\n# Date: 2026-08-06, 01:05:35 GMT\n# Version: 18.0.0\n#\n"
        "0410 ;\t0041 ;\tMA\t# ( А → A ) CYRILLIC CAPITAL LETTER A → LATIN CAPITAL LETTER A\t#\n\n"
        "007C ;\t006C ;\tMA\t#* ( | → l ) VERTICAL LINE → LATIN SMALL LETTER L\t#\n"
        "1D4C1 ;\t006C ;\tMA\t# ( 𝓁 → l ) MATHEMATICAL SCRIPT SMALL L → LATIN SMALL LETTER L\t#\n"
        "006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → LATIN SMALL LETTER R, LATIN SMALL LETTER N\t#\n"
    )
    assert MADE_FROM == VERSION
    made: dict[str, object] = {}
    exec(compile(module(text), "confusables.py", "exec"), made)
    assert made["CONFUSABLES"] == {"\u0410": "A", "|": "l", "\U0001d4c1": "l", "m": "rn"}
    assert module(text).isascii()


def test_the_new_game_form_says_which_rule_a_name_broke(store) -> None:
    host = LeerdamDashboard(store, query="")
    host.form.players.value = 5
    host.form.names[1].value = "Ana\u200b"
    host.form.names[0].value = "Ana"
    host.form.start_button.click()
    assert host.game is None and "look the same" in host.status.message


# -- files only the server's account can read -------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_store_file_its_journal_and_its_folder_are_private(tmp_path) -> None:
    folder = tmp_path / "made-by-the-store"
    store = Store(folder / "tables.sqlite3")
    table_id = store.create(new_game("leerdam", ld.Setup(names=("Ana", "Bo", "Cy")), 5), meta={"bots": {}, **table_keys(3)})
    store.load(table_id)  # a reader keeps the WAL and SHM files open
    assert _mode(folder) == 0o700
    for name in ("tables.sqlite3", "tables.sqlite3-wal", "tables.sqlite3-shm"):
        assert (folder / name).exists() and _mode(folder / name) == 0o600, name
    store.close()


def test_an_existing_store_file_readable_by_others_is_made_private(tmp_path) -> None:
    path = tmp_path / "old.sqlite3"
    Store(path).close()
    path.chmod(0o644)
    Store(path).close()
    assert _mode(path) == 0o600


def test_a_store_in_a_folder_the_user_chose_leaves_the_folder_as_it_was(tmp_path, monkeypatch) -> None:
    """`PLAYBOOK_DB=/tmp/x.sqlite3`: /tmp keeps its 1777 (sticky, open to all); the file is private."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("PLAYBOOK_DB", str(shared / "x.sqlite3"))
    Store().close()
    assert _mode(shared) == 0o1777 and _mode(shared / "x.sqlite3") == 0o600


def test_the_playbooks_own_data_folder_is_made_private(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("PLAYBOOK_DB", raising=False)
    own = tmp_path / "playbook"
    own.mkdir(mode=0o755)
    own.chmod(0o755)
    Store().close()
    assert _mode(own) == 0o700


def test_the_server_key_is_kept_private_and_stays_the_same(tmp_path) -> None:
    path = tmp_path / "playbook" / "server.key"
    key = kept_server_key(path)
    assert len(key) >= 22 and _mode(path) == 0o600 and _mode(path.parent) == 0o700
    assert kept_server_key(path) == key
    path.chmod(0o644)
    assert kept_server_key(path) == key and _mode(path) == 0o600


def test_a_seat_link_resolved_after_its_seat_was_claimed_says_so() -> None:
    meta = table_keys(3)
    access = resolve("?table=t&seat=1&key=" + "x" * 22, "leerdam", lambda _: ("leerdam", meta))
    assert access.role == "denied" and "one device's at a time" in access.reason


# -- what a page costs the server --------------------------------------------------------------------


def _fetch(url: str, gzip_ok: bool = True) -> tuple[dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=60) as response:
        return dict(response.headers), response.read()


def test_static_files_are_compressed_once_and_again_when_they_change(tmp_path, monkeypatch) -> None:
    """voila_app.CachedGzip: the second page gets the kept bytes (no compressing), a changed
    file is compressed again, and only static files are kept."""
    import asyncio
    import gzip
    import threading

    from tornado import web

    from playbook.voila_app import CachedGzip

    monkeypatch.setattr(CachedGzip, "_kept", {})
    monkeypatch.setattr(CachedGzip, "_kept_bytes", 0)
    compressed = []
    real = gzip.GzipFile
    monkeypatch.setattr(gzip, "GzipFile", lambda *a, **k: compressed.append(1) or real(*a, **k))
    (tmp_path / "static").mkdir()
    script = tmp_path / "static" / "page.js"
    script.write_text("var big = '" + "x" * 200_000 + "';\n")

    class Dynamic(web.RequestHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "text/plain")
            self.write("y" * 5000)

    started, stop = threading.Event(), []

    def serve() -> None:
        async def main() -> None:
            app = web.Application([(r"/static/(.*)", web.StaticFileHandler, {"path": str(tmp_path / "static")}), (r"/page", Dynamic)], transforms=[CachedGzip])
            server = app.listen(0, "127.0.0.1")
            stop.append((asyncio.get_running_loop(), server, next(iter(server._sockets.values())).getsockname()[1]))
            started.set()
            while stop[0][1] is not None:
                await asyncio.sleep(0.05)

        asyncio.run(main())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert started.wait(10)
    base = f"http://127.0.0.1:{stop[0][2]}"
    try:
        first_headers, first = _fetch(base + "/static/page.js")
        assert first_headers["Content-Encoding"] == "gzip" and gzip.decompress(first) == script.read_bytes()
        made = len(compressed)
        assert made >= 1
        again_headers, again = _fetch(base + "/static/page.js?v=2")
        assert again == first and len(compressed) == made  # the kept bytes, nothing compressed
        assert again_headers["Content-Length"] == str(len(first)) and "Accept-Encoding" in again_headers["Vary"]
        assert _fetch(base + "/static/page.js", gzip_ok=False)[1] == script.read_bytes()  # a client that cannot unpack
        script.write_text("var other = '" + "z" * 150_000 + "';\n")
        _, changed = _fetch(base + "/static/page.js")
        assert gzip.decompress(changed) == script.read_bytes() and len(compressed) > made
        for _ in range(2):
            assert gzip.decompress(_fetch(base + "/page")[1]) == b"y" * 5000
        assert all(path.startswith("/static/") for path, _version in CachedGzip._kept)
    finally:
        loop, server, _port = stop[0]
        loop.call_soon_threadsafe(server.stop)
        stop[0] = (loop, None, _port)
        thread.join(10)


@pytest.mark.heavy
def test_a_page_kernel_loads_no_debugger_and_only_its_own_game(tmp_path) -> None:
    """voila_app.PageKernelSpecs and rules.core.ByGame: a game's page kernel loads no debugger
    (8 MB) and no other game (6 MB); a class page's kernel, ready before the class comes, has the
    seat page of every game played on devices loaded (a class may be of any), and no debugger."""
    notebook = tmp_path / "page.ipynb"
    modules = ("debugpy", "rules.leerdam", "rules.new_rule", "rules.danger_world", "rules.dangerous_ideas", "lab.leerdam", "lab.danger_world")
    def look(page: str) -> str:
        # One string in one write: print's separate writes may reach the page as two outputs.
        return (f"import os, sys\nloaded = [m for m in {modules!r} if sys.modules.get(m) is not None]\n"
                f"sys.stdout.write('{page}: ' + os.path.basename(sys.argv[0]) + ' loaded: ' + repr(loaded) + '\\n')")

    cells = ["import widgets.leerdam\n" + look("game page"), "import widgets.classroom\n" + look("class page")]
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell) for cell in cells]), notebook)
    with background_server(notebook, tmp_path / "voila.log", db_path=tmp_path / "tables.sqlite3") as server:
        page = html.unescape(urllib.request.urlopen(server.url, timeout=60).read().decode())
    said = [line for line in page.splitlines() if "loaded:" in line]
    assert "game page: page_kernel.py loaded: ['rules.leerdam', 'lab.leerdam']" in page, said
    seat_pages = [c.modules["rules"] for c in CARDS if c.devices]
    assert f"class page: page_kernel.py loaded: {[m for m in modules if m in seat_pages or m == 'lab.leerdam']}" in page, said


@pytest.mark.heavy
def test_the_cheap_activity_watcher_records_what_jupyter_servers_own_does() -> None:
    """voila_app.PatientKernelManager.start_watching_activity: over one kernel's start and a
    cell that runs a second, it records the same execution states and activity times as
    jupyter_server's watcher, which checks each message's signature and dates."""
    import asyncio

    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from playbook.voila_app import PatientKernelManager
    from tests.support.browser import beside_playwright

    async def watch(manager_class: type) -> tuple[list[str], bool]:
        manager = manager_class()
        kernel_id = await manager.start_kernel(kernel_name="python3")
        kernel = manager.get_kernel(kernel_id)
        client = kernel.client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=60)
            await asyncio.sleep(0.5)  # the start's own status messages reach the watcher first
            # (or not: a subscriber misses what is sent while it connects; both watchers alike)
            states, started = [kernel.execution_state], kernel.last_activity
            client.execute("import time; time.sleep(1.0)")
            for _ in range(80):
                await asyncio.sleep(0.05)
                if kernel.execution_state != states[-1]:
                    states.append(kernel.execution_state)
                if states[-1] == "idle" and len(states) > 2:
                    break
            return states[1:], kernel.last_activity > started
        finally:
            client.stop_channels()
            await manager.shutdown_all()

    async def both() -> list[tuple[list[str], bool]]:
        return [await watch(AsyncMappingKernelManager), await watch(PatientKernelManager)]

    # A thread of its own: a browser test before this one may leave an event loop running here.
    with beside_playwright(lambda: asyncio.run(both())) as done:
        theirs, ours = done.result()
    assert theirs == (["busy", "idle"], True), theirs
    assert ours == theirs
