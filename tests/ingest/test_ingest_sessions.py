"""Ingest keeps a session whole across shards (ingest.groups, docs/store.md "Sessions across shards").

A session split over two files, ingested in one run or in several, is scored as the same deals in one
ordered file are, and as ``tarock check -f json`` scores the files together: the radelci a Klop leaves in
the first half carry into the second.  Real stores in tmp dirs, read back through ``tarock sql``'s views.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
from typer.testing import CliRunner

from ingest.commands import ingest
from ingest.layout import StoreLayout, is_group, visible_shards
from ingest.store import sql
from tarock.cli import app
from tarock.deal import Deal
from tarock.formats.codec import deal_from_obj
from tarock.formats.writer import write_records
from tarock.sim.simulate import simulate_sessions
from tests.support.ingest_util import snapshot

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"

SESSION = [deal_from_obj(record) for record, _ in simulate_sessions(4, 17, 0, 1, 12, 0.25)]
"""One 4-player session of 12 deals, seq 1-12: Klops at seq 3 and 4 give everyone radelci, which double
the later games, so a second half scored without the first gets other scores."""
OTHER = [deal_from_obj(record) for record, _ in simulate_sessions(3, 91, 0, 1, 5, 0.25)]
"""A 3-player session that stays in one file: never grouped."""


def _scores(store: Path) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(content hash, player) -> what the store says of the player in the deal, without where it was read."""
    frame = sql(store, "SELECT r.content_hash, r.player, r.score, r.radelci_before, r.radelci_after, "
                       "r.recorded_score, r.breakdown_json, d.status, d.n_findings, "
                       "(SELECT list(f.code || ':' || f.message ORDER BY f.idx) FROM findings f "
                       " WHERE f.content_hash = r.content_hash) AS findings "
                       "FROM results r JOIN deals d USING (content_hash)")
    return {(row[0], row[1]): tuple(row[2:]) for row in frame.iter_rows()}


