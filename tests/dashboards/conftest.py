"""What the dashboard's tests share: the fixture store (``tests/support/dashboard_fixture.py``) for AppTest
pages, no background cache warming, and Playwright's browser -- Debian's chromium, headless (downloads of
Playwright's own browsers are impossible on these machines)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.dashboard_fixture import build_store

CHROMIUM = os.environ.get("CHROMIUM", "/usr/lib/chromium/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    assert Path(CHROMIUM).exists(), f"no chromium at {CHROMIUM}: run scripts/ensure_chromium.sh (or set CHROMIUM)"
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1400, "height": 1800}}


@pytest.fixture(scope="module")
def fixture_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture store, built once per test module (a module may override it with a store of its own)."""
    return build_store(tmp_path_factory.mktemp("dashboard"))


@pytest.fixture(autouse=True)
def no_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """No background cache warming: each test sees only what its own pages asked."""
    monkeypatch.setenv("TAROCK_DASHBOARD_WARMUP", "0")


@pytest.fixture
def store(fixture_store: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture store, as the app finds it (``TAROCK_STORE``)."""
    monkeypatch.setenv("TAROCK_STORE", str(fixture_store))
    return fixture_store
