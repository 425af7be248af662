"""``record_packed``: the stored form of a record gives back exactly its text, and the C extension packs as
the Python reference does (ingest/packed_record.py)."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import packed_record
from ingest.packed_record import pack, pack_text, unpack, unpack_bytes
from tarock.formats.codec import dumps
from tarock.formats.reader import iter_record_files, read_records
from tests.support.paths import ROOT

# Card numbers of tarock/cards.py: T1 … T22 are 0 … 21, then hearts 4 3 2 1 J N Q K from 22 (HK = 29),
# diamonds the same from 30, spades 7 8 9 10 J N Q K from 38 (S10 = 41), clubs from 46 (C10 = 49).
HAND_WORKED = [
    # a list of cards: each code one byte 0x80 + card, the commas between them dropped
    ('{"talon":["T1","HK","S10","C10"]}', b'{"talon":[\x80\x9d\xa9\xb1]}'),
    # a code not in a list is packed too (a byte substitution): the player "T22" is card 21 = 0x95
    ('{"players":["T22","Ana"]}', b'{"players":[\x95,"Ana"]}'),
    # UTF-8 continuation bytes in the card range are escaped: č is C4 8D, ž is C5 BE (not in 0x80-0xB5)
    ('{"n":"čž"}', b'{"n":"\xc4\xff\x8d\xc5\xbe"}'),
    # two codes with nothing between them (never JSON): the second stays text, so unpacking adds no comma
    ('"T1""T2"', b'\x80"T2"'),
    # a comma not followed by a code stays; no code: nothing changes
    ('["T1",1]', b'[\x80,1]'),
    ('{"a":"T0","b":"HX"}', b'{"a":"T0","b":"HX"}'),
    ('', b''),
]


@pytest.mark.parametrize(("text", "packed"), HAND_WORKED)
def test_hand_worked_packing(text: str, packed: bytes) -> None:
    assert pack_text(text) == packed
    assert unpack_bytes(packed) == text
    assert pack(pa.array([text])).to_pylist() == [packed]
    assert unpack(pa.array([packed], pa.binary())).to_pylist() == [text]


PIECES = st.sampled_from(['"', ",", "T1", "T22", "HK", "S10", "C10", "[", "]", "{", "}", ":", "x", "č", "µ",
                          "\u0700", '"T1"', '"S10"', '"T1",', '"HK","', "Ana", " "])
TEXTS = st.lists(PIECES, max_size=16).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), TEXTS), min_size=1, max_size=6), st.integers(0, 2))
def test_a_column_packs_as_the_reference_and_comes_back(values: list[str | None], skip: int) -> None:
    column = pa.array(values, pa.string()).slice(min(skip, len(values) - 1))  # an offset into the buffers too
    expected = column.to_pylist()
    packed = pack(column)
    assert packed.to_pylist() == [None if v is None else pack_text(v) for v in expected]
    assert unpack(packed).to_pylist() == expected


def test_every_example_record_comes_back_with_and_without_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    records = [dumps(item.deal) for path in iter_record_files([ROOT / "data" / "examples"])
               for item in read_records(path) if item.deal is not None]
    assert len(records) > 40
    compiled = pack(pa.array(records))
    monkeypatch.setattr(packed_record, "PACKRECORD", None)
    assert pack(pa.array(records)).equals(compiled)
    assert unpack(compiled).to_pylist() == records
    # the card codes are most of a record: packed, a record is well under two thirds of its text
    assert sum(map(len, compiled.to_pylist())) < 0.66 * sum(len(r.encode()) for r in records)
