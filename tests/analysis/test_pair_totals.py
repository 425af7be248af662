"""The derived ``pair_totals`` (``analysis/pair_totals.py``): what it holds, that the pairs read from it equal
the pairs asked of ``deals`` and ``results``, and that it is read only while it is of the stored deals.

Real stores in tmp dirs: the hand-built one of ``tests/support/analysis_store.py`` (every figure known), and
generated legal deals ingested in parts by ``tarock ingest`` (which writes the table) or by the ingest
function alone (which does not: the table is then of fewer deals than the store holds).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from analysis import pair_totals, partnerships
from analysis.filters import Filters
from analysis.store import Store
from ingest.commands import ingest as run_ingest
from tests.analysis.test_ratings_incremental import part
from tests.support.analysis_store import build_store
from tests.support.ingest_util import write_jsonl
from tests.test_cli import run

FILTERS = [Filters(), Filters(ruleset="slovenian"), Filters(players=3), Filters(players=4),
           Filters(ruleset="slovenian", players=4), Filters(ruleset="koenigrufen")]
"""The filters the table answers (ruleset and table size); the pages' default is the first."""


def live(store_dir: Path, filters: Filters, min_deals: int = partnerships.MIN_PAIR_DEALS) -> pl.DataFrame:
    """``partners`` asked of ``deals`` and ``results``: the table moved aside while it runs."""
    path = next(store_dir.glob("gen-*/pair_totals/pair_totals.parquet"))
    aside = path.with_name("aside")
    path.rename(aside)
    try:
        store = Store(store_dir)
        assert not pair_totals.current(store)
        return partnerships.partners(store, filters, min_deals)
    finally:
        aside.rename(path)


def test_the_table_holds_each_pairs_sums_per_ruleset_and_table_size(tmp_path: Path) -> None:
    store = build_store(tmp_path / "store")
    path = pair_totals.update(store)
    assert path is not None
    # The hand-built store's declared deals with a partner other than the declarer
    # (tests/support/analysis_store.py), all Slovenian at four: s1-1 Ana declared tri with Cene, won, Ana's
    # score -5; s1-6 Bor declared tri with Ana, lost, Bor's score -110; x-1 Hana declared dva with Jan, won,
    # Hana's score +225.  s1-2 (own king), s1-5 (king in the talon) and k1-1 (no partner) make no pair; s2
    # has no partners (three players); s2-3 is in error.
    assert pq.read_table(path).to_pylist() == [
        {"ruleset": "slovenian", "n_players": 4, "player_a": "Ana", "player_b": "Bor", "deals": 1, "wins": 0,
         "scored": 1, "score_sum": -110},
        {"ruleset": "slovenian", "n_players": 4, "player_a": "Ana", "player_b": "Cene", "deals": 1, "wins": 1,
         "scored": 1, "score_sum": -5},
        {"ruleset": "slovenian", "n_players": 4, "player_a": "Hana", "player_b": "Jan", "deals": 1, "wins": 1,
         "scored": 1, "score_sum": 225},
    ]
    read = Store(store)
    assert pair_totals.current(read)
    pairs = partnerships.partners(read, min_deals=1)
    # the same three pairs, ranked by their interval's lower end (tests/analysis/test_player_insights.py)
    assert pairs.select("player_a", "player_b", "rank", "mean_score").rows() == [
        ("Ana", "Cene", 1, -5.0), ("Hana", "Jan", 2, 225.0), ("Ana", "Bor", 3, -110.0)]
    assert pairs.equals(live(store, Filters(), min_deals=1))


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated deals of three and four players ingested by ``tarock ingest``, which writes the table."""
    tmp = tmp_path_factory.mktemp("pairs")
    store = tmp / "store"
    code, out = run("ingest", "--executor", "local:1", "--store", str(store),
                    str(write_jsonl(tmp / "2024-01.jsonl", part(3, "2024-01", 80, (3, 4)))))
    assert code == 0, out
    return store


@pytest.mark.parametrize("filters", FILTERS, ids=str)
def test_the_pairs_from_the_table_equal_the_pairs_from_the_deals(grown: Path, filters: Filters) -> None:
    store = Store(grown)
    assert pair_totals.current(store)  # `tarock ingest` wrote it
    from_table = partnerships.partners(store, filters)
    if filters.ruleset != "koenigrufen" and filters.players != 3:  # generated deals are Slovenian; only
        assert from_table.height > 0  # four-player ones have partners (a called king's holder)
    assert from_table.equals(live(grown, filters))


def test_a_table_of_fewer_deals_is_not_read(grown: Path, tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    shutil.copytree(grown, store_dir)
    assert pair_totals.current(Store(store_dir))  # a copy is of the same deals: its table still counts
    before = partnerships.partners(Store(store_dir))
    run_ingest([write_jsonl(tmp_path / "2024-02.jsonl", part(4, "2024-02", 80, (4,)))], store_dir, "local:1",
               quiet=True)  # the ingest alone, without the table's update
    store = Store(store_dir)
    assert not pair_totals.current(store)
    after = partnerships.partners(store)
    assert after["deals"].sum() > before["deals"].sum()  # the new deals' pairs count
    assert after.equals(live(store_dir, Filters()))
    pair_totals.update(store_dir)
    store = Store(store_dir)
    assert pair_totals.current(store)
    assert partnerships.partners(store).equals(after)


def test_a_filter_on_the_deals_asks_the_deals(grown: Path) -> None:
    store = Store(grown)
    name = partnerships.partners(store)["player_a"][0]
    # a player, a date or a contract is not in the table: the answer is the deals' own
    for filters in (Filters(player=name), Filters(contract="tri")):
        assert partnerships.partners(store, filters).equals(live(grown, filters))
    assert set(partnerships.partners(store, Filters(player=name))
               .select(pl.concat_list("player_a", "player_b").list.contains(name).all()).row(0)) == {True}


def test_a_store_with_no_deals_writes_no_table(tmp_path: Path) -> None:
    assert pair_totals.update(tmp_path / "nothing") is None
    assert not list((tmp_path / "nothing").glob("**/*.parquet"))
