"""Serving the dashboard beyond this machine (issue 24, fault 8): read-only unless uploads are allowed.

``tarock dashboard`` binds 127.0.0.1; ``--host`` serves it elsewhere, and then the Ingest page (which
writes into the store) is left out unless ``--allow-uploads`` is given.  The decision reaches the
Streamlit process through ``TAROCK_DASHBOARD_UPLOADS`` and, without it, follows the address the
server binds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from dashboards import launch
from dashboards.launch import dashboard_env, streamlit_command
from dashboards.pages import UPLOADS_ENV, uploads_allowed
from tarock.cli import app
from tests.support.dashboard_fixture import build_store
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"


@pytest.mark.parametrize(("host", "allow", "expected"), [
    ("127.0.0.1", None, True), ("localhost", None, True), ("::1", None, True),
    ("0.0.0.0", None, False), ("192.0.2.7", None, False), ("::", None, False),
    ("0.0.0.0", True, True), ("127.0.0.1", False, False),
])
def test_who_may_upload(host: str, allow: bool | None, expected: bool) -> None:
    assert uploads_allowed(host, allow) is expected
    env = dashboard_env(None, host=host, allow_uploads=allow)
    assert env[UPLOADS_ENV] == ("1" if expected else "0")
    command = streamlit_command(8600, host)
    assert command[command.index("--server.address") + 1] == host


def test_the_command_line_passes_host_and_uploads(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(launch, "run_dashboard", lambda *args, **kwargs: calls.append((args, kwargs)) or 0)
    result = CliRunner().invoke(app, ["dashboard", "--host", "0.0.0.0", "--port", "8601"])
    assert result.exit_code == 0, result.output
    assert calls == [((None, 8601), {"host": "0.0.0.0", "allow_uploads": None})]
    assert "read-only" in result.output
    calls.clear()
    result = CliRunner().invoke(app, ["dashboard", "--host", "0.0.0.0", "--allow-uploads"])
    assert calls == [((None, 8501), {"host": "0.0.0.0", "allow_uploads": True})]
    calls.clear()
    result = CliRunner().invoke(app, ["dashboard"])
    assert result.exit_code == 0 and "read-only" not in result.output
    assert calls == [((None, 8501), {"host": "127.0.0.1", "allow_uploads": None})]
    calls.clear()
    result = CliRunner().invoke(app, ["dashboard", "--read-only"])  # behind a proxy on this machine
    assert calls == [((None, 8501), {"host": "127.0.0.1", "allow_uploads": False})] and "read-only" in result.output


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("serving"))


def opened(monkeypatch: pytest.MonkeyPatch, store: Path, uploads: str | None, page: str | None = None) -> AppTest:
    monkeypatch.setenv("TAROCK_DASHBOARD_WARMUP", "0")
    monkeypatch.setenv("TAROCK_STORE", str(store))
    if uploads is None:
        monkeypatch.delenv(UPLOADS_ENV, raising=False)
    else:
        monkeypatch.setenv(UPLOADS_ENV, uploads)
    at = AppTest.from_file(str(APP), default_timeout=60)
    if page:
        at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_read_only_has_no_ingest_page(monkeypatch: pytest.MonkeyPatch, store: Path) -> None:
    from dashboards.pages import page_specs

    assert [spec.title for spec in page_specs(uploads=False)] == ["Overview", "Contracts", "Players", "Audit",
                                                                  "Replay", "What-if", "Hands"]
    assert [spec.title for spec in page_specs(uploads=True)][-1] == "Ingest"
    at = opened(monkeypatch, store, "0", "app_pages/ingest.py")  # /ingest typed: not a page of this server
    assert at.title[0].value == "Overview" and not at.get("file_uploader")
    at = opened(monkeypatch, store, "1", "app_pages/ingest.py")
    assert at.title[0].value == "Ingest" and at.get("file_uploader")
    at = opened(monkeypatch, store, None, "app_pages/ingest.py")  # `streamlit run` on its default address
    assert at.title[0].value == "Ingest"


def test_the_ingest_page_itself_refuses_when_read_only(monkeypatch: pytest.MonkeyPatch, store: Path) -> None:
    monkeypatch.setenv(UPLOADS_ENV, "0")
    monkeypatch.setenv("TAROCK_STORE", str(store))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app_pages" / "ingest.py"), default_timeout=60).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "Ingest" and not at.get("file_uploader") and not at.button
    assert "read-only" in at.error[0].value
