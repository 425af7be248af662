"""Ingest's bulk path stores exactly what the reference engine stores, file by file, row by row.

The bulk path (``ingest.bulk``) turns plain, clean Slovenian records into rows without a ``Deal`` or
a check object, and hands everything else — and the rest of that record's session, with the radelci
reached so far — to the usual path.  Each input here is ingested twice, shard by shard in this process:
once as ingest runs, once with the accelerator switched off (``tarock.accel.reference()``: no bulk
path, no fast lane, the pure-Python engine throughout).  Every Parquet file of the two stores must hold
the same rows in the same order.  The inputs mix what the bulk path takes with everything it must
decline: renons and other findings in the middle of sessions that carry radelci, bidding,
announcements, recorded scores, named plays, table events, record options, ids, dates, numeric
sessions, sessions out of order, duplicates and lines that are no records.
"""

from __future__ import annotations

import random
import subprocess
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pyarrow.parquet as pq
import pytest

from ingest import bulk
from ingest.bulk import BulkPath
from ingest.config import IngestOptions
from ingest.discover import discover
from ingest.layout import StoreLayout
from ingest.pipeline import process_shard
from ingest.rows import CleanRows, ShardRows
from ingest.shards import plan_shards
from tarock import accel
from tarock.accel import declared, lane
from tarock.accel.scorer import scorer
from tarock.sim.randomplay import random_record
from tarock.formats.codec import dumps, loads
from tarock.formats.items import ReaderLimits
from tarock.sim.simulate import simulate
from tests.support.ingest_util import session_records

pytestmark = pytest.mark.skipif(accel.KERNEL is None or scorer() is None or bulk.BULKROWS is None,
                                reason="the accelerator is not built (test_built says why)")

OPTION_SETS: list[dict[str, Any]] = [
    {"diff_rounding": "none"}, {"radelci": False}, {"radelc_scope": "each_player"},
    {"klop_radelc_double": False}, {"silent_pagat_failure": False}, {"mondfang_value": 20},
    {"mondfang_any_side": True}, {"emperor_trick": False}, {"forced_pagat": "none"},
]


def _swap_two_cards(record: dict[str, Any], rng: random.Random) -> None:
    """Two cards of different tricks exchanged: usually a renons somewhere (or an out-of-hand card)."""
    tricks = record["tricks"]
    a, b = rng.sample(range(len(tricks)), 2)
    i, j = rng.randrange(len(tricks[a])), rng.randrange(len(tricks[b]))
    tricks[a][i], tricks[b][j] = tricks[b][j], tricks[a][i]


def _named(record: dict[str, Any]) -> None:
    """Every play written "Name:CODE" (the reader's other form of tricks)."""
    players = record["players"]
    seat = 0
    named = []
    for trick in record["tricks"]:
        named.append([f"{players[(seat + k) % len(players)]}:{card}" for k, card in enumerate(trick)])
    record["tricks"] = named  # seats are wrong after the first trick in general: the usual path says so


def mixed_records(seed: int) -> list[bytes]:
    """Lines of every kind the bulk path takes or must decline, in sessions that carry radelci."""
    rng = random.Random(seed)
    records = session_records(1200, seed=seed, session_size=(3, 14))
    for record in records:
        roll = rng.random()
        if roll < 0.06:
            _swap_two_cards(record, rng)
        elif roll < 0.09:
            record["options"] = rng.choice(OPTION_SETS)
        elif roll < 0.11:
            record["id"] = f"given-{rng.randrange(10**6)}"
        elif roll < 0.13:
            record["date"] = rng.choice(("2026-05-01", "2026-05-01T20:15:00", "2026-13-01"))
        elif roll < 0.14:
            _named(record)
        elif roll < 0.15:
            record["events"] = [{"event": "renons_called", "after_trick": 2}]
        elif roll < 0.16 and "declarer" in record:
            record["declarer"] = [record["declarer"]]
        elif roll < 0.17:
            record.pop("talon")
    # sessions numbered, and one session's deals out of order
    for record in records[:40]:
        if "session" in record:
            record["session"] = 900000 + zlib.crc32(record["session"].encode()) % 7
    tail = [r for r in records if r.get("session") == records[-1].get("session")]
    for record, seq in zip(tail, reversed(range(len(tail)))):
        record["seq"] = seq
    simulated = [r for r, _ in simulate(4, 8, 12, seed=seed, mistakes=0.3)]
    simulated += [r for r, _ in simulate(3, 4, 12, seed=seed + 1, mistakes=0.3)]
    lines = [orjson.dumps(r) for r in records + simulated]
    lines += lines[:25]  # duplicates of stored deals
    lines.insert(100, b'{"format": "tarock-record/1", "ruleset": "slovenian"')
    lines.insert(200, b"[1, 2, 3]")
    return lines


