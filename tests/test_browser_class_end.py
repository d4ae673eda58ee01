"""The end of a game on a phone, in headless Chromium: a seat page leads with its own place."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from playbook.access import table_keys
from playbook.links import table_links
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Play, Store
from rules import leerdam as ld
from rules import new_game
from tests.support.browser import Devices, VoilaFactory, open_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

LEERDAM = ".playbook-leerdam"


def test_a_phone_at_the_end_shows_its_households_place(voila: VoilaFactory, devices: Devices) -> None:
    server = voila(NOTEBOOKS_DIR / "leerdam.ipynb")
    store = Store(server.db_path)
    names = ("Ana", "Bo", "Cy", "Di", "Ed")
    table_id = store.create(new_game("leerdam", ld.Setup(names=names, max_years=1), 3), meta={"bots": {}, **table_keys(len(names))})
    for seat in range(5):
        store.submit(table_id, Play(ld.Contribute(seat=seat, units=1 + seat % 2)), store.version(table_id))
    for seat in range(5):
        store.submit(table_id, Play(ld.Allocate(seat=seat, plan=(ld.Assignment(seat, "subsistence", 2),))), store.version(table_id))
    game = store.load(table_id).game
    assert game.state.over
    rank, value = next((r, v) for r, s, v in game.rules.standings(game.state) if s == 1)
    links = table_links("", "leerdam", table_id, store.info(table_id).meta, names)
    phone = devices.page()
    open_dashboard(phone, server.url + links["seats"][1]["url"], f"{LEERDAM}.playbook-seat .pb-turn")
    place = phone.locator(f"{LEERDAM} .pb-seat-place")
    expect(place).to_contain_text(re.compile(rf"Your household finished (joint )?{rank}\w\w of 5 with {value} VP\."), timeout=20_000)
