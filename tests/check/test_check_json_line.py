"""``tarock check -f json``'s one-call fast path (``FastCheck.line_checker``: ``_checkline.check_json`` writes a
plain clean record's JSON line itself) against the pure-Python reference, byte for byte.

``check_stream(..., out=buffer)`` is what the command runs: a record the C call takes is written to the buffer and
yielded as ``WRITTEN``; everything else is yielded as a result and encoded after it, in order.  Inside
``accel.reference()`` no fast path runs at all.  The C call takes records outside any session only, so the
inputs here are the examples, the sample and simulated sessions with every kind of mistake (each renons kind,
play out of turn, illegal stash, score slips) both as they are and with their sessions taken out -- and, taken
out, with the shapes the canonical record rewrites (hands and sheets out of playing order, options in another
key order, no id: the content hash), copies, and sheets with and without radelci.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock import accel
from tarock.check.fast import CHECKLINE, Lines, Written
from tarock.check.result import encode_line
from tarock.check.sessions import SessionPlan, check_stream, plan_files
from tarock.formats.items import MIB, ReaderLimits
from tarock.formats.reader import iter_record_files, read_many
from tarock.sim.simulate import write_simulation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"
SAMPLE = ROOT / "data" / "sample"
RENONS = {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_MUST_OVERTRUMP", "R_PAGAT", "R_OUT_OF_TURN", "R_STASH"}

needs_fast = pytest.mark.skipif(accel.KERNEL is None or CHECKLINE is None, reason="the fast path is not built here")


def printed(paths: list[Path], overrides: dict[str, object] | None = None,
            limits: ReaderLimits = ReaderLimits()) -> tuple[bytes, int]:
    """What ``tarock check -f json`` prints, and how many lines the C calls wrote themselves."""
    out = bytearray()
    written = 0
    for result in check_stream(paths, overrides, limits, out=out):
        if isinstance(result, Written):
            written += 1
        elif isinstance(result, Lines):
            written += result.deals
        else:
            encode_line(result, out)
    return bytes(out), written


def reference(paths: list[Path], overrides: dict[str, object] | None = None) -> bytes:
    with accel.reference():
        out, written = printed(paths, overrides)
    assert written == 0  # no fast path at all
    return out


def assert_same(paths: list[Path], overrides: dict[str, object] | None = None) -> tuple[bytes, int]:
    got, written = printed(paths, overrides)
    want = reference(paths, overrides)
    got_lines, want_lines = got.splitlines(), want.splitlines()
    assert len(got_lines) == len(want_lines)
    for a, b in zip(got_lines, want_lines):
        assert a == b
    return want, written


def loose(records: list[bytes]) -> list[bytes]:
    """The records outside any session, in the shapes the canonical record rewrites (by position, so each
    shape meets every contract and mistake): no seq, no sheet, a sheet without radelci (a loose deal's radelci
    start at 0, so a sheet keeping the session's would disagree), hands and the sheet in reverse playing order,
    no id (the content hash is its id), two options in reverse key order."""
    out = []
    for i, text in enumerate(records):
        obj: dict[str, Any] = orjson.loads(text)
        obj.pop("session", None)
        if i % 3 == 0:
            obj.pop("seq", None)
        if i % 2 == 0:  # a sheet kept in a session holds its radelci's doubling: outside it, it disagrees
            obj.pop("recorded", None)
        sheet = obj.get("recorded")
        if sheet is not None and i % 4 != 1:
            sheet.pop("radelci", None)
        if i % 5 == 2:
            if "hands" in obj:
                obj["hands"] = dict(reversed(obj["hands"].items()))
            if sheet is not None:
                sheet["scores"] = dict(reversed(sheet["scores"].items()))
        if i % 7 == 3:
            obj.pop("id", None)
        if i % 11 == 4 and obj.get("ruleset") == "slovenian" and "options" not in obj:
            obj["options"] = {"radelci": True, "diff_rounding": "nearest5"}  # the defaults, out of key order
        out.append(orjson.dumps(obj))
    return out


def read_text(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


def loose_file(tmp_path: Path, name: str, records: list[bytes]) -> Path:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(b"\n".join(loose(records)) + b"\n")
    return path


def simulated_records(tmp_path: Path, sessions: int, deals: int, seed: int, players: int = 4) -> list[bytes]:
    path = tmp_path / f"sim-{seed}-{players}.jsonl"
    write_simulation(path, players, sessions, deals, seed, mistakes=0.3)
    return path.read_bytes().splitlines()


@needs_fast
def test_the_examples_and_the_sample_print_the_same() -> None:
    files = iter_record_files([EXAMPLES, SAMPLE])
    want, _ = assert_same(files)
    assert want.count(b"\n") > 5000


@needs_fast
def test_the_sample_outside_its_sessions_prints_the_same(tmp_path: Path) -> None:
    records = [line for path in iter_record_files(SAMPLE) for line in read_text(path).splitlines() if line.strip()]
    path = loose_file(tmp_path, "sample", records)
    want, written = assert_same([path])
    # The sample is club play with a third of the deals holding a mistake, Königrufen or announcements: those
    # go the usual way; of the rest (named plays among them) the C call must take most.
    n = want.count(b"\n")
    assert n == len(records)
    assert written > n // 3


@needs_fast
@pytest.mark.parametrize("players", [3, 4])
def test_simulated_mistakes_outside_sessions_print_the_same(tmp_path: Path, players: int) -> None:
    records = simulated_records(tmp_path, sessions=20, deals=40, seed=players, players=players)
    path = loose_file(tmp_path, "loose", records)
    # copies: the same records again, and one with its keys in another order (the same canonical record)
    again = loose(records)[:10]
    shuffled = orjson.dumps(dict(reversed(list(orjson.loads(again[0]).items()))))
    copies = tmp_path / "copies.jsonl"
    copies.write_bytes(b"\n".join([*again, shuffled]) + b"\n")
    want, written = assert_same([path, copies])
    findings = Counter(f["code"] for line in want.splitlines() for f in orjson.loads(line)["findings"])
    assert RENONS <= set(findings)  # every renons kind went the usual way, in place
    copies_seen = sum(b'"duplicate_of"' in line for line in want.splitlines())
    assert copies_seen >= 11
    assert written > len(records) // 3


@needs_fast
def test_sessions_and_loose_deals_interleave_as_before(tmp_path: Path) -> None:
    # Sessions (the usual fast path, in scoring order, buffered when out of order) and loose deals (the C call,
    # written where they come) in one file: the lines must come out in the same order.
    records = simulated_records(tmp_path, sessions=6, deals=30, seed=11)
    mixed = []
    for i, (kept, taken) in enumerate(zip(records, loose(records))):
        mixed.append(kept if i % 2 else taken)
    mixed = mixed[::-1]  # sessions out of seq order
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(mixed) + b"\n")
    gz = tmp_path / "again.jsonl.gz"  # the same lines gzipped (every deal a copy now), read in its own chunks
    gz.write_bytes(gzip.compress(path.read_bytes()))
    _, written = assert_same([path])
    assert written > 0
    want, _ = assert_same([path, gz])
    assert want.count(b'"duplicate_of"') == len(mixed)


@needs_fast
def test_overrides_reach_the_c_call(tmp_path: Path) -> None:
    records = simulated_records(tmp_path, sessions=4, deals=40, seed=5)
    path = loose_file(tmp_path, "overrides", records)
    for overrides in ({"radelci": False}, {"mondfang_value": 20, "diff_rounding": "none"}):
        _, written = assert_same([path], overrides)
        assert written > 0


@pytest.mark.slow
@needs_fast
def test_a_hundred_thousand_generated_deals_print_the_same(tmp_path: Path) -> None:
    records = simulated_records(tmp_path, sessions=1000, deals=100, seed=22)
    assert len(records) >= 100_000
    path = loose_file(tmp_path, "many", records)
    want, written = assert_same([path])
    findings = Counter(f["code"] for line in want.splitlines() for f in orjson.loads(line)["findings"])
    assert RENONS <= set(findings)
    assert written > len(records) // 3


@needs_fast
def test_blank_long_and_odd_lines_read_as_before(tmp_path: Path) -> None:
    # ``check_lines`` cuts the lines itself (tarock.formats.reader.read_records's take_lines): a byte-order mark,
    # blank and white-space lines (skipped), CRLF endings, a line past the limit (an E_PARSE result in its place),
    # text that is no record, and a last line with no newline must come out as the reader alone has them.
    records = loose(simulated_records(tmp_path, sessions=2, deals=30, seed=13))
    longest = max(map(len, records))
    padded = records[4][:-1] + b" " * (longest + 200 - len(records[4])) + b"}"  # past the limit below
    body = [b"\xef\xbb\xbf" + records[0], b"", b"   \t", records[1] + b"\r", padded, b"[1, 2]", b"{not json",
            *records[2:], b" ", records[3]]
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"\n".join(body))
    limits = ReaderLimits(max_line_bytes=longest + 100)
    got, written = printed([path], limits=limits)
    with accel.reference():
        want, _ = printed([path], limits=limits)
    assert got == want
    assert written > 0
    assert got.count(b"is longer than") == 1


def test_the_first_pass_skips_only_files_that_cannot_name_a_session(tmp_path: Path) -> None:
    # plan_files skips a JSON Lines file in whose bytes neither "session" nor a backslash occurs (a JSON escape
    # could spell the key): a file of loose deals is skipped (an empty plan), while one whose key is spelt with
    # an escape, or whose "session" key straddles the reader's 1 MiB chunks, is planned as the reader reads it.
    records = simulated_records(tmp_path, sessions=2, deals=10, seed=17)
    plain = loose_file(tmp_path, "loose", records)
    assert not plan_files([plain]).sessions
    escaped = tmp_path / "escaped.jsonl"
    escaped.write_bytes(records[0].replace(b'"session"', b'"sess\\u0069on"', 1) + b"\n")
    straddling = tmp_path / "straddling.jsonl"
    head = records[1]
    at = head.index(b'"session"') + 4
    straddling.write_bytes(b" " * (MIB - at) + head + b"\n")
    for path in (escaped, straddling):
        want = SessionPlan.of((item.deal.session, item.deal.seq) for item in read_many([path])
                              if item.deal is not None)
        got = plan_files([path])
        assert got.sessions == want.sessions and len(want.sessions) == 1


@needs_fast
def test_a_run_the_c_calls_take_whole_loads_no_reference_reading(tmp_path: Path) -> None:
    # Clean Slovenian deals outside any session, without announcements: every one is written by the C calls, so
    # the command never needs the reference's codec (tarock.formats.reader imports it for a record that needs
    # it), the checker or the engine -- and prints the reference's lines.
    path = tmp_path / "clean.jsonl"
    write_simulation(path, 4, 3, 30, 23, mistakes=0.0)
    records = []
    for text in path.read_bytes().splitlines():
        obj = orjson.loads(text)
        if obj.get("announcements"):
            continue
        for key in ("session", "seq", "recorded"):
            obj.pop(key, None)
        records.append(orjson.dumps(obj))
    path.write_bytes(b"\n".join(records) + b"\n")
    got, written = printed([path])
    assert written == len(records) and got == reference([path])
    # the command as the console script runs it, bar its early exit (tarock.cli._leave), so the probe looks after
    probe = ("import sys\nfrom tarock.cli import app\nsys.argv = ['tarock', 'check', '-f', 'json', sys.argv[1]]\n"
             "try:\n    app()\nexcept SystemExit:\n    pass\n"
             "heavy = ('tarock.formats.codec', 'tarock.check.checker', 'tarock.engine')\n"
             "print([m for m in heavy if m in sys.modules], file=sys.stderr)\n")
    env = {k: v for k, v in os.environ.items() if k != "TAROCK_REFERENCE"}
    done = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, env=env, cwd=ROOT)
    assert done.stdout == got
    assert done.stderr.decode().splitlines()[-1] == "[]"
