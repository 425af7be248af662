"""Test-wide settings: property tests are derandomized under CI (``CI=true``).

Locally hypothesis explores new examples on every run (and keeps failures in
its database); in CI the same examples run every time, so a submission's
verdict does not depend on the draw.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The dashboard's tests run the real Streamlit app (AppTest) or a server and a browser (those that take
    Playwright's ``page``): they are ``slow``, outside the quick loop (``-m "not slow"``) and inside the full
    run."""
    for item in items:
        if "page" in getattr(item, "fixturenames", ()) or "tests/dashboards/" in item.nodeid:
            item.add_marker(pytest.mark.slow)


_VERIFIED: set[Path] = set()
"""The stores already verified by ``_stores_verified`` after their test (or left alone: a test that failed, or
one that breaks its store on purpose); the others are verified at the end of the session."""


def _stores_under(root: Path) -> list[Path]:
    """Every store ingest wrote under ``root``: a directory with ``CURRENT`` and an engine's generation
    (``gen-v…``; the analysis tests' hand-made stores, ``tests/support/analysis_store.py``, name their own)."""
    return sorted(p.parent for p in root.rglob("CURRENT") if p.is_file() and any(p.parent.glob("gen-v*")))


def _violations(store: Path) -> list[str]:
    from analysis.verify import verify

    _VERIFIED.add(store)
    return [str(v) for v in verify(store).violations]


@pytest.fixture(autouse=True)
def _stores_verified(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every store a test builds in its ``tmp_path`` passes ``tarock verify`` once the test is done (a test that
    leaves a store broken on purpose says so: ``@pytest.mark.store_left_broken``)."""
    if "tmp_path" not in request.fixturenames:
        yield
        return
    tmp_path = request.getfixturevalue("tmp_path")  # asked here, so it is torn down after this check
    yield
    rep = getattr(request.node, "rep_call", None)
    broken_on_purpose = request.node.get_closest_marker("store_left_broken") is not None
    for store in _stores_under(tmp_path):
        if broken_on_purpose or (rep is not None and rep.failed):
            _VERIFIED.add(store)  # not checked, at the end of the run either
            continue
        broken = _violations(store)
        assert not broken, f"the store {store} breaks its invariants:\n" + "\n".join(broken[:20])


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep the call phase's report on the item, so ``_stores_verified`` leaves a failed test's store alone."""
    rep = yield
    if rep.when == "call":
        item.rep_call = rep  # type: ignore[attr-defined]
    return rep


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The stores the fixtures of a module or the session built (``tmp_path_factory``) pass ``tarock verify``
    too: those not verified after a test are at the end, and a violation fails the run."""
    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is None or exitstatus not in (0, 1):
        return
    try:
        base = factory.getbasetemp()
    except (OSError, ValueError):
        return
    broken = [f"{store}: {v}" for store in _stores_under(base) if store not in _VERIFIED
              for v in _violations(store)]
    if broken:
        session.config.get_terminal_writer().line("stores that break their invariants:\n" + "\n".join(broken[:50]),
                                                  red=True)
        session.exitstatus = 1
