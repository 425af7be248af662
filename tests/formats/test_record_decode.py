"""Tests of tarock.formats.decode: the typed fast path gives the reference's Deal, or declines.

The reference is ``deal_from_obj(orjson.loads(text))`` (what ``codec.loads``
did before the fast path).  For every text, ``fast_deal`` must be None or a
Deal equal to the reference's in every field, down to the types of the
values and the order of the mappings; ``loads`` and the file readers must
behave exactly as with the fast path switched off (same Deals, same error
texts); and the plain records that the generators and the simulator write
must really take the fast path.
"""

from __future__ import annotations

import copy
import dataclasses
import glob
import gzip
import json
import random
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock.sim import random_koenigrufen
from tarock.sim import randomplay
from tarock.formats import decode as record_decode
from tarock.formats import codec
from tarock.formats import reader
from tarock.cards import CODES
from tarock.deal import BONUSES, CONTRACTS, Deal
from tarock.formats.decode import fast_deal
from tarock.formats.codec import content_id, deal_from_obj, loads, RecordError
from tarock.formats.reader import read_records
from tests.support.paths import ROOT

ROOT = ROOT
SAMPLE_FILES = sorted(glob.glob(str(ROOT / "data" / "sample" / "*.jsonl.gz")))
EXAMPLE_FILES = sorted(
    p
    for p in glob.glob(str(ROOT / "data" / "examples" / "**" / "*"), recursive=True)
    if p.endswith((".json", ".jsonl"))
)


# --------------------------------------------------------------------------- helpers


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down; mappings also in the same key order."""
    if type(a) is not type(b):
        return False
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, Mapping):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def reference(text: str | bytes) -> Deal | str:
    """The reference path's Deal, or its RecordError text (its JSON error as text too)."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return f"JSON: {exc}"
    try:
        return deal_from_obj(obj)
    except RecordError as exc:
        return f"RecordError: {exc}"


def check(text: str | bytes) -> Deal | None:
    """Assert the fast path agrees with the reference on ``text``; the fast path's answer."""
    fast = fast_deal(text)
    if fast is not None:
        ref = reference(text)
        assert isinstance(ref, Deal), ref
        assert same(fast, ref), (fast, ref)
    return fast


def outcome(text: str | bytes) -> tuple[str, Any]:
    """What ``codec.loads`` does with ``text``: its Deal or its RecordError text."""
    try:
        return "deal", loads(text)
    except RecordError as exc:
        return "error", str(exc)


def same_outcome(fast: tuple[str, Any], slow: tuple[str, Any]) -> bool:
    return fast[0] == slow[0] and (same(fast[1], slow[1]) if fast[0] == "deal" else fast[1] == slow[1])


