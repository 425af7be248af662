"""The game-deciding analysis (tarock/solver/decisive.py) against the exact solver, the brute force and a deal
worked out by hand."""

from __future__ import annotations

import random

import pytest

from tarock.cards import CARD_SUIT, CODE_INDEX, CODES, mask_of
from tarock.engine import replay
from tarock.findings import MISPLAY, SEVERITY
from tarock.formats.codec import deal_from_obj
from tarock.rules.slovenian.scoring import WIN_THRESHOLD
from tarock.sim import random_koenigrufen
from tarock.sim.randomplay import random_record
from tarock.solver import search
from tarock.solver.decisive import GAME_LOST, OutOfScope, judge_line, misplays, verdicts, wins
from tarock.solver.position import position_before
from tarock.solver.search import POINTS, Position, counted, play, value
from tests.solver.test_solver import CASES, brute, random_ending

C = CODE_INDEX


def test_wins_is_the_brute_force_against_the_threshold() -> None:
    """On random endings (up to four cards a hand), the threshold answer is what full minimax says: the
    declarer side's whole pile reaches 36 counted points, or its Berač / valat holds."""
    checked = 0
    for n, contract in CASES:
        rng = random.Random(f"decisive-{n}-{contract}")
        for _ in range(12):
            pos = random_ending(rng, n, rng.choice([1, 2, 3, 4] if n == 3 else [1, 2, 3]), contract)
            if pos.objective == POINTS:
                # put the threshold within reach of the cards still live, so both answers occur
                pos = Position(pos.hands, pos.leader, pos.contract, pos.declarer_side, pos.trick, pos.options,
                               banked=rng.randrange(60, 110))
            future = brute(pos, pos.objective)
            if pos.objective == POINTS:
                expected = counted(pos.banked + future) >= WIN_THRESHOLD
            else:
                expected = not pos.failed and future == 0
            assert wins(pos) == expected, (n, contract, pos)
            checked += 1
    assert checked == 12 * len(CASES)


def _line_positions(n: int, contract: str, seed: int, from_trick: int) -> list[Position]:
    """Every position along a generated deal's played line from ``from_trick``."""
    deal = deal_from_obj(random_record(random.Random(seed), n, contract))
    rp = replay(deal)
    pos = position_before(rp, from_trick)
    out = [pos]
    for cards in rp.tricks[from_trick - 1:]:
        for card in cards:
            pos = play(pos, card)
            out.append(pos)
    return out[:-1]


def test_wins_is_the_exact_value_against_the_threshold_on_a_thousand_positions() -> None:
    """Along the played lines of generated deals (from a late trick, where the exact value is cheap), the
    threshold answer equals the exact solver's value compared with the threshold: 36 card points, or a
    Berač / valat value of 0."""
    contracts = {4: ["tri", "dva", "ena", "solo_tri", "solo_brez", "berac", "valat"], 3: ["tri", "ena", "berac"]}
    positions = 0
    seen = set()
    for seed in range(26):
        for n, names in contracts.items():
            contract = names[seed % len(names)]
            for pos in _line_positions(n, contract, seed, 7 if n == 4 else 10):
                search.clear_cache()  # each answer from a cold table, so neither search reuses the other's
                exact = value(pos)
                answer = wins(pos)
                assert answer == (exact >= WIN_THRESHOLD if pos.objective == POINTS else exact == 0), (seed, n)
                seen.add(answer)
                positions += 1
    assert positions >= 1000 and seen == {True, False}


# A four-player ending worked out by hand: solo, the declarer (seat 0) alone; two tricks left, seat 0 to lead.
#   seat 0: Škis (T22), 8 of clubs      seat 1: King of hearts, King of clubs
#   seat 2: 4 of hearts, 9 of clubs     seat 3: 4 and 3 of diamonds
# Thirds per card (3·points − 2): Škis, kings 13; every other card here 1.  The declarer's pile holds 63 thirds.
# Best play: the declarer leads Škis (leading C8 lets seat 1 win it with CK and lead HK to the Škis: 28 thirds
# either way).  On the Škis seat 1 discards a king: HK keeps CK to win trick 2; CK leaves HK, and then seat 2
# must keep its 9 of clubs to beat the 8 in trick 2.  With that defence the declarer takes trick 1 only:
# 13 + 13 + 1 + 1 = 28 thirds, 63 + 28 = 91, 30 points: lost.  If seat 2 throws its 9 of clubs after seat 1's
# CK, the 8 of clubs wins trick 2 too: 28 + 16 = 44 thirds, 107, 36 points: won.  That 9 of clubs is the one
# card that decides the game, and the 4 of hearts would have kept it.
HANDS = (("T22", "C8"), ("HK", "CK"), ("H4", "C9"), ("D4", "D3"))
PLAYERS = ("Ana", "Boris", "Cilka", "David")


