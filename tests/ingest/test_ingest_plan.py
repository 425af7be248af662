"""Tests of ingest planning: discovering and fingerprinting files, cutting JSON Lines into shards."""

from __future__ import annotations

import gzip
import itertools
import os
import random
from pathlib import Path

import orjson
import pytest

from ingest.discover import discover, fingerprint
from ingest.shards import plan_lines, plan_shards, session_of
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import read_records

LIMITS = ReaderLimits()


def session_lines(rng: random.Random, n: int) -> list[bytes]:
    """Raw lines with contiguous sessions of random length, sessionless lines and blank lines."""
    lines: list[bytes] = []
    s = 0
    while len(lines) < n:
        kind = rng.random()
        if kind < 0.1:
            lines.append(b"")
        elif kind < 0.2:
            lines.append(orjson.dumps({"format": "tarock-record/1", "x": len(lines)}))
        else:
            s += 1
            session: object = s if rng.random() < 0.3 else f"s{s}"
            for _ in range(rng.randint(1, 15)):
                lines.append(orjson.dumps({"session": session, "x": len(lines)}))
                if rng.random() < 0.05:
                    lines.append(b"   ")
    return lines


def sessions_by_line(lines: list[bytes]) -> list[object]:
    return [session_of(line) for line in lines]


def check_plan(lines: list[bytes], ranges: list[tuple[int, int | None, int, int]], size: int,
               data: bytes) -> None:
    """The ranges tile the file, each starts at its first line's offset, and no cut falls inside a session."""
    assert ranges[0][0] == 1 and ranges[0][3] == 0
    for (start, end, _, _), (next_start, _, _, _) in itertools.pairwise(ranges):
        assert end is not None and next_start == end + 1 and end - start + 1 >= size
    assert ranges[-1][1] is None
    for start, _, _, offset in ranges:
        # the offset is where line ``start`` begins: just after the (start - 1)-th newline
        assert offset == (0 if start == 1 else [i for i, b in enumerate(data) if b == 10][start - 2] + 1)
    sessions = sessions_by_line(lines)
    for start, _, _, _ in ranges[1:]:
        before = [s for s in sessions[: start - 1] if isinstance(s, (str, type(None)))]
        after = [s for s in sessions[start - 1:] if isinstance(s, (str, type(None)))]
        assert before and after
        assert before[-1] is None or before[-1] != after[0], f"session {before[-1]} cut at line {start}"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("size", [1, 5, 40])
def test_cuts_never_split_a_session(tmp_path: Path, seed: int, size: int) -> None:
    rng = random.Random(seed)
    lines = session_lines(rng, 300)
    trailing = b"\n" if seed % 2 else b""
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\n".join(lines) + trailing)
    ranges = plan_lines(str(path), size, LIMITS)
    check_plan(lines, ranges, size, path.read_bytes())
    assert sum(est for _, _, est, _ in ranges) == len(path.read_bytes().splitlines())
    gz = tmp_path / "x.jsonl.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    assert plan_lines(str(gz), size, LIMITS) == ranges


def test_session_of_reads_the_raw_line() -> None:
    assert session_of(b'{"session": "a b", "seq": 1}') == "a b"
    assert session_of(b'{"session":17}') == "17"
    assert session_of(b'{"session": null}') is None
    assert session_of(b'{"seq": 3}') is None
    assert session_of(b'  ') is session_of(b"")
    # not conclusive for the regex: an escape, a nested "session" key, a float: JSON decides
    assert session_of(b'{"session": "a\\"b"}') == 'a"b'
    assert session_of(b'{"extra": {"session": "inner"}, "session": "outer"}') == "outer"
    assert session_of(b'{"session": 1.5}') is None
    assert session_of(b'{"session": "cut') is None


def test_a_session_longer_than_a_shard_stays_whole(tmp_path: Path) -> None:
    lines = [orjson.dumps({"session": "long", "seq": i}) for i in range(50)] + [b'{"session": "next"}']
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\n".join(lines))
    assert plan_lines(str(path), 10, LIMITS) == [(1, 50, 50, 0), (51, None, 1, sum(len(x) + 1 for x in lines[:50]))]


def test_empty_missing_and_broken_files_are_one_shard(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(gzip.compress(b'{"session": 1}\n' * 50)[:-20])
    assert plan_lines(str(empty), 5, LIMITS) == [(1, None, 1, 0)]
    assert plan_lines(str(tmp_path / "missing.jsonl"), 5, LIMITS) == [(1, None, 1, 0)]
    ranges = plan_lines(str(broken), 5, LIMITS)
    assert ranges[-1][1] is None  # the reader reports the truncation in the last shard


def test_shards_read_back_every_record_once(tmp_path: Path) -> None:
    lines = session_lines(random.Random(7), 200)
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\n".join(lines))
    shards = plan_shards(discover([tmp_path]), "gen-test", 17, LIMITS)
    seen = [item.line for s in shards for item in read_records(s.path, LIMITS, s.start_line, s.end_line)]
    assert seen == [i + 1 for i, line in enumerate(lines) if line.strip()]
    assert any(s.start_byte for s in shards)  # read from their offsets, the shards give the same items
    assert [item for s in shards for item in read_records(s.path, LIMITS, s.start_line, s.end_line,
                                                          start_byte=s.start_byte)] == \
        [item for s in shards for item in read_records(s.path, LIMITS, s.start_line, s.end_line)]
    assert len({s.key for s in shards}) == len(shards)
    assert plan_shards(discover([tmp_path]), "gen-test", 17, LIMITS) == shards
    assert {s.key for s in plan_shards(discover([tmp_path]), "gen-other", 17, LIMITS)}.isdisjoint(
        {s.key for s in shards})


def test_discover_and_fingerprint(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("a.jsonl", "b.json.gz", "sub/c.ndjson", "notes.txt", "sub/d.json"):
        (tmp_path / name).write_bytes(b"{}")
    found = [Path(f.path).relative_to(tmp_path).as_posix() for f in discover([tmp_path])]
    assert found == ["a.jsonl", "b.json.gz", "sub/c.ndjson", "sub/d.json"]
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * (3 << 20))
    size, before = fingerprint(big)
    assert size == 3 << 20 and before is not None
    with open(big, "r+b") as fh:  # same size, a changed byte at the end
        fh.seek(-1, os.SEEK_END)
        fh.write(b"y")
    os.utime(big, ns=(0, int(before.split(":")[1])))  # and the same mtime: the tail hash still tells
    assert fingerprint(big)[1] != before
    assert fingerprint(tmp_path / "missing.jsonl") == (0, None)


def test_lines_longer_than_a_chunk(tmp_path: Path) -> None:
    long = orjson.dumps({"session": "a", "pad": "x" * (3 << 20)})
    lines = [b'{"session": "a"}'] * 3 + [long] * 2 + [b'{"session": "b"}'] * 3 + [b"z" * (3 << 20)]
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\n".join(lines))
    starts = [0, *itertools.accumulate(len(x) + 1 for x in lines)]
    assert plan_lines(str(path), 2, LIMITS) == [(1, 5, 5, 0), (6, 8, 3, starts[5]), (9, None, 1, starts[8])]
