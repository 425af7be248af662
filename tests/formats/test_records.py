"""Tests of tarock.formats.codec and tarock.formats.reader: one record to a Deal and back, and streaming record files."""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock.formats import codec
from tarock.formats import reader
from tarock.formats import items as read_items
from tarock.cards import CODES
from tarock.deal import BONUSES, CONTRACTS, Deal
from tarock.formats.codec import content_id, deal_from_obj, deal_to_obj, dumps, loads, RecordError
from tarock.formats.items import ReaderLimits
from tarock.formats.reader import iter_record_files, read_many, read_records

PLAYERS = ["Ana", "Boris", "Cene", "Dana"]


def full_record(seed: int = 0, **changes: Any) -> dict[str, Any]:
    """A complete, canonical 4-player Slovenian record: hands, talon, bidding, 12 tricks."""
    deck = list(range(54))
    random.Random(seed).shuffle(deck)
    hands = {p: [CODES[c] for c in deck[12 * i : 12 * i + 12]] for i, p in enumerate(PLAYERS)}
    talon = [CODES[c] for c in deck[48:]]
    rec: dict[str, Any] = {
        "format": "tarock-record/1",
        "session": "club-7",
        "seq": 3,
        "date": "2024-05-01",
        "ruleset": "slovenian",
        "players": list(PLAYERS),
        "hands": hands,
        "talon": talon,
        "bidding": [["Boris", "tri"], ["Cene", "pass"], ["Dana", "pass"], ["Ana", "pass"]],
        "contract": "tri",
        "declarer": "Boris",
        "called_king": "HK",
        "talon_pick": talon[:3],
        "stash": talon[3:],
        "announcements": [
            {"player": "Boris", "bonus": "trula"},
            {"player": "Ana", "kontra": "game", "level": 2},
        ],
        "tricks": [[hands[p][t] for p in PLAYERS] for t in range(12)],
        "recorded": {"scores": {"Ana": 0, "Boris": 20}},
    }
    rec.update(changes)
    return rec


def minimal(players: list[str], tricks: list[list[str]], **changes: Any) -> dict[str, Any]:
    """A record with only the required fields."""
    return {"ruleset": "slovenian", "players": players, "contract": "klop", "tricks": tricks, **changes}


def write_lines(path: Path, lines: list[str | bytes]) -> Path:
    data = b"".join((x.encode() if isinstance(x, str) else x) + b"\n" for x in lines)
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(data))
    else:
        path.write_bytes(data)
    return path