def _ending() -> Position:
    return Position(tuple(mask_of(C[c] for c in hand) for hand in HANDS), 0, "solo_tri", frozenset({0}),
                    banked=63)


def _line(*tricks: tuple[str, ...]) -> list[list[int]]:
    return [[C[c] for c in trick] for trick in tricks]


def test_the_card_that_decided_the_game_by_hand_is_the_one_reported() -> None:
    line = judge_line(_ending(), _line(("T22", "CK", "C9", "D4"), ("C8", "HK", "H4", "D3")), PLAYERS, first_trick=11)
    assert [v.declarer_could_win for v in line] == [False, False, False, True, True, True, True, True]
    found = misplays(line)
    assert len(found) == 1
    f = found[0]
    assert (f.code, f.trick, f.position, f.player, f.card) == (GAME_LOST, 11, 2, "Cilka", "C9")
    assert SEVERITY[f.code] == MISPLAY
    assert [v for v in line if v.decided][0].kept == (C["H4"],)
    assert "Cilka" in f.message and "4♥" in f.message


def test_a_line_that_keeps_the_game_has_no_misplay() -> None:
    """The same ending with the defence of the comment: seat 1 throws HK, keeps CK and wins trick 2."""
    line = judge_line(_ending(), _line(("T22", "HK", "C9", "D4"), ("C8", "CK", "H4", "D3")), PLAYERS, first_trick=11)
    assert not any(v.declarer_could_win or v.declarer_can_win for v in line)
    assert misplays(line) == []


# A second ending by hand, for the declarer's own misplay: solo, seat 0 alone, two tricks left, seat 0 to lead.
#   seat 0: Škis (T22), King of clubs   seat 1: 7 and 8 of clubs
#   seat 2: 9 and 10 of clubs           seat 3: tarok III, 4 of hearts
# Leading the Škis draws seat 3's tarok III; the King of clubs then wins trick 2 (seat 3 has no club and no
# tarok left): all eight cards, 13 + 13 + 6 · 1 = 32 thirds.  Leading the King of clubs lets seat 3 trump it
# with the III; seat 3 leads the 4 of hearts and the Škis wins trick 2: 13 + 3 · 1 = 16 thirds.  With 75 banked,
# 75 + 32 = 107 is 36 points (won) and 75 + 16 = 91 is 30 (lost): the King of clubs lead loses the game.
SECOND = (("T22", "CK"), ("C7", "C8"), ("C9", "C10"), ("T3", "H4"))


def test_the_declarer_s_wrong_lead_is_a_misplay_of_the_declarer() -> None:
    pos = Position(tuple(mask_of(C[c] for c in hand) for hand in SECOND), 0, "solo_tri", frozenset({0}),
                   banked=75)
    line = judge_line(pos, _line(("CK", "C7", "C9", "T3"), ("H4", "T22", "C8", "C10")), PLAYERS)
    found = misplays(line)
    assert [(f.trick, f.position, f.player, f.card) for f in found] == [(1, 0, "Ana", "CK")]
    assert line[0].declarer_side and line[0].kept == (C["T22"],)
    good = judge_line(pos, _line(("T22", "C7", "C9", "T3"), ("CK", "C8", "C10", "H4")), PLAYERS)
    assert all(v.declarer_could_win and v.declarer_can_win for v in good) and misplays(good) == []


def test_every_card_of_a_whole_deal_is_judged_and_each_misplay_flips_the_answer() -> None:
    deal = deal_from_obj(random_record(random.Random(11), 4, "tri"))
    line = verdicts(deal)
    assert len(line) == 48
    for before, after in zip(line, line[1:]):
        assert before.declarer_can_win == after.declarer_could_win
    for v in line:
        if v.decided:
            assert v.kept and v.card not in v.kept
        elif v.legal:
            # a card that did not decide the game left its side's answer where it was, or improved it
            ours_before = v.declarer_could_win if v.declarer_side else not v.declarer_could_win
            ours_after = v.declarer_can_win if v.declarer_side else not v.declarer_can_win
            assert ours_after >= ours_before
    assert [CODES[v.card] for v in line] == [c for trick in replay(deal).tricks for c in map(CODES.__getitem__, trick)]


@pytest.mark.parametrize("contract,ruleset", [("klop", "slovenian"), ("normal", "koenigrufen")])
def test_klop_and_koenigrufen_are_out_of_scope(contract: str, ruleset: str) -> None:
    if ruleset == "slovenian":
        deal = deal_from_obj(random_record(random.Random(6), 4, contract))
    else:
        deal = deal_from_obj(random_koenigrufen.random_record(random.Random(6)))
    with pytest.raises(OutOfScope):
        verdicts(deal)


