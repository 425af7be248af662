"""Tests of tarock.formats.trk: the `.trk` text format, its round trips, its errors, and ``convert``."""

from __future__ import annotations

import gzip
import random
import re
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock.cards import CODES
from tarock.deal import Deal
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj, dumps
from tarock.formats.reader import iter_record_files, read_records
from tarock.formats.trk import dumps_trk, dumps_trk_all, loads_trk, loads_trk_all, TrkError
from tarock.formats.writer import convert, write_records
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
TRK_EXAMPLES = EXAMPLES / "trk"


def example_deals() -> list[tuple[str, Deal]]:
    """Every readable record of data/examples' .json and .jsonl files (E_PARSE lines left out)."""
    out = []
    for path in sorted(EXAMPLES.rglob("*.json*")):
        for item in read_records(path):
            if item.deal is not None:
                out.append((f"{path.relative_to(EXAMPLES)}:{item.line}", item.deal))
    return out


EXAMPLE_DEALS = example_deals()


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("where, deal", EXAMPLE_DEALS, ids=[w for w, _ in EXAMPLE_DEALS])
def test_every_example_round_trips(where: str, deal: Deal) -> None:
    text = dumps_trk(deal)
    back = loads_trk(text)
    assert dumps(back) == dumps(deal)  # JSON -> .trk -> JSON: nothing lost
    assert dumps_trk(back) == text  # .trk -> Deal -> .trk: canonical text is a fixed point


def test_examples_cover_the_seed_session_and_the_findings() -> None:
    names = {w.split(":")[0] for w, _ in EXAMPLE_DEALS}
    assert "seed_session.jsonl" in names and "findings/r_stash.json" in names
    assert len(EXAMPLE_DEALS) >= 30


def test_seed_session_trk_is_the_jsonl_session() -> None:
    from_trk = [i.deal for i in read_records(TRK_EXAMPLES / "seed_session.trk")]
    from_json = [i.deal for i in read_records(EXAMPLES / "seed_session.jsonl")]
    assert len(from_trk) == 4 and [dumps(d) for d in from_trk] == [dumps(d) for d in from_json]  # type: ignore[arg-type]
    assert (TRK_EXAMPLES / "seed_session.trk").read_text() == dumps_trk_all(from_json)  # type: ignore[arg-type]


def test_hand_typed_example_reads_as_the_seed_record() -> None:
    (typed,) = read_records(TRK_EXAMPLES / "emperor_trick_by_hand.trk")
    (seed,) = read_records(EXAMPLES / "seed_emperor_trick.json")
    assert typed.deal is not None and seed.deal is not None
    for field in ("id", "players", "hands", "talon", "bidding", "contract", "declarer", "called_king",
                  "talon_pick", "stash", "tricks"):
        assert getattr(typed.deal, field) == getattr(seed.deal, field), field
    assert replay(typed.deal).card_points == replay(seed.deal).card_points
    assert replay(typed.deal).findings == []


