"""A TCP forwarder in front of the tests' PostgreSQL server: a database that goes away and comes back.

The server itself is shared with other tests and is never stopped. A store opened through
`Proxy.url` talks to it through this forwarder: `down()` closes every connection it carries and
stops listening (the port refuses connections, as a server that is down does), `up()` listens
on the same port again.
"""

from __future__ import annotations

import socket
import threading
import urllib.parse

__all__ = ["Proxy"]


class Proxy:
    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self.port = 0
        self.up()
        netloc = f"{parts.username}:{parts.password}@127.0.0.1:{self.port}" if parts.username else f"127.0.0.1:{self.port}"
        #: `url` with this forwarder's port.
        self.url = urllib.parse.urlunsplit(parts._replace(netloc=netloc))

    def up(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        """Every connection closed, and the port refuses new ones."""
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
            except OSError:
                pass
            listener.close()
        with self._lock:
            sockets, self._open = self._open, []
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def close(self) -> None:
        self.down()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed: down
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, sink):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
