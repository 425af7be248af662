"""End-to-end tests of ingest into a real Parquet store, read back through DuckDB and polars.

The reference for every row is ``tarock.check.checker.check_items``: the store
must hold exactly what ``tarock check --format json`` says about the same
files.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import orjson
import polars as pl
import pytest
from msgspec.structs import asdict

import ingest.layout
from ingest.config import IngestOptions
from ingest.coordinator import GenerationMismatch, IngestSummary, run_ingest
from ingest.hand_features import hand_features
from ingest.packed_record import unpack, unpack_bytes
from ingest.layout import StoreLayout
from ingest.schema import DEAL_TABLES, SHARD_TABLES, TABLES
from ingest.store import export_duckdb, open_store, sql, table_files
from tarock.check.checker import check_items
from tarock.check.result import CheckResult, DealCheck
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import iter_record_files, read_many, read_records
from tarock.rules.rulesets import ALL_COMPONENTS
from tests.support.ingest_util import session_records, snapshot, write_jsonl
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
DOCS = ROOT / "docs" / "store.md"


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, IngestSummary]:
    """The bundled examples ingested in-process with 2-record shards (the malformed JSONL is cut in two)."""
    store = tmp_path_factory.mktemp("examples") / "store"
    return store, run_ingest([EXAMPLES], store, "local:1", shard_size=2)


def example_checks() -> list[CheckResult]:
    """``tarock check --format json`` of each example file on its own (ingest scores a session within its file)."""
    return [c for path in iter_record_files([EXAMPLES]) for c in check_items(read_records(path))]


def scores_of(check: CheckResult) -> dict[str, int]:
    """The scores of a deal's check result (every deal of these tests is scored)."""
    assert isinstance(check, DealCheck) and check.scores is not None
    return check.scores


def raw_rows(store: Path, table: str) -> list[dict[str, Any]]:
    """Every stored row of a table, duplicates included, read with polars (hive partitions from the paths)."""
    files = table_files(store, table)
    if not files:
        return []
    rows = pl.scan_parquet(files, hive_partitioning=True).collect().to_dicts()
    for row in rows:  # the files hold the record packed (docs/store.md, "What the files leave to the views")
        if "record_packed" in row:
            row["record"] = unpack_bytes(row.pop("record_packed"))
    return rows


def by_place(rows: list[dict[str, Any]], file: str = "source_file", line: str = "source_line") -> dict[Any, list]:
    """Rows by (file, line); a per-deal table's by its stored key ``source_pos``, whose line it holds (the
    examples have one record a line)."""
    out: dict[Any, list] = {}
    for row in rows:
        out.setdefault((row[file], row["source_pos"] >> 32 if "source_pos" in row else row[line]), []).append(row)
    return out


def test_every_input_item_is_stored_or_rejected(examples: tuple[Path, IngestSummary]) -> None:
    store, summary = examples
    checks = example_checks()
    assert summary.read == len(checks) == summary.stored + summary.rejected
    assert summary.rejected == sum(c.id is None for c in checks) > 0
    assert summary.exit_code == 0 and not summary.failed
    assert (summary.ok, summary.renons, summary.error) == tuple(
        sum(c.status == s and c.id is not None for c in checks) for s in ("ok", "renons", "error"))
    assert summary.shards > summary.files  # e_parse.jsonl was cut into two shards
    runs = sql(store, "SELECT read, stored, rejected, shards FROM ingest_runs")
    assert runs.row(0) == (summary.read, summary.stored, summary.rejected, summary.shards)