def compact(obj: Any) -> bytes:
    """Compact JSON as the project writes it; json rather than orjson, which refuses integers past 64 bits."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def strip_id(text: bytes) -> bytes:
    obj = orjson.loads(text)
    del obj["id"]
    return orjson.dumps(obj)


# --------------------------------------------------------------------------- the fast path's own tables


def test_tables_match_the_reference() -> None:
    assert record_decode.MAX_NAME == codec.MAX_NAME
    assert record_decode._EVENT_NEEDS == codec.EVENT_FIELDS
    # canonical key order: the known keys, then the one extra key the fast path reads
    assert record_decode._Record.__struct_fields__ == (*codec.KNOWN_KEYS, "openspiel")
    assert "openspiel" not in codec.KNOWN_KEYS


def test_openspiel_provenance_takes_the_fast_path() -> None:
    """Records from ``tarock import openspiel`` keep the game's seed and returns under the extra key
    ``openspiel``; the fast path reads them into ``extra`` exactly as the reference does (content id too)."""
    rec = randomplay.random_record(random.Random(5), 4)
    rec["openspiel"] = {"rng_seed": 12, "returns": [0, -70, 0, 0]}
    deal = check(orjson.dumps(rec))
    assert deal is not None and dict(deal.extra) == {"openspiel": {"rng_seed": 12, "returns": [0, -70, 0, 0]}}
    assert deal.id == content_id(deal)
    rec["openspiel"]["returns"] = [0.5, -70, 0, 0]  # a float: left to the reference path
    assert record_decode.fast_deal(orjson.dumps(rec)) is None


# --------------------------------------------------------------------------- generated and bundled records


def test_random_slovenian_records_all_take_the_fast_path() -> None:
    rng = random.Random(11)
    for i in range(800):
        n_players = 3 if i % 4 == 0 else 4
        text = orjson.dumps(randomplay.random_record(rng, n_players, named=i % 3 == 0))
        deal = check(text)
        assert deal is not None, text
        assert not deal.id_given and deal.id == content_id(deal)
        if i % 50 == 0:  # spaced-out JSON, as str: the same deal
            for spaced in (json.dumps(orjson.loads(text), indent=2), json.dumps(orjson.loads(text))):
                assert same(check(spaced), deal)


def test_random_koenigrufen_records_all_take_the_fast_path() -> None:
    rng = random.Random(12)
    lists = 0
    for i in range(600):
        obj = random_koenigrufen.random_record(rng, named=i % 2 == 0)
        lists += isinstance(obj.get("declarer"), list)
        deal = check(orjson.dumps(obj))
        assert deal is not None, obj
        assert deal.id == content_id(deal)
    assert lists  # several declarers (a list) were among them


def sample_lines() -> list[bytes]:
    return [line.rstrip(b"\n") for path in SAMPLE_FILES for line in gzip.open(path)]


@pytest.mark.slow
def test_every_sample_record_takes_the_fast_path() -> None:
    lines = sample_lines()
    assert len(lines) == 5500  # 4,000 + 1,200 Slovenian, 300 Königrufen (data/sample/README.md)
    for i, line in enumerate(lines):
        deal = check(line)
        assert deal is not None, line
        assert deal.id_given
        if i % 10 == 0:  # without its id: the content id (named tricks, bidding, scores, announcements)
            anonymous = check(strip_id(line))
            assert anonymous is not None and anonymous.id == content_id(anonymous)


def example_texts() -> Iterator[bytes]:
    """Every record text of data/examples: .jsonl lines, .json records (a lone one also as the file)."""
    for path in EXAMPLE_FILES:
        data = Path(path).read_bytes()
        if path.endswith(".jsonl"):
            yield from (line for line in data.splitlines() if line.strip())
            continue
        value = orjson.loads(data)
        if isinstance(value, dict):
            yield data
        for obj in value if isinstance(value, list) else [value]:
            yield orjson.dumps(obj)
            yield strip_id(orjson.dumps(obj))


def test_every_valid_example_record_takes_the_fast_path() -> None:
    texts = list(example_texts())
    assert len(texts) > 90
    for text in texts:
        assert (check(text) is not None) == isinstance(reference(text), Deal), text


@pytest.mark.slow
def test_readers_give_the_same_items_with_and_without_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    files = EXAMPLE_FILES + SAMPLE_FILES
    fast = [item for path in files for item in read_records(path)]
    monkeypatch.setattr(codec, "fast_deal", lambda text: None)
    monkeypatch.setattr(reader, "fast_deal", lambda text: None)
    slow = [item for path in files for item in read_records(path)]
    assert len(fast) == len(slow) > 5200
    for a, b in zip(fast, slow):
        assert same(a, b), (a, b)


# --------------------------------------------------------------------------- mutations


def base_record() -> dict[str, Any]:
    """A 4-player Slovenian record using every field of the format (with plausible values)."""
    obj = randomplay.random_record(random.Random(5), 4, contract="tri")
    players = obj["players"]
    declarer = obj["declarer"]
    obj.update(
        id="deal-1",
        session="club",
        seq=4,
        date="2026-03-01",
        options={"radelci": False, "diff_rounding": "none"},
        bidding=[[players[1], "pass"], [players[2], "pass"], [players[3], "pass"], [declarer, "tri"]],
        announcements=[
            {"player": declarer, "bonus": "trula"},
            {"player": players[0] if declarer != players[0] else players[1], "kontra": "game", "level": 2},
        ],
        conceded=False,
        claim={"player": declarer, "after_trick": 10},
        events=[
            {"event": "renons_called", "after_trick": 3},
            {"event": "out_of_turn", "trick": 2, "player": players[2]},
            {"event": "two_cards", "trick": 5, "player": players[1], "card": "HK"},
            {"event": "missing_card", "player": players[3], "card": "T7"},
        ],
        recorded={"scores": {players[3]: 10, declarer: 40}, "radelci": {p: 0 for p in players}},
    )
    return obj


def koenigrufen_record() -> dict[str, Any]:
    obj = random_koenigrufen.random_record(random.Random(7), contract="piccolo")
    obj["declarer"] = ["Boris", "Ana"]
    return obj


def named(obj: dict[str, Any]) -> dict[str, Any]:
    """The record with every play named by its player (seat order from the forehand is fine here)."""
    players = obj["players"]
    obj["tricks"] = [[f"{players[i]}:{card}" for i, card in enumerate(trick)] for trick in obj["tricks"]]
    return obj


def at(obj: Any, path: list[str]) -> Any:
    """The value at ``path`` (keys, and list indexes as digits) inside ``obj``."""
    for key in path:
        obj = obj[int(key)] if isinstance(obj, list) else obj[key]
    return obj


def setter(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A mutation setting the value at a dotted path ("tricks.0.1", "recorded.scores.Ana")."""

    def change(obj: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = at(obj, parents)
        target[int(last) if isinstance(target, list) else last] = value

    return change


def deleter(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda obj: obj.pop(key, None)


def reorder(path: str) -> Callable[[dict[str, Any]], None]:
    """A mutation reversing the key order of the object at a dotted path."""

    def change(obj: dict[str, Any]) -> None:
        target = at(obj, path.split("."))
        items = list(target.items())[::-1]
        target.clear()
        target.update(items)

    return change


def only(obj: dict[str, Any], *keys: str, **changes: Any) -> None:
    """Keep only ``keys`` of the record (and set ``changes``)."""
    kept = {key: obj[key] for key in keys} | changes
    obj.clear()
    obj.update(kept)


def rename(obj: dict[str, Any], old: str, new: str) -> None:
    """Rename a player everywhere in the record, named plays included."""
    quoted = json.dumps(new)
    text = json.dumps(obj).replace(f'"{old}"', quoted).replace(f'"{old}:', quoted[:-1] + ":")
    obj.clear()
    obj.update(json.loads(text))


# (id, mutation, whether the fast path takes it: True, False, or None when either is fine)
MUTATIONS: list[tuple[str, Callable[[dict[str, Any]], None], bool | None]] = [
    ("unchanged", lambda obj: None, True),
    ("no id", deleter("id"), True),
    ("id null", setter("id", None), True),
    ("id empty", setter("id", ""), False),
    ("id number", setter("id", 7), False),
    ("format null", setter("format", None), True),
    ("no format", deleter("format"), True),
    ("format wrong", setter("format", "tarock-record/2"), False),
    ("ruleset alias", setter("ruleset", "Slovenian"), False),
    ("ruleset unknown", setter("ruleset", "bridge"), False),
    ("ruleset null", setter("ruleset", None), False),
    ("no ruleset", deleter("ruleset"), False),
    ("duplicate player", setter("players.1", "Ana"), False),
    ("two players", lambda obj: obj.update(players=obj["players"][:2]), False),
    ("five players", lambda obj: obj["players"].append("Eva"), False),
    ("blank player", setter("players.0", "  "), False),
    ("player 100 chars", lambda obj: rename(obj, "Ana", "A" * 100), True),
    ("player 101 chars", lambda obj: rename(obj, "Ana", "A" * 101), False),
    ("player number", setter("players.0", 1), False),
    ("players text", setter("players", "Ana"), False),
    ("player with colon", lambda obj: rename(obj, "Ana", "A:na"), None),
    ("player with colon, named", lambda obj: rename(named(obj), "Ana", "A:na"), None),
    ("player non-ASCII", lambda obj: rename(obj, "Ana", 'Ančka\u2028\x00"\\'), True),
    ("no contract", deleter("contract"), False),
    ("contract null", setter("contract", None), False),
    ("contract alias", setter("contract", "Solo Tri"), False),
    ("contract of koenigrufen", setter("contract", "rufer"), False),
    ("contract number", setter("contract", 3), False),
    ("no tricks", deleter("tricks"), False),
    ("tricks text", setter("tricks", "T1"), False),
    ("no tricks played", setter("tricks", []), True),
    ("empty trick", setter("tricks.0", []), True),
    ("trick text", setter("tricks.0", "HK"), False),
    ("unknown card", setter("tricks.1.0", "XYZ"), False),
    ("alias card", setter("tricks.1.0", "Pagat"), False),
    ("lower-case code", setter("tricks.1.0", "hk"), False),
    ("card number", setter("tricks.1.0", 21), False),
    ("named tricks", named, True),
    ("one trick named", setter("tricks.2", ["Ana:T1", "Boris:T2", "Cilka:T3", "David:T4"]), True),
    ("named and unnamed in a trick", setter("tricks.2.0", "Ana:T1"), False),
    ("named by a stranger", setter("tricks.0", ["Zed:T1", "Boris:T2", "Cilka:T3", "David:T4"]), False),
    ("named alias card", setter("tricks.0", ["Ana:Pagat", "Boris:T2", "Cilka:T3", "David:T4"]), False),
    ("named twice", setter("tricks.0", ["Ana:Ana:T1", "Boris:T2", "Cilka:T3", "David:T4"]), False),
    ("named by nobody", setter("tricks.0", [":T1", "Boris:T2", "Cilka:T3", "David:T4"]), False),
    ("extra key", setter("note", "hello"), False),
    ("extra key null", setter("note", None), False),
    ("date and time", setter("date", "2026-03-01T19:05:00+01:00"), True),
    ("date bad", setter("date", "2026-13-01"), False),
    ("date words", setter("date", "yesterday"), False),
    ("date number", setter("date", 2026), False),
    ("date null", setter("date", None), True),
    ("seq negative", setter("seq", -1), False),
    ("seq float", setter("seq", 1.0), False),
    ("seq bool", setter("seq", True), False),
    ("seq text", setter("seq", "1"), False),
    ("seq 2**63-1", setter("seq", 2**63 - 1), True),
    ("seq 2**64-1", setter("seq", 2**64 - 1), None),
    ("session number", setter("session", 41), True),
    ("session empty", setter("session", ""), True),
    ("session bool", setter("session", True), False),
    ("session float", setter("session", 4.5), False),
    ("session list", setter("session", [1]), False),
    ("hands reordered", reorder("hands"), True),
    ("hands missing one", lambda obj: obj["hands"].pop("Ana"), False),
    ("hands of a stranger", setter("hands.Zed", []), False),
    ("hands list", setter("hands", [["T1"]]), False),
    ("hand alias", setter("hands.Ana.0", "Mond"), False),
    ("hand empty", setter("hands.Ana", []), True),
    ("hands null", setter("hands", None), True),
    ("talon alias", setter("talon.0", "Škis"), False),
    ("talon text", setter("talon", "HK"), False),
    ("talon null", setter("talon", None), True),
    ("talon_pick alias", setter("talon_pick.0", "King of Hearts"), False),
    ("stash card number", setter("stash.0", 1), False),
    ("bidding triple", setter("bidding.0", ["Ana", "pass", "x"]), False),
    ("bid alias", setter("bidding.3.1", "Tri"), False),
    ("bid unknown", setter("bidding.3.1", "grand"), False),
    ("bidder unknown", setter("bidding.0.0", "Zed"), False),
    ("bidding empty", setter("bidding", []), True),
    ("declarer unknown", setter("declarer", "Zed"), False),
    ("declarer list in slovenian", setter("declarer", ["Ana", "Boris"]), False),
    ("declarer null", setter("declarer", None), True),
    ("called king alias", setter("called_king", "Herz König"), False),
    ("called king not a king", setter("called_king", "T1"), True),
    ("called king number", setter("called_king", 29), False),
    ("bonus alias", setter("announcements.0.bonus", "Trula"), False),
    ("bonus unknown", setter("announcements.0.bonus", "slam"), False),
    ("bonus with level", setter("announcements.0.level", 2), False),
    ("bonus with level null", setter("announcements.0.level", None), False),
    ("bonus null beside kontra", setter("announcements.1.bonus", None), None),
    ("kontra against", setter("announcements.1.against", "Boris"), True),
    ("kontra against null", setter("announcements.1.against", None), None),
    ("kontra against stranger", setter("announcements.1.against", "Zed"), False),
    ("kontra level 3", setter("announcements.1.level", 3), False),
    ("kontra level true", setter("announcements.1.level", True), False),
    ("kontra level 2.0", setter("announcements.1.level", 2.0), False),
    ("kontra target bonus", setter("announcements.1.kontra", "trula"), True),
    ("kontra target alias", setter("announcements.1.kontra", "Game"), False),
    ("announcement both", setter("announcements.1.bonus", "trula"), False),
    ("announcement neither", setter("announcements.0", {"player": "Ana"}), False),
    ("announcement unknown field", setter("announcements.0.note", 1), False),
    ("announcement fields reordered", reorder("announcements.1"), True),
    ("announcements empty", setter("announcements", []), True),
    ("announcement player unknown", setter("announcements.0.player", "Zed"), False),
    ("event unknown", setter("events.0.event", "sneeze"), False),
    ("event missing field", lambda obj: obj["events"][1].pop("player"), False),
    ("event trick 0", setter("events.1.trick", 0), False),
    ("event after_trick -1", setter("events.0.after_trick", -1), False),
    ("event card alias", setter("events.3.card", "Mond"), False),
    ("event player unknown", setter("events.1.player", "Zed"), False),
    ("event unknown field", setter("events.0.note", 1), False),
    ("event null field", setter("events.0.player", None), True),
    ("event extra known field", setter("events.0.player", "Ana"), True),
    ("event claim", setter("events.0", {"event": "claim", "player": "Ana", "after_trick": 4}), True),
    ("event fields reordered", reorder("events.2"), True),
    ("events empty", setter("events", []), True),
    ("claim missing after_trick", lambda obj: obj["claim"].pop("after_trick"), False),
    ("claim negative", setter("claim.after_trick", -1), False),
    ("claim unknown field", setter("claim.note", 1), False),
    ("claim player null", setter("claim.player", None), False),
    ("conceded true", setter("conceded", True), True),
    ("conceded text", setter("conceded", "yes"), False),
    ("conceded null", setter("conceded", None), True),
    ("scores reordered", reorder("recorded.scores"), True),
    ("scores of a stranger", setter("recorded.scores.Zed", 1), False),
    ("score float", setter("recorded.scores.Ana", 1.5), False),
    ("score bool", setter("recorded.scores.Ana", True), False),
    ("score huge", setter("recorded.scores.Ana", 10**30), False),
    ("score 10**9", setter("recorded.scores.Ana", 10**9), True),
    ("score -10**9", setter("recorded.scores.Ana", -(10**9)), True),
    ("scores empty", setter("recorded.scores", {}), True),
    ("no scores", lambda obj: obj["recorded"].pop("scores"), False),
    ("radelci null", setter("recorded.radelci", None), True),
    ("radelci empty", setter("recorded.radelci", {}), True),
    ("recorded unknown field", setter("recorded.note", 1), False),
    ("options unsorted", reorder("options"), True),
    ("options empty", setter("options", {}), True),
    ("options preset", setter("options", {"preset": "openspiel"}), True),
    ("options preset null", setter("options", {"preset": None}), True),
    ("options text for bool", setter("options", {"radelci": "false"}), True),
    ("options unknown", setter("options", {"colour": "red"}), False),
    ("options bad value", setter("options", {"radelci": "maybe"}), False),
    ("options float", setter("options", {"mondfang_value": 20.0}), False),
    ("options list", setter("options", {"preset": ["openspiel"]}), False),
    ("options list itself", setter("options", []), False),
    ("options of koenigrufen", setter("options", {"quapil": True}), False),
]


@pytest.mark.parametrize("with_id", [True, False], ids=["id", "no id"])
@pytest.mark.parametrize(
    ("change", "taken"), [(m, t) for _, m, t in MUTATIONS], ids=[n for n, _, _ in MUTATIONS]
)
def test_mutated_records_read_as_before(
    monkeypatch: pytest.MonkeyPatch,
    change: Callable[[dict[str, Any]], None],
    taken: bool | None,
    with_id: bool,
) -> None:
    obj = base_record()
    if not with_id:
        del obj["id"]
    change(obj)
    for text in (compact(obj), json.dumps(obj, indent=1), json.dumps(obj)):
        fast = check(text)
        if taken is not None:
            assert (fast is not None) == taken, text
        with_fast = outcome(text)
        monkeypatch.setattr(codec, "fast_deal", lambda text: None)
        monkeypatch.setattr(reader, "fast_deal", lambda text: None)
        assert same_outcome(with_fast, outcome(text))
        monkeypatch.undo()


KOENIGRUFEN_MUTATIONS: list[tuple[str, Callable[[dict[str, Any]], None], bool]] = [
    ("declarer list", lambda obj: None, True),
    ("declarer list of one", setter("declarer", ["Ana"]), True),
    ("declarer list empty", setter("declarer", []), False),
    ("declarer list twice", setter("declarer", ["Ana", "Ana"]), False),
    ("declarer list stranger", setter("declarer", ["Ana", "Zed"]), False),
    ("four players, nothing else", lambda obj: only(obj, "ruleset", "players", "contract", "tricks"), True),
    (
        "three players",
        lambda obj: only(obj, "ruleset", "contract", "tricks", players=["Ana", "Boris", "Cilka"]),
        False,
    ),
    (
        "kontra against",
        setter("announcements", [{"player": "Cilka", "kontra": "game", "level": 2, "against": "Ana"}]),
        True,
    ),
    ("options", setter("options", {"counting": "1/1", "min_win_score": 36, "quapil": True}), True),
    ("options inconsistent", setter("options", {"counting": "1/1"}), False),
    ("options of slovenian", setter("options", {"radelci": False}), False),
    ("bonus uhu", setter("announcements", [{"player": "Ana", "bonus": "uhu"}]), True),
    ("bonus of slovenian", setter("announcements", [{"player": "Ana", "bonus": "trula"}]), False),
    ("named", named, True),
]


@pytest.mark.parametrize("with_id", [True, False], ids=["id", "no id"])
@pytest.mark.parametrize(
    ("change", "taken"),
    [(m, t) for _, m, t in KOENIGRUFEN_MUTATIONS],
    ids=[n for n, _, _ in KOENIGRUFEN_MUTATIONS],
)
def test_mutated_koenigrufen_records_read_as_before(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[dict[str, Any]], None], taken: bool, with_id: bool
) -> None:
    obj = koenigrufen_record()
    if with_id:
        obj["id"] = "kr-1"
    change(obj)
    text = orjson.dumps(obj)
    assert (check(text) is not None) == taken
    with_fast = outcome(text)
    monkeypatch.setattr(codec, "fast_deal", lambda text: None)
    monkeypatch.setattr(reader, "fast_deal", lambda text: None)
    assert same_outcome(with_fast, outcome(text))


GOOD = orjson.dumps(base_record())
NO_ID = strip_id(GOOD)

# (id, text, whether the fast path takes it)
TEXTS: list[tuple[str, bytes | str, bool]] = [
    ("bytes", GOOD, True),
    ("str", GOOD.decode(), True),
    ("CRLF and spaces", b"  " + GOOD + b" \r\n", True),
    ("BOM", b"\xef\xbb\xbf" + GOOD, False),
    ("str BOM", "\ufeff" + GOOD.decode(), False),
    ("not JSON", b"{not json", False),
    ("empty", b"", False),
    ("trailing text", GOOD + b" x", False),
    ("two objects", GOOD + GOOD, False),
    ("a list", b"[" + GOOD + b"]", False),
    ("a text", b'"record"', False),
    ("null", b"null", False),
    ("lone surrogate", GOOD.replace(b'"Ana"', b'"\\ud800"'), False),
    (
        "surrogate pair",
        GOOD.replace(b'"Ana"', b'"\\ud83d\\ude00"').replace(b'"Ana:', b'"\\ud83d\\ude00:'),
        True,
    ),
    ("invalid UTF-8", GOOD.replace(b'"Ana"', b'"\xff"'), False),
    ("str with a lone surrogate", GOOD.decode().replace('"Ana"', '"\ud800"'), False),
    ("escaped key", GOOD.replace(b'"players"', b'"\\u0070layers"'), True),
    ("escaped code", GOOD.replace(b'"HK"', b'"\\u0048K"'), True),
    ("duplicate key", GOOD.replace(b'{"format"', b'{"id":"first","format"'), True),
    ("duplicate key, last bad", GOOD.replace(b'"tricks"', b'"contract":"grand","tricks"'), False),
    ("duplicate hand", GOOD.replace(b'"hands":{', b'"hands":{"Boris":["T1"],'), True),
    ("seq 2**64", GOOD.replace(b'"seq":4', b'"seq":18446744073709551616'), False),
    ("seq 1e0", GOOD.replace(b'"seq":4', b'"seq":1e0'), False),
    ("seq -0", GOOD.replace(b'"seq":4', b'"seq":-0'), True),
    ("NaN", GOOD.replace(b'"seq":4', b'"seq":NaN'), False),
    ("no id, duplicate key", NO_ID.replace(b'{"format"', b'{"session":"x","format"'), True),
]


@pytest.mark.parametrize(("text", "taken"), [(t, k) for _, t, k in TEXTS], ids=[n for n, _, _ in TEXTS])
def test_texts_read_as_before(monkeypatch: pytest.MonkeyPatch, text: bytes | str, taken: bool) -> None:
    assert (check(text) is not None) == taken
    with_fast = outcome(text)
    monkeypatch.setattr(codec, "fast_deal", lambda text: None)
    monkeypatch.setattr(reader, "fast_deal", lambda text: None)
    assert same_outcome(with_fast, outcome(text))


@pytest.mark.parametrize("value", [None, 5, bytearray(GOOD), memoryview(GOOD)], ids=repr)
def test_other_inputs_read_as_before(monkeypatch: pytest.MonkeyPatch, value: Any) -> None:
    def run() -> tuple[str, Any]:
        try:
            return outcome(value)
        except Exception as exc:  # noqa: BLE001 (whatever the reference raises, the fast path must too)
            return type(exc).__name__, str(exc)

    with_fast = run()
    monkeypatch.setattr(codec, "fast_deal", lambda text: None)
    monkeypatch.setattr(reader, "fast_deal", lambda text: None)
    assert same_outcome(with_fast, run())


PAST_THE_COLUMNS = [
    ("seq 2**63", setter("seq", 2**63), f"seq must be between 0 and {2**63 - 1}"),
    ("score -2**63", setter("recorded.scores.Ana", -(2**63)), "recorded.scores.Ana must be between -1000000000 and"),
    ("score 2**31", setter("recorded.scores.Ana", 2**31), "recorded.scores.Ana must be between -1000000000 and"),
    ("score -10**9-1", setter("recorded.scores.Ana", -(10**9) - 1), "recorded.scores.Ana must be between"),
    ("radelci 2**31", setter("recorded.radelci.Ana", 2**31), "recorded.radelci.Ana must be between"),
    ("claim 2**31", setter("claim.after_trick", 2**31), "claim.after_trick must be between 0 and 2147483647"),
    ("event 2**31", setter("events.0.after_trick", 2**31), "events[0].after_trick must be between 0 and 2147483647"),
]


@pytest.mark.parametrize(("change", "reason"), [(c, r) for _, c, r in PAST_THE_COLUMNS],
                         ids=[n for n, _, _ in PAST_THE_COLUMNS])
def test_values_past_the_store_columns_decline_and_the_reference_names_the_range(
    change: Callable[[dict[str, Any]], None], reason: str
) -> None:
    """Issue 24: a value the store's column cannot hold is E_PARSE (it failed the whole shard at write time)."""
    obj = base_record()
    change(obj)
    text = compact(obj)
    assert check(text) is None
    with pytest.raises(RecordError, match="^" + re.escape(reason)):
        codec.loads(text)


def test_readers_read_mutated_lines_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = []
    for _, change, _ in MUTATIONS:
        obj = base_record()
        change(obj)
        lines.append(compact(obj))
    lines += [
        text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass") for _, text, _ in TEXTS
    ]
    jsonl = tmp_path / "mutated.jsonl"
    jsonl.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n")
    as_list = tmp_path / "mutated.json"
    as_list.write_bytes(b"[\n" + b",\n".join(lines[: len(MUTATIONS)]) + b"\n]")
    fast = [list(read_records(path)) for path in (jsonl, as_list)]
    monkeypatch.setattr(codec, "fast_deal", lambda text: None)
    monkeypatch.setattr(reader, "fast_deal", lambda text: None)
    slow = [list(read_records(path)) for path in (jsonl, as_list)]
    assert same(fast, slow)
    assert sum(item.deal is not None for item in fast[0]) > len(MUTATIONS) // 2


# --------------------------------------------------------------------------- hypothesis


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)


