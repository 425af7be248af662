"""The ratings kept up to date after every ingest equal a rebuild from scratch, and filter as ``deals`` does.

Real stores in tmp dirs, filled by ``tarock ingest`` in parts (which updates the ratings incrementally,
``analysis.ratings.update``), then ``tarock ratings rebuild`` rates every deal again: the two files must
hold the same rows and the same pool states.  Records are generated legal deals
(``tarock.sim.randomplay``) with their players renamed from a pool of seven and a date set, so the
ratings order (date first) is known by construction.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date
import shutil
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analysis import ratings
from analysis.filters import Filters
from analysis.sql import compose
from analysis.store import Store
from ingest.commands import ingest as run_ingest
from tarock.sim.randomplay import random_record
from tests.support.ingest_util import write_jsonl
from tests.test_cli import run

NAMES = ["Ana", "Bor", "Cene", "Dana", "Eva", "Fran", "Gal"]


def part(seed: int, month: str, n: int, sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """``n`` deals dated in ``month`` (``YYYY-MM``), of the table sizes ``sizes``, players drawn from NAMES."""
    rng = random.Random(seed)
    records = []
    for i in range(n):
        record = random_record(rng, rng.choice(sizes))
        rename = dict(zip(record["players"], rng.sample(NAMES, len(record["players"]))))
        record["players"] = [rename[p] for p in record["players"]]
        record["hands"] = {rename[p]: cards for p, cards in record["hands"].items()}
        if record.get("declarer") is not None:
            record["declarer"] = rename[record["declarer"]]
        record["date"] = f"{month}-{1 + i % 28:02d}"
        record["id"] = f"{month}-{i:03d}"
        records.append(record)
    return records


def ratings_file(store: Path) -> tuple[pa.Table, dict[ratings.Pool, ratings.PoolState]]:
    path = next(store.glob("gen-*/ratings/ratings.parquet"))
    state = ratings._read_state(path)
    assert state is not None
    return pq.read_table(path), state


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """A store ingested in three parts: January (four players), February after it (three and four
    players: a new pool), each followed by ``ratings.update``, then December of the year before (sorts
    before everything stored) by ``tarock ingest``, which updates the ratings itself; the ratings file and
    what the update said after each part."""
    tmp = tmp_path_factory.mktemp("grown")
    store = tmp / "store"
    after = []
    for seed, month, sizes in ((0, "2024-01", (4,)), (1, "2024-02", (3, 4))):
        run_ingest([write_jsonl(tmp / f"{month}.jsonl", part(seed, month, 40, sizes))], store, "local:1",
                   quiet=True)
        done = ratings.update(store)
        after.append((*ratings_file(store), done))
    shutil.copytree(store, tmp / "february")  # as it stood after February's update: rebuilt by a test
    code, out = run("ingest", "--executor", "local:1", "--store", str(store),
                    str(write_jsonl(tmp / "2023-12.jsonl", part(2, "2023-12", 40, (4,)))))
    assert code == 0, out
    after.append((*ratings_file(store), out))
    return store, after


def test_an_ingest_after_the_stored_deals_rates_only_its_own(grown: tuple[Path, list[Any]]) -> None:
    _, after = grown
    assert after[0][2].restarted == 0 and after[0][2].rows == after[0][0].num_rows  # a new file: everything
    update = after[1][2]
    assert update.restarted == 0
    # the rating columns (``latest`` moves to a player's newer row when they play again: test_latest_… below)
    january, february = (table.drop_columns(["latest"]).to_pydict() for table, *_ in after[:2])
    # the update after February's ingest rated February's deals and no other
    feb_deals = {(n, d) for n, d in zip(february["n_players"], february["deal_id"]) if d.startswith("2024-02")}
    assert (update.deals, update.rows) == (len(feb_deals), sum(1 for d in february["deal_id"] if d[:7] == "2024-02"))
    # every January row is still there, unchanged, in February's file
    jan_rows = set(zip(*january.values()))
    feb_rows = list(zip(*february.values()))
    assert jan_rows <= set(feb_rows)
    # the pool of four continues: February's deals follow January's (deal_index from where it stopped)
    four = [(i, d) for r, n, i, d in zip(february["ruleset"], february["n_players"], february["deal_index"],
                                        february["deal_id"]) if n == 4]
    last_january = max(i for i, d in four if d.startswith("2024-01"))
    assert min(i for i, d in four if d.startswith("2024-02")) == last_january + 1
    # ... and a player's games continue: Ana's games in February start at her January count + 1
    ana = [(d, g) for d, p, g, n in zip(february["deal_id"], february["player"], february["games"],
                                        february["n_players"]) if p == "Ana" and n == 4]
    jan_games = max(g for d, g in ana if d.startswith("2024-01"))
    assert min(g for d, g in ana if d.startswith("2024-02")) == jan_games + 1
    # the three-player pool is new in February
    assert {n for n in january["n_players"]} == {4} and 3 in february["n_players"]


def rebuilt(store: Path) -> tuple[pa.Table, dict[ratings.Pool, ratings.PoolState]]:
    code, out = run("ratings", "rebuild", "--store", str(store))
    assert code == 0, out
    return ratings_file(store)


def test_updates_that_continue_equal_a_rebuild(grown: tuple[Path, list[Any]]) -> None:
    """After January and February (each pool continued from its state), a rebuild gives the same file."""
    store, after = grown
    table, state, _ = after[1]
    again, again_state = rebuilt(store.parent / "february")
    assert again.equals(table) and again.schema == table.schema
    assert again_state == state


def test_update_in_parts_equals_a_rebuild(grown: tuple[Path, list[Any]]) -> None:
    store, after = grown
    incremental, state, out = after[-1]
    # December sorted before the stored four-player deals: that pool was rated again from its start
    assert "1 pool(s) rated again from the start" in out
    table, table_state = rebuilt(store)
    assert table.schema == incremental.schema
    assert table.equals(incremental)
    assert table_state == state
    # the states hold every deal not in error of each pool (random_record's deals are legal: all of them)
    assert sum(s.seen for s in state.values()) == 120


def test_the_order_after_a_restart_is_by_date(grown: tuple[Path, list[Any]]) -> None:
    _, after = grown
    table, *_ = after[-1]
    rows = table.to_pydict()
    four = sorted({(i, d) for n, i, d in zip(rows["n_players"], rows["deal_index"], rows["deal_id"]) if n == 4})
    months = [d[:7] for _, d in four]
    # December 2023 first, then January, then February: the pool was rated again in date order
    assert months == sorted(months) and months[0] == "2023-12" and months[-1] == "2024-02"


def test_nothing_new_leaves_the_file_alone(grown: tuple[Path, list[Any]]) -> None:
    store, _ = grown
    path = next(store.glob("gen-*/ratings/ratings.parquet"))
    before = path.stat().st_mtime_ns, path.read_bytes()
    done = ratings.update(store)
    assert (done.deals, done.rows, done.restarted) == (0, 0, 0)
    assert (path.stat().st_mtime_ns, path.read_bytes()) == before


@pytest.mark.parametrize("filters", [Filters(player="Eva"), Filters(contract="tri"),
                                     Filters(player="Gal", contract="klop", players=4)])
def test_filters_keep_the_deals_deals_keeps(grown: tuple[Path, list[Any]], filters: Filters) -> None:
    """``rated_where`` reads the filters from the ratings rows themselves; the deals it keeps must be the rated
    deals ``deals`` itself keeps under the same filters (its players list, its contract)."""
    store, _ = grown
    with Store(store) as handle:
        where = ratings.rated_where(filters)
        query = compose("SELECT DISTINCT g.deal_id FROM ratings g WHERE {w}", w=where)
        kept = set(handle.query(query.sql, query.params)["deal_id"].to_list())
        d = [f"list_contains(d.players, '{filters.player}')" if filters.player else "TRUE",
             f"d.contract = '{filters.contract}'" if filters.contract else "TRUE",
             f"d.n_players = {filters.players}" if filters.players else "TRUE"]
        expected = set(handle.query(f"SELECT d.deal_id FROM deals d WHERE {' AND '.join(d)}"
                                    " AND d.deal_id IN (SELECT deal_id FROM ratings)")["deal_id"].to_list())
    assert kept == expected and kept


def test_a_session_scored_again_with_its_later_part_rates_its_pool_again(tmp_path: Path) -> None:
    """A later ingest adds deals to a stored session: a group shard scores the session whole again (its radelci
    run across both parts), hiding the first part's shard, whose results the ratings were built on; the pool
    is rated again from its start, and equals a rebuild."""
    store = tmp_path / "store"
    records = part(5, "2024-03", 16, (4,))
    for seq, record in enumerate(records, 1):  # the same four at the table, each keeping their seat's cards
        seat = dict(zip(record["players"], ["Ana", "Bor", "Cene", "Dana"]))
        record["players"] = list(seat.values())
        record["hands"] = {seat[p]: cards for p, cards in record["hands"].items()}
        if record.get("declarer") is not None:
            record["declarer"] = seat[record["declarer"]]
        record["session"], record["seq"], record["date"] = "club", seq, "2024-03-01"
    updates = []
    for name, half in (("first", records[:8]), ("second", records[8:])):
        run_ingest([write_jsonl(tmp_path / f"{name}.jsonl", half)], store, "local:1", quiet=True)
        updates.append(ratings.update(store))
    assert updates[0].restarted == 0 and updates[1].restarted == 1
    table, state = ratings_file(store)
    assert table.num_rows > 0 and state[("slovenian", 4)].seen == 16
    again, again_state = rebuilt(store)
    assert again.equals(table) and again_state == state


def test_latest_marks_each_players_last_rated_deal(grown: tuple[Path, list[Any]]) -> None:
    """After every part (a new file, a continued update, a pool rated again from its start) each player has
    exactly one ``latest`` row per pool, the row of their highest ``deal_index`` there, worked out here from
    the file's own rows."""
    _, after = grown
    for table, *_ in after:
        rows = table.to_pydict()
        last: dict[tuple[str, int, str], int] = {}
        for r, n, p, i in zip(rows["ruleset"], rows["n_players"], rows["player"], rows["deal_index"]):
            last[(r, n, p)] = max(i, last.get((r, n, p), i))
        marked = [(r, n, p, i) for r, n, p, i, latest in zip(rows["ruleset"], rows["n_players"], rows["player"],
                                                             rows["deal_index"], rows["latest"]) if latest]
        assert sorted(marked) == sorted((*key, i) for key, i in last.items())


