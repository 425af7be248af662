"""``tarock check``'s memory of deals outside any session (``tarock.check.first_copies``): one place per deal --
its file, line and byte offset, one int -- and the first copy read again from its file when a copy comes.

The rule (docs/records.md, "Sessions"): a copy of a deal already scored (the same content hash) carries the first
copy's result, with its own ``file`` and ``line``, no findings, and ``duplicate_of`` naming the first copy's
``file:line``.  The files here are built from distinct records, so which line is a copy of which is known by
construction; each copy's printed line is checked against that rule and its first copy's printed line, and the
whole output against the pure-Python reference (``accel.reference()``), byte for byte.  The copies come from the
C calls' lines (``_checkline.check_lines``), from the usual fast path, and from the usual way (records with
mistakes the fast path declines, Königrufen and announcements from the sample), in other files than their first
copies, across the reader's 1 MiB chunks, and after lines that leave the reader's positions unknown.
"""

from __future__ import annotations

import gzip
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock import accel
from tarock.check.fast import CHECKLINE, Lines, Written
from tarock.check.first_copies import FILE_BITS, LINE_BITS, place_of, read_place, unpack
from tarock.check.result import DealCheck, encode_line
from tarock.check.sessions import FirstCopyChanged, SessionScorer, check_stream
from tarock.formats.items import MIB, ReaderLimits
from tarock.formats.reader import iter_record_files
from tarock.sim.simulate import write_simulation

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample"

needs_fast = pytest.mark.skipif(accel.KERNEL is None or CHECKLINE is None, reason="the fast path is not built here")

Layout = list[int | bytes]
"""A file's lines: an int is that record (of the test's list), bytes a line as it stands."""


def loose_records(tmp_path: Path, seed: int, sessions: int = 4, deals: int = 30) -> list[bytes]:
    """Simulated deals with mistakes (three in ten: renons, play out of turn, score slips), taken out of their
    sessions, without the score sheet (a sheet keeping a session's radelci would disagree outside it)."""
    path = tmp_path / f"sim-{seed}.jsonl"
    write_simulation(path, 4, sessions, deals, seed, mistakes=0.3)
    out = []
    for text in path.read_bytes().splitlines():
        obj = orjson.loads(text)
        for key in ("session", "seq", "recorded"):
            obj.pop(key, None)
        out.append(orjson.dumps(obj))
    return out


def sample_records(per_file: int) -> list[bytes]:
    """The first deals of each of the bundled sample's files (3 and 4 players, Königrufen; announcements among
    them) out of their sessions."""
    out = []
    for path in iter_record_files(SAMPLE):
        for text in [t for t in gzip.decompress(path.read_bytes()).splitlines() if t.strip()][:per_file]:
            if text.strip():
                obj = orjson.loads(text)
                for key in ("session", "seq", "recorded"):
                    obj.pop(key, None)
                out.append(orjson.dumps(obj))
    return out


def write(path: Path, records: list[bytes], layout: Layout, end: bytes = b"\n") -> Path:
    body = b"\n".join(records[item] if isinstance(item, int) else item for item in layout) + end
    path.write_bytes(gzip.compress(body) if path.suffix == ".gz" else body)
    return path


def checked(paths: list[Path], limits: ReaderLimits = ReaderLimits()) -> tuple[bytes, SessionScorer]:
    """What ``tarock check -f json`` prints (``check_stream`` with the command's buffer), and the run's scorer,
    whose ``loose`` is the memory of the deals outside any session."""
    out = bytearray()
    stream = check_stream(paths, None, limits, out=out)
    scorer = None
    for result in stream:
        if scorer is None:
            assert stream.gi_frame is not None
            scorer = stream.gi_frame.f_locals["scorer"]
        if not isinstance(result, (Written, Lines)):
            encode_line(result, out)
    assert isinstance(scorer, SessionScorer)
    return bytes(out), scorer


def first_copies(files: list[tuple[Path, Layout]]) -> dict[tuple[str, int], tuple[str, int]]:
    """Each copy's ``(file, line)`` and its first copy's, from the layouts: the first line holding a record is
    its first copy, every later one a copy of it."""
    first: dict[int, tuple[str, int]] = {}
    copies = {}
    for path, layout in files:
        for line, item in enumerate(layout, 1):
            if isinstance(item, int):
                here = (str(path), line)
                if item in first:
                    copies[here] = first[item]
                else:
                    first[item] = here
    return copies


