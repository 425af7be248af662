"""The stored rows against what the input records themselves say, and the row builder's own guarantees.

``test_ingest_store`` compares the store with ``tarock check``; here the
expectations come from the input records (how many tricks and cards were
played, who bid what, the seats), so a row builder that loses, repeats or
misplaces rows fails even where it agrees with the check objects it was
given.  The rows must also come in a fixed order (each table's rows in the
order of their deals, then of their trick, position or index), an error
while a deal's rows are built must leave no trace of that deal, and a shard
must leave the garbage collector as it found it.
"""

from __future__ import annotations

import gc
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest
from msgspec.structs import replace

from ingest.config import IngestOptions
from ingest.coordinator import IngestSummary, run_ingest
from ingest.discover import discover
from ingest.layout import StoreLayout
from ingest.packed_record import unpack_bytes
from ingest.pipeline import process_shard
from ingest.rows import ShardRows
from tarock.rules.rulesets import SEATS
from ingest.shards import plan_shards
from tarock.check.checker import Checker
from tarock.formats.reader import read_records
from tarock.rules.rulesets import ALL_COMPONENTS
from tarock.sim.simulate import simulate
from tests.support.ingest_util import write_jsonl
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
CHILD_ORDER = {"results": ("seat_no",), "hands": ("seat_no",), "tricks": ("trick_no",), "plays": ("trick_no", "position"),
               "findings": ("idx",), "bids": ("idx",), "announcements": ("idx",)}
"""Each child table's order within one deal."""

Ingested = tuple[Path, Path, list[dict[str, Any]], IngestSummary]
"""The input folder, the store, the simulated records and the run's summary."""


def records() -> list[dict[str, Any]]:
    """Simulated sessions with mistakes: findings, illegal plays, bids, announcements, recorded scores."""
    return [r for r, _ in simulate(4, 6, 10, seed=3, mistakes=0.5)] + [
        r for r, _ in simulate(3, 4, 10, seed=4, mistakes=0.5)]


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Ingested:
    """The simulated records and the Königrufen example session ingested in shards of 23 records."""
    base = tmp_path_factory.mktemp("rows")
    inputs = records()
    write_jsonl(base / "in" / "simulated.jsonl", inputs)
    shutil.copy(EXAMPLES / "koenigrufen_session.jsonl", base / "in" / "koenigrufen.jsonl")
    store = base / "store"
    return base / "in", store, inputs, run_ingest([base / "in"], store, "local:1", shard_size=23)


def stored(store: Path, table: str) -> list[dict[str, Any]]:
    """Every row of a table, with its partition columns."""
    generation = StoreLayout.at(store).read_current()
    files = f"{store}/{generation}/{table}/**/*.parquet"
    rows = pl.scan_parquet(files, hive_partitioning=True).collect().to_dicts()
    for row in rows:  # the files hold the record packed (docs/store.md, "What the files leave to the views")
        if "record_packed" in row:
            row["record"] = unpack_bytes(row.pop("record_packed"))
    return rows


def by_line(rows: list[dict[str, Any]], source: Path) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        if row["source_file"] == str(source):
            out.setdefault(row["source_pos"] >> 32, []).append(row)  # one record a line: its line
    return out


