"""Voila with the playbook's short addresses, for a room that types them off a projector.

- `/j` asks for a room code (a laptop or Chromebook without a camera types it there);
- `/j/CODE` is a class's join page (`http://HOST:PORT/j/K7QM2P`, beside the board's QR code).

Both redirect to the class page (`notebooks/class.ipynb`); everything else is Voila's own.
`playbook serve` and the tests start this instead of `python -m voila`, with the same options.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.utils import url_path_join
from tornado import web
from voila.app import Voila

from playbook.classes import clean_code

__all__ = ["PlaybookVoila", "main"]


class JoinRedirect(web.RequestHandler):
    """`/j` and `/j/CODE` to the class page (the code cleaned: upper case, letters and digits)."""

    def initialize(self, page: str) -> None:
        self.page = page

    def get(self, code: str = "") -> None:
        code = clean_code(code)
        self.redirect(self.page + (f"?code={code}" if code else ""))


class PlaybookVoila(Voila):
    """Voila, plus the short join addresses."""

    def init_handlers(self) -> list[Any]:
        page = url_path_join(self.server_url, "voila/render/class.ipynb")
        short = (url_path_join(self.server_url, r"/j/?([A-Za-z0-9-]*)/?"), JoinRedirect, {"page": page})
        return [short, *super().init_handlers()]


main = PlaybookVoila.launch_instance

if __name__ == "__main__":
    main()