@st.composite
def plain_records(draw: st.DrawFn) -> dict[str, Any]:
    """Records the fast path should take: canonical names and codes, any player names and field order."""
    n = draw(st.sampled_from([3, 4]))
    ruleset = "koenigrufen" if n == 4 and draw(st.booleans()) else "slovenian"
    players = draw(st.lists(names, min_size=n, max_size=n, unique=True))
    deck = [CODES[c] for c in draw(st.permutations(range(54)))]
    per = 16 if n == 3 else 12
    n_tricks = draw(st.integers(0, per))
    named_tricks = draw(st.lists(st.booleans(), min_size=n_tricks, max_size=n_tricks))
    rec: dict[str, Any] = {
        "ruleset": ruleset,
        "players": players,
        "contract": draw(st.sampled_from(CONTRACTS[ruleset])),
        "tricks": [
            [(f"{players[s]}:" if named_tricks[t] else "") + deck[s * per + t] for s in range(n)]
            for t in range(n_tricks)
        ],
    }
    optional = {
        "format": st.sampled_from(["tarock-record/1", None]),
        "id": st.text(min_size=1, max_size=10),
        "session": st.one_of(st.text(max_size=5), st.integers(0, 10**6)),
        "seq": st.integers(0, 2**63 - 1),
        "date": st.dates().map(str),
        "hands": st.permutations(players).map(
            lambda order: {p: deck[players.index(p) * per : (players.index(p) + 1) * per] for p in order}
        ),
        "talon": st.just(deck[n * per :]),
        "bidding": st.lists(
            st.tuples(st.sampled_from(players), st.sampled_from(CONTRACTS[ruleset] + ("pass",))).map(list),
            max_size=5,
        ),
        "declarer": st.sampled_from(players),
        "called_king": st.sampled_from(CODES),
        "announcements": st.lists(
            st.one_of(
                st.fixed_dictionaries(
                    {"player": st.sampled_from(players), "bonus": st.sampled_from(BONUSES[ruleset])}
                ),
                st.fixed_dictionaries(
                    {
                        "player": st.sampled_from(players),
                        "kontra": st.sampled_from(("game",) + BONUSES[ruleset]),
                        "level": st.sampled_from([2, 4, 8, 16]),
                    },
                    optional={"against": st.sampled_from(players)},
                ),
            ),
            max_size=3,
        ),
        "conceded": st.booleans(),
        "claim": st.fixed_dictionaries(
            {"player": st.sampled_from(players), "after_trick": st.integers(0, 16)}
        ),
        "recorded": st.fixed_dictionaries(
            {"scores": st.dictionaries(st.sampled_from(players), st.integers(-(10**9), 10**9))},
            optional={"radelci": st.dictionaries(st.sampled_from(players), st.integers(-5, 5)) | st.none()},
        ),
    }
    for key, strategy in optional.items():
        if draw(st.booleans()):
            rec[key] = draw(strategy)
    keys = draw(st.permutations(list(rec)))
    return {key: rec[key] for key in keys}


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(plain_records())
def test_plain_records_take_the_fast_path_with_the_same_deal(rec: dict[str, Any]) -> None:
    for text in (orjson.dumps(rec), json.dumps(rec)):
        deal = check(text)
        if any(":" in p for p in rec["players"]) or any(not p.strip() for p in rec["players"]):
            continue  # names the fast path may decline (the reference rejects blank ones)
        assert deal is not None, rec
        assert deal.id == (rec["id"] if "id" in rec else content_id(deal))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(CODES + ("Ana", "Boris", "Ana:HK", "pass", "tri", "trula", "game", "2026-01-01")),
    lambda c: (
        st.lists(c, max_size=4)
        | st.dictionaries(
            st.sampled_from(["Ana", "Boris", "player", "x"]) | st.text(max_size=6), c, max_size=4
        )
    ),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value: the keys and indexes leading to it."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from paths(inner, prefix + (key,))