NAMES = st.one_of(
    st.sampled_from(["Ana", "Boris", "Cilka", "David", "Žan", "P0", "talon", "HK", "pass", "40", "1.", "Ana B"]),
    st.text(alphabet=string.ascii_letters + " :,\"{}[]\\é.?-", min_size=1, max_size=8).filter(lambda s: s.strip()),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def records(draw: Any) -> dict[str, Any]:
    """Arbitrary readable records: odd names, options, extra keys, named and unnamed tricks, events."""
    n = draw(st.sampled_from([3, 4]))
    players = draw(st.lists(NAMES, min_size=n, max_size=n, unique=True))
    deck = list(range(54))
    random.Random(draw(st.integers(0, 10**6))).shuffle(deck)
    per = 16 if n == 3 else 12
    hands = {p: [CODES[c] for c in deck[i * per:(i + 1) * per]] for i, p in enumerate(players)}
    rec: dict[str, Any] = {"ruleset": "slovenian", "players": players, "contract": draw(st.sampled_from(
        ["klop", "tri", "dva", "berac", "valat"]))}
    n_tricks = draw(st.integers(0, per))
    named = draw(st.booleans())
    rec["tricks"] = [[f"{p}:{hands[p][t]}" if named else hands[p][t] for p in players] for t in range(n_tricks)]
    if draw(st.booleans()):
        rec["hands"] = hands
        rec["talon"] = [CODES[c] for c in deck[48:]]
    optional = {
        "id": st.text(min_size=1, max_size=10),
        "session": st.text(max_size=10),
        "seq": st.integers(0, 999),
        "date": st.sampled_from(["2026-03-14", "2026-03-14T20:15:00"]),
        "options": st.fixed_dictionaries({}, optional={"diff_rounding": st.sampled_from(["none", "nearest5"]),
                                                       "emperor_trick": st.sampled_from([True, False, "false"]),
                                                       "mondfang_value": st.sampled_from([20, 21, "20"]),
                                                       "preset": st.just("openspiel")}),
        "bidding": st.lists(st.tuples(st.sampled_from(players), st.sampled_from(["pass", "tri", "solo_tri"])),
                            max_size=5).map(lambda bids: [list(b) for b in bids]),
        "declarer": st.sampled_from(players),
        "called_king": st.sampled_from(["HK", "DK", "SK", "CK"]),
        "talon_pick": st.lists(st.sampled_from(CODES), max_size=3),
        "stash": st.lists(st.sampled_from(CODES), max_size=3),
        "announcements": st.lists(st.one_of(
            st.fixed_dictionaries({"player": st.sampled_from(players), "bonus": st.sampled_from(["trula", "valat"])}),
            st.fixed_dictionaries({"player": st.sampled_from(players), "kontra": st.sampled_from(["game", "mondfang"]),
                                   "level": st.sampled_from([2, 4, 8, 16])}),
        ), max_size=3),
        "conceded": st.booleans(),
        "claim": st.fixed_dictionaries({"player": st.sampled_from(players), "after_trick": st.integers(0, 12)}),
        "events": st.lists(st.one_of(
            st.fixed_dictionaries({"event": st.just("renons_called"), "after_trick": st.integers(0, 12)},
                                  optional={"player": st.sampled_from(players)}),
            st.fixed_dictionaries({"event": st.just("two_cards"), "trick": st.integers(1, 12),
                                   "player": st.sampled_from(players), "card": st.sampled_from(CODES)}),
        ), max_size=2),
        "recorded": st.fixed_dictionaries(
            {"scores": st.dictionaries(st.sampled_from(players), st.integers(-500, 500))},
            optional={"radelci": st.dictionaries(st.sampled_from(players), st.integers(-2, 3))}),
        "source": JSON_VALUES,
        "notes": st.text(max_size=20),
    }
    for key, strategy in optional.items():
        if draw(st.booleans()):
            rec[key] = draw(strategy)
    return rec


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_arbitrary_records_round_trip(rec: dict[str, Any]) -> None:
    deal = deal_from_obj(rec)
    text = dumps_trk(deal)
    back = loads_trk(text)
    assert dumps(back) == dumps(deal)
    assert dumps_trk(back) == text


# --------------------------------------------------------------------------- lenient input

HEADER = '[Players "Ana Boris Cilka David"]\n'


def test_aliases_case_and_layout_are_accepted() -> None:
    text = ("[players \"Ana Boris Cilka David\"]\n[RULESET \"slovenian\"]\n[options \"diff_rounding=none "
            "mondfang_value=20\"]\n[recorded \"Cilka +40 Ana -5\"]\n"
            "boris: pass\nCilka: bid solo tri\nDAVID: pass\nAna: pass\n"
            "CONTRACT: Solo Tri Cilka\nstash: H3, srce dama\ntalon_pick: Herz 2, HJ\n"
            "Cilka: announce Pagat Ultimo\nAna: Kontra game\nCilka: rekontra game\n"
            "1. Ana: King of Hearts, boris: HN, Cilka: T14, David: H4\n2. Pagat Mond Škis XX\n"
            "claim: Cilka after 2\nevent: renons_called after 2 Boris\nconceded: no\n")
    deal = loads_trk(text)
    assert deal.bidding == (("Boris", "pass"), ("Cilka", "solo_tri"), ("David", "pass"), ("Ana", "pass"))
    assert deal.contract == "solo_tri" and deal.declarer == "Cilka"
    assert [CODES[c] for c in deal.stash or ()] == ["H3", "HQ"]
    assert [CODES[c] for c in deal.talon_pick or ()] == ["H2", "HJ"]
    assert [(a.player, a.bonus, a.kontra, a.level) for a in deal.announcements] == [
        ("Cilka", "pagat_ultimo", None, None), ("Ana", None, "game", 2), ("Cilka", None, "game", 4)]
    assert [[CODES[c] for c in t] for t in deal.tricks] == [["HK", "HN", "T14", "H4"], ["T1", "T21", "T22", "T20"]]
    assert deal.trick_players == (("Ana", "Boris", "Cilka", "David"), None)
    assert deal.options == {"diff_rounding": "none", "mondfang_value": 20}
    assert deal.recorded is not None and dict(deal.recorded.scores) == {"Ana": -5, "Cilka": 40}
    assert deal.claim is not None and deal.claim.after_trick == 2 and deal.conceded is False
    assert deal.events[0].event == "renons_called" and deal.events[0].player == "Boris"


def test_unknown_cards_leave_the_hands_out() -> None:
    text = HEADER + ("Ana: T1 ?? ??\nBoris: ?? ??\nCilka: ??\nDavid: ??\nTalon: ?? T2\nContract: klop\n"
                     "1. T3 T4 T5 T6\n")
    deal = loads_trk(text)
    assert deal.hands is None and deal.talon is None and len(deal.tricks) == 1


def test_comments_may_span_lines_and_stand_anywhere() -> None:
    text = ("{ a comment\n  over lines [Players \"x\"] }\n" + HEADER +
            "Contract: {inline} klop { another }\n1. T1 {the Pagat} T2 T3 T4\n")
    deal = loads_trk(text)
    assert deal.contract == "klop" and deal.tricks == ((0, 1, 2, 3),)


def test_several_deals_and_quoted_names() -> None:
    text = ('[Players "\\"Ana Marija\\" Boris \\"Talon\\" David"]\n\n"Ana Marija": pass\nContract: klop\n'
            '1. "Ana Marija":T1 Boris:T2 "Talon":T3 David:T4\n\n' + HEADER + "Contract: dva Boris\n")
    first, second = loads_trk_all(text)
    assert first.players[0] == "Ana Marija" and first.players[2] == "Talon"
    assert first.trick_players[0] == ("Ana Marija", "Boris", "Talon", "David")
    assert second.contract == "dva" and second.declarer == "Boris"


# --------------------------------------------------------------------------- errors

MALFORMED = [
    (HEADER + "Ana: T21 XX1\nContract: klop\n", 2, 10, "expected a card after 'Ana:', found 'XX1'"),
    (HEADER + "Contract: klop\n1. T1 T2\n3. T3\n", 4, 1, "expected trick 2, found '3.'"),
    (HEADER + "Contract: dvojka Ana\n", 2, 11, "expected a slovenian contract"),
    (HEADER + "Contract: klop\nBidding: Ana pass, Boris maybe\n", 3, 26, "expected a bid"),
    (HEADER + "Contract: klop\nZoran: pass\n", 3, 1, "neither a keyword"),
    (HEADER + "Contract: klop\nhello world\n", 3, 1, "expected a trick ('1. …'), 'Keyword: …' or 'Player: …'"),
    (HEADER + "Contract: klop\n1. Ana:T1 T2 Cilka:T3 David:T4\n", 3, 11, "either every card names its player"),
    (HEADER + "Contract: klop\n1. Zoran:T1\n", 3, 4, "expected a player"),
    (HEADER + "Contract: klop\nAna: announce everything\n", 3, 15, "expected a bonus"),
    (HEADER + "Contract: klop\nAna: kontra\n", 3, 12, "expected a target after 'kontra'"),
    (HEADER + "Contract: klop\nKing: HQQ\n", 3, 7, "expected a card after 'King:'"),
    (HEADER + "Contract: klop\nStash: ??\n", 3, 8, "'??' (an unknown card) is not allowed"),
    (HEADER + "Contract: klop\nContract: dva\n", 3, 9, "'Contract:' is given twice"),
    (HEADER + "Ana: T1\nContract: klop\n", 2, 1, "no hand line for Boris, Cilka, David"),
    (HEADER + "1. T1 T2 T3 T4\n", 2, 15, "the deal has no 'Contract:' line"),
    ("Contract: klop\n", 1, 1, "expected a [Players"),
    ('[Players "Ana Boris Cilka David"\nContract: klop\n', 1, 1, "expected a tag like"),
    ('[Flavour "mild"]\n' + HEADER + "Contract: klop\n", 1, 2, "unknown tag 'Flavour'"),
    (HEADER + HEADER + "Contract: klop\n", 2, 2, "the tag Players is given twice"),
    ('[Seq "third"]\n' + HEADER + "Contract: klop\n", 1, 7, "expected a whole number for Seq"),
    ('[Date "14.3.2026"]\n' + HEADER + "Contract: klop\n", 1, 8, "is not an ISO 8601 date"),
    ('[Players "Ana Ana Cilka David"]\nContract: klop\n', 1, 11, "players must be 3 or 4 distinct names"),
    ('[Options "diff_rounding=sometimes"]\n' + HEADER + "Contract: klop\n", 1, 11, "option diff_rounding cannot be"),
    ('[Options "diff_rounding"]\n' + HEADER + "Contract: klop\n", 1, 24, "expected '=' after the option"),
    ('[Extra "{\\"contract\\": 1}"]\n' + HEADER + "Contract: klop\n", 1, 9, "Extra may not hold record fields"),
    ('[Extra "[1, 2]"]\n' + HEADER + "Contract: klop\n", 1, 9, "Extra must hold a JSON object"),
    ('[Recorded "Ana +40 Boris"]\n' + HEADER + "Contract: klop\n", 1, 12, "expected a number after 'Boris'"),
    ('[Recorded "Zoran +40"]\n' + HEADER + "Contract: klop\n", 1, 12, "recorded.scores: 'Zoran' is not one"),
    (HEADER + 'Contract: klop\n"Ana: pass\n', 3, 1, "a quoted name is not closed"),
    (HEADER + "Contract: klop\n{ never closed\n", 3, 1, "this comment is not closed"),
    (HEADER + "Contract: klop\nClaim: Ana\n", 3, 7, "expected 'Claim: Player after N'"),
    (HEADER + "Contract: klop\nEvent: renons_called after\n", 3, 22, "expected a trick number after 'after'"),
    (HEADER + "Contract: klop\nEvent: exploded\n", 3, 8, "events[0].event must be one of"),
    (HEADER + "Contract: klop\nConceded: perhaps\n", 3, 11, "expected yes or no"),
    (HEADER + "Contract: piccolo Ana\n", 2, 11, "expected a slovenian contract"),
]


@pytest.mark.parametrize("text, line, column, expected", MALFORMED, ids=[m[3][:40] for m in MALFORMED])
def test_malformed_input_names_line_column_and_what_was_expected(text: str, line: int, column: int,
                                                                   expected: str) -> None:
    with pytest.raises(TrkError) as err:
        loads_trk(text)
    assert (err.value.line, err.value.column) == (line, column), str(err.value)
    assert str(err.value).startswith(f"line {line}, column {column}: ")
    assert expected in str(err.value)


TRK_ALPHABET = string.ascii_letters + string.digits + " \t\r\n.:,\"{}[]\\?-+=Šč²٣\u0085\u2028\ufeff"
TRK_PIECES = st.sampled_from([
    HEADER, '[Id "x"]\n', "\n", "Contract: klop\n", "Contract: dva Ana\n", "1. T1 T2 T3 T4\n", "Ana: T1 ??\n",
    "Bidding: Ana pass, Boris dva\n", "{", "}", '"', "Ana:HK ", "King: HK\n", "[Extra \"{}\"]\n", "Talon: \n",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(TRK_PIECES, st.text(alphabet=TRK_ALPHABET, max_size=12), st.text(max_size=6)),
                max_size=14))
def test_random_text_never_crashes_the_reader(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        loads_trk_all(text)
    except TrkError as exc:
        assert re.match(r"line \d+, column \d+: \S", str(exc))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(TRK_PIECES, st.text(alphabet=TRK_ALPHABET, max_size=12)), max_size=14))
