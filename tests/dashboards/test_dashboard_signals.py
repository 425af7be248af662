"""``tarock dashboard`` stopped with SIGTERM stops its Streamlit child too (issue 23): the port is free after.

The command runs Streamlit as a child process (``dashboards/launch.py``); a service manager or ``kill``
signals the command only, so the command forwards the signal and exits with the child.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT
from tests.support.processes import alive, children
from tests.support.servers import free_port, healthy


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _started(tmp_path: Path, port: int, log: Any) -> subprocess.Popen[bytes]:
    """``tarock dashboard`` on ``port`` over a store in ``tmp_path``, its output to ``log``."""
    command = [sys.executable, "-m", "tarock.cli", "dashboard", "--store", str(tmp_path / "store"),
               "--port", str(port)]
    return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


def _wait_until_serving(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + 90  # a bound on the wait, not an assertion on speed
    while not healthy(url):
        assert process.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "the dashboard did not start"
        time.sleep(0.3)


@pytest.mark.slow
def test_sigterm_stops_the_streamlit_child_and_frees_the_port(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "dashboard.log").open("wb")
    process = _started(tmp_path, port, log)
    try:
        _wait_until_serving(process, url, tmp_path / "dashboard.log")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
        assert not healthy(url)
        assert _port_free(port)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        log.close()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_sigkill_of_the_command_kills_the_streamlit_child(tmp_path: Path) -> None:
    """Issue 35, fault 8: a SIGKILL cannot be forwarded; the child, asked to die with its parent, does."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "dashboard.log").open("wb")
    process = _started(tmp_path, port, log)
    served_by: list[int] = []
    try:
        _wait_until_serving(process, url, tmp_path / "dashboard.log")
        served_by = sorted(children(process.pid))
        assert served_by, "the dashboard serves from a child process"
        process.kill()
        process.wait(timeout=60)
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in served_by) and time.monotonic() < deadline:
            time.sleep(0.3)
        assert not any(alive(pid) for pid in served_by)
        assert not healthy(url)
    finally:
        for pid in served_by:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()
        log.close()