def test_the_file_analysis_names_the_cards_that_decided_each_game(tmp_path) -> None:
    """``tarock analyse FILE``: the report's misplays are the verdicts' findings, each printed as a line, and the
    per-player table counts them as games decided."""
    import orjson

    from tarock.solver.analyse import analyse_command, summarise, text_lines
    from tests.support.ingest_util import write_jsonl

    records = [random_record(random.Random(seed), 4, "tri") for seed in range(6)]
    write_jsonl(tmp_path / "d.jsonl", records)
    reports = list(analyse_command([tmp_path / "d.jsonl"], 10, "json"))
    expected = [[f.to_dict() for f in misplays(verdicts(deal_from_obj(r)))] for r in records]
    assert [r["misplays"] for r in reports] == [orjson.loads(orjson.dumps(e)) for e in expected]
    assert any(expected), "six randomly played deals hold a card that decided a game"
    lines = [line for r in reports for line in text_lines(r)]
    assert sum(line.startswith("  decided the game: Trick ") for line in lines) == sum(map(len, expected))
    counted = {name: s.games_given_away for name, s in summarise(reports).items()}
    for name in counted:
        assert counted[name] == sum(m["player"] == name for e in expected for m in e)


def _slow_deal():
    """A generated 4-player deal whose first position takes the threshold search seconds (bench_solver's 5th)."""
    rng = random.Random("1-4-5")
    return deal_from_obj(random_record(rng, 4, rng.choice(["tri", "dva", "ena", "solo_tri", "solo_dva",
                                                            "solo_ena"])))


def test_a_cpu_limit_keeps_the_whole_tricks_judged_from_the_last_one_back() -> None:
    deal = _slow_deal()
    search.clear_cache()
    cut = verdicts(deal, limit=0.2)
    search.clear_cache()
    whole = verdicts(deal)
    assert len(whole) == 48 and whole[0].trick == 1
    # the limit stopped the search after some tricks: what it kept is the end of the line, whole tricks, the same
    # verdicts as without a limit
    assert 0 < len(cut) < 48 and len(cut) % 4 == 0 and cut[0].order == 0
    assert cut == whole[-len(cut):]


def _by_definition(pos: Position, tricks: list[list[int]]) -> list[tuple[bool, bool, tuple[int, ...]]]:
    """Each card's (answer before, answer after, the cards that kept the game) by the definition: ``wins`` of every
    position of the line, and where a legal card turned its side's answer from yes to no, ``wins`` after each other
    legal card (taroks first, each suit high to low)."""
    positions = [pos]
    for card in (c for cards in tricks for c in cards):
        positions.append(play(positions[-1], card))
    answers = [wins(p) for p in positions]
    out = []
    for p, card, before, after in zip(positions, (c for cards in tricks for c in cards), answers, answers[1:]):
        ours = p.turn in p.declarer_side
        kept: tuple[int, ...] = ()
        if p.legal() >> card & 1 and before == ours != after:
            others = sorted((c for c in range(54) if p.legal() >> c & 1 and c != card), key=lambda c: (CARD_SUIT[c], -c))
            kept = tuple(c for c in others if wins(play(p, c)) == before)
        out.append((before, after, kept))
    return out


def test_the_line_s_answers_and_kept_cards_are_those_of_every_position_searched() -> None:
    """``judge_line`` searches only the positions whose played card missed its side's aim, and there each other
    legal card (tarock/solver/decisive.py, ``_before``); its answers and kept cards are those of the definition,
    every position searched, on the later tricks of generated deals (random play: many misplays) and of the bundled
    sample's first deals (played near the threshold)."""
    from pathlib import Path

    from tarock.formats.reader import read_records
    from tarock.solver.position import AnalysisError

    deals = [deal_from_obj(random_record(random.Random(f"line-{n}-{i}"), n, contract))
             for n, contract in ((4, "tri"), (4, "solo_ena"), (3, "dva"), (4, "berac")) for i in range(4)]
    sample = Path(__file__).resolve().parents[2] / "data" / "sample"
    for name in ("sample-4p.jsonl.gz", "sample-3p.jsonl.gz"):
        taken = 0
        for item in read_records(sample / name):
            if item.deal is not None and item.deal.ruleset == "slovenian" and item.deal.contract != "klop":
                deals.append(item.deal)
                taken += 1
            if taken == 6:
                break
    decided = judged = 0
    for deal in deals:
        rp = replay(deal)
        from_trick = max(1, len(rp.tricks) - 4)
        try:
            pos = position_before(rp, from_trick)
        except AnalysisError:
            continue
        tricks = [list(t) for t in rp.tricks[from_trick - 1:]]
        search.clear_cache()
        line = judge_line(pos, tricks, rp.deal.players, first_trick=from_trick)
        search.clear_cache()
        assert [(v.declarer_could_win, v.declarer_can_win, v.kept) for v in line] == _by_definition(pos, tricks)
        decided += sum(v.decided for v in line)
        judged += 1
    assert judged >= 24 and decided > 0