def test_every_table_holds_what_the_records_say(ingested: Ingested) -> None:
    folder, store, inputs, summary = ingested
    assert summary.exit_code == 0 and summary.rejected == 0 and summary.shards > 4
    source = folder / "simulated.jsonl"
    tables = {name: by_line(stored(store, name), source)
              for name in ("deals", "results", "tricks", "plays", "findings", "bids", "announcements")}
    assert sorted(tables["deals"]) == list(range(1, len(inputs) + 1))
    for line, record in enumerate(inputs, 1):
        (deal,) = tables["deals"][line]
        players = record["players"]
        assert (deal["players"], deal["session"], deal["seq"], deal["deal_id"], deal["contract"]) == (
            players, record["session"], record["seq"], record["id"], record["contract"])
        assert (deal["ruleset"], deal["n_players"], deal["forehand"], deal["dealer"]) == (
            record["ruleset"], len(players), players[0], players[-1])
        assert deal["content_hash"] == hashlib.sha256(deal["record"].encode()).hexdigest()
        assert json.loads(deal["record"])["tricks"] == record["tricks"]
        assert deal["n_tricks"] == len(record["tricks"]) and deal["has_recorded"]

        played = [[play.split(":")[-1] for play in trick] for trick in record["tricks"]]
        tricks = sorted(tables["tricks"][line], key=lambda t: t["trick_no"])
        assert [t["trick_no"] for t in tricks] == list(range(1, len(played) + 1))
        assert [sorted(t["cards"]) for t in tricks] == [sorted(cards) for cards in played]
        assert all(sorted(t["players"]) == sorted(players) for t in tricks if len(t["cards"]) == len(players))
        plays = tables["plays"][line]
        assert len(plays) == sum(map(len, played))  # one row per card played
        assert {(p["trick_no"], p["position"]): (p["player"], p["card"]) for p in plays} == {
            (t["trick_no"], k): play for t in tricks for k, play in enumerate(zip(t["players"], t["cards"]))}

        results = sorted(tables["results"][line], key=lambda r: r["seat_no"])
        assert [(r["seat_no"], r["player"], r["seat"]) for r in results] == [
            (k, p, SEATS[len(players)][k]) for k, p in enumerate(players)]
        for r in results:
            assert r["recorded_score"] == record["recorded"]["scores"].get(r["player"])
            if deal["declarer"] is None:
                role = "klop" if deal["contract"] == "klop" else None
            else:
                role = {deal["declarer"]: "declarer", deal["partner"]: "partner"}.get(r["player"], "opponent")
            assert r["role"] == role
            if r["score"] is None:
                assert all(r[c] is None for c in ALL_COMPONENTS) and r["breakdown_json"] is None
                continue
            assert sum(r[c] for c in ALL_COMPONENTS) == r["score"]
            assert sum(line["value"] for line in json.loads(r["breakdown_json"])) == r["score"]
            assert r["score_diff"] == record["recorded"]["scores"].get(r["player"], 0) - r["score"]
            expected_won = {"declarer": deal["won"], "partner": deal["won"],
                            "opponent": None if deal["won"] is None else not deal["won"]}.get(r["role"])
            assert r["won"] == expected_won

        bids = sorted(tables["bids"].get(line, []), key=lambda b: b["idx"])
        assert [[b["player"], b["bid"]] for b in bids] == record.get("bidding", [])
        announced = sorted(tables["announcements"].get(line, []), key=lambda a: a["idx"])
        assert [a["player"] for a in announced] == [a["player"] for a in record.get("announcements", [])]
        findings = sorted(tables["findings"].get(line, []), key=lambda f: f["idx"])
        assert [f["idx"] for f in findings] == list(range(deal["n_findings"]))
        assert deal["n_renons"] == sum(f["severity"] == "renons" for f in findings)
        first_illegal: dict[tuple[int, int], str] = {}
        for f in findings:
            if f["severity"] in ("renons", "error") and f["trick"] is not None and f["position"] is not None:
                first_illegal.setdefault((f["trick"], f["position"]), f["code"])
        assert {(p["trick_no"], p["position"]): p["code"] for p in plays if not p["legal"]} == {
            place: code for place, code in first_illegal.items() if place in {(p["trick_no"], p["position"])
                                                                                for p in plays}}
        assert all(p["code"] is None for p in plays if p["legal"])
    assert sum(len(rows) for rows in tables["bids"].values()) > 0
    assert sum(len(rows) for rows in tables["announcements"].values()) > 0
    assert sum(not p["legal"] for rows in tables["plays"].values() for p in rows) > 0


def test_rows_come_in_deal_order(ingested: Ingested) -> None:
    _, store, _, _ = ingested
    generation = StoreLayout.at(store).read_current()
    layout = StoreLayout.at(store)
    markers = layout.completed_shards(generation or "")
    koenigrufen = 0
    for marker in markers.values():
        deal_files = marker["files"]["deals"]
        order: dict[tuple[str, int], int] = {}
        for rel in deal_files:
            deals = pq.read_table(layout.generation_dir(generation) / rel).to_pylist()  # type: ignore[arg-type]
            places = [d["source_pos"] for d in deals]
            assert places == sorted(places)  # sessions are in seq order in these files: input order
            assert [p >> 32 for p in places] == [d["source_line"] for d in deals]
            order.update({(d["source_file"], d["source_pos"]): k for k, d in enumerate(deals)})
            koenigrufen += "koenigrufen" in rel
        for table, within in CHILD_ORDER.items():
            for rel in marker["files"].get(table, ()):
                rows = pq.read_table(layout.generation_dir(generation) / rel).to_pylist()  # type: ignore[arg-type]
                keys = [(order[(r["source_file"], r["source_pos"])], *(r[c] for c in within)) for r in rows]
                assert keys == sorted(keys) and len(set(keys)) == len(keys), rel
    assert koenigrufen > 0


def test_a_deal_whose_rows_fail_leaves_no_trace(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "d.jsonl", records()[:6])
    items = list(read_records(path))
    checker = Checker()
    checks = [checker.check_deal(item.deal, item.file, item.line) for item in items if item.deal is not None]
    assert len(checks) == len(items)
    tricks = checks[3].tricks
    broken = replace(checks[3], tricks=[*tricks[:5], {"leader": "nobody"}, *tricks[5:]])

    clean, failing = ShardRows("k"), ShardRows("k")
    for k, (item, check) in enumerate(zip(items, checks)):
        if k == 3:  # fails half way through its tricks
            with pytest.raises(KeyError):
                failing.add_deal(item, broken)
            continue
        clean.add_deal(item, check)
        failing.add_deal(item, check)
    assert clean.counts == failing.counts
    expected, got = clean.tables(), failing.tables()
    assert expected.keys() == got.keys()
    for name in expected:
        assert [(values, table.to_pylist()) for values, table in expected[name]] == [
            (values, table.to_pylist()) for values, table in got[name]], name


@pytest.mark.parametrize("enabled", [True, False])
def test_a_shard_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path, enabled: bool) -> None:
    path = write_jsonl(tmp_path / "d.jsonl", records()[:12])
    options = IngestOptions()
    (shard,) = plan_shards(discover([path]), options.generation)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        report = process_shard(shard, str(tmp_path / "store"), options)
        assert gc.isenabled() == enabled and gc.get_freeze_count() == 0
    finally:
        (gc.enable if was else gc.disable)()
    assert report.stored == 12
