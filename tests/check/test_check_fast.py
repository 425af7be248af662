"""``tarock check``'s fast path (``tarock.check.fast``) and cheap first pass (``tarock.check.sessions.plan_files``)
against the usual path, byte for byte.

``check_stream`` with the accelerator on takes plain clean records through the kernel and the compiled scorer;
inside ``accel.reference()`` every record goes the pure-Python reference way (no kernel, no fast path).  Both
must print the very same JSON lines -- over the examples, the bundled sample and simulated sessions with
every kind of mistake the simulator makes (each renons kind, play out of turn, illegal stash, score slips) --
and the command must print the same text and exit with the same status.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import msgspec
import orjson
import pytest

from tarock import accel
from tarock.check.fast import CHECKLINE
from tarock.check.result import DealCheck, encode
from tarock.check.sessions import SessionPlan, check_stream, plan_files
from tarock.formats.reader import iter_record_files, read_many
from tarock.sim.simulate import write_simulation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"
SAMPLE = ROOT / "data" / "sample"
RENONS = {"R_FOLLOW_SUIT", "R_MUST_TAROK", "R_MUST_OVERTRUMP", "R_PAGAT", "R_OUT_OF_TURN", "R_STASH"}

needs_fast = pytest.mark.skipif(accel.KERNEL is None or CHECKLINE is None, reason="the fast path is not built here")


def lines(paths: list[Path], overrides: dict[str, object] | None = None) -> list[bytes]:
    return [encode(result) for result in check_stream(paths, overrides)]


def reference_lines(paths: list[Path], overrides: dict[str, object] | None = None) -> list[bytes]:
    with accel.reference():
        return lines(paths, overrides)


def assert_same_lines(paths: list[Path], overrides: dict[str, object] | None = None) -> list[bytes]:
    fast, ref = lines(paths, overrides), reference_lines(paths, overrides)
    assert len(fast) == len(ref)
    for got, want in zip(fast, ref):
        assert got == want
    return ref


def simulated(tmp_path: Path, name: str, sessions: int, deals: int, seed: int, players: int = 4) -> Path:
    out = tmp_path / f"{name}.jsonl"
    write_simulation(out, players, sessions, deals, seed, mistakes=0.3)
    return out


def findings_of(encoded: list[bytes]) -> Counter[str]:
    return Counter(f["code"] for line in encoded for f in orjson.loads(line)["findings"])


@needs_fast
def test_examples_and_sample_print_the_same_lines() -> None:
    files = iter_record_files([EXAMPLES, SAMPLE])
    ref = assert_same_lines(files)
    assert len(ref) > 5000  # the sample alone holds 5,200 deals


@needs_fast
def test_the_fast_path_takes_the_clean_deals() -> None:
    # It must actually run: a result it made holds the tricks and breakdown as the C code wrote them
    # (msgspec.Raw), which encode to the reference's bytes (checked above).  The sample is simulated club play:
    # a third holds a mistake or a Königrufen deal, 15 % announcements (the usual path); most of the rest
    # must take the fast path, named plays included.
    results = [r for r in check_stream(iter_record_files(SAMPLE)) if isinstance(r, DealCheck)]
    fast = sum(isinstance(r.tricks, msgspec.Raw) for r in results)
    clean = sum(r.status == "ok" and not r.findings and not r.declarers for r in results)
    assert len(results) == 5500 and fast > clean // 2


@needs_fast
@pytest.mark.parametrize("players", [3, 4])
def test_simulated_sessions_with_every_renons_kind(tmp_path: Path, players: int) -> None:
    path = simulated(tmp_path, f"sim{players}", sessions=30, deals=100, seed=players, players=players)
    ref = assert_same_lines([path])
    found = findings_of(ref)
    assert len(ref) == 3000
    if players == 4:  # play out of turn and all the rest: the 4-player simulator makes every kind
        assert RENONS <= set(found), RENONS - set(found)


@needs_fast
@pytest.mark.slow
def test_a_hundred_thousand_simulated_deals(tmp_path: Path) -> None:
    four = simulated(tmp_path, "big4", sessions=400, deals=200, seed=11)
    three = simulated(tmp_path, "big3", sessions=100, deals=200, seed=12, players=3)
    ref = assert_same_lines([four, three])
    assert len(ref) == 100_000
    assert RENONS <= set(findings_of(ref))


@needs_fast
def test_options_and_overrides_print_the_same_lines(tmp_path: Path) -> None:
    path = simulated(tmp_path, "opts", sessions=5, deals=60, seed=7)
    assert_same_lines([path], {"radelci": False})
    assert_same_lines([path], {"penalty": "none"})


@needs_fast
def test_duplicates_shuffled_sessions_and_bad_lines(tmp_path: Path) -> None:
    # Every deal twice, sessions out of order (the file reversed), a deal without seq, unreadable lines and a
    # record the full reading rejects although its session and seq read fine: the session model decides
    # the order, and the first pass must plan exactly what the second reads.
    path = simulated(tmp_path, "src", sessions=4, deals=30, seed=5)
    records = path.read_bytes().splitlines()
    obj = orjson.loads(records[3])
    del obj["seq"]
    bad = orjson.loads(records[7])
    bad["players"] = bad["players"][:2]  # two players: rejected (E_PARSE), with a session and a seq
    bad["seq"] = 0  # which would put its session out of order, were it planned
    mixed = [*reversed(records), orjson.dumps(obj), b"{not json", orjson.dumps(bad), b'{"session": true}',
             *records[:10]]
    messy = tmp_path / "messy.jsonl"
    messy.write_bytes(b"\n".join(mixed) + b"\n")
    gz = tmp_path / "messy.jsonl.gz"
    gz.write_bytes(gzip.compress(messy.read_bytes()))
    ref = assert_same_lines([messy, gz])
    kinds = Counter("parse" if orjson.loads(line)["id"] is None else
                    "copy" if "duplicate_of" in orjson.loads(line) else "deal" for line in ref)
    # messy.jsonl: 120 deals + 1 without seq (a copy of none: its content changed) + 10 copies, 3 unreadable;
    # the .gz: the same records again, all copies but for its 3 unreadable lines
    assert kinds == Counter(deal=121, copy=10 + 131, parse=6)


@needs_fast
def test_a_recurring_auction_is_judged_for_each_contract_and_declarer(tmp_path: Path) -> None:
    # The fast path remembers whether a bidding agrees with the record (FastCheck._bidding_agrees) by the
    # bids, players, declarer, contract and options: the same auction under another declarer or contract
    # must not reuse the first answer.  A clean deal with a declarer, then the same bids naming another
    # declarer, then another contract (both disagree with the bidding: the usual path and its findings),
    # then the deal again under another id (agrees: the fast path).
    source = simulated(tmp_path, "auction", sessions=2, deals=40, seed=9)
    clean = [r for r in check_stream([source]) if isinstance(r, DealCheck)
             and isinstance(r.tricks, msgspec.Raw) and r.declarer is not None and r.contract != "klop"]
    text = source.read_bytes().splitlines()[clean[0].line - 1]  # type: ignore[operator]
    record = orjson.loads(text)
    for key in ("session", "seq", "recorded"):
        record.pop(key, None)
    assert record["bidding"]
    other = next(p for p in record["players"] if p != record["declarer"])
    contract = "tri" if record["contract"] != "tri" else "dva"
    variants = [record, {**record, "id": "other-declarer", "declarer": other},
                {**record, "id": "other-contract", "contract": contract}, {**record, "id": "again"}]
    path = tmp_path / "auction.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(v) for v in variants) + b"\n")
    assert_same_lines([path])
    results = [r for r in check_stream([path]) if isinstance(r, DealCheck)]
    assert [isinstance(r.tricks, msgspec.Raw) for r in results] == [True, False, False, True]
    assert results[1].findings and results[2].findings


def test_the_first_pass_plans_what_the_reader_reads(tmp_path: Path) -> None:
    path = simulated(tmp_path, "plan", sessions=3, deals=20, seed=3)
    records = path.read_bytes().splitlines()
    bad = orjson.loads(records[5])
    bad["tricks"] = "none"  # rejected by the full reading; its session and seq read fine
    bad["seq"] = 1
    no_session = orjson.loads(records[6])
    del no_session["session"]
    mixed = [*reversed(records), orjson.dumps(bad), orjson.dumps(no_session), b'{"session": null, "x": [',
             b'{"session": 12, "seq": 4, "ruleset": "slovenian"}', b'{"session": 99999999999999999999999}']
    messy = tmp_path / "messy.jsonl"
    messy.write_bytes(b"\n".join(mixed) + b"\n")
    for files in ([messy], iter_record_files(EXAMPLES)):
        want = SessionPlan.of((item.deal.session, item.deal.seq) for item in read_many(files)
                              if item.deal is not None)
        got = plan_files(files)
        assert got.sessions == want.sessions


def run_check(*args: str, reference: bool) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env.pop("TAROCK_REFERENCE", None)
    if reference:
        env["TAROCK_REFERENCE"] = "1"
    return subprocess.run([sys.executable, "-m", "tarock.cli", "check", *args], capture_output=True, env=env,
                          cwd=ROOT)


@needs_fast
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_the_command_prints_and_exits_the_same(tmp_path: Path, fmt: str) -> None:
    path = simulated(tmp_path, "cli", sessions=3, deals=40, seed=9)
    for files in ([str(path)], [str(EXAMPLES)]):
        fast = run_check("--format", fmt, *files, reference=False)
        ref = run_check("--format", fmt, *files, reference=True)
        assert (fast.stdout, fast.stderr, fast.returncode) == (ref.stdout, ref.stderr, ref.returncode)
        assert fast.returncode == 1  # 30% of the simulated deals, and some examples, hold a mistake


@needs_fast
def test_named_plays_the_reader_cannot_vouch_for(tmp_path: Path) -> None:
    # Named plays are checked before a record is taken (a record the fast path declines is read the usual
    # way, and must not turn out unreadable there): a play naming nobody at the table, a player whose name
    # holds ':', tricks mixing named and coded plays.  Whatever the usual path makes of them, both print it.
    path = simulated(tmp_path, "named", sessions=2, deals=40, seed=13)
    records = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    named = [r for r in records if ":" in r["tricks"][0][0]]
    assert len(named) >= 3
    nobody, colon, mixed = (orjson.loads(orjson.dumps(r)) for r in named[:3])
    nobody["tricks"][2][1] = "Nobody:" + nobody["tricks"][2][1].partition(":")[2]
    old = colon["players"][0]
    new = old + ":x"
    colon["players"][0] = new
    colon["hands"][new] = colon["hands"].pop(old)
    colon["tricks"] = [[new + p[len(old):] if p.startswith(old + ":") else p for p in t] for t in colon["tricks"]]
    if colon.get("declarer") == old:
        colon["declarer"] = new
    for key in ("bidding", "recorded"):  # (they name the old name)
        colon.pop(key, None)
    mixed["tricks"][1] = [p.partition(":")[2] for p in mixed["tricks"][1]]
    messy = tmp_path / "named.jsonl"
    messy.write_bytes(b"\n".join(orjson.dumps(r) for r in [*records, nobody, colon, mixed]) + b"\n")
    ref = assert_same_lines([messy])
    # the play naming nobody makes the record unreadable (E_PARSE): the reader must not have taken it
    assert any(b"unknown player 'Nobody'" in line and b'"id":null' in line for line in ref)
