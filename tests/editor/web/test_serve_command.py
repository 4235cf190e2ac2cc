"""``avecaesar serve`` as a user starts it: a real process on a free port, the URL it prints
answers with the table, and Ctrl-C (SIGINT) stops it cleanly."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest


@pytest.mark.covers("command:serve")
def test_serve_prints_its_url_and_serves_the_table(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "avecaesar.editor", "serve", "--port", "0",
           "--data", str(tmp_path / "data")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the socket listens
        url = re.search(r"http://\S+?/", line)
        assert url, line
        res = httpx.get(url.group(0) + "play", timeout=30)
        assert res.status_code == 200 and "Ave Caesar" in res.text
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err, err
