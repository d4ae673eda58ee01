"""Helpers for the proxy tests: Debian's nginx, started on a free port of 127.0.0.1 with the
playbook's proxy settings (deploy/nginx/playbook-proxy.conf), in front of one or more servers.

Not a test module. Skipped without nginx, failed instead when the CI variable is set.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.ci import in_ci

__all__ = ["LOG_SETTINGS", "NGINX", "PROXY_SETTINGS", "need_nginx", "running_nginx", "server_for_route"]

NGINX = Path(shutil.which("nginx") or "/usr/sbin/nginx")
"""Debian's nginx (`apt-get install nginx`)."""

PROXY_SETTINGS = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "playbook-proxy.conf"
#: the access log's line without keys (deploy/nginx/playbook-log.conf), as docs/deploy.md sets it up.
LOG_SETTINGS = PROXY_SETTINGS.with_name("playbook-log.conf")

_CONF = """\
{user}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    include {log_settings};
    access_log {folder}/access.log playbook;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    map $cookie_playbook_route $playbook_route {{ "" $request_id; default $cookie_playbook_route; }}
    upstream playbook {{
        hash $playbook_route consistent;
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location {prefix} {{
            include {settings};
            # Which server answered: for the tests only.
            add_header X-Playbook-Server $upstream_addr always;
            proxy_pass http://playbook;
        }}
    }}
}}
"""


def need_nginx() -> None:
    """Skip (fail in CI) when nginx is not installed."""
    if not NGINX.is_file():
        message = f"nginx not found at {NGINX} (apt-get install nginx)"
        if in_ci():
            pytest.fail(f"{message}; CI must run the proxy tests")
        pytest.skip(message)


@contextmanager
def running_nginx(folder: Path, port: int, upstreams: Sequence[int], prefix: str = "/playbook/") -> Iterator[str]:
    """nginx on 127.0.0.1:`port` proxying `prefix` to the servers on `upstreams` (ports of
    127.0.0.1) while the block runs; yields its address (`http://127.0.0.1:PORT`)."""
    folder.mkdir(parents=True, exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(
        _CONF.format(
            user="user root;" if os.geteuid() == 0 else "",
            folder=folder,
            port=port,
            prefix=prefix,
            settings=PROXY_SETTINGS,
            log_settings=LOG_SETTINGS,
            servers="\n".join(f"        server 127.0.0.1:{p};" for p in upstreams),
        ),
        encoding="utf-8",
    )
    argv = [str(NGINX), "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf), "-g", "daemon off;"]
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"nginx exited with {process.returncode}: {(folder / 'error.log').read_text(errors='replace')[-2000:]}")
            try:
                urllib.request.urlopen(url + "/", timeout=2).close()
                break
            except urllib.error.HTTPError:  # 404 outside the prefix: nginx is up
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"nginx did not answer at {url}") from None
                time.sleep(0.1)
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)


def server_for_route(url: str, route: str) -> str:
    """The upstream (`127.0.0.1:PORT`) that nginx at `url` sends a browser with the route
    cookie `route` to."""
    request = urllib.request.Request(url, headers={"Cookie": f"playbook_route={route}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return str(answer.headers["X-Playbook-Server"])
    except urllib.error.HTTPError as answer:
        return str(answer.headers["X-Playbook-Server"])
