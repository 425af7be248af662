"""``record_packed`` version 2 (ingest/packed_record.py): the skeleton and the range-coded cards give back
exactly the text, the C extension writes the Python reference's bytes, irregular records fall back to
version 1, and version-1 values (stores written before) still read."""

from __future__ import annotations

import copy
import math
import random
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import packed_record
from ingest.coordinator import run_ingest
from ingest.packed_record import CARD_BYTE, V2, pack, pack_text, pack_v1, unpack, unpack_bytes
from ingest.store import open_store, table_files
from tarock.cards import CODES
from tarock.formats.codec import dumps, loads
from tarock.formats.reader import iter_record_files, read_records
from tarock.sim.randomplay import random_record
from tests.support.paths import ROOT

needs_c = pytest.mark.skipif(packed_record.PACKRECORD is None, reason="ingest._packrecord is not built")


def _records(paths: list[Path]) -> list[str]:
    return [dumps(item.deal) for path in iter_record_files(paths) for item in read_records(path)
            if item.deal is not None]


def _generated(count: int, seed: int) -> list[str]:
    """Random legal Slovenian deals (3 and 4 players), canonical."""
    rng = random.Random(seed)
    return [dumps(loads(orjson.dumps(random_record(rng, 4 if rng.random() < 0.75 else 3))))
            for _ in range(count)]


def _assert_exact(texts: list[str]) -> list[bytes]:
    """The Python reference's stored forms of ``texts``, after checking that they give the texts back and that
    the C extension (where built) writes and reads the same bytes."""
    reference = [pack_text(text) for text in texts]
    assert [unpack_bytes(b) for b in reference] == texts
    if packed_record.PACKRECORD is not None:
        compiled = pack(pa.array(texts, pa.string()))
        assert compiled.to_pylist() == reference
        assert unpack(compiled).to_pylist() == texts
    return reference


def _code(value: bytes) -> bytes:
    """The range code of a version-2 value (its last bytes, as many as its second byte says)."""
    return value[len(value) - value[1]:]


# --------------------------------------------------------------------------- every record comes back

def test_every_example_and_sample_record_comes_back_and_c_writes_the_reference() -> None:
    records = _records([ROOT / "data" / "examples", ROOT / "data" / "sample"])
    assert len(records) > 5_500  # 4,000 + 1,200 + 300 samples (4 players, 3, Königrufen) and the examples
    stored = _assert_exact(records)
    # every sample deal is dealt in full (hands in card order, the talon), so version 2 holds all of them
    samples = _records([ROOT / "data" / "sample"])
    assert all(b[0] == V2 for b in _assert_exact(samples))
    assert sum(map(len, stored)) < sum(len(pack_v1(r)) for r in records)


def test_generated_deals_come_back_and_take_about_thirty_bytes_of_code() -> None:
    records = _generated(2_000, 5)
    stored = _assert_exact(records)
    assert all(b[0] == V2 for b in stored)
    # the information of a 4-player deal's cards: who holds what, log2(54! / (12!^4 6!)) = 113.0 bits, the
    # talon's order log2(6!) = 9.5 bits, and about 4 * log2(12!) = 115 bits for uniformly chosen trick cards
    # (less where following suit narrows the choice): some 30 bytes, never the 100 one byte a card takes
    mean = sum(len(_code(b)) for b in stored) / len(stored)
    assert 20 < mean < 34


def test_a_deal_without_tricks_costs_its_multinomial() -> None:
    record = _deal(11, 4)
    for key in ("talon_pick", "stash", "tricks"):  # the deal alone
        record.pop(key, None)
    text = orjson.dumps(record).decode()
    code = _code(_assert_exact([text])[0])
    # 54! / (12!^4 * 6!) deals and 6! talon orders: log2 of them is 113.0 + 9.5 = 122.5 bits = 15.3 bytes; the
    # range coder codes each owner at its exact share, so 16 bytes, plus at most 2 for its flush and rounding
    bits = math.log2(math.factorial(54) / (math.factorial(12) ** 4 * math.factorial(6))) + math.log2(720)
    assert math.ceil(bits / 8) == 16
    assert 15 <= len(code) <= 18


