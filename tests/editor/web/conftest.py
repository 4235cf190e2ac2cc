"""A real uvicorn server (in a thread, on a free port) and a real headless Chromium
(Debian's ``chromium`` + ``chromium-driver``, driven by Selenium)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


class LiveServer:
    def __init__(self, data: Path, port: int = 0) -> None:
        import uvicorn

        from avecaesar.editor.web.app import create_app

        self.data = data
        self.app = create_app(data)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as `serve` does
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart, same port
        self.sock.bind(("127.0.0.1", port))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning",
                                                     ws="wsproto"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def kill(self) -> None:
        """Stop at once: open connections are dropped, nothing is waited for."""
        self.server.force_exit = True
        self.stop()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("table")).start()
    yield server
    server.stop()


def _chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    found = _chromium()
    if found is None:
        message = ("Debian's chromium and chromium-driver are not installed: `make test` "
                   "installs them (as root), or run `sudo apt-get install chromium "
                   "chromium-driver`")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--disable-extensions", "--no-first-run"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(found[1]), options=opts)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()
