"""Mistakes the session simulator injects, each with the one finding it must produce.

Three stages: a faulty stash (before play), a renons in play (an illegal
card that was held, or two players swapping turns), and a slip on the score
sheet (the deal itself is fine, one player's figure is written wrong).  The
simulator tries the kinds in a random order weighted by how often clubs see
them and keeps the first the deal has room for; every kind yields exactly
one finding, so the ground truth is one line per mistake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tarock.cards import KINGS_MASK, TAROK_MASK, TRULA_MASK, cards_of
from tarock.game import Game, IllegalPlayError
from tarock.rules.slovenian.scoring import Line, ScoreResult

SCORE_CODE = "A_SCORE_MISMATCH"


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of mistake: its name in the ground truth, the finding it yields, how common it is,
    and when it happens (``stash``, ``play`` or ``score``)."""

    name: str
    code: str
    weight: float
    stage: str


KINDS: tuple[Kind, ...] = (
    Kind("follow_suit", "R_FOLLOW_SUIT", 22.0, "play"),
    Kind("must_tarok", "R_MUST_TAROK", 14.0, "play"),
    Kind("must_overtrump", "R_MUST_OVERTRUMP", 8.0, "play"),
    Kind("pagat", "R_PAGAT", 5.0, "play"),
    Kind("out_of_turn", "R_OUT_OF_TURN", 6.0, "play"),
    Kind("stash", "R_STASH", 5.0, "stash"),
    Kind("forgot_radelc", SCORE_CODE, 9.0, "score"),
    Kind("diff_unrounded", SCORE_CODE, 6.0, "score"),
    Kind("diff_wrong_rounding", SCORE_CODE, 5.0, "score"),
    Kind("kontra_wrong_line", SCORE_CODE, 4.0, "score"),
    Kind("sign_slip", SCORE_CODE, 8.0, "score"),
    Kind("transposed_digits", SCORE_CODE, 6.0, "score"),
)
KIND_NAMES = tuple(k.name for k in KINDS)


def mistake_order(rng: random.Random, named: bool) -> list[Kind]:
    """All kinds in a random order, the common ones likelier first (weighted sampling without
    replacement).  ``out_of_turn`` needs named plays, else the record could not show it."""
    keyed = [(rng.random() ** (1.0 / k.weight), k) for k in KINDS if named or k.name != "out_of_turn"]
    keyed.sort(key=lambda pair: pair[0], reverse=True)
    return [k for _, k in keyed]


# -- stash and play ------------------------------------------------------------------


def faulty_stash(rng: random.Random, hand: int, stash: int, called_king: int | None) -> int | None:
    """The legal ``stash`` with one card swapped for one that may not be laid away, or None.

    The intruder is a king (not the called one), a trula card, or a plain
    tarok while a suit card stays in hand.  Only that one card is faulty: a
    tarok already in the stash stays legal because the card swapped out is
    then a tarok too (so no suit card returns to the hand).
    """
    taroks_in = stash & TAROK_MASK
    kept = hand & ~stash
    forbidden = kept & (KINGS_MASK | TRULA_MASK)
    if called_king is not None:
        forbidden &= ~(1 << called_king)
    intruders = list(cards_of(forbidden))
    if not taroks_in:
        intruders += list(cards_of(kept & TAROK_MASK & ~TRULA_MASK))
    if not intruders:
        return None
    intruder = rng.choice(intruders)
    out = rng.choice(list(cards_of(taroks_in or stash)))
    return stash & ~(1 << out) | 1 << intruder


def renons_cards(game: Game, seat: int, legal: int, code: str) -> list[int]:
    """The cards ``seat`` holds whose play now would be exactly the renons ``code``."""
    found = []
    for card in cards_of(game.hands[seat] & ~legal):
        try:
            game.verify_play(card, seat)
        except IllegalPlayError as exc:
            if exc.finding.code == code:
                found.append(card)
    return found


# -- the score sheet --------------------------------------------------------------------