def j(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


# --------------------------------------------------------------------------- one record


ALIASED = {
    "ruleset": "Slovenian",
    "players": ["Ana", "Boris", "Cene"],
    "contract": "Berač",
    "declarer": "Ana",
    "hands": {"Cene": ["Mond", "S7"], "Ana": ["Pagat", "srce kralj"], "Boris": ["Škis", "XV"]},
    "talon": ["King of Hearts", "Herz Dame"],
    "bidding": [["Ana", "Solo tri"], ["Boris", "PASS"], ["Cene", "pass"], ["Ana", "odprti-berač"]],
    "announcements": [{"player": "Boris", "kontra": "game", "level": 4, "against": "Ana"}],
    "tricks": [["Pagat", "Škis", "Mond"], ["Ana:queen of spades", "Boris:kara 1", "Cene:Kreuz Bube"]],
    "events": [{"player": "Cene", "event": "missing_card", "card": "tarok 7"}],
    "zeta": [1, {"b": 2}],
    "alpha": "kept",
    "seq": 2,
    "session": 41,
    "options": {"radelci": False, "diff_rounding": "none"},
}
ALIASED_CANONICAL = (
    '{"format":"tarock-record/1","session":"41","seq":2,"ruleset":"slovenian",'
    '"options":{"diff_rounding":"none","radelci":false},"players":["Ana","Boris","Cene"],'
    '"hands":{"Ana":["T1","HK"],"Boris":["T22","T15"],"Cene":["T21","S7"]},"talon":["HK","HQ"],'
    '"bidding":[["Ana","solo_tri"],["Boris","pass"],["Cene","pass"],["Ana","odprti_berac"]],'
    '"contract":"berac","declarer":"Ana",'
    '"announcements":[{"player":"Boris","kontra":"game","level":4,"against":"Ana"}],'
    '"tricks":[["T1","T22","T21"],["Ana:SQ","Boris:D1","Cene:CJ"]],'
    '"events":[{"event":"missing_card","player":"Cene","card":"T7"}],'
    '"alpha":"kept","zeta":[1,{"b":2}]}'
)


def test_aliases_are_written_canonically() -> None:
    deal = deal_from_obj(ALIASED)
    assert deal.contract == "berac"
    assert deal.hands == ((0, 29), (21, 14), (20, 38))  # in players order, not the object's
    assert deal.trick_players == (None, ("Ana", "Boris", "Cene"))
    assert dumps(deal) == ALIASED_CANONICAL


def test_round_trip_is_identity_and_stable() -> None:
    deal = deal_from_obj(full_record())
    text = dumps(deal)
    assert loads(text) == deal
    assert dumps(loads(text)) == text
    assert loads(text.encode()) == deal
    # A canonical record is written back byte for byte (keys in canonical order already).
    assert text == orjson.dumps(full_record()).decode()


def test_loads_rejects_bad_json_and_non_objects() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        loads('{"ruleset": ')
    with pytest.raises(RecordError, match="must be a JSON object, not a list"):
        loads("[1]")


def test_default_id_is_a_deterministic_content_hash() -> None:
    deal = deal_from_obj(full_record())
    assert not deal.id_given
    assert len(deal.id) == 16 and int(deal.id, 16) >= 0
    assert deal.id == hashlib.sha256(dumps(deal).encode()).hexdigest()[:16]
    assert deal_from_obj(full_record()).id == deal.id
    # The same content spelled with aliases has the same id.
    rec = full_record()
    rec["called_king"] = "King of Hearts"
    assert deal_from_obj(rec).id == deal.id
    # One card different: another id.
    rec = full_record()
    rec["tricks"][11][3], rec["tricks"][11][2] = rec["tricks"][11][2], rec["tricks"][11][3]
    assert deal_from_obj(rec).id != deal.id


def test_given_id_is_kept_and_written_first() -> None:
    deal = deal_from_obj(full_record(id="deal-1"))
    assert (deal.id, deal.id_given) == ("deal-1", True)
    assert dumps(deal).startswith('{"format":"tarock-record/1","id":"deal-1","session"')
    assert content_id(deal) == deal_from_obj(full_record()).id


def test_unknown_keys_are_kept_in_extra_and_written_back_sorted() -> None:
    deal = deal_from_obj(full_record(zz_note="checked", aa_source={"book": 3}))
    assert dict(deal.extra) == {"zz_note": "checked", "aa_source": {"book": 3}}
    obj = deal_to_obj(deal)
    assert list(obj)[-2:] == ["aa_source", "zz_note"]
    assert loads(dumps(deal)).extra == deal.extra


def test_named_tricks_and_player_names_with_colons() -> None:
    deal = deal_from_obj(minimal(["A", "A:B", "C", "D"], [["A:B:HK", "A:T1", "C:T2", "D:T3"]]))
    assert deal.trick_players == (("A:B", "A", "C", "D"),)
    assert deal.tricks == ((29, 0, 1, 2),)
    assert loads(dumps(deal)) == deal


def test_koenigrufen_declarer_list_and_options_kept_raw() -> None:
    rec = full_record(
        ruleset="Königrufen",
        contract="Piccolo ouvert",
        declarer=["Ana", "Cene"],
        bidding=None,
        announcements=[{"player": "Ana", "bonus": "Vier Könige"}],
        options={"values": "Wien"},
    )
    deal = deal_from_obj(rec)
    assert (deal.ruleset, deal.contract, deal.declarer) == ("koenigrufen", "piccolo_ouvert", ("Ana", "Cene"))
    assert deal.announcements[0].bonus == "vier_koenige"
    assert dict(deal.options) == {"values": "Wien"}  # validated, kept as written
    assert deal_from_obj(dict(rec, declarer=["Dana"])).declarer == "Dana"
    with pytest.raises(RecordError, match="unknown option 'anything' for ruleset koenigrufen"):
        deal_from_obj(dict(rec, options={"anything": [1]}))


def test_optional_fields_parse_to_typed_values() -> None:
    rec = full_record(
        conceded=False,
        claim={"player": "Boris", "after_trick": 9},
        events=[
            {"event": "renons_called", "after_trick": 5},
            {"event": "two_cards", "trick": 3, "player": "Ana", "card": "Mond"},
        ],
        recorded={"scores": {"Boris": 20, "Ana": -10}, "radelci": {"Boris": 1}},
        date="2024-05-01T20:15:00+02:00",
        options={"preset": "openspiel"},
    )
    deal = deal_from_obj(rec)
    assert deal.conceded is False
    assert (deal.claim.player, deal.claim.after_trick) == ("Boris", 9)
    assert deal.events[1].card == 20 and deal.events[1].trick == 3
    assert list(deal.recorded.scores) == ["Ana", "Boris"]  # playing order
    assert deal.recorded.radelci == {"Boris": 1}
    assert loads(dumps(deal)) == deal


BAD_RECORDS: list[tuple[dict[str, Any], str]] = [
    ({"format": "tarock-record/2"}, "format must be 'tarock-record/1'"),
    ({"ruleset": None}, "ruleset is missing"),
    ({"ruleset": "bridge"}, "ruleset: unknown ruleset 'bridge'"),
    ({"players": ["Ana", "Ana", "Cene"]}, "players must be 3 or 4 distinct names of at most 100 characters"),
    ({"players": ["Ana", "Boris"]}, "players must be 3 or 4 distinct names of at most 100 characters"),
    ({"players": ["Ana", "", "Cene"]}, "players must be 3 or 4 distinct names of at most 100 characters"),
    ({"players": ["Ana", "B" * 101, "Cene"]}, "players must be 3 or 4 distinct names of at most 100"),
    (
        {"contract": "x" * 5000},
        "contract: unknown slovenian contract 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'",
    ),
    (
        {"ruleset": "koenigrufen", "contract": "rufer", "players": ["Ana", "Boris", "Cene"]},
        "players must be 4",
    ),
    ({"contract": "grand"}, "contract: unknown slovenian contract 'grand'"),
    ({"contract": 5}, "contract must be a slovenian contract name, not a number"),
    ({"declarer": "Zed"}, "declarer: 'Zed' is not one of the players"),
    ({"declarer": ["Ana", "Boris"]}, "declarer must be one player name; a list is only for koenigrufen"),
    ({"hands": {"Ana": []}}, "hands has no hand for 'Boris'"),
    ({"hands": {**full_record()["hands"], "Zed": []}}, "hands: 'Zed' is not one of the players"),
    ({"talon": ["HK", "XYZ"]}, "talon[1]: unknown card 'XYZ'"),
    ({"talon": "HK"}, "talon must be a list of cards, not a string"),
    ({"bidding": [["Ana", "grand"]]}, "bidding[0][1]: unknown bid 'grand'"),
    ({"bidding": [["Ana"]]}, "bidding[0] must be a [player, bid] pair"),
    ({"called_king": "king of nothing"}, "called_king: unknown card 'king of nothing'"),
    ({"stash": [1]}, "stash[0] must be a card text, not a number"),
    ({"announcements": [{"player": "Ana", "bonus": "slam"}]}, "announcements[0].bonus: unknown bonus 'slam'"),
    (
        {"announcements": [{"player": "Ana", "kontra": "game", "level": 3}]},
        "announcements[0].level must be one of 2, 4, 8, 16",
    ),
    (
        {"announcements": [{"player": "Ana", "kontra": "game", "level": True}]},
        "announcements[0].level must be one of",
    ),
    (
        {"announcements": [{"player": "Zed", "bonus": "trula"}]},
        "announcements[0].player: 'Zed' is not one of the players",
    ),
    ({"announcements": [{"player": "Ana"}]}, "announcements[0] must have either a bonus or a kontra"),
    (
        {"announcements": [{"player": "Ana", "bonus": "trula", "note": 1}]},
        "announcements[0]: unknown field 'note'",
    ),
    ({"tricks": None}, "tricks is missing"),
    ({"tricks": [["HK"], ["HK", "XYZ"]]}, "tricks[1][1]: unknown card 'XYZ'"),
    ({"tricks": [["Ana:HK", "Zed:HQ"]]}, "tricks[0][1]: unknown player 'Zed' in 'Zed:HQ'"),
    ({"tricks": [["Ana:HK", "HQ"]]}, "tricks[0]: either every card of a trick names its player or none does"),
    ({"tricks": [[["HK"]]]}, "tricks[0][0] must be a card text, not a list"),
    ({"tricks": "T1"}, "tricks must be a list, not a string"),
    ({"conceded": "yes"}, "conceded must be true or false"),
    ({"claim": {"player": "Ana", "after_trick": -1}}, "claim.after_trick must be between 0 and 2147483647, not -1"),
    ({"events": [{"event": "sneeze"}]}, "events[0].event must be one of"),
    ({"events": [{"event": "out_of_turn", "trick": 2}]}, "events[0]: a out_of_turn event needs player"),
    ({"recorded": {"scores": {"Ana": True}}}, "recorded.scores.Ana must be a whole number, not true/false"),
    ({"recorded": {"scores": {"Zed": 1}}}, "recorded.scores: 'Zed' is not one of the players"),
    ({"recorded": {"radelci": {}}}, "recorded needs scores"),
    ({"session": [1]}, "session must be a text or a number, not a list"),
    ({"seq": "3"}, "seq must be a whole number, not a string"),
    # issue 24: every value must fit the store's column (seq BIGINT; a recorded score, and its difference to
    # the recomputed one, INTEGER; an event's trick INTEGER), else one record lost its whole shard
    ({"seq": 2**63}, f"seq must be between 0 and {2**63 - 1}, not {2**63}"),
    ({"recorded": {"scores": {"Ana": 2**31}}}, "recorded.scores.Ana must be between -1000000000 and 1000000000"),
    ({"recorded": {"scores": {"Ana": 2**63}}}, "recorded.scores.Ana must be between -1000000000 and 1000000000"),
    ({"recorded": {"scores": {"Ana": -(2**31)}}}, "recorded.scores.Ana must be between -1000000000 and 1000000000"),
    ({"recorded": {"scores": {"Ana": 0}, "radelci": {"Ana": 2**40}}}, "recorded.radelci.Ana must be between"),
    ({"claim": {"player": "Ana", "after_trick": 2**31}}, "claim.after_trick must be between 0 and 2147483647"),
    ({"events": [{"event": "out_of_turn", "trick": 2**31, "player": "Ana"}]},
     "events[0].trick must be between 1 and 2147483647"),
    ({"date": "yesterday"}, 'date "yesterday" is not an ISO 8601 date'),
    ({"options": {"radelci": "maybe"}}, "options: option radelci cannot be 'maybe'"),
    ({"options": {"preset": ["x"]}}, "options:"),
    ({"options": []}, "options must be an object, not a list"),
    ({"id": ""}, "id must be a non-empty text"),
]


@pytest.mark.parametrize(("change", "reason"), BAD_RECORDS, ids=[r for _, r in BAD_RECORDS])
def test_impossible_values_are_record_errors_naming_the_field(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordError) as info:
        deal_from_obj(full_record(**change))
    assert str(info.value).startswith(reason)


@pytest.mark.parametrize(("change", "reason"), BAD_RECORDS, ids=[r for _, r in BAD_RECORDS])
def test_every_record_error_is_an_e_parse_in_place_and_reading_goes_on(
    tmp_path: Path, change: dict[str, Any], reason: str
) -> None:
    path = write_lines(
        tmp_path / "deals.jsonl", [j(full_record()), j(full_record(**change)), j(full_record(1))]
    )
    items = list(read_records(path))
    assert [item.line for item in items] == [1, 2, 3]
    assert items[0].deal is not None and items[2].deal is not None
    finding = items[1].finding
    assert finding is not None and items[1].deal is None
    assert (finding.code, finding.file, finding.line) == ("E_PARSE", str(path), 2)
    assert finding.message.startswith(reason)
    assert items[1].raw == j(full_record(**change))[:2000]  # raw_limit characters


# --------------------------------------------------------------------------- hypothesis: valid records


names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6).filter(str.strip)


