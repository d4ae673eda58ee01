"""What the tests share, as a library: helpers and the processes the race tests start.

No test module imports another test module or tests/conftest.py; what two modules need is here
(tests/test_suite_imports.py checks). The fixtures (`store`, `location`, `voila`, `page`, ...) are in
tests/conftest.py.

- `headless`: finding and reading a page's widgets without a kernel (`one`, `synced_text`).
- `new_rule_page`, `leerdam_page`, `dangerous_ideas_page`: playing a game's page by clicks.
- `classes`: a class's pages (a student, the board, the monitor); `tables`: stored tables.
- `played`, `phases`, `anonymous_village`: games played by bots, to the end or to a phase.
- `pdfs`: a printable's text, page by page and run by run.
- `stores`: a SQLite file or a PostgreSQL schema; `keys`: the server key the tests run with.
- `browser`: Chromium through Playwright and the pages Voila serves; `nginx`: the proxy;
  `install`: a built distribution in a fresh environment; `ci`: whether a test may skip.
- `store_workers`, `class_workers`, `turn_workers`: the targets of spawned processes (a spawned
  process imports its target's module, so these import little).
"""
