"""Königrufen deals on every page of the dashboard, in a real browser (issue 19): a store of both rulesets,
every page opened with the Königrufen filter, each showing Königrufen content and no exception.

The fixture store of the other browser tests is Slovenian; this one ingests the six-hand Königrufen
session of data/examples beside the Slovenian seed session.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from ingest.commands import ingest
from tests.dashboards.test_dashboard_browser import real_errors, served, shoot, wait_for_app
from tests.support.paths import EXAMPLES

PAGES = {  # screenshot name: (deep link, main heading, a text only Königrufen deals give the page)
    "kr-overview": ("/?ruleset=koenigrufen", "Overview", "Rufer"),
    "kr-contracts": ("/contracts?ruleset=koenigrufen&by=declarer", "Contracts", "Dreier"),
    "kr-players": ("/players?ruleset=koenigrufen", "Players", "David"),
    "kr-audit": ("/audit?ruleset=koenigrufen", "Audit", "kr-session-6"),  # the renons in the Bettel
    "kr-replay": ("/replay?deal=kr-session-2&step=end", "Replay", "Dreier"),
    "kr-whatif": ("/whatif?ruleset=koenigrufen&tables=koenigrufen,oberoesterreich", "What-if", "oberoesterreich"),
}


@pytest.fixture(scope="module")
def kr_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("dashboard-koenigrufen")
    inputs = root / "in"
    inputs.mkdir()
    for name in ("koenigrufen_session.jsonl", "seed_session.jsonl"):
        shutil.copy(EXAMPLES / name, inputs / name)
    summary = ingest([inputs], root / "store", executor="local:1", quiet=True)
    assert (summary.stored, summary.rejected) == (10, 0)  # six Königrufen hands and four Slovenian ones
    with served(root / "store", root) as url:
        yield url


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_shows_koenigrufen_deals(page: Page, kr_url: str, name: str) -> None:
    link, heading, text = PAGES[name]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(kr_url + link)
    wait_for_app(page)
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text(text).locator("visible=true").first).to_be_visible()
    shoot(page, name)
    assert real_errors(errors) == []