@st.composite
def valid_records(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.sampled_from([3, 4]))
    ruleset = "koenigrufen" if n == 4 and draw(st.booleans()) else "slovenian"
    players = draw(st.lists(names, min_size=n, max_size=n, unique=True))
    deck = [CODES[c] for c in draw(st.permutations(range(54)))]
    per = 16 if n == 3 else 12
    rec: dict[str, Any] = {
        "ruleset": ruleset,
        "players": players,
        "contract": draw(st.sampled_from(CONTRACTS[ruleset])),
    }
    n_tricks = draw(st.integers(0, per))
    named = draw(st.lists(st.booleans(), min_size=n_tricks, max_size=n_tricks))
    rec["tricks"] = [
        [(f"{players[s]}:" if named[t] else "") + deck[s * per + t] for s in range(n)]
        for t in range(n_tricks)
    ]
    if draw(st.booleans()):
        rec["hands"] = {p: deck[i * per : (i + 1) * per] for i, p in enumerate(players)}
        rec["talon"] = deck[n * per :]
    if draw(st.booleans()):
        rec["declarer"] = draw(st.sampled_from(players))
    if draw(st.booleans()):
        rec["id"] = draw(st.text(min_size=1, max_size=10))
    if draw(st.booleans()):
        rec["session"] = draw(st.one_of(st.text(max_size=5), st.integers(0, 10**6)))
    if draw(st.booleans()):
        rec["announcements"] = [
            {"player": draw(st.sampled_from(players)), "bonus": draw(st.sampled_from(BONUSES[ruleset]))},
            {
                "player": draw(st.sampled_from(players)),
                "kontra": "game",
                "level": draw(st.sampled_from([2, 4, 8, 16])),
            },
        ]
    if draw(st.booleans()):
        rec["recorded"] = {"scores": {p: draw(st.integers(-500, 500)) for p in players}}
    if draw(st.booleans()):
        rec["extra_" + draw(st.text(max_size=4))] = draw(
            st.recursive(
                st.none() | st.integers(-9, 9) | st.text(max_size=4),
                lambda c: st.lists(c, max_size=3),
                max_leaves=5,
            )
        )
    return rec