# --------------------------------------------------------------------------- irregular records

def _deal(seed: int, players: int = 4) -> dict[str, Any]:
    rng = random.Random(seed)
    return orjson.loads(dumps(loads(orjson.dumps(random_record(rng, players)))))


def _text(record: dict[str, Any]) -> str:
    return orjson.dumps(record).decode()


def _mutated(name: str) -> dict[str, Any]:
    record = _deal(3)
    hands, tricks = record["hands"], record["tricks"]
    first, second = record["players"][0], record["players"][1]
    if name == "card twice in the hands":
        hands[second][0] = hands[first][0]
        hands[second].sort(key=CODES.index)
    elif name == "hand out of order":
        hands[first][0], hands[first][1] = hands[first][1], hands[first][0]
    elif name == "short deal":
        hands[first].pop()
    elif name == "no hands":
        del record["hands"]
    elif name == "card not in hand":
        tricks[0][0], tricks[1][0] = tricks[1][0], tricks[0][0]
    elif name == "card twice in the tricks":
        tricks[2][1] = tricks[0][1]
    elif name == "short trick":
        tricks[3].pop()
    elif name == "talon card played":
        tricks[4][2] = record["talon"][0]
    elif name == "extra fields":
        record["note"] = {"cards": ["T1", "HK"], "by": "T22", "n": 3}
    elif name == "non-ASCII names":
        names = {first: "Čeněk", second: "Žiga µ"}
        record["players"] = [names.get(p, p) for p in record["players"]]
        record["hands"] = {names.get(p, p): h for p, h in hands.items()}
        if record.get("declarer") in names:
            record["declarer"] = names[record["declarer"]]
    return record


REGULAR_ENOUGH = ["card not in hand", "card twice in the tricks", "short trick", "talon card played",
                  "extra fields", "non-ASCII names"]
"""Still a full deal opening the runs: version 2, the odd cards coded as loose cards."""
NOT_A_DEAL = ["card twice in the hands", "hand out of order", "short deal", "no hands"]
"""The runs do not open with a deal (a card twice, a hand not in card order, 53 cards, none): version 1."""


@pytest.mark.parametrize("name", REGULAR_ENOUGH + NOT_A_DEAL)
def test_an_irregular_record_comes_back(name: str) -> None:
    text = _text(_mutated(name))
    stored = _assert_exact([text])[0]
    if name in NOT_A_DEAL:
        assert stored == pack_v1(text)
    else:
        assert stored[0] == V2


def test_three_player_and_koenigrufen_deals_take_version_2() -> None:
    three = [_text(_deal(seed, 3)) for seed in range(20)]
    kr = _records([ROOT / "data" / "sample" / "sample-kr.jsonl.gz"])[:50]
    assert all(b[0] == V2 for b in _assert_exact(three + kr))


# --------------------------------------------------------------------------- version 1 still reads

def test_a_version_1_value_of_a_deal_still_unpacks() -> None:
    """Version 1 as the rule writes it by hand (each quoted code one byte ``CARD_BYTE + card``, the commas
    between codes dropped), of a record version 2 now holds."""
    record = _deal(8)
    hands = ",".join(f'"{p}":[' + bytes(CARD_BYTE + CODES.index(c) for c in h).decode("latin-1") + "]"
                     for p, h in record["hands"].items())
    text = _text({"players": record["players"], "hands": record["hands"], "talon": record["talon"]})
    by_hand = ('{"players":' + orjson.dumps(record["players"]).decode() + ',"hands":{' + hands + '},"talon":['
               + bytes(CARD_BYTE + CODES.index(c) for c in record["talon"]).decode("latin-1") + "]}"
               ).encode("latin-1")
    assert pack_v1(text) == by_hand
    assert pack_text(text)[0] == V2  # written now as version 2 …
    assert unpack_bytes(by_hand) == text  # … while a version-1 value of a store written before still reads
    assert unpack(pa.array([by_hand], pa.binary())).to_pylist() == [text]


