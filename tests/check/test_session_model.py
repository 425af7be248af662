"""The session model every command shares (docs/records.md, "Sessions"): file order, splits and copies
change no deal's score, radelci, findings or audit lines; check, score and the store agree (the store
filled in one ingest or two, so a session's deals may come in a later run: docs/store.md, "Sessions
across shards")."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from ingest.commands import ingest
from ingest.store import open_store
from tarock.check.sessions import SessionOrderer, SessionPlan, content_hash
from tarock.cli import app
from tarock.deal import Deal
from tarock.formats.codec import deal_from_obj
from tarock.formats.writer import write_records
from tarock.sim.simulate import simulate_sessions

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def _pool() -> list[Deal]:
    sims = simulate_sessions(4, 17, 0, 2, 6, 0.25) + simulate_sessions(3, 91, 0, 1, 5, 0.25)
    return [deal_from_obj(record) for record, _ in sims]


POOL = _pool()
assert len({d.session for d in POOL}) == 3 and len({content_hash(d) for d in POOL}) == len(POOL)


def _run(*args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, list(args))
    assert result.exit_code in (0, 1), result.output
    return [orjson.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def _deal_view(obj: dict[str, Any]) -> tuple[Any, ...]:
    findings = [(f["code"], f["message"], f["trick"], f["position"], f["player"], f["card"])
                for f in obj["findings"]]
    return (obj["status"], obj["scores"], obj["radelci_before"], obj["radelci_after"], obj["breakdown"],
            findings, obj.get("recorded"))


def _check(paths: list[Path]) -> dict[str, tuple[Any, ...]]:
    """content id -> what check -f json says of the deal (its first copy; a copy must agree)."""
    out: dict[str, tuple[Any, ...]] = {}
    for obj in _run("check", "-f", "json", *map(str, paths)):
        view = _deal_view(obj)
        if obj.get("duplicate_of"):
            assert obj["findings"] == [] and obj["scores"] == out[obj["id"]][1]
            continue
        assert obj["id"] not in out
        out[obj["id"]] = view
    return out


def _score(paths: list[Path]) -> dict[str, tuple[Any, Any]]:
    """content id -> (cells, radelci after) of the deal's row on its session's sheet."""
    out: dict[str, tuple[Any, Any]] = {}
    for sheet in _run("score", "-f", "json", *map(str, paths)):
        for hand in sheet["hands"]:
            assert hand["id"] not in out
            out[hand["id"]] = (hand["cells"], hand["radelci_after"])
    return out


def _per_player(obj: dict[str, Any]) -> tuple[Any, ...]:
    """What check -f json says of a deal, per player as the store keeps it: status, then per player the
    score, radelci before and after, the breakdown lines the player writes and the recorded score; then
    the findings (audit lines included)."""
    players = obj["players"]
    lines = obj["breakdown"] or []
    recorded = obj.get("recorded") or {}
    per = {p: ((obj["scores"] or {}).get(p), (obj["radelci_before"] or {}).get(p),
               (obj["radelci_after"] or {}).get(p), [ln for ln in lines if p in ln["players"]], recorded.get(p))
           for p in players}
    findings = [(f["code"], f["message"], f["trick"], f["position"], f["player"], f["card"])
                for f in obj["findings"]]
    return obj["status"], per, findings


def _store(runs: list[list[Path]], store: Path) -> dict[str, tuple[Any, ...]]:
    """Ingest the runs' files, run after run, into one store; deal id -> ``_per_player`` from its tables."""
    for paths in runs:
        assert ingest(paths, store, "local:1", quiet=True).exit_code == 0
    con = open_store(store)
    try:
        statuses = dict(con.sql("SELECT deal_id, status FROM deals").fetchall())
        per: dict[str, dict[str, tuple[Any, ...]]] = {d: {} for d in statuses}
        for deal_id, player, *cells, lines, recorded in con.sql(
                "SELECT deal_id, player, score, radelci_before, radelci_after, breakdown_json, recorded_score "
                "FROM results").fetchall():
            per[deal_id][player] = (*cells, orjson.loads(lines) if lines is not None else [], recorded)
        findings: dict[str, list[tuple[Any, ...]]] = {d: [] for d in statuses}
        for deal_id, *row in con.sql("SELECT deal_id, code, message, trick, position, player, card "
                                     "FROM findings ORDER BY deal_id, idx").fetchall():
            findings[deal_id].append(tuple(row))
    finally:
        con.close()
    return {d: (statuses[d], per[d], findings[d]) for d in statuses}


def _ordered(deals: list[Deal]) -> list[Deal]:
    return sorted(deals, key=lambda d: (d.session or "", d.seq if d.seq is not None else -1))


SUFFIXES = [".jsonl", ".json", ".trk", ".jsonl.gz", ".json.gz", ".trk.gz"]


