"""The store says what ``tarock check`` says, deal by deal, whatever shape the records come in (issue 35).

Each stored copy is keyed by its record's place in the file (``source_pos``: line and index on the line), so a
``.json`` list written on one line — every record on line 1 — keeps each deal's rows its own.  The property
test writes random deals in every input shape (a ``.json`` list on one line or indented, ``.jsonl``, ``.trk``,
each maybe gzipped), splits sessions across files, copies deals into a second file, ingests in one run or in
two, and checks ``deals``, ``results``, ``tricks`` and ``plays`` against ``tarock check -f json`` of the same
files; the store must also pass ``tarock verify`` (``analysis.verify``).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.verify import verify
from ingest.commands import ingest
from ingest.store import open_store
from tarock.formats.codec import loads
from tarock.formats.writer import write_records
from tests.support.ingest_util import session_records

SHAPES = ("one-line.json", "indented.json", "jsonl", "trk")


def _write(path: Path, records: list[dict[str, Any]], shape: str, gz: bool) -> Path:
    """``records`` in one file of ``shape`` (gzipped when ``gz``)."""
    if shape == "trk":
        target = path.with_name(path.name + ".trk" + (".gz" if gz else ""))
        write_records([loads(json.dumps(r)) for r in records], target)
        return target
    if shape == "jsonl":
        data = "".join(json.dumps(r) + "\n" for r in records).encode()
        suffix = ".jsonl"
    else:  # what json.dump writes: the whole list on one line, or one value a line with indent
        data = json.dumps(records, indent=2 if shape == "indented.json" else None).encode()
        suffix = ".json"
    target = path.with_name(path.name + suffix + (".gz" if gz else ""))
    target.write_bytes(gzip.compress(data) if gz else data)
    return target


def _checked(files: list[Path]) -> dict[str, dict[str, Any]]:
    """``tarock check -f json`` of ``files`` together: each deal's check object by its id, copies left out."""
    run = subprocess.run([sys.executable, "-m", "tarock.cli", "check", "-f", "json", *map(str, files)],
                         capture_output=True, text=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    out = {}
    for line in run.stdout.splitlines():
        obj = json.loads(line)
        if "id" in obj and not obj.get("duplicate_of"):
            assert obj["id"] not in out, obj["id"]
            out[obj["id"]] = obj
    return out


def _stored(store: Path) -> dict[str, dict[str, Any]]:
    """Each stored deal by its id: its row, its results by player, its tricks and its plays in order."""
    con = open_store(store)
    try:
        deals = {r[0]: {"status": r[1], "contract": r[2], "declarer": r[3], "won": r[4], "n_tricks": r[5],
                        "n_findings": r[6], "players": r[7], "results": {}, "tricks": [], "plays": []}
                 for r in con.sql("SELECT deal_id, status, contract, declarer, won, n_tricks, n_findings, players "
                                  "FROM deals").fetchall()}
        for deal_id, player, score, before, after in con.sql(
                "SELECT deal_id, player, score, radelci_before, radelci_after FROM results").fetchall():
            assert player not in deals[deal_id]["results"], (deal_id, player)
            deals[deal_id]["results"][player] = (score, before, after)
        for deal_id, leader, players, cards, winner, points in con.sql(
                "SELECT deal_id, leader, players, cards, winner, points FROM tricks ORDER BY deal_id, trick_no"
        ).fetchall():
            deals[deal_id]["tricks"].append({"leader": leader, "players": players, "cards": cards,
                                             "winner": winner, "points": points})
        for deal_id, player, card in con.sql(
                "SELECT deal_id, player, card FROM plays ORDER BY deal_id, trick_no, position").fetchall():
            deals[deal_id]["plays"].append((player, card))
    finally:
        con.close()
    return deals


def _agree(store: Path, files: list[Path]) -> None:
    """The store holds, deal by deal, what ``check`` says of ``files``, and passes every invariant."""
    checked, stored = _checked(files), _stored(store)
    assert sorted(stored) == sorted(checked)
    for deal_id, c in checked.items():
        s = stored[deal_id]
        assert (s["status"], s["contract"], s["declarer"], s["won"], s["players"]) == (
            c["status"], c["contract"], c.get("declarer"), c.get("won"), c["players"]), deal_id
        assert (s["n_tricks"], s["n_findings"]) == (len(c["tricks"]), len(c["findings"])), deal_id
        scores, before, after = c.get("scores"), c.get("radelci_before"), c.get("radelci_after")
        assert s["results"] == {p: (None if scores is None else scores[p], None if before is None else before[p],
                                    None if after is None else after[p]) for p in c["players"]}, deal_id
        assert s["tricks"] == c["tricks"], deal_id
        assert s["plays"] == [pc for t in c["tricks"] for pc in zip(t["players"], t["cards"])], deal_id
    found = verify(store)
    assert found.ok, [str(v) for v in found.violations[:10]]


def test_a_json_list_on_one_line_keeps_every_deal_s_rows_its_own(tmp_path: Path) -> None:
    # what json.dump(records, f) writes: 40 deals, all starting on line 1; before the key was the record's
    # place, every deal of the file joined every other's rows (40 deals -> 40 x 40 x players results rows)
    records = session_records(40, seed=11)
    for i, r in enumerate(records):
        r["id"] = f"deal-{i}"
    path = _write(tmp_path / "club", records, "one-line.json", gz=False)
    assert path.read_bytes().count(b"\n") == 0
    summary = ingest([path], tmp_path / "store", executor="local:1")
    assert summary.exit_code == 0 and summary.stored == 40
    con = open_store(tmp_path / "store")
    try:
        [(rows, players)] = con.sql("SELECT (SELECT count(*) FROM results), (SELECT sum(len(players)) FROM deals)"
                                    ).fetchall()
        assert rows == players == sum(len(r["players"]) for r in records)
        assert con.sql("SELECT count(DISTINCT source_pos), min(source_line), max(source_line) FROM deals"
                       ).fetchall() == [(40, 1, 1)]
    finally:
        con.close()
    _agree(tmp_path / "store", [path])


def test_a_one_line_list_goes_on_with_a_session_of_another_file(tmp_path: Path) -> None:
    records = session_records(30, seed=5, session_size=(10, 15), loose=0.0)
    for i, r in enumerate(records):
        r["id"] = f"deal-{i}"
    first = _write(tmp_path / "monday", records[:8], "jsonl", gz=False)
    rest = _write(tmp_path / "tuesday", records[8:], "one-line.json", gz=False)
    ingest([first], tmp_path / "store", executor="local:1")
    summary = ingest([first, rest], tmp_path / "store", executor="local:1")
    assert summary.exit_code == 0
    _agree(tmp_path / "store", [first, rest])


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), shapes=st.lists(st.tuples(st.sampled_from(SHAPES), st.booleans()),
                                                    min_size=1, max_size=4),
       copies=st.integers(0, 5), runs=st.integers(1, 2), shard_size=st.sampled_from((7, 20_000)))