def assert_copies_carry_their_first_copy(printed: bytes, files: list[tuple[Path, Layout]]) -> dict[str, int]:
    """Every printed copy is the one the layouts say, with its first copy's result as the rule has it; how
    many copies there were of first copies the fast path vouched for (``ok``) and of others."""
    by_place = {}
    for text in printed.splitlines():
        obj = orjson.loads(text)
        by_place[(obj["file"], obj["line"])] = obj
    want = first_copies(files)
    got = {place: obj["duplicate_of"] for place, obj in by_place.items() if obj.get("duplicate_of")}
    assert got == {place: f"{file}:{line}" for place, (file, line) in want.items()}
    kinds = {"ok": 0, "other": 0}
    for (file, line), first_place in want.items():
        first = by_place[first_place]
        assert "duplicate_of" not in first  # a first copy is no copy
        expected: dict[str, Any] = {**first, "file": file, "line": line, "findings": [],
                                    "duplicate_of": f"{first_place[0]}:{first_place[1]}"}
        assert by_place[(file, line)] == expected
        kinds["ok" if first["status"] == "ok" and not first["findings"] else "other"] += 1
    return kinds


def assert_places(scorer: SessionScorer, files: list[tuple[Path, Layout]], records: list[bytes]) -> int:
    """Every place in the scorer's memory is a small int that leads to the line it stands for: its text is the
    record the layout puts there.  How many places there are."""
    places = [value for value in scorer.loose.values() if type(value) is int]
    layouts = {str(path): layout for path, layout in files}
    for place in places:
        assert sys.getsizeof(place) <= 40  # an int of at most 4 digits of 30 bits
        file, line, data = read_place(scorer.files, place)
        item = layouts[file][line - 1]
        assert isinstance(item, int) and data == records[item]
    return len(places)


def assert_same_as_reference(paths: list[Path], limits: ReaderLimits = ReaderLimits()) -> tuple[bytes, SessionScorer]:
    got, scorer = checked(paths, limits)
    with accel.reference():
        want, reference_scorer = checked(paths, limits)
    assert got.splitlines() == want.splitlines()
    assert all(type(v) is not tuple for v in reference_scorer.loose.values())  # no text: the fast path's alone
    return got, scorer


def test_a_place_packs_file_line_and_offset() -> None:
    # bits 0-23: the file's index, 24-63: the line, 64 up: the byte offset (tarock.check.first_copies)
    assert place_of(3, 7, 100) == 100 * 2**64 + 7 * 2**24 + 3
    assert unpack(100 * 2**64 + 7 * 2**24 + 3) == (3, 7, 100)
    assert place_of(0, 1, 0) == 2**24
    biggest = place_of(2**FILE_BITS - 1, 2**LINE_BITS - 1, 2**40)
    assert biggest is not None and unpack(biggest) == (2**24 - 1, 2**40 - 1, 2**40)
    assert place_of(2**FILE_BITS, 1, 0) is None  # more files than the field holds
    assert place_of(0, 2**LINE_BITS, 0) is None
    assert place_of(0, 0, 0) is None  # lines count from 1
    assert place_of(0, 1, -1) is None  # where the line starts is not known