@settings(max_examples=int(os.environ.get("TAROCK_SESSION_EXAMPLES", "12")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_file_order_splits_and_copies_change_nothing(tmp_path_factory: Any, data: st.DataObject) -> None:
    tmp = tmp_path_factory.mktemp("split")
    reference = tmp / "ordered.jsonl"
    write_records(_ordered(POOL), reference)
    want = _check([reference])
    assert len(want) == len(POOL)
    want_sheet = _score([reference])
    want_store = {obj["id"]: _per_player(obj) for obj in _run("check", "-f", "json", str(reference))}

    order = data.draw(st.permutations(range(len(POOL))), label="order")
    n_files = data.draw(st.integers(1, 4), label="files")
    where = data.draw(st.lists(st.integers(0, n_files - 1), min_size=len(POOL), max_size=len(POOL)), label="where")
    copies = data.draw(st.lists(st.tuples(st.integers(0, len(POOL) - 1), st.integers(0, n_files - 1)),
                                max_size=4), label="copies")
    suffixes = data.draw(st.lists(st.sampled_from(SUFFIXES), min_size=n_files, max_size=n_files), label="formats")
    files: list[list[Deal]] = [[] for _ in range(n_files)]
    for index in order:
        files[where[index]].append(POOL[index])
    for index, target in copies:
        files[target].append(POOL[index])
    paths = []
    for i, (deals, suffix) in enumerate(zip(files, suffixes)):
        if deals:
            paths.append(tmp / f"part{i}{suffix}")
            write_records(deals, paths[-1])
    assert _check(paths) == want
    assert _score(paths) == want_sheet
    later = data.draw(st.lists(st.booleans(), min_size=len(paths), max_size=len(paths)), label="second run")
    runs = [[p for p, second in zip(paths, later) if second == run] for run in (False, True)]
    assert _store([run for run in runs if run], tmp / "store") == want_store


def test_out_of_order_session_scored_by_seq(tmp_path: Path) -> None:
    session = [d for d in POOL if d.session == POOL[0].session]
    by_seq = {d.seq: d for d in session}
    shuffled = [by_seq[s] for s in (4, 2, 3, 6, 1, 5)]
    write_records(shuffled, tmp_path / "shuffled.jsonl")
    write_records(session, tmp_path / "ordered.jsonl")
    assert _check([tmp_path / "shuffled.jsonl"]) == _check([tmp_path / "ordered.jsonl"])


def test_the_same_deal_in_two_files_is_scored_once() -> None:
    result = runner.invoke(app, ["check", str(EXAMPLES / "seed_session.jsonl"),
                                 str(EXAMPLES / "trk" / "seed_session.trk")])
    assert "A_SCORE_MISMATCH" not in result.stdout
    assert result.stdout.count("duplicate of") == 4
    assert "4 deals: 4 ok, 0 renons, 0 error; 0 findings; 4 duplicates not counted again" in result.output


def _seq_warnings(records: list[dict[str, Any]], tmp: Path) -> list[tuple[int | None, list[str]]]:
    path = tmp / "s.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return [(o["seq"], [f["code"] for f in o["findings"] if f["code"] == "W_SEQ"]) for o in _run("check", "-f", "json", str(path))]


def test_w_seq_on_a_repeated_or_missing_seq(tmp_path: Path) -> None:
    base = [orjson.loads(line) for line in (EXAMPLES / "seed_session.jsonl").read_bytes().splitlines()]
    base[2]["seq"] = 2  # hands 2 and 3 both say seq 2
    del base[3]["seq"]  # hand 4 says none
    assert _seq_warnings(base, tmp_path) == [(1, []), (2, []), (2, ["W_SEQ"]), (None, ["W_SEQ"])]
    for r in base:
        r.pop("seq", None)  # a session that numbers none of its deals: file order, no warning
    assert _seq_warnings(base, tmp_path) == [(None, [])] * 4


def test_orderer_buffers_only_the_session_out_of_order() -> None:
    items = [("a", 1), ("b", 3), ("a", 2), ("b", 1), ("a", 3), ("b", 2), ("c", None), (None, None)]
    plan = SessionPlan.of(items)
    assert plan.sessions["a"].keys is None and plan.sessions["b"].keys is not None
    closed: list[str] = []
    orderer: SessionOrderer[tuple[str | None, int | None]] = SessionOrderer(plan, closed.append)
    handed = []
    for item in items:
        got = list(orderer.push(*item, item))
        if item[0] == "a":
            assert got == [item]  # in order: handed over at once
        handed.extend(got)
    assert list(orderer.finish()) == []
    assert [i for i in handed if i[0] == "b"] == [("b", 1), ("b", 2), ("b", 3)]
    assert closed == ["a", "b", "c"] and orderer.open == {}