def _check(paths: list[Path]) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(deal id, player) -> (score, radelci before, after, finding codes) from ``tarock check -f json`` of the
    files together (first copies only)."""
    result = runner.invoke(app, ["check", "-f", "json", *map(str, paths)])
    assert result.exit_code in (0, 1), result.output
    out: dict[tuple[str, str], tuple[Any, ...]] = {}
    for line in result.stdout.splitlines():
        obj = orjson.loads(line)
        if not obj.get("duplicate_of"):
            for player, score in obj["scores"].items():
                out[(obj["id"], player)] = (score, obj["radelci_before"][player], obj["radelci_after"][player],
                                            sorted(f["code"] for f in obj["findings"]))
    return out


def _stored_by_id(store: Path) -> dict[tuple[str, str], tuple[Any, ...]]:
    """The same from the store."""
    frame = sql(store, "SELECT d.deal_id, r.player, r.score, r.radelci_before, r.radelci_after, "
                       "(SELECT list(f.code ORDER BY f.code) FROM findings f WHERE f.content_hash = r.content_hash) "
                       "FROM results r JOIN deals d USING (content_hash)")
    return {(row[0], row[1]): (*row[2:5], row[5] or []) for row in frame.iter_rows()}


def _write(tmp: Path, name: str, deals: list[Deal]) -> Path:
    path = tmp / name
    tmp.mkdir(parents=True, exist_ok=True)
    write_records(deals, path)
    return path


def _radelci_carried(scores: dict[tuple[str, str], tuple[Any, ...]], deals: list[Deal]) -> bool:
    from tarock.check.sessions import content_hash

    hashes = {content_hash(d) for d in deals}
    return any(v[1] for (h, _), v in scores.items() if h in hashes)


def test_a_session_split_over_two_files_is_scored_whole(tmp_path: Path) -> None:
    first, second = SESSION[:6], SESSION[6:]
    a = _write(tmp_path, "a.jsonl", first + OTHER)
    b = _write(tmp_path, "b.jsonl", list(reversed(second)))  # out of order inside its file too
    whole = _write(tmp_path / "one", "all.jsonl", SESSION + OTHER)

    summary = ingest([a, b], tmp_path / "split", quiet=True)
    assert summary.exit_code == 0 and summary.groups == 1 and summary.sessions_rescored == 1
    ingest([whole], tmp_path / "whole", quiet=True)
    split = _scores(tmp_path / "split")
    assert split == _scores(tmp_path / "whole")
    assert len(split) == 12 * 4 + 5 * 3
    # the second file's first deal starts with the radelci the Klops of the first left: the test can fail
    assert _radelci_carried(split, second)
    # the seen rows come from one group shard: file a's and b's deals under one key
    assert sql(tmp_path / "split", "SELECT count(DISTINCT shard) FROM deals WHERE session = $1",
               [SESSION[0].session]).item() == 1


def test_the_store_agrees_with_check_over_the_two_files(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.jsonl", SESSION[:7])
    b = _write(tmp_path, "b.trk", SESSION[7:])
    ingest([a, b], tmp_path / "store", quiet=True)
    got = _stored_by_id(tmp_path / "store")
    assert len(got) == 12 * 4 and any(v[1] for v in got.values())
    assert got == _check([a, b])
    result = runner.invoke(app, ["score", "-f", "json", str(a), str(b)])
    (sheet,) = [orjson.loads(line) for line in result.stdout.splitlines()]
    # a cell is blank (null) for a player who writes nothing in the hand: a score of 0 in the store
    from_sheet = {(hand["id"], p): ((hand["cells"][p] or 0), hand["radelci_after"][p])
                  for hand in sheet["hands"] for p in sheet["players"]}
    assert from_sheet == {k: (v[0], v[2]) for k, v in got.items()}


def test_incremental_ingest_rescores_the_session_and_is_idempotent(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.jsonl", SESSION[:5] + OTHER)
    b = _write(tmp_path, "b.jsonl", SESSION[5:9])
    c = _write(tmp_path, "c.json", SESSION[9:])
    together, store = tmp_path / "together", tmp_path / "store"

    first = ingest([a], store, quiet=True)
    assert first.groups == 0 and first.sessions_rescored == 0
    second = ingest([b], store, quiet=True)
    assert (second.groups, second.sessions_rescored, second.exit_code) == (1, 1, 0)
    ingest([a, b], together, quiet=True)
    assert snapshot(store) == snapshot(together)  # the very rows, shard keys included

    again = ingest([a, b], store, quiet=True)
    assert (again.groups, again.sessions_rescored, again.processed) == (0, 0, 0)
    assert again.shards_skipped == again.shards
    assert snapshot(store) == snapshot(together)

    third = ingest([c], store, quiet=True)  # a third file of the same session: a bigger group
    assert (third.groups, third.sessions_rescored) == (1, 1)
    layout = StoreLayout.at(store)
    generation = layout.read_current() or ""
    groups = [m for m in layout.completed_shards(generation).values() if is_group(m)]
    assert len(groups) == 1 and len(groups[0]["members"]) == 3  # the two-member group is retired
    whole = _write(tmp_path / "one", "all.jsonl", SESSION + OTHER)
    ingest([whole], tmp_path / "whole", quiet=True)
    assert _scores(store) == _scores(tmp_path / "whole")
    assert _radelci_carried(_scores(store), SESSION[9:])

    # a rescore keeps the session whole: as a fresh ingest under the new options
    options = {"radelc_scope": "each_player"}
    rescored = ingest([], store, quiet=True, rescore=True, ruleset_options=options)
    assert rescored.switched and rescored.groups == 1 and rescored.sessions_rescored == 1
    ingest([a, b, c], tmp_path / "fresh", quiet=True, ruleset_options=options)
    assert snapshot(store) == snapshot(tmp_path / "fresh")
    ingest([whole], tmp_path / "whole2", quiet=True, ruleset_options=options)
    assert _scores(store) == _scores(tmp_path / "whole2")


def test_ingest_runs_records_groups(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.jsonl", SESSION[:6])
    b = _write(tmp_path, "b.jsonl", SESSION[6:])
    ingest([a], tmp_path / "store", quiet=True)
    ingest([b], tmp_path / "store", quiet=True)
    rows = sql(tmp_path / "store", "SELECT groups, sessions_rescored FROM ingest_runs ORDER BY started_at")
    assert rows.rows() == [(0, 0), (1, 1)]


def test_the_same_session_in_two_files_is_seen_once(tmp_path: Path) -> None:
    """seed_session.jsonl and its .trk copy hold the same 4 deals: one group, 4 deals seen, no mismatch
    (scored apart, the copy would read as hands 5-8 of the session).  Lines 1-4 of both files are in one
    group shard, so a copy is told apart by its file too."""
    summary = ingest([EXAMPLES / "seed_session.jsonl", EXAMPLES / "trk" / "seed_session.trk"],
                     tmp_path / "store", quiet=True)
    assert summary.groups == 1 and summary.deduplicated == 4
    store = tmp_path / "store"
    assert sql(store, "SELECT count(*) FROM deals").item() == 4
    assert sql(store, "SELECT count(*) FROM findings WHERE code = 'A_SCORE_MISMATCH'").item() == 0
    assert sql(store, "SELECT count(DISTINCT source_file) FROM deals").item() == 1


def test_a_killed_group_leaves_each_deal_seen_once(tmp_path: Path) -> None:
    """Before the group's marker is published, its members are seen; after, the group alone; a re-run
    publishes it again."""
    a = _write(tmp_path, "a.jsonl", SESSION[:6])
    b = _write(tmp_path, "b.jsonl", SESSION[6:])
    store = tmp_path / "store"
    ingest([a, b], store, quiet=True)
    want = snapshot(store)
    layout = StoreLayout.at(store)
    generation = layout.read_current() or ""
    (group,) = [k for k, m in layout.completed_shards(generation).items() if is_group(m)]
    layout.marker_path(generation, group).unlink()  # as if killed before the group's marker was written
    assert sql(store, "SELECT count(*), count(DISTINCT content_hash) FROM deals").row(0) == (12, 12)
    rerun = ingest([a, b], store, quiet=True)
    assert rerun.groups == 1 and rerun.processed == 0
    assert snapshot(store) == want


def test_visible_shards_prefers_the_biggest_live_group() -> None:
    def marker(key: str, members: tuple[str, ...] = ()) -> dict[str, Any]:
        return {"key": key, "files": {}, **({"members": list(members)} if members else {})}

    complete = {k: marker(k) for k in ("a", "b", "c", "d")}
    complete["g1"] = marker("g1", ("a", "b"))
    complete["g2"] = marker("g2", ("a", "b", "c"))  # a later run's bigger group, g1 not yet retired
    complete["g3"] = marker("g3", ("d", "e"))  # "e" was retired (its file edited): g3 is not live
    assert sorted(visible_shards(complete)) == ["d", "g2"]
    del complete["g2"]
    assert sorted(visible_shards(complete)) == ["c", "d", "g1"]


def test_old_markers_without_sessions_are_read_from_their_rows(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.jsonl", SESSION[:6])
    b = _write(tmp_path, "b.jsonl", SESSION[6:])
    store = tmp_path / "store"
    ingest([a], store, quiet=True)
    layout = StoreLayout.at(store)
    generation = layout.read_current() or ""
    for key in layout.completed_shards(generation):  # as a marker written before markers listed sessions
        path = layout.marker_path(generation, key)
        body = json.loads(path.read_text())
        del body["sessions"]
        path.write_text(json.dumps(body))
    assert ingest([b], store, quiet=True).sessions_rescored == 1
    ingest([a, b], tmp_path / "together", quiet=True)
    assert _scores(store) == _scores(tmp_path / "together")


def test_an_edited_file_regroups_its_session(tmp_path: Path) -> None:
    """File b is edited after its session was grouped: its old shard is retired, which leaves the old group
    unseen, and the new shard is grouped with a's: the store is a fresh ingest of a and the new b."""
    a = _write(tmp_path, "a.jsonl", SESSION[:6])
    b = _write(tmp_path, "b.jsonl", SESSION[6:])
    store = tmp_path / "store"
    ingest([a, b], store, quiet=True)
    _write(tmp_path, "b.jsonl", SESSION[6:10])  # the last two hands struck out
    edited = ingest([a, b], store, quiet=True)
    assert (edited.groups, edited.sessions_rescored) == (1, 1)
    ingest([a, b], tmp_path / "fresh", quiet=True)
    assert snapshot(store) == snapshot(tmp_path / "fresh")
    layout = StoreLayout.at(store)
    generation = layout.read_current() or ""
    assert sum(is_group(m) for m in layout.completed_shards(generation).values()) == 1