def ingest_shards(source: Path, store: Path, options: IngestOptions, shard_size: int) -> dict[str, int]:
    """Every shard of ``source`` processed in this process; the totals of the shard reports."""
    totals = {"read": 0, "stored": 0, "rejected": 0, "ok": 0, "renons": 0, "error": 0}
    for shard in plan_shards(discover([source]), options.generation, shard_size):
        report = process_shard(shard, str(store), options)
        for key in totals:
            totals[key] += getattr(report, key)
    return totals


def parquet_files(store: Path, generation: str) -> dict[str, list[dict[str, Any]]]:
    """Every Parquet file of a generation of the store, by path, as rows."""
    root = StoreLayout.at(store).generation_dir(generation)
    return {str(p.relative_to(root)): pq.read_table(p).to_pylist() for p in sorted(root.rglob("*.parquet"))}


@pytest.mark.slow
@pytest.mark.parametrize("overrides", [{}, {"diff_rounding": "none", "radelc_scope": "each_player"}])
def test_the_bulk_path_stores_what_the_reference_stores(tmp_path: Path, overrides: dict[str, Any],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(b"\n".join(mixed_records(7)) + b"\n")
    options = IngestOptions.make(overrides)
    added = []
    add = BulkPath.add
    monkeypatch.setattr(BulkPath, "add", lambda self, plain: added.append(add(self, plain)) or added[-1])
    fast = ingest_shards(source, tmp_path / "fast", options, 500)
    with accel.reference():
        slow = ingest_shards(source, tmp_path / "slow", options, 500)
    assert fast == slow
    # the bulk path did most of the work, and left some of what it took to the usual path
    assert sum(added) > 0.5 * fast["stored"] and not all(added)
    assert slow["renons"] > 20 and slow["error"] > 5 and slow["rejected"] >= 2
    fast_files = parquet_files(tmp_path / "fast", options.generation)
    slow_files = parquet_files(tmp_path / "slow", options.generation)
    assert fast_files.keys() == slow_files.keys()
    for name, rows in slow_files.items():
        assert fast_files[name] == rows, name


def test_most_plain_records_take_the_bulk_path_and_faulty_ones_do_not(tmp_path: Path) -> None:
    rng = random.Random(5)
    clean = [random_record(rng, rng.choice((3, 4)), named=rng.random() < 0.5) for _ in range(300)]
    assert any(":" in r["tricks"][0][0] for r in clean) and any(":" not in r["tricks"][0][0] for r in clean)
    faulty = []
    for _ in range(100):
        record = random_record(rng, 4)
        _swap_two_cards(record, rng)
        faulty.append(record)
    rows = ShardRows("k")
    bulk = BulkPath.for_shard(rows, "f.jsonl", "f.jsonl", ReaderLimits(), {})
    assert bulk is not None
    taken = [bulk.take(line, orjson.dumps(r)) for line, r in enumerate(clean + faulty, 1)]
    assert all(t is not None for t in taken)  # plain records: all read by the bulk path
    added = [bulk.add(t) for t in taken]  # type: ignore[arg-type]
    # every random legal record is clean; a swap of two cards leaves a renons or a card out of hand
    # in all but the rare case where both cards were legal where they land (and then it is clean too)
    assert all(added[:300])
    assert sum(added[300:]) < 10
    assert sum(len(part.deals) for part in rows._clean.values()) == sum(added)
    # named plays are read by the kernel: a play named for someone else, or for nobody, is declined
    named = random_record(rng, 4, named=True)
    first = named["tricks"][0]
    for wrong in (f"Zala:{first[0].split(':')[1]}", f"{first[1].split(':')[0]}:{first[0].split(':')[1]}",
                  first[0].split(":")[1]):
        record = orjson.loads(orjson.dumps(named))
        record["tricks"][0][0] = wrong
        plain = bulk.take(1, orjson.dumps(record))
        assert plain is None or bulk.add(plain) is False, wrong


def test_records_that_are_not_plain_are_left_to_the_usual_reader() -> None:
    rows = ShardRows("k")
    bulk = BulkPath.for_shard(rows, "f.jsonl", "f.jsonl", ReaderLimits(), {})
    assert bulk is not None
    record = random_record(random.Random(1), 4)
    assert bulk.take(1, orjson.dumps(record)) is not None
    for change in ({"bidding": [["Zala", "pass"]]}, {"bidding": [["Ana", "Tri"]]},
                   {"announcements": [{"player": "Zala", "bonus": "trula"}]},
                   {"announcements": [{"player": "Ana", "bonus": "trula", "level": 2}]},
                   {"recorded": {"scores": {"Zala": 10}}},
                   {"conceded": True}, {"ruleset": "koenigrufen"}, {"contract": "Tri"},
                   {"players": ["Ana", "Ana", "Cilka", "David"]}, {"id": ""}, {"unknown": 1}, {"date": "yesterday"},
                   {"events": [{"event": "renons_called", "after_trick": 1}]}, {"declarer": ["Ana"]}):
        assert bulk.take(1, orjson.dumps({**record, **change})) is None, change
    # a bidding, announcements and a score sheet are plain; the sheet comes out in playing order, as the
    # reference writes it
    sheet = {"recorded": {"scores": {"David": 0, "Ana": 10}}, "bidding": [["Boris", "pass"], ["Ana", "pass"]],
             "announcements": [{"player": "Ana", "bonus": "trula"}]}
    plain = bulk.take(1, orjson.dumps({**record, **sheet}))
    assert plain is not None and list(plain.record.recorded.scores) == ["Ana", "David"]
    assert plain.text == dumps(loads(orjson.dumps({**record, **sheet}))).encode()


def test_a_session_goes_on_in_the_bulk_path_after_a_deal_it_declined(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # a Klop gives every player a radelc (docs/rules.md); the next deal has a renons, so the usual path scores
    # it; the third is clean again and must be scored with the radelci the first two left (the bulk path
    # and the checker keep one ledger per session)
    rng = random.Random(11)
    klop = random_record(rng, 4, contract="klop")
    faulty = random_record(rng, 4, contract="tri")
    while True:  # two cards swapped until the swap is a fault
        candidate = orjson.loads(orjson.dumps(faulty))
        _swap_two_cards(candidate, rng)
        if BulkPath.for_shard(ShardRows("k"), "f", "f", ReaderLimits(), {}).add(  # type: ignore[union-attr]
                BulkPath.take(1, orjson.dumps(candidate))) is False:
            break
    third = random_record(rng, 4, contract="tri")
    records = [klop, candidate, third]
    for seq, record in enumerate(records):
        record.update(session="s", seq=seq)
    source = tmp_path / "s.jsonl"
    source.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    added: list[bool] = []
    add = BulkPath.add
    monkeypatch.setattr(BulkPath, "add", lambda self, plain: added.append(add(self, plain)) or added[-1])
    options = IngestOptions.make()
    ingest_shards(source, tmp_path / "fast", options, 500)
    assert added == [True, False, True]
    with accel.reference():
        ingest_shards(source, tmp_path / "slow", options, 500)
    fast, slow = parquet_files(tmp_path / "fast", options.generation), parquet_files(tmp_path / "slow", options.generation)
    assert fast == slow
    results = next(rows for name, rows in fast.items() if name.startswith("results/"))
    third_before = [r["radelci_before"] for r in results if r["source_pos"] == 3 << 32]
    assert len(third_before) == 4 and sum(third_before) >= 3  # the Klop gave 4; the second deal cancels one at most


def test_a_shard_whose_plain_records_all_go_the_usual_way(tmp_path: Path) -> None:
    # a solo is a 4-player contract: a 3-player record of one is plain but never clean, so the bulk path
    # prepares for its partition and adds nothing there; the usual path stores it (with its E_BID finding)
    record = random_record(random.Random(3), 3, contract="tri")
    record["contract"] = "solo_tri"
    source = tmp_path / "s.jsonl"
    source.write_bytes(orjson.dumps(record) + b"\n")
    options = IngestOptions.make()
    totals = ingest_shards(source, tmp_path / "fast", options, 500)
    assert totals["read"] == totals["stored"] == 1
    with accel.reference():
        ingest_shards(source, tmp_path / "slow", options, 500)
    assert parquet_files(tmp_path / "fast", options.generation) == parquet_files(tmp_path / "slow", options.generation)


def _stores_the_same(tmp_path: Path, source: Path, options: IngestOptions) -> None:
    """The store ingested as ingest runs is the store the reference makes, file by file."""
    ingest_shards(source, tmp_path / "fast", options, 500)
    with accel.reference():
        ingest_shards(source, tmp_path / "slow", options, 500)
    fast = parquet_files(tmp_path / "fast", options.generation)
    slow = parquet_files(tmp_path / "slow", options.generation)
    assert fast.keys() == slow.keys()
    for name, rows in slow.items():
        assert fast[name] == rows, name


@pytest.mark.slow
def test_options_the_accelerator_does_not_declare_go_the_usual_way(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With a field dropped from the accelerator's declarations (``tarock.accel.declared``) the bulk path adds
    no deal -- ``add_clean`` is never called, ``add_plain`` finds no context -- and the store is the
    reference's; with a value dropped, only the deals under that value go the usual way."""
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(b"\n".join(mixed_records(11)) + b"\n")
    options = IngestOptions.make()
    real = bulk.BULKROWS
    assert real is not None
    clean_calls: list[Any] = []

    def add_clean(*args: Any) -> bool:
        clean_calls.append(args)
        return real.add_clean(*args)
    monkeypatch.setattr(bulk, "BULKROWS", SimpleNamespace(add_plain=real.add_plain, add_clean=add_clean,
                                                          CONTEXT_FIELDS=real.CONTEXT_FIELDS))
    added: list[tuple[Any, bool]] = []  # (the record's own options, added)
    add = BulkPath.add

    def watched(self: BulkPath, plain: Any) -> bool:
        added.append((plain.record.options, add(self, plain)))
        return added[-1][1]
    monkeypatch.setattr(BulkPath, "add", watched)
    monkeypatch.setattr(declared, "_VERDICTS", {})
    monkeypatch.setattr(lane, "_PLANS", {})
    table = dict(declared.DECLARED["slovenian"])
    monkeypatch.setitem(declared.DECLARED, "slovenian", {k: v for k, v in table.items() if k != "radelci"})
    _stores_the_same(tmp_path / "field", source, options)
    assert added and not any(ok for _, ok in added) and not clean_calls
    # a value dropped: the records with {"diff_rounding": "none"} of their own decline, the others need not
    added.clear()
    monkeypatch.setitem(declared.DECLARED, "slovenian", dict(table, diff_rounding=("nearest5",)))
    declared.forget()
    monkeypatch.setattr(lane, "_PLANS", {})
    _stores_the_same(tmp_path / "value", source, options)
    rounded = [ok for own, ok in added if own is not None and own.get("diff_rounding") == "none"]
    assert rounded and not any(rounded)
    assert sum(ok for _, ok in added) > 0.5 * len(added)


@pytest.mark.slow
def test_without_its_extension_the_bulk_path_is_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ingest._bulkrows`` missing: no bulk path, and the usual path stores the same."""
    code = ("import sys; sys.modules['ingest._bulkrows'] = None\n"
            "from ingest import bulk\n"
            "from ingest.rows import ShardRows\n"
            "from tarock import accel\n"
            "from tarock.formats.items import ReaderLimits\n"
            "assert accel.KERNEL is not None and bulk.BULKROWS is None\n"
            "assert bulk.BulkPath.for_shard(ShardRows('k'), 'f', 'f', ReaderLimits(), {}) is None\n")
    subprocess.run([sys.executable, "-c", code], check=True)
    monkeypatch.setattr(bulk, "BULKROWS", None)
    assert BulkPath.for_shard(ShardRows("k"), "f", "f", ReaderLimits(), {}) is None
    source = tmp_path / "mixed.jsonl"
    source.write_bytes(b"\n".join(mixed_records(13)[:300]) + b"\n")
    _stores_the_same(tmp_path, source, IngestOptions.make())


def test_a_row_or_context_laid_out_otherwise_turns_the_bulk_path_off_or_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``ingest._bulkrows`` writes its ``deals`` row in ``CleanRows.ROW``'s order or not at all; a context
    name it reads that ``ingest.bulk`` does not give fails at once; a plain record without a field it reads
    is refused."""
    real = bulk.BULKROWS
    assert real is not None
    assert tuple(real.DEAL_ROW) == CleanRows.ROW
    monkeypatch.setattr(CleanRows, "ROW", CleanRows.ROW[::-1])
    with pytest.warns(RuntimeWarning, match="deals row"):
        assert bulk._load() is None
    monkeypatch.undo()
    path = BulkPath.for_shard(ShardRows("k"), "f", "f", ReaderLimits(), {})
    assert path is not None
    path._context_fields = (*path._context_fields, "no_such_column")
    with pytest.raises(LookupError, match="no_such_column"):
        path._spec("tri", 4, path.default, True)
    with pytest.raises(ValueError, match="pos"):
        real.init(("line", "record", "players", "text", "digest", "deal_id"))
    assert bulk._load() is real  # the real layout, again
