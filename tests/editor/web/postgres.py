"""A real PostgreSQL for the tests and the bench: Debian's server binaries
(``apt-get install postgresql``; ``make test`` installs them as root), a fresh cluster in a
temporary folder started with ``initdb`` and ``pg_ctl`` on a free loopback port — as the
``postgres`` user when this runs as root (the server refuses root) — and stopped after.

:func:`start` returns ``None`` with the reason when it cannot start (not installed, no
user to run it as): the tests skip with that one line, and with ``CI`` set they fail.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Postgres", "start"]


@dataclass
class Postgres:
    url: str
    folder: Path
    bindir: Path
    user: str | None

    def stop(self) -> None:
        subprocess.run([str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m",
                        "immediate", "stop"], user=self.user, capture_output=True,
                       timeout=60, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def _bindir() -> Path | None:
    for found in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True):
        return Path(found).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start() -> Postgres | tuple[None, str]:
    """A running PostgreSQL, or ``(None, why not)``."""
    bindir = _bindir()
    if bindir is None:
        return None, ("PostgreSQL is not installed: `make test` installs Debian's postgresql "
                      "(as root), or run `sudo apt-get install postgresql`")
    user = None
    if os.geteuid() == 0:
        import pwd

        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return None, "running as root and there is no postgres user to run PostgreSQL as"
        user = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="avecaesar-pg-"))
    os.chmod(folder, 0o755)
    data, sock = folder / "data", folder / "sock"
    sock.mkdir()
    if user is not None:
        shutil.chown(folder, user)
        shutil.chown(sock, user)
    port = _port()
    try:
        subprocess.run([str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U",
                        "avecaesar", "-E", "UTF8", "--no-instructions"], user=user,
                       capture_output=True, timeout=120, check=True)
        subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
                        "-w", "-t", "60", "-o",
                        f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 "
                        "-c max_connections=200", "start"],
                       user=user, capture_output=True, timeout=120, check=True)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as err:
        out = getattr(err, "stderr", b"") or b""
        shutil.rmtree(folder, ignore_errors=True)
        return None, f"PostgreSQL did not start: {out.decode(errors='replace').strip()[-300:]}"
    return Postgres(f"postgresql://avecaesar@127.0.0.1:{port}/postgres", folder, bindir, user)