def test_rows_are_what_tarock_check_says(examples: tuple[Path, IngestSummary]) -> None:
    store, _ = examples
    checks = example_checks()
    deals = by_place(raw_rows(store, "deals"))
    tables = {name: by_place(raw_rows(store, name)) for name in ("results", "tricks", "plays", "findings", "bids")}
    rejects = by_place(raw_rows(store, "rejects"), "file", "line")
    assert len(deals) + len(rejects) == len(checks)
    for c in checks:
        place = (c.file, c.line)
        if not isinstance(c, DealCheck):
            (reject,) = rejects[place]
            assert reject["reason"] == c.findings[0].message and reject["raw"]
            continue
        (deal,) = deals[place]
        assert (deal["deal_id"], deal["status"], deal["contract"], deal["declarer"], deal["partner"],
                deal["won"], deal["players"], deal["session"], deal["seq"]) == (
            c.id, c.status, c.contract, c.declarer, c.partner, c.won, c.players,
            c.session, c.seq)
        assert deal["ruleset"] == c.ruleset and deal["n_players"] == len(c.players)
        assert (json.loads(deal["card_points_json"]) if deal["card_points_json"] else None) == c.card_points
        assert deal["n_findings"] == len(c.findings) and deal["n_tricks"] == len(c.tricks)
        assert deal["n_renons"] == sum(f.severity == "renons" for f in c.findings)
        findings = sorted(tables["findings"].get(place, []), key=lambda r: r["idx"])
        keys = ("code", "severity", "message", "trick", "position", "player", "card", "file", "line")
        assert [{k: f[k] for k in keys} for f in findings] == [{k: getattr(f, k) for k in keys} for f in c.findings]
        tricks = sorted(tables["tricks"].get(place, []), key=lambda r: r["trick_no"])
        assert [{k: t[k] for k in ("leader", "players", "cards", "winner", "points")} for t in tricks] == c.tricks
        plays = sorted(tables["plays"].get(place, []), key=lambda r: (r["trick_no"], r["position"]))
        assert [(p["player"], p["card"]) for p in plays] == [
            pc for t in c.tricks for pc in zip(t["players"], t["cards"])]
        flagged = {(f.trick, f.position) for f in c.findings if f.severity in ("renons", "error") and f.trick is not None}
        assert {(p["trick_no"], p["position"]) for p in plays if not p["legal"]} == flagged & {
            (p["trick_no"], p["position"]) for p in plays}
        results = sorted(tables["results"][place], key=lambda r: r["seat_no"])
        assert [r["player"] for r in results] == c.players
        for r in results:
            player = r["player"]
            assert r["score"] == (None if c.scores is None else c.scores[player])
            assert r["radelci_after"] == (None if c.radelci_after is None else c.radelci_after[player])
            assert r["penalty_policy"] == c.penalty
            assert r["recorded_score"] == (None if c.recorded is None else c.recorded.get(player))
            if c.scores is not None:
                assert c.breakdown is not None
                lines = [asdict(ln) for ln in c.breakdown if player in ln.players]
                assert json.loads(r["breakdown_json"]) == lines
                assert sum(r[component] for component in ALL_COMPONENTS) == r["score"]
        bids = sorted(tables["bids"].get(place, []), key=lambda r: r["idx"])
        record = json.loads(deal["record"])
        assert [[b["player"], b["bid"]] for b in bids] == record.get("bidding", [])


def test_polars_and_duckdb_read_the_same_rows(examples: tuple[Path, IngestSummary]) -> None:
    store, _ = examples
    hidden = pl.DataFrame(sql(store, "SELECT shard, source_file, source_pos FROM duplicates"))
    assert hidden.height > 0  # e.g. the Pik-10 seed deal is both in e_parse.jsonl and in its own file
    con = open_store(store)
    copy = ["shard", "source_file", "source_pos"]
    deal_keys = pl.scan_parquet(table_files(store, "deals"), hive_partitioning=True).select(
        *copy, "deal_id", "content_hash", "source_line").collect()
    for table in SHARD_TABLES:
        names = [f.name for f in TABLES[table]]
        # the files readers may use: a glob would also find the shards a group shard hides (ingest.groups)
        frame = pl.scan_parquet(table_files(store, table), hive_partitioning=True).collect()
        if table in DEAL_TABLES:
            frame = frame.join(hidden, on=copy, how="anti")
        if table in DEAL_TABLES and table != "deals":  # a child's deal key is its deal's (DEAL_ONLY_KEY)
            frame = frame.join(deal_keys, on=copy, how="inner")
        # what the files leave to the views (docs/store.md): the record packed, a hand's counts
        if table == "deals":
            frame = frame.with_columns(pl.Series("record", unpack(frame["record_packed"].to_arrow()).to_pylist()))
        if table == "hands":
            counts = hand_features(frame["hand_mask"].to_numpy().astype(np.uint64))
            frame = frame.with_columns(pl.Series(name, values) for name, values in counts.items())
        via_polars = sorted(frame.select(names).rows(), key=repr)
        via_duckdb = sorted(con.sql(f"SELECT * FROM {table}").fetchall(), key=repr)
        assert via_polars == via_duckdb, table
        assert via_duckdb, table
    con.close()