def test_the_fallback_writes_version_1_exactly() -> None:
    """Where version 2 does not apply the stored form is version 1, byte for byte (the hand-worked cases of
    tests/ingest/test_packed_record.py check that form itself)."""
    texts = [_text(_mutated(name)) for name in NOT_A_DEAL] + ['{"talon":["T1","HK","S10","C10"]}', "", "x"]
    assert _assert_exact(texts) == [pack_v1(t) for t in texts]


@pytest.mark.parametrize("damaged", [
    bytes([V2]), bytes([V2, 9]), bytes([V2, 200]) + b"{}", bytes([V2, 0]) + b"{}",  # cut short
    bytes([V2, 0, 0]) + b"{}",  # a skeleton with no deal
    bytes([V2, 0, 0]) + b'{"a":1}',  # a template with a value to put back and no values
    bytes([V2, 0, 2]) + b"x\0{}",  # values and no place for them
    bytes([V2, 0, 0x81])])
def test_a_damaged_version_2_value_is_an_error(damaged: bytes) -> None:
    with pytest.raises(ValueError):
        unpack_bytes(damaged)
    if packed_record.PACKRECORD is not None:
        with pytest.raises(ValueError):
            unpack(pa.array([damaged], pa.binary()))


# --------------------------------------------------------------------------- properties

@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(), min_size=1, max_size=4))
def test_any_text_comes_back(texts: list[str]) -> None:
    _assert_exact(texts)


MUTATIONS = st.lists(st.tuples(st.sampled_from(["swap", "copy", "drop", "byte", "talon"]),
                               st.integers(0, 10_000), st.integers(0, 10_000)), max_size=4)


def _mutate(record: dict[str, Any], steps: list[tuple[str, int, int]]) -> str:
    record = copy.deepcopy(record)
    tricks = record["tricks"]
    for kind, a, b in steps:
        x, y = tricks[a % len(tricks)], tricks[b % len(tricks)]
        if kind == "swap" and x and y:
            i, j = a % len(x), b % len(y)
            x[i], y[j] = y[j], x[i]
        elif kind == "copy" and x and y:
            x[a % len(x)] = y[b % len(y)]
        elif kind == "drop" and x:
            x.pop(a % len(x))
        elif kind == "talon" and x:
            x[a % len(x)] = record["talon"][b % len(record["talon"])]
    text = _text(record)
    for kind, a, b in steps:
        if kind == "byte":
            at = a % (len(text) + 1)
            text = text[:at] + chr(b % 0x800) + text[at:]
    return text


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 50), MUTATIONS)
def test_a_mutated_record_comes_back(seed: int, steps: list[tuple[str, int, int]]) -> None:
    _assert_exact([_mutate(_deal(seed, 4 if seed % 4 else 3), steps)])


# --------------------------------------------------------------------------- a store

def test_a_store_gives_back_the_canonical_records_stored_as_version_2(tmp_path: Path) -> None:
    source = tmp_path / "deals.jsonl"
    source.write_text("".join(text + "\n" for text in _generated(300, 9)))
    store = tmp_path / "store"
    run_ingest([ROOT / "data" / "examples", source], store, "local:1", shard_size=100)
    expected = sorted(_records([ROOT / "data" / "examples", source]))
    shown = sorted(r for (r,) in open_store(store).sql("SELECT record FROM deals").fetchall())
    hidden = open_store(store).sql("SELECT count(*) FROM duplicates").fetchall()[0][0]
    assert len(shown) + hidden == len(expected)
    assert set(shown) <= set(expected)
    stored = [b for f in table_files(store, "deals") for b in pq.read_table(f, columns=["record_packed"])
              ["record_packed"].to_pylist()]
    assert sum(b[0] == V2 for b in stored) >= 300  # every generated deal at least


@needs_c
@pytest.mark.slow
def test_a_hundred_thousand_generated_deals_pack_as_the_reference() -> None:
    records = _generated(100_000, 22)
    compiled = pack(pa.array(records))
    assert unpack(compiled).to_pylist() == records
    assert compiled.to_pylist() == [pack_text(r) for r in records]