@settings(max_examples=150, deadline=None)
@given(valid_records())
def test_any_valid_record_round_trips(rec: dict[str, Any]) -> None:
    deal = deal_from_obj(rec)
    text = dumps(deal)
    assert loads(text) == deal
    assert dumps(loads(text)) == text
    assert deal.id == (rec["id"] if "id" in rec else hashlib.sha256(text.encode()).hexdigest()[:16])


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(codec.KNOWN_KEYS)), json_values)
def test_any_value_in_any_field_is_a_deal_or_a_record_error(key: str, value: Any) -> None:
    rec = full_record()
    rec[key] = value
    try:
        deal = deal_from_obj(rec)
    except RecordError as exc:
        assert str(exc)
    else:
        assert loads(dumps(deal)) == deal


# --------------------------------------------------------------------------- reading files


def test_jsonl_with_bad_lines_yields_deals_and_findings_in_place(tmp_path: Path) -> None:
    lines = [j(full_record(0)), "{not json", j(full_record(1)), '["a list"]', j(full_record(2))]
    path = write_lines(tmp_path / "five.jsonl", lines)
    items = list(read_records(path))
    assert [(i.line, i.deal is not None) for i in items] == [
        (1, True),
        (2, False),
        (3, True),
        (4, False),
        (5, True),
    ]
    assert (
        items[1].finding.message
        == "line 2 is not valid JSON: unexpected character, expected a string key at column 2"
    )
    assert items[3].finding.message == "line 4 holds a list, not a record object"
    assert all(i.file == str(path) for i in items)
    assert [i.deal.id for i in items if i.deal] == [deal_from_obj(full_record(s)).id for s in range(3)]