def test_a_second_run_skips_every_shard_and_changes_nothing(examples: tuple[Path, IngestSummary]) -> None:
    store, first = examples
    before = snapshot(store)
    again = run_ingest([EXAMPLES], store, "local:2", shard_size=2)
    assert again.shards_skipped == again.shards == first.shards and again.processed == 0
    assert (again.read, again.stored, again.rejected, again.deduplicated) == (
        first.read, first.stored, first.rejected, first.deduplicated)
    assert snapshot(store) == before


def test_export_holds_the_views(examples: tuple[Path, IngestSummary], tmp_path: Path) -> None:
    store, _ = examples
    target = tmp_path / "out" / "tarock.duckdb"
    counts = export_duckdb(store, target)
    assert counts["deals"] == sql(store, "SELECT count(*) FROM deals").item() > 0
    exported = duckdb.connect(str(target), read_only=True)
    con = open_store(store)
    for table in TABLES:
        assert sorted(exported.sql(f"SELECT * FROM {table}").fetchall(), key=repr) == sorted(
            con.sql(f"SELECT * FROM {table}").fetchall(), key=repr), table
    assert [r[0] for r in exported.sql("SELECT column_name FROM (DESCRIBE deals)").fetchall()] == [
        f.name for f in TABLES["deals"]]
    exported.close()
    con.close()
    assert [p.name for p in target.parent.iterdir()] == ["tarock.duckdb"]


def test_same_deal_in_two_files_is_visible_once(tmp_path: Path) -> None:
    records = session_records(30, seed=3)
    write_jsonl(tmp_path / "in" / "a.jsonl", records)
    write_jsonl(tmp_path / "in" / "b" / "copy.jsonl", records[10:20] + session_records(5, seed=4))
    store = tmp_path / "store"
    summary = run_ingest([tmp_path / "in"], store, "local:1", shard_size=7)
    assert summary.stored == 45 and summary.deduplicated == 10
    assert sql(store, "SELECT count(*), count(DISTINCT content_hash) FROM deals").row(0) == (35, 35)
    kept = sql(store, "SELECT DISTINCT source_file FROM deals WHERE content_hash IN "
                      "(SELECT content_hash FROM duplicates)")
    assert kept["source_file"].to_list() == [str(tmp_path / "in" / "a.jsonl")]
    for table in ("results", "tricks", "plays", "bids"):
        assert sql(store, f"SELECT count(*) FROM {table} t ANTI JOIN deals d "
                          "USING (content_hash, source_file, source_line)").item() == 0, table
    assert sql(store, "SELECT count(*) FROM results").item() == sql(
        store, "SELECT sum(n_players) FROM deals").item()


def test_sessions_split_into_shards_score_like_one_pass(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "sessions.jsonl", session_records(400, seed=11, session_size=(5, 40)))
    store = tmp_path / "store"
    summary = run_ingest([path], store, "local:2", shard_size=25)
    assert summary.shards >= 8 and summary.exit_code == 0
    assert sql(store, "SELECT count(*) FROM (SELECT session FROM deals WHERE session IS NOT NULL "
                      "GROUP BY session HAVING count(DISTINCT shard) > 1)").item() == 0
    expected = {}
    for c in check_items(read_many([path])):
        assert isinstance(c, DealCheck) and c.scores and c.radelci_before and c.radelci_after
        for p in c.players:
            expected[(c.line, p)] = (c.scores[p], c.radelci_before[p], c.radelci_after[p])
    stored = sql(store, "SELECT source_line, player, score, radelci_before, radelci_after FROM results")
    assert {(r[0], r[1]): r[2:] for r in stored.rows()} == expected
    assert any(r[1] for r in expected.values())  # radelci were carried between deals