@pytest.mark.parametrize("filters", [Filters(), Filters(players=4), Filters(ruleset="slovenian", players=3)])
def test_current_from_the_latest_rows_equals_the_group_by(grown: tuple[Path, list[Any]], filters: Filters) -> None:
    """Without a date, contract or player filter ``current`` reads only the ``latest`` rows; a ``date_from``
    long before every deal keeps the same deals but takes the group-by over every row: the answers agree."""
    store, _ = grown
    with Store(store) as handle:
        fast = ratings.current(handle, filters)
        slow = ratings.current(handle, replace(filters, date_from=date(1900, 1, 1)))
    assert fast.height > 0 and fast.equals(slow)


def test_a_file_of_another_rating_model_is_rated_again_whole(grown: tuple[Path, list[Any]], tmp_path: Path) -> None:
    """A ratings file written before the model's version was kept (issue 38: a side's strength was the sum of
    its μ) has states the update must not continue from: the next update rates every deal again, as a
    rebuild does, even with nothing new to rate."""
    store = tmp_path / "store"
    shutil.copytree(grown[0], store)
    path = next(store.glob("gen-*/ratings/ratings.parquet"))
    table = pq.read_table(path)
    meta = dict(table.schema.metadata)
    stale = ratings._read_state(path)
    assert stale is not None
    for state in stale.values():  # an old model's ratings: every player at μ 0
        state.players = {name: (0.0, sigma, games) for name, (_, sigma, games) in state.players.items()}
    meta[ratings.STATE_KEY] = ratings._state_json(stale)
    del meta[ratings.MODEL_KEY]
    pq.write_table(table.replace_schema_metadata(meta), path)
    assert ratings._read_state(path) is None
    done = ratings.update(store)
    assert done.deals == sum(state.rated for state in stale.values())  # every rated deal, again
    updated, state = ratings_file(store)
    again, again_state = rebuilt(store)
    assert updated.equals(again) and state == again_state
    assert all(mu != 0.0 for s in state.values() for mu, _, _ in s.players.values())
