"""The derived ``player_totals`` and ``pair_totals`` (``analysis/totals.py``): what they hold, that the players
and pairs read from them equal those asked of the per-deal tables, and that they are read only while they are
of the stored deals.

Real stores in tmp dirs: the hand-built one of ``tests/support/analysis_store.py`` (every figure known), and
generated legal deals ingested by ``tarock ingest`` (which writes the tables) or by the ingest function alone
(which does not: the tables are then of fewer deals than the store holds).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from analysis import partnerships, players, totals
from analysis.filters import Filters
from analysis.store import Store
from ingest.commands import ingest as run_ingest
from tests.analysis.test_ratings_incremental import part
from tests.support.analysis_store import build_store
from tests.support.ingest_util import write_jsonl
from tests.test_cli import run

TABLES = (totals.PLAYER_TOTALS, totals.PAIR_TOTALS)
FILTERS = [Filters(), Filters(ruleset="slovenian"), Filters(players=3), Filters(players=4),
           Filters(ruleset="slovenian", players=4), Filters(ruleset="koenigrufen")]
"""The filters the tables answer (ruleset and table size); the pages' default is the first."""


def table(store_dir: Path, name: str) -> list[dict[str, object]]:
    return pq.read_table(next(store_dir.glob(f"gen-*/{name}/{name}.parquet"))).to_pylist()


def without_tables(store_dir: Path) -> Store:
    """A copy of the store without its totals: every question asks the per-deal tables."""
    copy = store_dir.parent / f"{store_dir.name}-bare"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(store_dir, copy)
    for name in TABLES:
        for path in copy.glob(f"gen-*/{name}"):
            shutil.rmtree(path)
    bare = Store(copy)
    assert not any(totals.current(bare, name) for name in TABLES)
    return bare