def test_blank_lines_are_skipped_and_line_numbers_stay_physical(tmp_path: Path) -> None:
    path = tmp_path / "gaps.ndjson"
    path.write_bytes(b"\n   \n" + orjson.dumps(full_record()) + b"\r\n\n" + orjson.dumps(full_record(1)))
    items = list(read_records(path))
    assert [i.line for i in items] == [3, 5]
    assert all(i.deal for i in items)


def test_gzip_jsonl(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "deals.jsonl.gz", [j(full_record(s)) for s in range(4)])
    items = list(read_records(path))
    assert [i.line for i in items] == [1, 2, 3, 4]
    assert [i.deal.tricks for i in items] == [deal_from_obj(full_record(s)).tricks for s in range(4)]


def test_json_list_gives_the_line_where_each_record_starts(tmp_path: Path) -> None:
    path = tmp_path / "three.json"
    path.write_text(json.dumps([full_record(s) for s in range(3)], indent=2))
    text = path.read_text().splitlines()
    starts = [n for n, line in enumerate(text, 1) if line == "  {"]
    items = list(read_records(path))
    assert [i.line for i in items] == starts and len(starts) == 3
    assert [i.deal for i in items] == [deal_from_obj(full_record(s)) for s in range(3)]


def test_json_list_on_one_line_and_gzipped(tmp_path: Path) -> None:
    path = tmp_path / "flat.json.gz"
    path.write_bytes(gzip.compress(orjson.dumps([full_record(0), full_record(1)])))
    items = list(read_records(path))
    assert [(i.line, i.deal is not None) for i in items] == [(1, True), (1, True)]


