"""The dashboard in a real browser: Debian's chromium driven by Playwright against a live server.

A session-scoped fixture builds the fixture store (``tests/support/dashboard_fixture.py``), starts
``streamlit run dashboards/app.py`` on a free 127.0.0.1 port (the command ``tarock dashboard``
runs) and waits for ``/_stcore/health``.  Every page is opened by its deep link, the replay is
stepped with its button, and no page may show an exception.  A screenshot of each page goes to
``test-results/screenshots/`` (git-ignored) to be looked at.  Table contents are asserted in the
AppTest tests: ``st.dataframe`` draws on a canvas, with no cells in the DOM.

The browser is the system's chromium (``CHROMIUM``, default ``/usr/lib/chromium/chromium``;
``scripts/ensure_chromium.sh`` installs it), never a Playwright download.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from dashboards.launch import dashboard_env, streamlit_command
from tests.support.dashboard_fixture import build_store
from tests.support.paths import ROOT
from tests.support.servers import free_port, healthy

SCREENSHOTS = ROOT / "test-results" / "screenshots"
expect.set_options(timeout=30_000)  # a first page on a busy CI machine can take longer than the default 5 s
RENONS_SENTENCE = "Boris played II on a diamond lead while holding 1♦"  # cards named as the pictures name them
PAGES = {  # screenshot name: (deep link, main heading)
    "overview": ("/", "Overview"),
    "contracts": ("/contracts?by=declarer", "Contracts"),
    "players": ("/players", "Players"),
    "audit": ("/audit", "Audit"),
    "replay": ("/replay?deal=example-r_follow_suit&step=6", "Replay"),  # the renons trick
    "replay-score": ("/replay?deal=disputed-1&step=end", "Replay"),
    "whatif": ("/whatif?tables=slovenian,openspiel", "What-if"),
    "hands": ("/hands", "Hands"),
    "replay-whatif": ("/replay?deal=seed-session-hand-4&step=end&tables=slovenian,openspiel", "Replay"),
    "ingest": ("/ingest", "Ingest"),
}


@contextmanager
def served(store: Path, root: Path) -> Iterator[str]:
    """A dashboard server over ``store`` while the block runs (its log in ``root``); its address."""
    port = free_port()
    log = (root / "streamlit.log").open("wb")
    server = subprocess.Popen(streamlit_command(port), env=dashboard_env(store), stdout=log,
                              stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the dashboard server did not start: see {root / 'streamlit.log'}")
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
    output = (root / "streamlit.log").read_text(errors="replace")
    assert "Traceback" not in output, output  # nothing failed on the server, the cache warm-up included


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a dashboard server serving the fixture store, for the whole session."""
    root = tmp_path_factory.mktemp("dashboard-browser")
    with served(build_store(root), root) as url:
        yield url


def wait_for_app(page: Page) -> None:
    """Wait until the script run is over and nothing is still loading (Streamlit's own e2e signals)."""
    page.wait_for_selector('[data-testid="stApp"][data-test-connection-state="CONNECTED"]', state="attached")
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', state="attached")
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0)


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture
def console_errors(page: Page) -> list[str]:
    """Every console error and failed request of the page (an external font or icon host offline, a script
    error): the dashboard serves everything itself, so a test using this fixture fails on any."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: errors.append(f"request failed: {request.url}"))
    page.on("response", lambda response: errors.append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    return errors


_PROBE = re.compile(r"404 http://127\.0\.0\.1:\d+/[a-z]+/_stcore/(health|host-config)")
"""Streamlit's own start-up probe on a deep link: it asks ``/<page>/_stcore/…`` first and then the server
root, so these two 404s (and the console line each prints) are not errors of the dashboard."""


def real_errors(errors: list[str]) -> list[str]:
    """``errors`` without Streamlit's deep-link probe and the generic console line each 404 prints."""
    probes = sum(1 for e in errors if _PROBE.fullmatch(e))
    kept = [e for e in errors if not _PROBE.fullmatch(e)]
    generic = "Failed to load resource: the server responded with a status of 404 (Not Found)"
    for _ in range(probes):
        if generic in kept:
            kept.remove(generic)
    return kept


def table_texts(page: Page) -> list[str]:
    """The cell texts of every table on the page (``st.dataframe`` keeps an accessible copy of its visible
    cells in the DOM, next to the canvas it draws on)."""
    return [text.strip() for text in page.locator('[data-testid="stDataFrame"] td, table td').all_inner_texts()]


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_opens_by_its_deep_link(page: Page, app_url: str, name: str, console_errors: list[str]) -> None:
    link, heading = PAGES[name]
    page.goto(app_url + link)
    wait_for_app(page)
    expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    shoot(page, name)
    assert "None" not in table_texts(page)
    external = [url for url in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
                if not url.startswith(app_url) and not url.startswith(("data:", "blob:"))]
    assert external == []
    assert real_errors(console_errors) == []


def test_replay_next_moves_to_the_next_trick(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/replay?deal=example-r_follow_suit&step=6")
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Trick 1")).to_be_visible()
    expect(page.get_by_text(RENONS_SENTENCE)).to_be_visible()
    page.get_by_role("button", name="Next ▶").click()
    expect(page.get_by_role("heading", name="Trick 2")).to_be_visible()
    wait_for_app(page)
    expect(page).to_have_url(f"{app_url}/replay?deal=example-r_follow_suit&step=7")
    expect(page.get_by_text(RENONS_SENTENCE)).to_have_count(0)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    shoot(page, "replay-next")


def test_filters_stay_in_the_url_across_pages(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/contracts?player=Ana&from=2026-01-02")
    wait_for_app(page)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Audit").click()
    expect(page.get_by_role("heading", name="Audit", exact=True)).to_be_visible()
    wait_for_app(page)
    expect(page).to_have_url(f"{app_url}/audit?from=2026-01-02&player=Ana")


def test_players_page_opens_a_players_deals_in_the_replay(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/players?pick=Boris")
    wait_for_app(page)
    page.get_by_role("button", name="Replay Boris's 10 deals").click()
    expect(page.get_by_role("heading", name="Replay", exact=True)).to_be_visible()
    wait_for_app(page)
    expect(page).to_have_url(f"{app_url}/replay?player=Boris")
    expect(page.get_by_text("Deal (10 found, player Boris)")).to_be_visible()


def test_junk_in_the_url_is_a_notice_not_a_traceback(page: Page, app_url: str) -> None:
    # issue 24: `step=²` passed isdigit() and failed int(), showing a ValueError with file paths
    page.goto(f"{app_url}/replay?deal=example-r_follow_suit&step=²")
    wait_for_app(page)
    expect(page.get_by_role("heading", name="Replay", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    expect(page.get_by_text("Traceback")).to_have_count(0)