def test_random_files_become_items_with_places(tmp_path: Path, pieces: list[str]) -> None:
    path = tmp_path / "random.trk"
    path.write_text("".join(pieces), encoding="utf-8")
    for item in read_records(path):
        assert (item.deal is None) != (item.finding is None)
        if item.finding is not None:
            assert item.finding.code == "E_PARSE" and item.finding.file == str(path) and item.line >= 1
            assert re.match(r"line \d+, column \d+: ", item.finding.message)


# --------------------------------------------------------------------------- files


def seed_text() -> str:
    return (TRK_EXAMPLES / "seed_session.trk").read_text()


SEED_STARTS = [i for i, ln in enumerate(seed_text().split("\n"), 1) if ln.startswith("[Id ")]


def test_reader_goes_on_after_a_bad_deal(tmp_path: Path) -> None:
    deals = seed_text().split("\n\n[")
    broken = deals[1].replace("Contract: berac Boris", "Contract: berac Zoran")
    path = tmp_path / "s.trk"
    path.write_text("\n\n[".join([deals[0], broken, *deals[2:]]))
    items = list(read_records(path))
    assert [i.deal is not None for i in items] == [True, False, True, True]
    bad = items[1]
    assert bad.finding is not None and bad.line == SEED_STARTS[1] and bad.raw and bad.raw.startswith("[Id")
    assert "expected a slovenian contract" in bad.finding.message or "Zoran" in bad.finding.message