def test_json_single_object(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(full_record(), indent=1))
    items = list(read_records(path))
    assert len(items) == 1 and items[0].line == 1 and items[0].deal == deal_from_obj(full_record())


def test_json_list_with_bad_elements_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "mixed.json"
    path.write_text(
        "[\n"
        + j(full_record(0))
        + ",\n"
        + '{"ruleset": "slovenian", "players": 7},\n'
        + '{"a": ]  ,\n'
        + "42,\n"
        + j(full_record(1))
        + "\n]\n"
    )
    items = list(read_records(path))
    assert [i.line for i in items] == [2, 3, 4, 5, 6]
    assert [i.deal is not None for i in items] == [True, False, False, False, True]
    assert items[1].finding.message == "players must be 3 or 4 distinct names of at most 100 characters"
    assert items[2].finding.message.startswith("line 4 is not valid JSON")
    assert items[3].finding.message == "line 5 holds a number, not a record object"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[{}, ]", [(1, "ruleset is missing"), (1, "the list has an empty element (a stray comma)")]),
        ("[]\n x", [(2, "there is text after the end of the list")]),
        ("[\n{}, {", [(2, "ruleset is missing"), (2, "the file ends before this record is complete")]),
        ("[\n{},\n", [(2, "ruleset is missing"), (3, "the file ends before its list is closed")]),
        ("[{}}]", [(1, "line 1 has a '}' that closes nothing")]),
        ("  \n", [(2, "the file holds no JSON record")]),
        ("[]", []),
    ],
)
def test_broken_json_lists_are_e_parse(tmp_path: Path, text: str, expected: list[tuple[int, str]]) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text)
    assert [(i.line, i.finding.message) for i in read_records(path)] == expected


