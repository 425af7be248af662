"""The misplays that decided a game on the Audit page and on the Replay's trick, once the store's deals are
judged card by card (``tarock analyse --store``, ingest/card_analysis.py; issue 36).

Before the analysis the Audit page says how to get the verdicts; after it, the table lists exactly the store's
``game_analysis`` rows marked ``decided``, each linked to its trick's step, where the Replay shows the finding's
sentence.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analysis.misplays import deal_findings
from analysis.store import Store
from ingest.card_analysis import analyse_store
from ingest.store import open_store
from tests.dashboards.test_dashboard_apptest import html_text, open_page
from tests.dashboards.test_dashboard_card_losses import trick_step
from tests.support.dashboard_fixture import build_store

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The fixture store as ingested, and a copy judged card by card (exact losses from the last trick)."""
    plain = build_store(tmp_path_factory.mktemp("misplays"))
    judged = tmp_path_factory.mktemp("misplays-judged") / "store"
    shutil.copytree(plain, judged)
    analyse_store(judged, executor="local:1", from_trick=12)
    return plain, judged


def _section(at, title: str) -> int:
    return [s.value for s in at.subheader].index(title)


def test_before_any_verdict_the_audit_page_says_how_to_get_them(stores: tuple[Path, Path],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAROCK_STORE", str(stores[0]))
    at = open_page("Audit")
    _section(at, "Misplays that decided the game")
    assert any("tarock analyse --store" in i.value for i in at.info)


def test_the_audit_page_lists_every_stored_misplay_and_the_replay_shows_it_on_its_trick(
        stores: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    store = stores[1]
    monkeypatch.setenv("TAROCK_STORE", str(store))
    con = open_store(store)
    decided = con.sql('SELECT deal_id, trick, player FROM game_analysis WHERE decided ORDER BY deal_id, trick'
                      ).fetchall()
    (judged,), = con.sql("SELECT count(DISTINCT deal_id) FROM game_analysis").fetchall()
    (deals,), = con.sql("SELECT count(*) FROM deals").fetchall()
    con.close()
    assert decided, "the fixture's played cards include a card that decided its game"
    at = open_page("Audit")
    _section(at, "Misplays that decided the game")
    assert any(c.value.startswith(f"{judged:,} of {deals:,} deals judged card by card") for c in at.caption)
    listed = next(d.value for d in at.dataframe if "side" in d.value.columns)
    assert sorted(zip(listed["deal_id"], listed["where"], listed["player"])) == sorted(
        (d, f"trick {t}", p) for d, t, p in decided)
    # the player's count beside the cards judged
    counts = next(d.value for d in at.dataframe if "deals_decided" in d.value.columns)
    for player, n in counts[["player", "misplays"]].itertuples(index=False):
        assert n == sum(p == player for _, _, p in decided)

    deal_id, trick, player = decided[0]
    with Store.of(store) as opened:
        finding = deal_findings(opened, deal_id)[0]
    at = open_page("Replay", deal=deal_id, step=str(trick_step(store, deal_id, trick)))
    assert at.subheader[0].value == f"Trick {trick}"
    shown = html_text(at)
    assert "M_GAME_LOST" in shown and f"Trick {trick}: {player} played" in shown
    assert finding.message.split(";")[0].split(" played ")[0] in shown
    # one step earlier the finding is not shown: it sits on its own trick
    at = open_page("Replay", deal=deal_id, step=str(trick_step(store, deal_id, trick) - 1))
    assert "M_GAME_LOST" not in html_text(at)


def test_the_players_page_counts_each_player_s_misplays_per_deal_judged(stores: tuple[Path, Path],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    store = stores[1]
    monkeypatch.setenv("TAROCK_STORE", str(store))
    con = open_store(store)
    per_player = dict(con.sql("SELECT player, count(*) FILTER (WHERE decided) FROM game_analysis GROUP BY player"
                              ).fetchall())
    deals = dict(con.sql("SELECT player, count(DISTINCT deal_id) FROM game_analysis GROUP BY player").fetchall())
    con.close()
    at = open_page("Players")
    assert "**Misplays that decided the game**" in [m.value for m in at.markdown]
    table = next(d.value for d in at.dataframe if "per_100" in d.value.columns)
    assert {r["player"]: r["misplays"] for r in table.to_dict("records")} == per_player
    for r in table.to_dict("records"):
        assert r["per_100"] == pytest.approx(100 * per_player[r["player"]] / deals[r["player"]])