BASE = base_record()
BASE_PATHS = list(paths(BASE))[1:]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASE_PATHS), json_values, st.booleans())
def test_any_value_anywhere_reads_as_before(path: tuple[Any, ...], value: Any, drop_id: bool) -> None:
    obj = copy.deepcopy(BASE)
    if drop_id:
        del obj["id"]
    target: Any = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    text = compact(obj)
    fast = check(text)
    ref = reference(text)
    assert fast is None or same(fast, ref)


date_texts = st.one_of(
    st.text(alphabet="0123456789-T:+Z.W ", max_size=30),
    st.dates().map(str),
    st.datetimes().map(lambda d: d.isoformat()),
    st.datetimes().map(lambda d: d.isoformat(sep=" ", timespec="minutes") + "+01:00"),
    st.dates().map(lambda d: d.strftime("%Y%m%d")),
)


@settings(max_examples=300, deadline=None)
@given(date_texts)
def test_dates_are_taken_exactly_when_the_reference_takes_them(text: str) -> None:
    record = compact(dict(BASE, date=text))
    assert (check(record) is not None) == isinstance(reference(record), Deal)


def test_msgspec_writes_every_text_and_number_as_orjson_does() -> None:
    """The content id hashes msgspec's JSON where the reference hashes orjson's: they must be the same bytes.

    Escaping is decided character by character, so every code point (in runs
    of 4096, surrogates left out: neither reads them) stands for every text.
    """
    encode = msgspec.json.Encoder().encode
    points = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    for start in range(0, len(points), 4096):
        text = "".join(map(chr, points[start : start + 4096]))
        assert encode(text) == orjson.dumps(text)
    for number in (0, -1, 7, 2**31, 2**63 - 1, -(2**63), 10**18):
        assert encode(number) == orjson.dumps(number)
    for value in (True, False, None, {"b": [1, "x"], "a": {}}, ["T1", ("Ana", "pass")]):
        assert encode(value) == orjson.dumps(value)