def test_truncated_and_false_gzip_are_findings_not_exceptions(tmp_path: Path) -> None:
    data = gzip.compress(b"".join(orjson.dumps(full_record(s)) + b"\n" for s in range(200)))
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(data[: len(data) // 2])
    items = list(read_records(truncated))
    assert all(i.deal for i in items[:-1]) and len(items) > 1
    assert items[-1].finding.message == "the gzip data ends early: the file is truncated"
    assert items[-1].line == len(items)  # the line being read when the data ran out

    fake = tmp_path / "plain.json.gz"
    fake.write_bytes(orjson.dumps(full_record()))
    (item,) = read_records(fake)
    assert item.finding.code == "E_PARSE" and item.finding.message.startswith(
        "the file is not valid gzip data"
    )


def test_missing_file_is_one_finding_at_line_0(tmp_path: Path) -> None:
    (item,) = read_records(tmp_path / "nowhere.jsonl")
    assert (item.line, item.finding.code, item.deal) == (0, "E_PARSE", None)
    assert item.finding.message.startswith("the file cannot be opened")


def test_gzip_bomb_stops_at_the_decompressed_limit(tmp_path: Path) -> None:
    line = orjson.dumps(full_record()) + b"\n"
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(gzip.compress(line * 50 + b" " * 5_000_000))
    limits = ReaderLimits(max_gz_bytes=10 * len(line) + 5)
    items = list(read_records(path, limits))
    assert [i.line for i in items if i.deal] == list(range(1, 11))
    assert items[-1].finding.message == f"the decompressed size passes the {10 * len(line) + 5} bytes limit"
    assert items[-1].line == 11 and len(items) == 11

    json_path = tmp_path / "bomb.json.gz"
    json_path.write_bytes(gzip.compress(b"[" + b" " * 3_000_000 + b"]"))
    (item,) = read_records(json_path, ReaderLimits(max_gz_bytes=1_000_000))
    assert item.finding.message == "the decompressed size passes the 1000000 bytes limit"


def test_over_long_line_is_skipped_without_losing_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "_CHUNK", 64)  # the long line spans many chunks
    good = orjson.dumps(full_record())
    path = write_lines(tmp_path / "long.jsonl", [good, b'{"x": "' + b"y" * 5000 + b'"}', good])
    limits = ReaderLimits(max_line_bytes=len(good), raw_limit=10)
    items = list(read_records(path, limits))
    assert [(i.line, i.deal is not None) for i in items] == [(1, True), (2, False), (3, True)]
    assert items[1].finding.message == f"line 2 is longer than {len(good)} bytes"
    assert items[1].raw == '{"x": "yyy'
    assert ReaderLimits().max_line_bytes == 16 << 20
    assert read_items._size_text(ReaderLimits().max_line_bytes) == "16 MiB"


def test_nesting_deeper_than_the_limit_is_e_parse(tmp_path: Path) -> None:
    deep = full_record(note=json.loads("[" * 70 + "]" * 70))
    shallow = full_record(note=json.loads("[" * 60 + "]" * 60), brackets="[[[[{{{{" * 20)
    very_deep = b'{"x":' + b"[" * 2000 + b"]" * 2000 + b"}"
    path = write_lines(tmp_path / "deep.jsonl", [j(deep), j(shallow), very_deep])
    items = list(read_records(path))
    assert items[0].finding.message == "line 1 nests JSON deeper than 64 levels"
    assert items[1].deal is not None  # brackets inside strings do not count
    assert items[2].finding.code == "E_PARSE"
    # orjson's own limit (1024) is also a finding, not an exception.
    (item,) = read_records(write_lines(tmp_path / "d2.jsonl", [very_deep]), ReaderLimits(max_depth=5000))
    assert item.finding.message.startswith("line 1 is not valid JSON: depth limit exceeded")
    path = tmp_path / "deep.json"
    path.write_text("[" + j(deep) + "," + j(shallow) + "]")
    assert [i.deal is None for i in read_records(path)] == [True, False]


def test_shards_by_line_range_cover_every_line_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "_CHUNK", 100)
    lines = [j(full_record(s)) if s % 7 else "" for s in range(40)]
    lines[13] = "garbage"
    path = write_lines(tmp_path / "shard.jsonl", lines)
    everything = [(i.line, i.deal.id if i.deal else i.finding.message) for i in read_records(path)]
    shards = [(1, 9), (10, 10), (11, 25), (26, None)]
    pieces = [
        (i.line, i.deal.id if i.deal else i.finding.message)
        for start, end in shards
        for i in read_records(path, start_line=start, end_line=end)
    ]
    assert pieces == everything
    assert [i.line for i in read_records(path, start_line=13, end_line=15)] == [13, 14]
    assert list(read_records(path, start_line=500)) == []

    json_path = tmp_path / "shard.json"
    json_path.write_text(json.dumps([full_record(s) for s in range(5)], indent=2))
    all_lines = [i.line for i in read_records(json_path)]
    mid = all_lines[2]
    assert [i.line for i in read_records(json_path, start_line=mid, end_line=mid)] == [mid]
    assert [i.line for i in read_records(json_path, end_line=mid - 1)] == all_lines[:2]


