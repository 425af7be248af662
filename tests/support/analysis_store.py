"""A small hand-built store for the analysis tests: eleven deals whose every figure is known.

The rows are written straight to Parquet in the store layout (one shard,
published with ``ingest.writer.publish_shard``, ``CURRENT`` naming its
generation), following ``ingest.schema``; columns a row leaves out are null
(component columns of a scored deal 0).  The deals, in brief (``*`` marks
the declarer; scores are the recomputed ones):

Session ``s1``, slovenian, 4 players, 2024-03-01, seating Ana Bor Cene Dana rotating:

====  ==========================  ==========  ========================================================
deal  players (forehand first)    contract    what happens
====  ==========================  ==========  ========================================================
s1-1  Ana* Bor Cene Dana          tri         called HK, partner Cene (plays HK in trick 2), won, 40
                                              points, king ultimo announced by Ana and failed (-20):
                                              Ana, Cene -5; Dana's Mond captured (-21, silent)
s1-2  Bor Cene Dana* Ana          dva         called SK, own king (talon listed without SK), lost,
                                              33 points: Dana -20
s1-3  Cene Dana Ana Bor           klop        Bor +70; everyone gets a radelc (0 -> 1)
s1-4  Dana Ana* Bor Cene          berac       won: Ana +140 (radelc doubles); Ana cancels one, then
                                              everyone +1: Ana 1, others 2; Cene's recorded radelci
                                              differ (a radelci-only dispute)
s1-5  Ana Bor* Cene Dana          ena         called DK, in the talon, won 38: Bor +110 (trula
                                              announced and made +20, radelc); renons: Cene
                                              R_FOLLOW_SUIT trick 3 (-60), Bor R_STASH (no trick)
s1-6  Bor* Cene Dana Ana          tri         called CK, partner Ana (trick 7), lost 31, game kontra by
                                              Cene: Bor, Ana -110; silent Pagat ultimo failed (Ana owns
                                              T1: -25 line); Bor recorded -55 (disputed)
====  ==========================  ==========  ========================================================

Session ``s2``, slovenian, 3 players, 2024-04-15: ``s2-1`` Ana* Eva Fran, tri won 45 with a
silent trula (+30); ``s2-2`` Eva Fran Ana*, solo brez lost 30 (-80, everyone +1 radelc);
``s2-3`` Fran Ana* Eva, dva in error (E_NOT_IN_HAND: no scores).

No session, slovenian, 4 players, 2024-03-20: ``x-1`` Gal Hana* Ivo Jan, dva called HK, partner Jan
(trick 5), won 52: Hana, Jan +225 (Pagat ultimo announced by Hana, made, kontra by Gal and re by
Hana: +200; kings made silently by the opponents: -10); Gal announced Mondfang, not captured;
renons: Gal R_MUST_TAROK trick 2 (-20).

Session ``k1``, koenigrufen, 4 players, 2024-05-01: ``k1-1`` Ana Bor Cene Dana*, rufer called CK,
no partner: the record has no talon and nobody played CK, so it lay in the talon; won: Dana +3,
the others -1.

Rejects: ``bad.jsonl`` lines 7 and 3 ("not valid JSON"), ``empty.json`` line 1.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import orjson
import pyarrow as pa

from ingest.layout import StoreLayout
from ingest.packed_record import pack_text
from ingest.schema import SHARD_TABLES, file_schema
from ingest.writer import publish_shard, write_atomic
from tarock.rules.rulesets import ALL_COMPONENTS

GENERATION = "gen-analysis-test"
S1, S2, X, K1 = dt.date(2024, 3, 1), dt.date(2024, 4, 15), dt.date(2024, 3, 20), dt.date(2024, 5, 1)
TALON = ["H3", "S7", "T20", "CQ", "T12", "T16"]


def _deal(deal_id: str, line: int, players: list[str], contract: str, *, session: str | None, seq: int | None,
          date: dt.date, declarer: str | None = None, partner: str | None = None, called_king: str | None = None,
          won: bool | None = None, points: int | None = None, status: str = "ok", ruleset: str = "slovenian",
          mismatch: bool = False, recorded: bool = False, record: dict[str, Any] | None = None) -> dict[str, Any]:
    body = {"format": "tarock-record/1", "id": deal_id, "ruleset": ruleset, "players": players,
            "contract": contract, **(record or {})}
    return {
        "deal_id": deal_id, "content_hash": f"hash-{deal_id}", "source_file": "club.jsonl", "source_line": line,
        "source_pos": line << 32, "shard": "test-shard", "players": players, "session": session, "seq": seq, "date": date,
        "dealer": players[-1], "forehand": players[0], "contract": contract, "declarer": declarer,
        "partner": partner, "called_king": called_king, "status": status, "won": won,
        "declarer_points": points, "opponents_points": None if points is None else 70 - points,
        "n_tricks": 48 // len(players), "has_recorded": recorded, "score_mismatch": mismatch,
        "record": orjson.dumps(body).decode(), "ruleset": ruleset, "n_players": len(players),
    }


DEALS = [
    _deal("s1-1", 1, ["Ana", "Bor", "Cene", "Dana"], "tri", session="s1", seq=1, date=S1, declarer="Ana",
          partner="Cene", called_king="HK", won=True, points=40, record={"talon": TALON}),
    _deal("s1-2", 2, ["Bor", "Cene", "Dana", "Ana"], "dva", session="s1", seq=2, date=S1, declarer="Dana",
          called_king="SK", won=False, points=33, record={"talon": TALON}),
    _deal("s1-3", 3, ["Cene", "Dana", "Ana", "Bor"], "klop", session="s1", seq=3, date=S1),
    _deal("s1-4", 4, ["Dana", "Ana", "Bor", "Cene"], "berac", session="s1", seq=4, date=S1, declarer="Ana",
          won=True, points=0, recorded=True, mismatch=True),
    _deal("s1-5", 5, ["Ana", "Bor", "Cene", "Dana"], "ena", session="s1", seq=5, date=S1, declarer="Bor",
          called_king="DK", won=True, points=38, status="renons", record={"talon": ["DK", *TALON[1:]]}),
    _deal("s1-6", 6, ["Bor", "Cene", "Dana", "Ana"], "tri", session="s1", seq=6, date=S1, declarer="Bor",
          partner="Ana", called_king="CK", won=False, points=31, recorded=True, mismatch=True,
          record={"talon": TALON}),
    _deal("s2-1", 7, ["Ana", "Eva", "Fran"], "tri", session="s2", seq=1, date=S2, declarer="Ana", won=True,
          points=45),
    _deal("s2-2", 8, ["Eva", "Fran", "Ana"], "solo_brez", session="s2", seq=2, date=S2, declarer="Ana",
          won=False, points=30),
    _deal("s2-3", 9, ["Fran", "Ana", "Eva"], "dva", session="s2", seq=3, date=S2, declarer="Ana",
          status="error"),
    _deal("x-1", 10, ["Gal", "Hana", "Ivo", "Jan"], "dva", session=None, seq=None, date=X, declarer="Hana",
          partner="Jan", called_king="HK", won=True, points=52, status="renons", record={"talon": TALON}),
    _deal("k1-1", 11, ["Ana", "Bor", "Cene", "Dana"], "rufer", session="k1", seq=1, date=K1, declarer="Dana",
          called_king="CK", won=True, ruleset="koenigrufen"),
]

# results: (deal, player, role, score, radelci_before, radelci_after, components, recorded score)
RESULTS: list[tuple[str, str, str | None, int | None, int | None, int | None, dict[str, int], int | None]] = [
    ("s1-1", "Ana", "declarer", -5, 0, 0, {"game": 10, "difference": 5, "king_ultimo": -20}, None),
    ("s1-1", "Bor", "opponent", 0, 0, 0, {}, None),
    ("s1-1", "Cene", "partner", -5, 0, 0, {"game": 10, "difference": 5, "king_ultimo": -20}, None),
    ("s1-1", "Dana", "opponent", -21, 0, 0, {"mondfang": -21}, None),
    ("s1-2", "Bor", "opponent", 0, 0, 0, {}, None),
    ("s1-2", "Cene", "opponent", 0, 0, 0, {}, None),
    ("s1-2", "Dana", "declarer", -20, 0, 0, {"game": -20}, None),
    ("s1-2", "Ana", "opponent", 0, 0, 0, {}, None),
    ("s1-3", "Cene", "klop", 0, 0, 1, {}, None),
    ("s1-3", "Dana", "klop", 0, 0, 1, {}, None),
    ("s1-3", "Ana", "klop", 0, 0, 1, {}, None),
    ("s1-3", "Bor", "klop", 70, 0, 1, {"klop": 70}, None),
    ("s1-4", "Dana", "opponent", 0, 1, 2, {}, 0),
    ("s1-4", "Ana", "declarer", 140, 1, 1, {"game": 70, "radelc": 70}, 140),
    ("s1-4", "Bor", "opponent", 0, 1, 2, {}, 0),
    ("s1-4", "Cene", "opponent", 0, 1, 2, {}, 0),
    ("s1-5", "Ana", "opponent", 0, 1, 1, {}, None),
    ("s1-5", "Bor", "declarer", 110, 2, 1, {"game": 30, "difference": 5, "trula": 20, "radelc": 55}, None),
    ("s1-5", "Cene", "opponent", -60, 2, 2, {"penalty": -60}, None),
    ("s1-5", "Dana", "opponent", 0, 2, 2, {}, None),
    ("s1-6", "Bor", "declarer", -110, 1, 1, {"game": -20, "difference": -10, "pagat_ultimo": -25, "radelc": -55},
     -55),
    ("s1-6", "Cene", "opponent", 0, 2, 2, {}, 0),
    ("s1-6", "Dana", "opponent", 0, 2, 2, {}, 0),
    ("s1-6", "Ana", "partner", -110, 1, 1, {"game": -20, "difference": -10, "pagat_ultimo": -25, "radelc": -55},
     -110),
    ("s2-1", "Ana", "declarer", 30, 0, 0, {"game": 10, "difference": 10, "trula": 10}, None),
    ("s2-1", "Eva", "opponent", 0, 0, 0, {}, None),
    ("s2-1", "Fran", "opponent", 0, 0, 0, {}, None),
    ("s2-2", "Eva", "opponent", 0, 0, 1, {}, None),
    ("s2-2", "Fran", "opponent", 0, 0, 1, {}, None),
    ("s2-2", "Ana", "declarer", -80, 0, 1, {"game": -80}, None),
    ("s2-3", "Fran", "opponent", None, None, None, {}, None),
    ("s2-3", "Ana", "declarer", None, None, None, {}, None),
    ("s2-3", "Eva", "opponent", None, None, None, {}, None),
    ("x-1", "Gal", "opponent", -20, 0, 0, {"penalty": -20}, None),
    ("x-1", "Hana", "declarer", 225, 0, 0, {"game": 20, "difference": 15, "pagat_ultimo": 200, "kings": -10}, None),
    ("x-1", "Ivo", "opponent", 0, 0, 0, {}, None),
    ("x-1", "Jan", "partner", 225, 0, 0, {"game": 20, "difference": 15, "pagat_ultimo": 200, "kings": -10}, None),
    ("k1-1", "Ana", "opponent", -1, 0, 0, {"game": -1}, None),
    ("k1-1", "Bor", "opponent", -1, 0, 0, {"game": -1}, None),
    ("k1-1", "Cene", "opponent", -1, 0, 0, {"game": -1}, None),
    ("k1-1", "Dana", "declarer", 3, 0, 0, {"game": 3}, None),
]

FINDINGS = [  # (deal, code, severity, trick, position, player, message)
    ("s1-4", "A_SCORE_MISMATCH", "audit", None, None, "Cene", "Cene's radelci recorded 1, recomputed 2"),
    ("s1-5", "R_STASH", "renons", None, None, "Bor", "Bor laid away the king SK; kings may not be laid away"),
    ("s1-5", "R_FOLLOW_SUIT", "renons", 3, 1, "Cene", "Cene played T7 on a heart lead while holding H3"),
    ("s1-6", "A_SCORE_MISMATCH", "audit", None, None, "Bor",
     "recorded -55 for Bor, recomputed -110: the hand is not doubled: Bor holds no radelc"),
    ("s2-3", "E_NOT_IN_HAND", "error", 1, 0, "Fran", "Fran played HJ, which Ana held"),
    ("x-1", "R_MUST_TAROK", "renons", 2, 3, "Gal", "Gal played H3, void in diamonds, while holding a tarok"),
]

ANNOUNCEMENTS = [  # (deal, player, bonus, kontra, level)
    ("s1-1", "Ana", "king_ultimo", None, None),
    ("s1-5", "Bor", "trula", None, None),
    ("s1-6", "Cene", None, "game", 2),
    ("x-1", "Hana", "pagat_ultimo", None, None),
    ("x-1", "Gal", None, "pagat_ultimo", 2),
    ("x-1", "Hana", None, "pagat_ultimo", 4),
    ("x-1", "Gal", "mondfang", None, None),
]

PLAYS = [  # (deal, trick, position, player, card): the called kings, a few other kings, and the Pagat
    ("s1-1", 1, 1, "Bor", "SK"),
    ("s1-1", 2, 2, "Cene", "HK"),
    ("s1-2", 4, 0, "Dana", "SK"),
    ("s1-6", 3, 3, "Ana", "HK"),
    ("s1-6", 7, 1, "Ana", "CK"),
    ("s1-6", 12, 2, "Ana", "T1"),
    ("x-1", 5, 3, "Jan", "HK"),
    ("k1-1", 4, 2, "Bor", "HK"),
]

TRICKS = [  # (deal, trick, leader, winner, cards, players, points)
    ("s1-1", 1, "Ana", "Bor", ["H4", "SK", "T2", "C7"], ["Ana", "Bor", "Cene", "Dana"], 8),
    ("s1-1", 2, "Bor", "Cene", ["S7", "H3", "HK", "D4"], ["Bor", "Cene", "Dana", "Ana"], 8),
]

REJECTS = [  # (file, line, reason)
    ("bad.jsonl", 7, "not valid JSON"),
    ("bad.jsonl", 3, "not valid JSON"),
    ("empty.json", 1, "the file holds no JSON record"),
]


def _rows() -> dict[str, list[dict[str, Any]]]:
    """Every table's rows as dicts (child rows with their deal's key and partition)."""
    deals = {d["deal_id"]: d for d in DEALS}

    def keyed(deal_id: str, **row: Any) -> dict[str, Any]:
        d = deals[deal_id]
        key = ("deal_id", "content_hash", "source_file", "source_line", "source_pos", "shard", "ruleset", "n_players")
        return {**{k: d[k] for k in key}, **row}

    results = []
    for deal_id, player, role, score, before, after, lines, recorded in RESULTS:
        d = deals[deal_id]
        players = d["players"]
        components = {c: (None if score is None else lines.get(c, 0)) for c in ALL_COMPONENTS}
        seat_names = {3: ("forehand", "second", "dealer"), 4: ("forehand", "second", "third", "dealer")}
        won = None if d["won"] is None or role == "klop" else (d["won"] if role != "opponent" else not d["won"])
        results.append(keyed(
            deal_id, player=player, seat=seat_names[len(players)][players.index(player)],
            seat_no=players.index(player), role=role, score=score, recorded_score=recorded,
            score_diff=None if recorded is None or score is None else recorded - score, radelci_before=before, radelci_after=after,
            won=won, breakdown_json=None if score is None else orjson.dumps(
                [{"players": [player], "component": c, "detail": c, "value": v} for c, v in lines.items()]).decode(),
            **components))
    counts = {deal_id: [f for f in FINDINGS if f[0] == deal_id] for deal_id in deals}
    for d in DEALS:
        d["n_findings"] = len(counts[d["deal_id"]])
        d["n_renons"] = sum(f[2] == "renons" for f in counts[d["deal_id"]])
    return {
        "deals": DEALS,
        "results": results,
        "findings": [keyed(f[0], idx=i, code=f[1], severity=f[2], trick=f[3], position=f[4], player=f[5],
                           message=f[6], file="club.jsonl", line=deals[f[0]]["source_line"])
                     for i, f in enumerate(FINDINGS)],
        "announcements": [keyed(a[0], idx=i, player=a[1], bonus=a[2], kontra=a[3], level=a[4])
                          for i, a in enumerate(ANNOUNCEMENTS)],
        "plays": [keyed(p[0], trick_no=p[1], position=p[2], player=p[3], card=p[4], legal=True) for p in PLAYS],
        "tricks": [keyed(t[0], trick_no=t[1], leader=t[2], winner=t[3], cards=t[4], players=t[5], points=t[6])
                   for t in TRICKS],
        "bids": [],
        "rejects": [{"file": f, "line": n, "reason": r, "raw": "{", "shard": "test-shard"} for f, n, r in REJECTS],
    }


def _parts(name: str, rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], pa.Table]]:
    """The rows as ``publish_shard`` takes them: one table per partition, partition columns dropped."""
    schema = file_schema(name)
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["ruleset"], row["n_players"]) if name != "rejects" else (), []).append(row)
    out = []
    for key, group in sorted(groups.items()):
        values = dict(zip(("ruleset", "n_players"), key))
        # the record as ingest stores it: packed (ingest.schema.PACKED_COLUMNS)
        out.append((values, pa.Table.from_pylist([{f.name: pack_text(r["record"]) if f.name == "record_packed"
                                                   else r.get(f.name) for f in schema} for r in group], schema)))
    return out


def build_store(root: Path) -> Path:
    """Write the store into ``root`` (a new directory) and return it."""
    layout = StoreLayout.at(root)
    rows = _rows()
    tables = {name: _parts(name, rows.get(name, [])) for name in SHARD_TABLES}
    publish_shard(layout, GENERATION, "0123456789abcdef01234567", tables, {"path": "club.jsonl"})
    write_atomic(layout.current_file, lambda fh: fh.write(f"{GENERATION}\n".encode()))
    return root
