"""Test-wide settings: property tests are derandomized under CI (``CI=true``).

Locally hypothesis explores new examples on every run (and keeps failures in
its database); in CI the same examples run every time, so a submission's
verdict does not depend on the draw.
"""

from __future__ import annotations

import os

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