def test_text_after_an_object_element_is_caught_across_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = j(minimal(["A", "B", "C"], []))
    monkeypatch.setattr(reader, "_CHUNK", len(first) + 3)  # the first chunk ends with "} x", the next " ,"
    path = tmp_path / "after.json"
    path.write_text("[" + first + " x ,\n" + first + "]")
    items = list(read_records(path))
    assert items[0].finding.message.startswith("line 1 is not valid JSON")
    assert items[1].line == 2 and items[1].deal == deal_from_obj(minimal(["A", "B", "C"], []))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    notes=st.lists(st.text(alphabet='ab"\\[]{},:\n\t é', max_size=30), min_size=1, max_size=5),
    chunk=st.integers(1, 40),
    indent=st.sampled_from([None, 1, 2]),
)
def test_json_splitter_handles_strings_and_chunk_boundaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notes: list[str], chunk: int, indent: int | None
) -> None:
    monkeypatch.setattr(reader, "_CHUNK", chunk)
    recs = [minimal(["A", "B", "C"], [], note=n) for n in notes]
    path = tmp_path / "split.json"
    text = json.dumps(recs, indent=indent, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    items = list(read_records(path))
    assert [i.deal.extra["note"] for i in items] == notes
    if indent:
        assert [i.line for i in items] == [
            n for n, l in enumerate(text.splitlines(), 1) if l == " " * indent + "{"
        ]
    lines_path = write_lines(tmp_path / "split.jsonl", [j(r) for r in recs])
    assert [i.deal.extra["note"] for i in read_records(lines_path)] == notes


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.binary(max_size=60), st.text(max_size=60).map(str.encode)), max_size=8))
def test_random_lines_never_raise(tmp_path: Path, lines: list[bytes]) -> None:
    lines = [line.replace(b"\n", b" ") for line in lines]
    limits = ReaderLimits(max_line_bytes=40, max_depth=3)
    for name in ("r.jsonl", "r.json", "r.jsonl.gz"):
        path = write_lines(tmp_path / name, lines)
        items = list(read_records(path, limits))
        assert all((i.deal is None) != (i.finding is None) for i in items)
        assert all(i.finding.code == "E_PARSE" and i.finding.line == i.line for i in items if i.finding)
        if name != "r.json":
            # One item per line that is not blank (a byte order mark opens line 1 invisibly).
            texts = [
                line.removeprefix(b"\xef\xbb\xbf") if n == 1 else line for n, line in enumerate(lines, 1)
            ]
            assert [i.line for i in items] == [n for n, t in enumerate(texts, 1) if not t.isspace() and t]


def test_iter_record_files_and_read_many(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    write_lines(tmp_path / "b" / "x.jsonl", [j(full_record(0))])
    write_lines(tmp_path / "a" / "deep" / "y.ndjson.gz", [j(full_record(1))])
    write_lines(tmp_path / "a" / "z.json", [j([full_record(2)])])
    write_lines(tmp_path / "a" / "notes.txt", ["hello"])
    write_lines(tmp_path / "a" / "table.parquet", ["x"])
    files = iter_record_files(tmp_path)
    assert files == [
        tmp_path / "a" / "deep" / "y.ndjson.gz",
        tmp_path / "a" / "z.json",
        tmp_path / "b" / "x.jsonl",
    ]
    explicit = tmp_path / "a" / "notes.txt"
    assert iter_record_files([explicit, tmp_path / "b", tmp_path / "b" / "x.jsonl"]) == [
        explicit,
        tmp_path / "b" / "x.jsonl",
    ]
    items = list(read_many([tmp_path, tmp_path / "missing.jsonl"]))
    assert [i.deal.id for i in items[:3]] == [deal_from_obj(full_record(s)).id for s in (1, 2, 0)]
    assert [i.file for i in items] == [str(f) for f in files] + [str(tmp_path / "missing.jsonl")]
    assert items[3].finding.line == 0


def test_deal_objects_are_immutable_and_cached_plays_do_not_leak_between_players() -> None:
    first = deal_from_obj(full_record(tricks=[["Ana:HK", "Boris:HQ", "Cene:HN", "Dana:HJ"]], hands=None))
    assert first.trick_players == (("Ana", "Boris", "Cene", "Dana"),)
    with pytest.raises(RecordError, match="unknown player 'Ana'"):
        deal_from_obj(
            minimal(["Eva", "Boris", "Cene", "Dana"], [["Ana:HK", "Boris:HQ", "Cene:HN", "Dana:HJ"]])
        )
    with pytest.raises(AttributeError):
        first.id = "x"  # type: ignore[misc]
    assert isinstance(first, Deal)
    mutated = copy.deepcopy(full_record())
    deal = deal_from_obj(mutated)
    mutated["tricks"][0][0] = "T5"
    assert deal == deal_from_obj(full_record())
