"""A seat page a phone can afford (issue 37): it does not load what it never uses, it does not
jump as its dashboard arrives, an idle page runs no timers, and a second visit takes every file
from the browser's cache. One seat page, opened twice on one server, walked through all of it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from playbook.serve import NOTEBOOKS_DIR, UNUSED_EXTENSIONS
from playbook.store import Store
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard
from tests.support.tables import make_table

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SEAT = ".playbook-new-rule.playbook-seat"

#: before any script of the page: the layout shift summed (CLS, without recent input), and
#: every timer callback that runs, with the delay it was set with and the script that set it.
WATCH = """(() => {
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
  }).observe({type: "layout-shift", buffered: true});
  window.__timers = [];
  for (const name of ["setTimeout", "setInterval"]) {
    const original = window[name];
    window[name] = function (callback, delay, ...rest) {
      const from = ((new Error().stack || "").split("\\n")[2] || "").trim();
      if (typeof callback !== "function") return original.call(this, callback, delay, ...rest);
      return original.call(this, function (...args) {
        window.__timers.push({at: performance.now(), kind: name, delay: delay || 0, from});
        return callback.apply(this, args);
      }, delay, ...rest);
    };
  }
})();"""

#: the files this page took over the network (a file from the cache transfers nothing).
FETCHED = """() => performance.getEntriesByType("resource")
  .filter((e) => e.transferSize > 0 && /\\/(static|labextensions)\\//.test(e.name)).map((e) => e.name)"""


def test_a_seat_page_is_light(voila: VoilaFactory, chromium: Browser) -> None:
    server = voila(NOTEBOOKS_DIR / "new_rule.ipynb")
    store = Store(server.db_path)
    _, links = make_table(store, "new-rule", ("Anneliese", "Bo", "Zoë"))
    url = server.url + links["seats"][0]["url"]
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        draw = open_dashboard(page, url, f"{SEAT} .pb-draw")

        # What a page never uses is not loaded: the playbook's frontend draws it (one script and
        # one sheet), not Voila's (voila.js, its chunks and the JupyterLab extensions' files).
        loaded = [urlsplit(name).path for name in page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")]
        scripts = [name for name in loaded if name.endswith(".js")]
        assert "/voila/templates/playbook/static/frontend/page.js" in scripts, "the playbook's frontend is not loaded"
        assert not [name for name in loaded if "/labextensions/" in name or name.startswith("/voila/static/")], "Voila's frontend is loaded"
        assert not [name for name in scripts if "/templates/playbook/static/" not in name], "a script not the template's is loaded"
        for extension in UNUSED_EXTENSIONS:
            assert extension not in page.locator("#jupyter-config-data").text_content(), f"{extension} is still in the page's config"

        # Drawn in place: the intro, the outputs and the reference panels do not jump.
        page.wait_for_timeout(500)
        shift = page.evaluate("window.__shift")
        assert shift < 0.1, f"the seat page moved as it arrived: layout shift {shift:.3f}"

        # An idle page polls nothing: no interval of the template's ticks (the heartbeat, every
        # 4 s, aside), and its scripts look only when the page changes (the heartbeat's answer:
        # one look, changes.js), where they looked 11 times a second.
        page.wait_for_timeout(1000)
        since = page.evaluate("performance.now()")
        page.wait_for_timeout(2500)
        ran = page.evaluate("(since) => window.__timers.filter((t) => t.at > since)", since)
        ours = [t for t in ran if "/templates/playbook/static/" in t["from"] and "/static/frontend/" not in t["from"]]
        ticking = [t for t in ours if t["kind"] == "setInterval" and t["delay"] != 4000]
        assert not ticking, f"the template's scripts poll on an idle page: {ticking}"
        assert len(ours) <= 2, f"the template's scripts ran {len(ours)} timers in 2.5 s on an idle page: {ours}"

        # And the page still works: the seat draws its candies.
        draw.click()
        expect(page.locator(f"{SEAT} .pb-keep").first).to_be_visible(timeout=LOAD_TIMEOUT_MS)

        # A second visit (this phone's next seat) asks the server for the page alone: every file is kept.
        page.close()
        _, links = make_table(store, "new-rule", ("Anneliese", "Bo", "Zoë"))
        again = context.new_page()
        open_dashboard(again, server.url + links["seats"][0]["url"], SEAT)
        assert again.evaluate(FETCHED) == [], "a second visit asked for files again"
    finally:
        context.close()