def test_rescore_replaces_every_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_jsonl(tmp_path / "deals.jsonl", session_records(120, seed=5, session_size=(3, 10)))
    store = tmp_path / "store"
    first = run_ingest([path], store, "local:1", shard_size=30)
    old = StoreLayout.at(store).read_current()
    options = IngestOptions.make({"diff_rounding": "none", "radelci": "false"})
    with pytest.raises(GenerationMismatch):
        run_ingest([path], store, "local:1", options=options, shard_size=30)
    rescored = run_ingest([], store, "local:2", options=options, rescore=True)
    assert rescored.switched and rescored.shards == first.shards and rescored.stored == first.stored
    assert StoreLayout.at(store).read_current() == options.generation != old
    expected = {(c.line, p): s for c in check_items(read_many([path]), options.overrides)
                for p, s in scores_of(c).items()}
    stored = sql(store, "SELECT source_line, player, score FROM results").rows()
    assert {(r[0], r[1]): r[2] for r in stored} == expected
    assert expected != {(c.line, p): s for c in check_items(read_many([path])) for p, s in scores_of(c).items()}
    assert set(sql(store, "SELECT DISTINCT options_json FROM deals")["options_json"]) == {
        '{"diff_rounding":"none","radelci":false}'}
    again = run_ingest([path], store, "local:1", options=options, shard_size=30)
    assert again.shards_skipped == again.shards  # the rescored shards are the file's shards
    assert old in StoreLayout.at(store).generations()  # kept for readers that opened it, GRACE_SECONDS
    monkeypatch.setattr(ingest.layout, "GRACE_SECONDS", 0.0)
    run_ingest([path], store, "local:1", options=options, shard_size=30)
    assert old not in StoreLayout.at(store).generations()  # collected by a run after the grace period


def test_an_edited_file_replaces_its_old_shards(tmp_path: Path) -> None:
    records = session_records(40, seed=8, loose=1.0)
    path = write_jsonl(tmp_path / "log.jsonl", records[:30])
    store = tmp_path / "store"
    run_ingest([path], store, "local:1", shard_size=10)
    write_jsonl(path, records[:20] + records[30:])
    summary = run_ingest([path], store, "local:1", shard_size=10)
    assert summary.read == summary.stored == 30
    assert sql(store, "SELECT count(*), count(DISTINCT source_line) FROM deals").row(0) == (30, 30)
    assert sql(store, "SELECT count(*) FROM duplicates").item() == 0
    layout = StoreLayout.at(store)
    assert len(layout.completed_shards(layout.read_current())) == summary.shards


def test_bad_input_is_rejected_with_its_reason(tmp_path: Path) -> None:
    good = session_records(3, seed=2)
    lines = [orjson.dumps(good[0]), b'{"format": "tarock-record/1", "ruleset": "slovenian"', b"[1, 2]",
             orjson.dumps(good[1])]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "mixed.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    (tmp_path / "in" / "corrupt.jsonl.gz").write_bytes(gzip.compress(orjson.dumps(good[2]) * 3)[:-12])
    (tmp_path / "in" / "bomb.jsonl.gz").write_bytes(gzip.compress(b" " * 200_000 + b"\n"))
    store = tmp_path / "store"
    limits = ReaderLimits(max_gz_bytes=100_000)
    summary = run_ingest([tmp_path / "in", tmp_path / "missing.json"], store, "local:1",
                         options=IngestOptions.make(limits=limits))
    assert summary.balanced and summary.stored == 2 and summary.rejected == 5
    reasons = dict(sql(store, "SELECT file || ':' || line, reason FROM rejects").rows())
    assert "not valid JSON" in reasons[f"{tmp_path / 'in' / 'mixed.jsonl'}:2"]
    assert "not a record" in reasons[f"{tmp_path / 'in' / 'mixed.jsonl'}:3"]
    assert "limit" in reasons[f"{tmp_path / 'in' / 'bomb.jsonl.gz'}:1"]
    assert "cannot be opened" in reasons[f"{tmp_path / 'missing.json'}:0"]
    assert any(key.startswith(str(tmp_path / "in" / "corrupt.jsonl.gz")) for key in reasons)


def test_an_empty_store_reads_as_empty_tables(tmp_path: Path) -> None:
    con = open_store(tmp_path / "nothing")
    for table, schema in TABLES.items():
        described = con.sql(f"DESCRIBE {table}").fetchall()
        assert [row[0] for row in described] == schema.names
        assert con.sql(f"SELECT count(*) FROM {table}").fetchall() == [(0,)]
    con.close()
    assert not (tmp_path / "nothing").exists()