def test_the_reader_keeps_the_canonical_text_ingest_stores(tmp_path: Path) -> None:
    """``read_records(..., canonical_text=True)`` gives each deal the fast path read with its canonical
    text, which is exactly ``codec.dumps`` of the deal (with and without an id, named plays, options,
    the openspiel key, recorded scores); a record the fast path declines comes without one."""
    rng = random.Random(17)
    lines = []
    for i in range(300):
        rec = randomplay.random_record(rng, 3 if i % 3 else 4, named=i % 2 == 0)
        if i % 4 == 0:
            rec["id"] = f"deal-{i}"
            rec["session"] = 7
            rec["recorded"] = {"scores": {p: 10 for p in reversed(rec["players"])}}
        if i % 5 == 0:
            rec["options"] = {"radelci": False, "diff_rounding": "none"}
            rec["openspiel"] = {"rng_seed": i, "returns": [0] * len(rec["players"])}
        lines.append(orjson.dumps(rec))
    lines.append(orjson.dumps({**orjson.loads(lines[0]), "note": "an unknown key"}))
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    items = list(reader.read_records(path, canonical_text=True))
    assert all(item.deal is not None for item in items)
    for item in items[:-1]:
        assert item.text is not None and item.text == codec.dumps(item.deal)
    assert items[-1].text is None  # declined by the fast path: ingest writes dumps(deal) itself
    assert all(item.text is None for item in reader.read_records(path))
