"""Start the dashboard: ``streamlit run dashboards/app.py`` in a child process.

The CLI's ``tarock dashboard [--store DIR] [--port N] [--host H] [--allow-uploads]`` calls
``run_dashboard``.  The store reaches the app through ``TAROCK_STORE`` (the README: ``--store``, else
``$TAROCK_STORE``, else ``data/store``); the server binds to 127.0.0.1 unless told otherwise, runs
headless, watches no files and sends no usage statistics.  Whether it offers uploads reaches the app
through ``TAROCK_DASHBOARD_UPLOADS`` (``dashboards.pages``): on another address than a loopback one,
only with ``allow_uploads`` (and never with ``allow_uploads=False``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

from dashboards.pages import UPLOADS_ENV, uploads_allowed

APP = Path(__file__).resolve().parent / "app.py"
"""The Streamlit entrypoint (the router)."""

MAX_UPLOAD_MB = 50
"""Largest upload the server accepts; the Ingest page checks the same limit."""


def streamlit_command(port: int = 8501, host: str = "127.0.0.1") -> list[str]:
    """The command line that serves the dashboard (also used by the browser tests)."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.headless", "true",
        "--server.address", host,
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--server.maxUploadSize", str(MAX_UPLOAD_MB),
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",
    ]


def dashboard_env(store: Path | None, host: str = "127.0.0.1", allow_uploads: bool | None = None) -> dict[str, str]:
    """The environment of the server process: this one, with ``TAROCK_STORE`` set when a store is given
    and ``TAROCK_DASHBOARD_UPLOADS`` saying whether a server on ``host`` offers uploads."""
    env = dict(os.environ)
    if store is not None:
        env["TAROCK_STORE"] = str(Path(store).resolve())
    env[UPLOADS_ENV] = "1" if uploads_allowed(host, allow_uploads) else "0"
    return env


FORWARDED = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
"""Signals that stop ``tarock dashboard``: each is passed on to the Streamlit child, so the server never
outlives the command and keeps serving the port."""


def run_dashboard(store: Path | None, port: int = 8501, host: str = "127.0.0.1",
                  allow_uploads: bool | None = None) -> int:
    """Serve the dashboard until the server stops (Ctrl-C or SIGTERM stops it); returns its exit code.

    ``store`` None keeps ``TAROCK_STORE`` from the environment, else ``data/store``.
    ``allow_uploads`` True offers the Ingest page, False makes the dashboard read-only; None
    (the default) offers it only on a loopback ``host``.  SIGTERM, SIGHUP and SIGINT sent to this
    process are forwarded to the child, and this process exits when the child has (the port is free); when
    this process is killed outright (SIGKILL), the kernel kills the child (Linux).
    """
    from ingest.executors import die_with_parent

    # the server dies with this process, however it ends: a SIGKILL cannot be forwarded, and a server left
    # behind kept serving and holding the port (the ingest workers' prctl(PR_SET_PDEATHSIG), which an exec keeps)
    process = subprocess.Popen(streamlit_command(port, host), env=dashboard_env(store, host, allow_uploads),
                               preexec_fn=partial(die_with_parent, os.getpid()))

    def forward(signum: int, _frame: object) -> None:
        if process.poll() is None:
            process.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in FORWARDED}
    try:
        while True:
            try:
                return process.wait()
            except KeyboardInterrupt:  # a handler set before ours; pass it on and keep waiting
                forward(signal.SIGINT, None)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