def test_every_input_shape_stores_what_check_says(tmp_path_factory: pytest.TempPathFactory, seed: int,
                                                  shapes: list[tuple[str, bool]], copies: int, runs: int,
                                                  shard_size: int) -> None:
    root = tmp_path_factory.mktemp("shapes")
    records = session_records(12 * len(shapes), seed=seed, session_size=(2, 9))
    for i, r in enumerate(records):
        r["id"] = f"deal-{i}"
    cut = len(records) // len(shapes)  # consecutive parts: a session may run from one file into the next
    parts = [records[k * cut:(k + 1) * cut if k < len(shapes) - 1 else None] for k in range(len(shapes))]
    files = [_write(root / f"part{k}", part, shape, gz) for k, (part, (shape, gz)) in enumerate(zip(parts, shapes))]
    if copies:  # the same records again in another file: stored once per copy, shown once
        files.append(_write(root / "copies", records[:copies], "one-line.json", gz=False))
    store = root / "store"
    if runs == 2 and len(files) > 1:
        ingest(files[: len(files) // 2], store, executor="local:1", shard_size=shard_size)
    summary = ingest(files, store, executor="local:2", shard_size=shard_size)
    assert summary.exit_code == 0 and summary.rejected == 0
    _agree(store, files)


def test_a_generation_keyed_by_line_gets_places_when_rescored(tmp_path: Path) -> None:
    # engine version 4 stored no source_pos: a rescore numbers the records of a line in their stored order,
    # as the reader numbers a list's elements on one line (two on line 1, one on line 2)
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ingest.pipeline import _stored_records

    path = tmp_path / "deals.parquet"
    pq.write_table(pa.table({"source_file": ["a.json", "a.json", "a.json", "b.json"], "source_line": [1, 1, 2, 1],
                             "record": ["{}", "{}", "{}", "{}"]}), path)
    assert _stored_records(str(path))["source_pos"].to_pylist() == [1 << 32, 1 << 32 | 1, 2 << 32, 1 << 32]
