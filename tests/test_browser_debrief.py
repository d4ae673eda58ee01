"""The debrief's downloads in headless Chromium: on a table's facilitator page the CSV of every
decision and the handout download as files, and the CSV names no secret while the game goes on."""

from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import Page, expect

from playbook.serve import NOTEBOOKS_DIR
from tests.support.browser import VoilaFactory, open_dashboard
from tests.support.new_rule_page import NAMES, ROOT, click, in_seat

pytestmark = [pytest.mark.browser, pytest.mark.timeout(150)]


def test_the_facilitator_downloads_the_decisions_and_the_handout(voila: VoilaFactory, page: Page, tmp_path) -> None:
    import pypdf

    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    open_dashboard(page, server.url, ROOT)
    page.locator(f"{ROOT} .pb-players").first.locator("text=3").click()
    for seat, name in enumerate(NAMES):
        page.locator(f"{ROOT} .pb-name-{seat} input").fill(name)
    page.locator(f"{ROOT} .pb-seed input").fill("7")
    click(page, ".pb-start")
    expect(page.locator(f"{ROOT} .pb-round")).to_contain_text("Round 1")
    in_seat(page, 0, ".pb-draw", ".pb-keep")
    in_seat(page, 1, ".pb-draw", ".pb-keep")

    click(page, ".pb-debrief-prepare")
    csv_link = page.locator(f"{ROOT} .pb-debrief-csv a[download]")
    pdf_link = page.locator(f"{ROOT} .pb-debrief-pdf a[download]")
    expect(csv_link).to_contain_text("Every decision (CSV, 4 rows)")
    expect(pdf_link).to_be_visible()
    expect(page.locator(f"{ROOT} .pb-debrief-note")).to_contain_text("the files name only what the board has shown")
    page.screenshot(path="/tmp/i18x-browser-debrief.png", full_page=True)

    with page.expect_download() as got:
        csv_link.click()
    raw = got.value.path().read_bytes()
    assert got.value.suggested_filename.endswith("-debrief.csv") and raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [r["decision"] for r in rows] == ["draws blindly", "keeps the draw"] * 2 and " drew " not in text
    assert [r["player"] for r in rows] == [NAMES[0]] * 2 + [NAMES[1]] * 2  # "Bo & <i>Co</i>" as typed
    with page.expect_download() as got:
        pdf_link.click()
    pdf = got.value.path().read_bytes()
    assert got.value.suggested_filename.endswith("-debrief.pdf") and pdf.startswith(b"%PDF")
    first = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "New Rule debrief" in first and "standings so far" in first