def _doubling(result: ScoreResult, player: str) -> int:
    """2 when a radelc doubles ``player``'s lines (a slip in one of them then counts twice), else 1."""
    return 2 if any(ln.component == "radelc" and player in ln.players for ln in result.lines) else 1


def _lines(result: ScoreResult, component: str) -> list[Line]:
    return [ln for ln in result.lines if ln.component == component and ln.value]


def _forgot_radelc(result: ScoreResult, rng: random.Random) -> tuple[str, int] | None:
    """The radelc doubling left off one doubled player's figure."""
    lines = _lines(result, "radelc")
    if not lines:
        return None
    line = rng.choice(lines)
    player = rng.choice(line.players)
    return player, result.scores[player] - line.value


def _difference_slip(result: ScoreResult, rng: random.Random, unrounded: bool) -> tuple[str, int] | None:
    """The difference written unrounded, or rounded to the other multiple of 5."""
    for line in result.lines:
        if line.component != "difference":
            continue
        raw, rounded, k = line.basis["raw"], line.basis["rounded"], line.basis["kontra"]
        if raw == rounded:
            return None
        wrong = raw if unrounded else (rounded - 5 if rounded > raw else rounded + 5)
        player = rng.choice(line.players)
        return player, result.scores[player] + (wrong - rounded) * k * _doubling(result, player)
    return None


def _kontra_wrong_line(result: ScoreResult, rng: random.Random) -> tuple[str, int] | None:
    """The game kontra left off the difference, or put on trula / all kings, which it never multiplies."""
    options = []
    for line in result.lines:
        k = line.basis.get("kontra", 1)
        if line.component == "difference" and k > 1 and line.basis["rounded"]:
            options.append((line, line.basis["rounded"] - line.value))
    game_kontra = next((ln.basis["kontra"] for ln in result.lines if ln.component == "game"), 1)
    if game_kontra > 1:
        options += [(ln, ln.value * (game_kontra - 1)) for ln in result.lines
                    if ln.component in ("trula", "kings") and ln.value]
    if not options:
        return None
    line, delta = rng.choice(options)
    player = rng.choice(line.players)
    return player, result.scores[player] + delta * _doubling(result, player)


def _sign_slip(result: ScoreResult, rng: random.Random) -> tuple[str, int] | None:
    """A figure written with the wrong sign."""
    writers = [p for p, s in result.scores.items() if s]
    if not writers:
        return None
    player = rng.choice(writers)
    return player, -result.scores[player]


def transpose(value: int, rng: random.Random) -> int | None:
    """``value`` with two neighbouring, different digits swapped (no leading zero), or None."""
    digits = str(abs(value))
    spots = [i for i in range(len(digits) - 1)
             if digits[i] != digits[i + 1] and not (i == 0 and digits[1] == "0")]
    if not spots:
        return None
    i = rng.choice(spots)
    swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
    return int(swapped) if value > 0 else -int(swapped)


def _transposed_digits(result: ScoreResult, rng: random.Random) -> tuple[str, int] | None:
    """Two digits of a figure swapped, 45 -> 54."""
    options = [(p, t) for p, s in result.scores.items() if (t := transpose(s, rng)) is not None]
    return rng.choice(options) if options else None


def score_slip(kind: Kind, result: ScoreResult, rng: random.Random) -> tuple[str, int] | None:
    """(player, wrong figure) for a score-sheet mistake of ``kind``; None when the deal has no room for it.

    Only one player's figure is wrong, and it always differs from the recomputed one.
    """
    name = kind.name
    if name == "forgot_radelc":
        return _forgot_radelc(result, rng)
    if name in ("diff_unrounded", "diff_wrong_rounding"):
        return _difference_slip(result, rng, unrounded=name == "diff_unrounded")
    if name == "kontra_wrong_line":
        return _kontra_wrong_line(result, rng)
    if name == "sign_slip":
        return _sign_slip(result, rng)
    if name == "transposed_digits":
        return _transposed_digits(result, rng)
    raise ValueError(f"{name} is not a score-sheet mistake")
