"""A network between a browser and a server that a test cuts and mends: a TCP relay on this
machine whose `cut()` drops every connection through it and refuses new ones (as a phone's
Wi-Fi gone), while the server and its kernels keep running."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["CuttableLink", "cuttable_link"]


class CuttableLink:
    """Relays 127.0.0.1:`port` to 127.0.0.1:`target`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self._listener = self._listen(0)
        self.port = int(self._listener.getsockname()[1])
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._accepting = threading.Thread(target=self._accept, args=(self._listener,), daemon=True)
        self._accepting.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @staticmethod
    def _listen(port: int) -> socket.socket:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        return listener

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:
                return  # cut: the listener is closed
            try:
                far = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                near.close()
                continue
            with self._lock:
                self._open.update((near, far))
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        """Drop every connection and refuse new ones, until `mend`."""
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            ends, self._open = self._open, set()
        for end in ends:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def mend(self) -> None:
        """Let connections through again, on the same port."""
        self._listener = self._listen(self.port)
        self._accepting = threading.Thread(target=self._accept, args=(self._listener,), daemon=True)
        self._accepting.start()

    def close(self) -> None:
        self.cut()


@contextmanager
def cuttable_link(target: int) -> Iterator[CuttableLink]:
    """A `CuttableLink` to `target`, closed at the end."""
    link = CuttableLink(target)
    try:
        yield link
    finally:
        link.close()
