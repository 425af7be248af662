"""A read-only dashboard writes nothing into the store (issue 35): every page, every What-if table choice.

Before, opening What-if on a read-only server built a rescored generation as large as the store (and held the
store's lock meanwhile, so the owner's ``tarock ingest`` stopped with "another ingest is running"), and Hands
fitted and saved a model under ``<store>/models`` and offered to refit it.  The test lists every file of the
store (path, size, modification time) before and after opening each page, as the viewer of a read-only
server would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tarock.rules.tables import builtin_tables
from dashboards.pages import PAGES, UPLOADS_ENV, WRITES
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"


def _listing(store: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(store)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(store.rglob("*")) if p.is_file()}


def _opened(page: str, params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    if params:
        at.query_params.update(params)
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.fixture
def own_store(fixture_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture store (this test's writes, if any, reach no other test), as the app finds it."""
    store = tmp_path / "store"
    shutil.copytree(fixture_store, store)
    monkeypatch.setenv("TAROCK_STORE", str(store))
    return store


def test_a_read_only_server_writes_nothing_on_any_page(own_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(UPLOADS_ENV, "0")
    before = _listing(own_store)
    for spec in PAGES:
        if spec.script in WRITES:
            continue
        at = _opened(spec.script)
        if spec.script.endswith("hands.py"):
            assert not [b for b in at.button if b.label == "Refit the model"]  # nothing to write, nothing offered
    for ruleset in ("slovenian", "koenigrufen"):
        names = [t.name for t in builtin_tables() if t.ruleset == ruleset]
        for other in names[1:]:  # every table beside the ruleset's defaults
            _opened("app_pages/whatif.py", {"wruleset": ruleset, "tables": f"{names[0]},{other}"})
    assert _listing(own_store) == before


def test_a_server_that_may_write_keeps_its_what_if_generation_and_offers_a_refit(
        own_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the other side of the switch, so the listing above is known to see such writes
    monkeypatch.setenv(UPLOADS_ENV, "1")
    before = _listing(own_store)
    _opened("app_pages/whatif.py", {"wruleset": "slovenian", "tables": "slovenian,openspiel"})
    written = set(_listing(own_store)) - set(before)
    assert any(name.startswith("gen-") and not name.startswith(tuple(
        n.split("/")[0] for n in before)) for name in written)
    at = _opened("app_pages/hands.py")
    assert [b for b in at.button if b.label == "Refit the model"]