def test_gzip_and_directory_discovery(tmp_path: Path) -> None:
    (tmp_path / "a.trk.gz").write_bytes(gzip.compress(seed_text().encode()))
    (tmp_path / "b.trk").write_text(seed_text())
    (tmp_path / "notes.txt").write_text("not a record")
    files = iter_record_files(tmp_path)
    assert [f.name for f in files] == ["a.trk.gz", "b.trk"]
    assert [i.line for i in read_records(files[0])] == [i.line for i in read_records(files[1])] == SEED_STARTS


def test_line_ranges_read_the_deals_that_start_in_them(tmp_path: Path) -> None:
    path = tmp_path / "s.trk"
    path.write_text(seed_text())
    first, second, third, fourth = SEED_STARTS
    assert [i.line for i in read_records(path, start_line=2, end_line=third)] == [second, third]
    assert [i.line for i in read_records(path, start_line=fourth)] == [fourth]
    assert [i.line for i in read_records(path, end_line=second - 1)] == [first]


def test_non_utf8_and_long_lines_are_rejects(tmp_path: Path) -> None:
    from tarock.formats.items import ReaderLimits

    path = tmp_path / "bad.trk"
    path.write_bytes(seed_text().replace("Ana: T3", "Ana: T3 \xff", 1).encode("latin-1", "replace") + b"\n")
    items = list(read_records(path))
    assert items[0].finding is not None and "not UTF-8" in items[0].finding.message
    assert all(i.deal is not None for i in items[1:])
    long = tmp_path / "long.trk"
    long.write_text(HEADER + "Contract: klop\n" + "{" + "x" * 5000 + "}\n")
    (item,) = read_records(long, ReaderLimits(max_line_bytes=1000))
    assert item.finding is not None and "longer than" in item.finding.message