def test_the_tables_hold_the_sums_per_ruleset_and_table_size(tmp_path: Path) -> None:
    store = build_store(tmp_path / "store")
    assert len(totals.update(store)) == 2
    # Ana's deals (tests/support/analysis_store.py): Slovenian at four s1-1…s1-6, six deals, declaring s1-1
    # (tri, won) and s1-4 (berac, won); her scores -5, 0, 0, +140, 0, -110 sum to 25; radelci 0 -> 1 in the
    # Klop s1-3 and unchanged otherwise.  At three s2-1 (tri won, +30), s2-2 (solo brez lost, -80, radelci
    # 0 -> 1) and s2-3 (in error: no result, no score, no radelci).  Königrufen k1-1, a defender: -1.
    ana = [row for row in table(store, totals.PLAYER_TOTALS) if row["player"] == "Ana"]
    assert ana == [
        {"ruleset": "koenigrufen", "n_players": 4, "player": "Ana", "deals": 1, "declared": 0, "won": 0,
         "scored": 1, "score_sum": -1, "radelci": 0, "renons": 0},
        {"ruleset": "slovenian", "n_players": 3, "player": "Ana", "deals": 3, "declared": 2, "won": 1,
         "scored": 2, "score_sum": -50, "radelci": 1, "renons": 0},
        {"ruleset": "slovenian", "n_players": 4, "player": "Ana", "deals": 6, "declared": 2, "won": 2,
         "scored": 6, "score_sum": 25, "radelci": 1, "renons": 0},
    ]
    # the renons findings: Bor (R_STASH) and Cene (R_FOLLOW_SUIT) in s1-5, Gal (R_MUST_TAROK) in x-1
    renons = {row["player"]: row["renons"] for row in table(store, totals.PLAYER_TOTALS) if row["renons"]}
    assert renons == {"Bor": 1, "Cene": 1, "Gal": 1}
    # The declared deals with a partner other than the declarer, all Slovenian at four: s1-1 Ana declared
    # tri with Cene, won, Ana's score -5; s1-6 Bor with Ana, lost, -110; x-1 Hana with Jan, won, +225.  s1-2
    # (own king), s1-5 (king in the talon) and k1-1 (no partner) make no pair; s2 has no partners (three
    # players); s2-3 is in error.
    assert table(store, totals.PAIR_TOTALS) == [
        {"ruleset": "slovenian", "n_players": 4, "player_a": "Ana", "player_b": "Bor", "deals": 1, "wins": 0,
         "scored": 1, "score_sum": -110},
        {"ruleset": "slovenian", "n_players": 4, "player_a": "Ana", "player_b": "Cene", "deals": 1, "wins": 1,
         "scored": 1, "score_sum": -5},
        {"ruleset": "slovenian", "n_players": 4, "player_a": "Hana", "player_b": "Jan", "deals": 1, "wins": 1,
         "scored": 1, "score_sum": 225},
    ]
    read, bare = Store(store), without_tables(store)
    assert all(totals.current(read, name) for name in TABLES)
    # Ana over every ruleset: 10 deals, 3 won of 4 declared, scores 25 - 50 - 1 = -26 over 9 scored deals
    row = players.players(read).filter(pl.col("player") == "Ana").row(0, named=True)
    assert (row["deals"], row["declared"], row["won"], row["total_score"], row["radelci"]) == (10, 4, 3, -26, 2)
    assert row["score_per_deal"] == pytest.approx(-26 / 9)
    assert players.players(read).equals(players.players(bare))
    pairs = partnerships.partners(read, min_deals=1)
    # the same three pairs, ranked by their interval's lower end (tests/analysis/test_player_insights.py)
    assert pairs.select("player_a", "player_b", "rank", "mean_score").rows() == [
        ("Ana", "Cene", 1, -5.0), ("Hana", "Jan", 2, 225.0), ("Ana", "Bor", 3, -110.0)]
    assert pairs.equals(partnerships.partners(bare, min_deals=1))
    assert players.player_names(read)["player"].to_list() == players.player_names(bare)["player"].to_list()


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated deals of three and four players ingested by ``tarock ingest``, which writes the tables."""
    tmp = tmp_path_factory.mktemp("totals")
    store = tmp / "store"
    code, out = run("ingest", "--executor", "local:1", "--store", str(store),
                    str(write_jsonl(tmp / "2024-01.jsonl", part(3, "2024-01", 80, (3, 4)))))
    assert code == 0, out
    return store


@pytest.mark.parametrize("filters", FILTERS, ids=str)
def test_the_answers_from_the_tables_equal_the_answers_from_the_deals(grown: Path, filters: Filters) -> None:
    store, bare = Store(grown), without_tables(grown)
    assert all(totals.current(store, name) for name in TABLES)  # `tarock ingest` wrote them
    pairs = partnerships.partners(store, filters)
    if filters.ruleset != "koenigrufen" and filters.players != 3:  # generated deals are Slovenian; only
        assert pairs.height > 0  # four-player ones have partners (a called king's holder)
    assert pairs.equals(partnerships.partners(bare, filters))
    table = players.players(store, filters)
    assert table.height == (0 if filters.ruleset == "koenigrufen" else 7)  # the seven names of `part`
    assert table.equals(players.players(bare, filters))
    assert players.player_names(store, filters).equals(players.player_names(bare, filters))


def test_tables_of_fewer_deals_are_not_read(grown: Path, tmp_path: Path) -> None:
    store_dir = tmp_path / "store"
    shutil.copytree(grown, store_dir)
    assert all(totals.current(Store(store_dir), name) for name in TABLES)  # a copy: of the same deals
    before = players.players(Store(store_dir)), partnerships.partners(Store(store_dir))
    run_ingest([write_jsonl(tmp_path / "2024-02.jsonl", part(4, "2024-02", 80, (4,)))], store_dir, "local:1",
               quiet=True)  # the ingest alone, without the tables' update
    store = Store(store_dir)
    assert not any(totals.current(store, name) for name in TABLES)
    after = players.players(store), partnerships.partners(store)
    assert after[0]["deals"].sum() == before[0]["deals"].sum() + 4 * 80  # the new deals' seats count
    assert after[1]["deals"].sum() > before[1]["deals"].sum()  # and their pairs
    bare = without_tables(store_dir)
    assert after[0].equals(players.players(bare)) and after[1].equals(partnerships.partners(bare))
    totals.update(store_dir)
    store = Store(store_dir)
    assert all(totals.current(store, name) for name in TABLES)
    assert players.players(store).equals(after[0]) and partnerships.partners(store).equals(after[1])


def test_a_filter_on_the_deals_asks_the_deals(grown: Path) -> None:
    store, bare = Store(grown), without_tables(grown)
    name = partnerships.partners(store)["player_a"][0]
    # a player, a date or a contract is not in the tables: the answers are the deals' own
    for filters in (Filters(player=name), Filters(contract="tri")):
        assert partnerships.partners(store, filters).equals(partnerships.partners(bare, filters))
        assert players.players(store, filters).equals(players.players(bare, filters))
    mine = partnerships.partners(store, Filters(player=name))
    assert mine.height > 0 and all(name in (a, b) for a, b in mine.select("player_a", "player_b").rows())


def test_a_store_with_no_deals_writes_no_table(tmp_path: Path) -> None:
    assert totals.update(tmp_path / "nothing") == []
    assert not list(tmp_path.glob("**/*.parquet"))
