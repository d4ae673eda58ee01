"""The tests' PostgreSQL server behind a link a test cuts and mends: a database that goes away
and comes back.

The server itself is shared with other tests and is never stopped. A store opened through
`Proxy.url` talks to it through a `CuttableLink`: `down()` closes every connection it carries
and stops listening (the port refuses connections, as a server that is down does), `up()`
listens on the same port again.
"""

from __future__ import annotations

import urllib.parse

from tests.support.cuttable import CuttableLink

__all__ = ["Proxy"]


class Proxy(CuttableLink):
    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        super().__init__(parts.port or 5432)
        netloc = f"{parts.username}:{parts.password}@127.0.0.1:{self.port}" if parts.username else f"127.0.0.1:{self.port}"
        self._database = urllib.parse.urlunsplit(parts._replace(netloc=netloc))

    @property
    def url(self) -> str:
        """The database's URL, through this link's port."""
        return self._database

    def up(self) -> None:
        self.mend()

    def down(self) -> None:
        self.cut()