@pytest.mark.parametrize("suffix", [".trk", ".json", ".jsonl", ".trk.gz", ".json.gz", ".ndjson"])
def test_convert_between_formats(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"out{suffix}"
    counts = convert(EXAMPLES / "seed_session.jsonl", out)
    assert (counts.written, counts.rejected) == (4, 0)
    back = tmp_path / "back.jsonl"
    convert(out, back)
    assert back.read_bytes() == b"".join(
        dumps(i.deal).encode() + b"\n" for i in read_records(EXAMPLES / "seed_session.jsonl"))  # type: ignore[arg-type]


def test_convert_counts_rejects_and_names_them(tmp_path: Path) -> None:
    counts = convert(EXAMPLES / "findings" / "e_parse.jsonl", tmp_path / "out.trk")
    assert (counts.written, counts.rejected) == (1, 2)
    assert all(f.code == "E_PARSE" and f.line for f in counts.findings)


def test_convert_refuses_unknown_output_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must end in .trk"):
        convert(EXAMPLES / "seed_session.jsonl", tmp_path / "out.csv")
    assert not list(tmp_path.iterdir())


def test_gzip_output_is_reproducible(tmp_path: Path) -> None:
    deals = [i.deal for i in read_records(EXAMPLES / "seed_session.jsonl")]
    write_records(deals, tmp_path / "a.trk.gz")  # type: ignore[arg-type]
    write_records(deals, tmp_path / "b.trk.gz")  # type: ignore[arg-type]
    assert (tmp_path / "a.trk.gz").read_bytes() == (tmp_path / "b.trk.gz").read_bytes()
