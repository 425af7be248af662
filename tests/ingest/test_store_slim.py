"""The slimmer store loses nothing (issue 22).

The files pack the record (each card code one byte) and leave a hand's counts to the views (docs/store.md,
"What the files leave to the views").  These tests read real stores back through the DuckDB views and check
that every record comes back exactly — the canonical text the codec writes for the record read from the
input file — with the ``deal_id`` and ``content_hash`` the codec gives it, and that the hand counts the views
compute are those of ``ingest.hand_features`` (itself checked against hands counted by hand in
tests/ingest/test_ingest_hands.py).
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import duckdb
import numpy as np
import orjson
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ingest.config import IngestOptions
from ingest.coordinator import run_ingest
from ingest.hand_features import hand_feature_sql, hand_features
from ingest.layout import StoreLayout
from ingest.packed_record import unpack, unpack_bytes
from ingest.schema import COMPUTED_COLUMNS, DEAL_TABLES
from ingest.store import open_store, table_files
from tarock.cards import N_CARDS
from tarock.formats.codec import content_id, dumps
from tarock.formats.reader import iter_record_files, read_records
from tarock.sim.randomplay import random_record
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"


def _expected(paths: list[Path]) -> dict[tuple[str, int], tuple[str, str]]:
    """Per record of the inputs, by (file, line): its canonical text and its deal id, from the codec alone."""
    out = {}
    for path in iter_record_files(paths):
        for item in read_records(path):
            if item.deal is not None:
                out[item.file, item.line] = (dumps(item.deal), item.deal.id or content_id(item.deal))
    return out


def _assert_every_record_comes_back(store: Path, expected: dict[tuple[str, int], tuple[str, str]]) -> None:
    con = open_store(store)
    shown = {(f, line): (record, deal_id, digest) for f, line, record, deal_id, digest in con.sql(
        "SELECT source_file, source_line, record, deal_id, content_hash FROM deals").fetchall()}
    hidden = {(f, line) for f, line in con.sql("SELECT source_file, source_line FROM duplicates").fetchall()}
    # every record read is shown once or listed as a hidden copy of one shown
    assert set(shown) | hidden == set(expected)
    assert not set(shown) & hidden
    for place, (record, deal_id, digest) in shown.items():
        assert (record, deal_id) == expected[place], place
        assert digest == hashlib.sha256(record.encode()).hexdigest(), place
    # the child tables carry the same deal ids as their deals
    for table in DEAL_TABLES:
        if table == "deals":
            continue
        wrong = con.sql(f"SELECT count(*) FROM {table} t JOIN deals d USING (shard, source_file, source_line) "
                        "WHERE t.deal_id IS DISTINCT FROM d.deal_id OR t.content_hash <> d.content_hash").fetchall()
        assert wrong == [(0,)], table


def test_every_example_record_comes_back_exactly(tmp_path: Path) -> None:
    store = tmp_path / "store"
    run_ingest([EXAMPLES], store, "local:1", shard_size=3)
    expected = _expected([EXAMPLES])
    assert len(expected) > 40  # the examples: every finding's pair, the sessions, Königrufen
    _assert_every_record_comes_back(store, expected)


def _generated(path: Path, deals: int, seed: int) -> None:
    """Random legal Slovenian deals (3 and 4 players), every tenth with its own ``id`` (the others get their
    content id), in sessions of 20."""
    rng = random.Random(seed)
    with open(path, "wb") as fh:
        for i in range(deals):
            record = random_record(rng, 4 if rng.random() < 0.75 else 3)
            record["session"], record["seq"] = f"s{i // 20:06d}", i % 20
            if i % 10 == 0:
                record["id"] = f"own-{i}"
            fh.write(orjson.dumps(record) + b"\n")


def test_generated_records_come_back_exactly_and_are_stored_packed(tmp_path: Path) -> None:
    source = tmp_path / "deals.jsonl"
    _generated(source, 2_000, 7)
    store = tmp_path / "store"
    run_ingest([source], store, "local:1", shard_size=700)
    _assert_every_record_comes_back(store, _expected([source]))
    # the files hold the records packed: a generated record's ~100 card codes ("T21", with the comma between
    # two: 4 to 6 bytes each) are one byte each, so each is some 300 bytes shorter than its text
    files = pa.concat_tables(pq.read_table(f, columns=["deal_id", "record_packed"])
                             for f in table_files(store, "deals"))
    packed = files["record_packed"].to_pylist()
    records = [unpack_bytes(b) for b in packed]
    assert sum(orjson.loads(r).get("id") is not None for r in records) == 200
    assert all(len(b) < len(r.encode()) - 250 for b, r in zip(packed, records))


@pytest.mark.slow
def test_a_hundred_thousand_generated_records_come_back_exactly(tmp_path: Path) -> None:
    source = tmp_path / "deals.jsonl"
    _generated(source, 100_000, 22)
    store = tmp_path / "store"
    run_ingest([source], store, "local:2")
    _assert_every_record_comes_back(store, _expected([source]))


def test_the_hand_counts_are_not_stored_and_the_views_compute_them(tmp_path: Path) -> None:
    source = tmp_path / "deals.jsonl"
    _generated(source, 300, 3)
    store = tmp_path / "store"
    run_ingest([source, EXAMPLES / "seed_hearts_trick.json"], store, "local:1")
    for file in table_files(store, "hands"):
        stored = set(pl.read_parquet_schema(file))
        assert "hand_mask" in stored and not stored & set(COMPUTED_COLUMNS["hands"])
    con = open_store(store)
    shown = con.sql("SELECT * FROM hands").pl()
    assert shown.height == con.sql("SELECT sum(n_players) FROM deals").fetchall()[0][0]  # every record has hands
    for name, values in hand_features(shown["hand_mask"].to_numpy().astype(np.uint64)).items():
        assert shown[name].to_list() == values.tolist(), name


def test_the_sql_of_the_hand_counts_is_numpys_on_any_mask() -> None:
    """Every 54-bit mask shape: empty, full deck, single cards, and random hands of every size."""
    rng = random.Random(54)
    masks = [0, (1 << N_CARDS) - 1, *(1 << c for c in range(N_CARDS))]
    masks += [sum(1 << c for c in rng.sample(range(N_CARDS), rng.randint(0, N_CARDS))) for _ in range(2_000)]
    con = duckdb.connect()
    con.execute("CREATE TABLE h AS SELECT unnest($1::BIGINT[]) AS hand_mask", [masks])
    sql = hand_feature_sql("hand_mask")
    got = con.sql("SELECT " + ", ".join(f"{expr} AS {name}" for name, expr in sql.items()) + " FROM h").pl()
    expected = hand_features(np.array(masks, np.uint64))
    assert list(sql) == list(expected)
    for name, values in expected.items():
        assert got[name].to_list() == values.tolist(), name


def _as_written_before(store: Path) -> None:
    """Rewrite the current generation's ``deals`` files the way ``ENGINE_VERSION`` 2 wrote them: ``record`` as
    text where ``record_packed`` is now (and the shard markers' column lists with it)."""
    layout = StoreLayout.at(store)
    generation = layout.read_current()
    assert generation is not None
    for file in table_files(store, "deals"):
        table = pq.read_table(file)
        at = table.schema.get_field_index("record_packed")
        pq.write_table(table.set_column(at, "record", unpack(table["record_packed"])), file)
    for marker in layout.marker_path(generation, "x").parent.glob("*.json"):
        body = orjson.loads(marker.read_bytes())
        body["columns"]["deals"] = ["record" if c == "record_packed" else c for c in body["columns"]["deals"]]
        marker.write_bytes(orjson.dumps(body))


def test_a_store_whose_records_are_text_reads_the_same_and_rescores(tmp_path: Path) -> None:
    """A generation written before the packed form (``record`` as text) opens with every record, and
    ``--rescore`` reads its records (ingest.pipeline._stored_records) into the packed form."""
    store = tmp_path / "store"
    first = run_ingest([EXAMPLES], store, "local:1", shard_size=3)
    expected = _expected([EXAMPLES])
    _as_written_before(store)
    assert all("record" in pq.read_schema(f).names for f in table_files(store, "deals"))
    _assert_every_record_comes_back(store, expected)
    # a rescore into another generation (other options, as another engine version would) reads the text
    rescored = run_ingest([], store, "local:1", options=IngestOptions.make({"diff_rounding": "none"}), rescore=True)
    assert rescored.switched and (rescored.stored, rescored.rejected) == (first.stored, first.rejected)
    assert all("record_packed" in pq.read_schema(f).names for f in table_files(store, "deals"))
    _assert_every_record_comes_back(store, expected)