def test_the_docs_describe_every_column() -> None:
    text = DOCS.read_text()
    for table, schema in TABLES.items():
        section = text.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0]
        for field in schema:
            assert f"| `{field.name}` |" in section, f"{table}.{field.name} is not documented"


def test_a_store_copied_elsewhere_still_reads(examples: tuple[Path, IngestSummary], tmp_path: Path) -> None:
    store, _ = examples
    moved = tmp_path / "moved"
    shutil.copytree(store, moved)
    assert snapshot(moved) == snapshot(store)


def test_commands_report_and_exit_status(examples: tuple[Path, IngestSummary], tmp_path: Path) -> None:
    from io import StringIO

    from rich.console import Console

    from ingest.commands import ingest, print_export, print_frame, print_summary, query, resolve_store
    from ingest.progress import LogProgress, ProgressUpdate, default_progress

    store, summary = examples
    out = StringIO()
    print_summary(summary, Console(file=out, width=200))
    text = out.getvalue()
    assert f"read {summary.read} = stored {summary.stored} + rejected {summary.rejected}  ok" in text
    broken = IngestSummary(**{**summary.__dict__, "rejected": summary.rejected + 1})
    assert broken.exit_code == 1 and summary.exit_code == 0
    out = StringIO()
    print_summary(broken, Console(file=out, width=200))
    assert "MISMATCH" in out.getvalue()

    frame = query(store, "SELECT status, count(*) AS n FROM deals WHERE status = ? GROUP BY 1", ["ok"])
    for fmt, expected in (("csv", "status,n\nok,"), ("json", '{"status":"ok","n":'), ("table", "status")):
        out = StringIO()
        print_frame(frame, fmt, out)
        assert expected in out.getvalue()
    out = StringIO()
    print_export({"deals": 3}, "x.duckdb", Console(file=out))
    assert "deals: 3 rows" in out.getvalue()

    updates: list[ProgressUpdate] = []
    path = write_jsonl(tmp_path / "d.jsonl", session_records(20, seed=1))
    again = ingest([path], tmp_path / "s", "local:1", progress=updates.append, shard_size=8)
    assert again.exit_code == 0 and updates[0].records_done == 0 and updates[-1].records_done == 20
    assert [u.shards_done for u in updates] == list(range(again.shards + 1))  # one update per shard
    assert updates[-1].shards_total == again.shards > 1
    log = StringIO()
    LogProgress(log, interval=0)(updates[-1])
    assert log.getvalue().startswith(f"ingest: {again.shards}/{again.shards} shards, 20/20 records")
    with default_progress(quiet=True) as none, default_progress(quiet=False, stream=StringIO()) as plain:
        assert none is None and isinstance(plain, LogProgress)
    assert resolve_store("x") == Path("x")


def test_executor_specs() -> None:
    from concurrent.futures import ProcessPoolExecutor

    from ingest.executors import InlineExecutor, make_executor

    assert isinstance(make_executor("local:1"), InlineExecutor)
    pool = make_executor("local:2")
    assert isinstance(pool, ProcessPoolExecutor)
    pool.shutdown()
    for bad in ("remote", "local:x", "local:0", "spark://h:1"):
        with pytest.raises(ValueError):
            make_executor(bad)


def test_a_rescore_takes_the_bulk_path_and_equals_a_fresh_ingest(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored records are canonical JSON, so a rescore reads them as the bulk path reads a file's plain lines:
    every table of the rescored store is row for row a fresh ingest's under the new options."""
    from ingest.bulk import BulkPath

    path = write_jsonl(tmp_path / "deals.jsonl", session_records(150, seed=21, session_size=(3, 10)))
    store, fresh = tmp_path / "store", tmp_path / "fresh"
    run_ingest([path], store, "local:1", shard_size=40)
    options = IngestOptions.make({"preset": "openspiel"})
    taken: list[bool] = []
    add = BulkPath.add

    def spied(self: BulkPath, plain: Any) -> bool:
        taken.append(add(self, plain))
        return taken[-1]

    monkeypatch.setattr(BulkPath, "add", spied)
    assert run_ingest([], store, "local:1", options=options, rescore=True).switched
    # every record offered to the bulk path (local:1 runs shards in this process), nearly all taken
    assert len(taken) == 150 and sum(taken) > 140
    run_ingest([path], fresh, "local:1", options=options, shard_size=40)
    assert snapshot(store) == snapshot(fresh)