@needs_fast
def test_copies_in_other_files_carry_their_first_copys_result(tmp_path: Path) -> None:
    records = loose_records(tmp_path, seed=31)
    n = len(records)
    # a.jsonl: every record; b.jsonl: copies of a's second half in reverse, then new ones interleaved; c.jsonl:
    # copies of records first seen in a and in b (one of them twice)
    a = (tmp_path / "a.jsonl", list(range(n - 20)))
    b = (tmp_path / "b.jsonl", [*range(n - 21, n // 2, -1), *[x for i in range(n - 20, n) for x in (i, i - n // 2)]])
    c = (tmp_path / "c.jsonl", [n - 1, 0, n - 10, 1, 2, n - 1, n // 2 + 1])
    files = [a, b, c]
    paths = [write(path, records, layout) for path, layout in files]
    printed, scorer = assert_same_as_reference(paths)
    kinds = assert_copies_carry_their_first_copy(printed, files)
    assert kinds["ok"] > 10 and kinds["other"] > 5  # copies of lines the C calls wrote, and of mistakes
    # the memory: one place per distinct deal, no text, no result
    assert len(scorer.loose) == n
    assert assert_places(scorer, files, records) == n


def test_without_the_fast_path_places_are_kept_too(tmp_path: Path) -> None:
    records = loose_records(tmp_path, seed=32, sessions=2)
    n = len(records)
    files = [(tmp_path / "one.jsonl", list(range(n))), (tmp_path / "two.jsonl", list(range(n - 1, -1, -1)))]
    paths = [write(path, records, layout) for path, layout in files]
    with accel.reference():
        printed, scorer = checked(paths)
    kinds = assert_copies_carry_their_first_copy(printed, files)
    assert kinds["ok"] > 5 and kinds["other"] > 2
    assert assert_places(scorer, files, records) == len(scorer.loose) == n


@needs_fast
def test_copies_of_the_samples_usual_way_deals(tmp_path: Path) -> None:
    # Königrufen, announcements and named plays: read the usual way (no plain record, or one the fast path
    # declines), so their first copies are read again and checked the usual way
    records = sample_records(per_file=150)
    n = len(records)
    files = [(tmp_path / "sample.jsonl", list(range(n))), (tmp_path / "again.ndjson", list(range(0, n, 7)))]
    paths = [write(path, records, layout) for path, layout in files]
    printed, scorer = assert_same_as_reference(paths)
    assert_copies_carry_their_first_copy(printed, files)
    copied = [orjson.loads(records[i]) for i in files[1][1]]
    usual = [r for r in copied if r["ruleset"] == "koenigrufen" or r.get("announcements")]
    assert len(usual) > 10 and {r["ruleset"] for r in usual} == {"slovenian", "koenigrufen"}
    assert assert_places(scorer, files, records) == n


@needs_fast
def test_places_across_chunks_and_odd_lines(tmp_path: Path) -> None:
    # A byte-order mark, blank and white-space lines, CRLF endings, text that is no record, a record the reader
    # gathers across its 1 MiB chunks and one longer than a chunk (across three): the places of the records
    # after them must still be where those records are.
    records = loose_records(tmp_path, seed=33, sessions=3)
    n = len(records)
    size = sum(len(r) + 1 for r in records[:40])
    pad = MIB - size + 200  # record 40, padded with spaces (still the same JSON), ends past the first chunk
    records.append(records[40][:-1] + b" " * pad + b"}")
    records.append(records[41][:-1] + b" " * (MIB + 300) + b"}")  # longer than a chunk
    records[42] = records[42] + b"\r"
    layout: Layout = [*range(40), n, b"", b"   \t", 42, b"[1, 2]", b"{not json", n + 1, *range(43, n), b" ", 3,
                      n + 1, 42, n - 1]
    # (records 40 and 41 themselves appear nowhere: the padded ones are the same deals)
    files = [(tmp_path / "odd.jsonl", layout), (tmp_path / "copies.jsonl", [n, n + 1, 42, 1, 0])]
    paths = [write(path, records, layout, end=b"") for path, layout in files]
    paths[0].write_bytes(b"\xef\xbb\xbf" + paths[0].read_bytes())  # a byte-order mark, which the reader skips
    limits = ReaderLimits(max_line_bytes=3 * MIB)
    printed, scorer = assert_same_as_reference(paths, limits)
    kinds = assert_copies_carry_their_first_copy(printed, files)
    assert sum(kinds.values()) == 9
    assert assert_places(scorer, files, records) == len(scorer.loose) == n


@needs_fast
def test_after_a_line_past_the_limit_across_chunks_the_file_keeps_results(tmp_path: Path) -> None:
    # A line past the limit that goes on into the next chunk is never handed over whole, so where the lines
    # after it start is not known: their first copies keep their results (or the C calls' text), as before.
    records = loose_records(tmp_path, seed=34, sessions=2)
    n = len(records)
    longest = max(map(len, records))
    too_long = records[5][:-1] + b" " * MIB + b"}"
    records.append(too_long)
    layout: Layout = [*range(20), n, *range(20, n)]
    files = [(tmp_path / "long.jsonl", layout), (tmp_path / "copies.jsonl", [3, 25, 30, 31, 32, n - 1])]
    paths = [write(path, records, layout) for path, layout in files]
    printed, scorer = assert_same_as_reference(paths, ReaderLimits(max_line_bytes=longest + 100))
    assert printed.count(b"is longer than") == 1
    assert_copies_carry_their_first_copy(printed, files)
    kept = [v for v in scorer.loose.values() if type(v) is not int]
    assert len(kept) == n - 20  # the lines after the long one
    assert all(isinstance(v, (DealCheck, tuple)) for v in kept)
    assert assert_places(scorer, files, records) == 20


@needs_fast
def test_files_read_from_the_start_keep_results(tmp_path: Path) -> None:
    # A .json list and a gzipped JSON Lines file cannot be read at an offset: their first copies
    # keep their results (or the C calls' text); copies of them elsewhere carry them as before.
    records = loose_records(tmp_path, seed=35, sessions=2)
    n = len(records)
    as_list = tmp_path / "list.json"
    as_list.write_bytes(b"[\n" + b",\n".join(records[:20]) + b"\n]\n")  # element i on line i + 2
    gz = (tmp_path / "more.jsonl.gz", list(range(20, 40)))
    plain = (tmp_path / "copies.jsonl", [*range(0, 40, 3), *range(40, n)])
    write(gz[0], records, gz[1])
    write(plain[0], records, plain[1])
    printed, scorer = assert_same_as_reference([as_list, gz[0], plain[0]])
    files: list[tuple[Path, Layout]] = [(as_list, [b"["] + list(range(20))), gz, plain]
    assert_copies_carry_their_first_copy(printed, files)
    kept = [v for v in scorer.loose.values() if type(v) is not int]
    assert len(kept) == 40 and all(isinstance(v, (DealCheck, tuple)) for v in kept)
    assert assert_places(scorer, [plain], records) == n - 40


def sheet_only_records(tmp_path: Path) -> list[bytes]:
    """A score sheet of three hands with no session and no radelci column, so the audit carries the radelci
    from row to row (docs/sheet_csv.md): Boris wins Berač (+70, a radelc for everyone, docs/rules.md); Ana wins
    Ena with Cilka, doubled by her radelc (+80, which spends it); Ana wins Berač, holding no radelc (+70)."""
    from typer.testing import CliRunner

    from tarock.cli import app

    sheet, out = tmp_path / "sheet.csv", tmp_path / "sheet.jsonl"
    sheet.write_text("hand,contract,declarer,partner,Ana,Boris,Cilka,David\n1,Berač,Boris,,,+70,,\n"
                     "2,Ena,Ana,Cilka,+80,,+80,\n3,Berač,Ana,,+70,,,\n", encoding="utf-8")
    CliRunner().invoke(app, ["import", "sheet", str(sheet), "-o", str(out)])
    return out.read_bytes().splitlines()


def test_a_sheet_only_deals_copy_is_not_audited_again(tmp_path: Path) -> None:
    # The sheet audit of loose deals keeps a running state (the radelci each player holds), so a sheet-only
    # deal's result is kept, not worked out again: a copy of the first Berač coming after the Ena must not give
    # Ana a radelc again, which would make her second Berač's +70 a finding (+140 expected).
    records = sheet_only_records(tmp_path)
    assert len(records) == 3 and all(b'"sheet_only":true' in r and b'"session"' not in r for r in records)
    files: list[tuple[Path, Layout]] = [(tmp_path / "copy.jsonl", [0, 1, 0, 2])]
    printed, scorer = checked([write(files[0][0], records, files[0][1])])
    assert_copies_carry_their_first_copy(printed, files)
    results = [orjson.loads(line) for line in printed.splitlines()]
    assert [(r["line"], r["status"], r["findings"]) for r in results] == [(n, "ok", []) for n in (1, 2, 3, 4)]
    assert [r["scores"] for r in results if "duplicate_of" not in r] == [
        {"Ana": 0, "Boris": 70, "Cilka": 0, "David": 0}, {"Ana": 80, "Boris": 0, "Cilka": 80, "David": 0},
        {"Ana": 70, "Boris": 0, "Cilka": 0, "David": 0}]
    assert all(type(v) is DealCheck and v.sheet_only for v in scorer.loose.values())


@needs_fast
def test_a_first_copy_whose_line_changed_is_an_error(tmp_path: Path) -> None:
    # The first copy is read again when its copy comes: if its line holds another deal by then (the file was
    # rewritten while it was checked), that is said, naming the line.
    records = loose_records(tmp_path, seed=36, sessions=1, deals=3)
    width = max(len(records[0]), len(records[1]))  # the same length, so the reader reads no more of it
    records = [r[:-1] + b" " * (width - len(r)) + b"}" for r in records]
    first = write(tmp_path / "first.jsonl", records, [0])
    write(tmp_path / "copy.jsonl", records, [0])
    stream: Iterator[Any] = check_stream([first, tmp_path / "copy.jsonl"], out=bytearray())
    next(stream)  # the first copy, checked
    first.write_bytes(records[1] + b"\n")
    with pytest.raises(FirstCopyChanged, match=re.escape(f"{first}:1 changed while it was checked")):
        list(stream)
