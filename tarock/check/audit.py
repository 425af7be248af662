"""Score audits: compare what a score sheet recorded with the recomputed score, and explain.

For every player whose recorded score differs from the recomputed one (a
player missing from the sheet counts as 0) the audit reports one
``A_SCORE_MISMATCH`` naming the first breakdown line — in breakdown order —
whose removal or a plausible mis-scoring (difference unrounded or rounded the
other way, sign flipped, kontra not applied, radelc doubling missing,
silent/announced value swapped, …) turns the recomputed score into the
recorded one; otherwise it names the total.  Königrufen's lines (zero-sum
payments) have mis-scorings of their own (``KOENIGRUFEN_VARIANTS``: a lone
player's payments written once, a solo game's doubling forgotten, …).  Recorded radelci are checked
against the radelci after the deal the same way.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Mapping

from tarock.deal import Recorded
from tarock.findings import Finding
from tarock.rules.rulesets import contract_label
from tarock.rules.slovenian.scoring import (
    BONUS_LABELS,
    BONUS_VALUES,
    DOUBLED_BY_RADELC,
    KONTRA_NAMES,
    Line,
    ScoreResult,
    round_difference,
    signed,
)
from tarock.rules.koenigrufen.scoring import BONUS_LABELS as BONUS_LABELS_KOENIGRUFEN

Variant = tuple[int, str]
"""An alternative value of a line, and the sentence that explains why it is wrong."""

CODE = "A_SCORE_MISMATCH"


def _kontra_name(k: int) -> str:
    """``kontra (×2)``, ``re (×4)`` …"""
    return f"{KONTRA_NAMES.get(k, 'kontra')} (×{k})"


def _removed(line: Line, what: str) -> Variant:
    """The line left off the sheet altogether."""
    return 0, f"{what} is missing: {line.detail}"


def _kontra_missing(line: Line, what: str) -> Iterator[Variant]:
    """The line written without its kontra chain."""
    k = line.basis.get("kontra", 1)
    if k > 1:
        yield line.value // k, f"the {_kontra_name(k)} on {what} is not applied"


def _game_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """Game value missing, won/lost swapped, kontra forgotten."""
    label = contract_label(result.contract)
    yield _removed(line, "the game line")
    outcome = "won" if line.value > 0 else "lost"
    other = "lost" if line.value > 0 else "won"
    yield -line.value, f"the {label} is {outcome}, not {other}"
    yield from _kontra_missing(line, "the game")


def _difference_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """Difference missing, unrounded (or rounded against the option), kontra forgotten, rounded the
    other way, wrong sign."""
    b = line.basis
    raw, rounded, k = b.get("raw", 0), b.get("rounded", 0), b.get("kontra", 1)
    times = f" (× {KONTRA_NAMES.get(k, 'kontra')} {k})" if k > 1 else ""
    other = rounded - 5 if rounded > raw else rounded + 5
    if rounded != raw:
        yield 0, f"the difference {raw} rounds to {rounded}{times}, not 0"
        yield raw * k, f"the difference {raw} is rounded to {rounded}{times}; the record has it unrounded"
    else:
        yield _removed(line, "the difference")
        if raw % 5:  # only when diff_rounding is none
            yield (
                round_difference(raw, "nearest5") * k,
                f"the difference {raw} is not rounded (diff_rounding none)",
            )
    if k > 1:
        yield rounded, f"the game {_kontra_name(k)} also multiplies the difference"
    if rounded != raw:
        yield other * k, f"the difference {raw} rounds to {rounded}{times}, not {other}"
    yield (
        -line.value,
        f"the difference counts {signed(line.value)} for the declarer's side, not {signed(-line.value)}",
    )


def _bonus_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """Bonus missing, counted for the wrong side, silent/announced value swapped, kontra forgotten."""
    label = BONUS_LABELS.get(line.component, line.component)
    b = line.basis
    yield _removed(line, f"the {label} line")
    yield -line.value, f"{line.detail}, not {signed(-line.value)}"
    silent, announced = BONUS_VALUES[line.component]
    k, sign = b.get("kontra", 1), b.get("sign", 1)
    if b.get("announced"):
        yield sign * silent * k, f"an announced {label} is worth {announced}, not {silent}"
    else:
        yield sign * announced * k, f"a silent {label} is worth {silent}, not {announced}"
    yield from _kontra_missing(line, f"the {label}")


def _mondfang_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """Mondfang missing, doubled by a radelc, announcement not doubled, 20/21 swapped, kontra forgotten."""
    b = line.basis
    base = b.get("base", 21)
    yield _removed(line, "the Mondfang")
    if any(ln.component == "radelc" for ln in result.lines):
        yield 2 * line.value, "a Mondfang is never doubled by a radelc"
    if b.get("announced"):
        yield line.value // 2, "an announced Mondfang counts double"
    other = 20 if base == 21 else 21
    yield line.value // base * other, f"the Mondfang is worth {base}, not {other}"
    yield from _kontra_missing(line, "the Mondfang")


def _klop_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """Klop result missing or with the wrong sign (a radelc's doubling is its own line)."""
    yield _removed(line, "the Klop result")
    yield -line.value, f"{line.detail}, not {signed(-line.value)}"


def _penalty_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """Penalty missing, not doubled by the declarer's radelc, kontra forgotten."""
    yield _removed(line, "the renons penalty")
    if line.basis.get("radelc", 1) > 1:
        yield line.value // 2, "the declarer's radelc doubles the renons penalty too"
    k = line.basis.get("kontra", 1)
    if k > 1:
        yield line.value // k, f"the game {_kontra_name(k)} multiplies the renons penalty too"


def _radelc_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """The radelc doubling left off."""
    yield 0, f"the radelc doubling is missing ({line.detail.removeprefix('radelc: ')})"


VARIANTS: Mapping[str, Callable[[Line, ScoreResult], Iterator[Variant]]] = {
    "game": _game_variants,
    "difference": _difference_variants,
    "trula": _bonus_variants,
    "kings": _bonus_variants,
    "pagat_ultimo": _bonus_variants,
    "king_ultimo": _bonus_variants,
    "valat": _bonus_variants,
    "mondfang": _mondfang_variants,
    "klop": _klop_variants,
    "penalty": _penalty_variants,
    "radelc": _radelc_variants,
}
"""Plausible mis-scorings of each kind of line, most likely first."""


def _payment_variants(line: Line, what: str) -> Iterator[Variant]:
    """Königrufen: a line missing, on the wrong side, without its kontra, or settled once instead of per player."""
    b = line.basis
    yield _removed(line, what)
    yield -line.value, f"{line.detail}, not {signed(-line.value)}"
    yield from _kontra_missing(line, what)
    payments = b.get("payments", 1)
    if payments > 1:
        yield line.value // payments, f"{line.players[0]} settles {what} with each of {payments} players, not once"


def _koenigrufen_game_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """The game line: the generic slips, and a lost Sechserdreier not doubled."""
    yield from _payment_variants(line, "the game")
    if line.basis.get("double", 1) > 1:
        yield line.value // 2, "a lost Sechserdreier counts double"


def _koenigrufen_bonus_variants(line: Line, result: ScoreResult) -> Iterator[Variant]:
    """A bonus (or valat) line: the generic slips, silent and announced values swapped, solo doubling missing."""
    b = line.basis
    label = BONUS_LABELS_KOENIGRUFEN.get(line.component, line.component)
    yield from _payment_variants(line, f"the {label}")
    used, silent, full = b.get("value", 0), b.get("silent", 0), b.get("full", 0)
    if used and silent and full:
        per = line.value // used
        if b.get("announced"):
            yield per * silent, f"an announced {label} is worth {full}, not {silent}"
        else:
            yield per * full, f"a silent {label} is worth {silent}, not {full}"
    if b.get("solo", 1) > 1:
        yield line.value // 2, f"a solo game doubles the {label}"


KOENIGRUFEN_VARIANTS: Mapping[str, Callable[[Line, ScoreResult], Iterator[Variant]]] = {
    "game": _koenigrufen_game_variants,
    **{bonus: _koenigrufen_bonus_variants for bonus in BONUS_LABELS_KOENIGRUFEN},
    "penalty": lambda line, result: _payment_variants(line, "the renonce"),
}
"""Plausible mis-scorings of Königrufen's lines (all zero-sum payments)."""


def _doubled(result: ScoreResult, player: str) -> bool:
    """Whether a radelc doubles ``player``'s lines (then a change to one of them counts twice)."""
    return any(ln.component == "radelc" and player in ln.players for ln in result.lines)


def _line_explanation(result: ScoreResult, player: str, delta: int) -> str | None:
    """The first line whose removal or plausible change moves ``player``'s score by ``delta``."""
    factor = 2 if _doubled(result, player) else 1
    variants = KOENIGRUFEN_VARIANTS if result.ruleset == "koenigrufen" else VARIANTS
    for line in result.lines_of(player):
        mult = factor if line.component in DOUBLED_BY_RADELC else 1
        for alt, reason in variants[line.component](line, result):
            if alt != line.value and (alt - line.value) * mult == delta:
                return reason
    return None


def _total_explanation(result: ScoreResult, player: str, recorded: int) -> str:
    """When no single line explains the recorded figure: say what kind of difference it is."""
    score = result.scores.get(player, 0)
    lines = result.lines_of(player)
    if result.policy == "annul":
        return "the renons annuls the hand (penalty annul): everyone writes 0"
    if result.ruleset == "slovenian" and not _doubled(result, player):
        base = sum(ln.value for ln in lines if ln.component in DOUBLED_BY_RADELC)
        if base and recorded - score == base:
            who = player if result.contract == "klop" else result.declarer
            return f"the hand is not doubled: {who} holds no radelc"
    if score and recorded == -score:
        return "the whole score has the wrong sign"
    if not lines:
        if result.contract == "klop":
            return f"{player} writes nothing: when a player is at ±70 in a Klop only those players score"
        label = contract_label(result.contract)
        return f"{player} writes nothing: only the declarer's side writes in this {label}"
    return "no single line explains it"


def explain_score(result: ScoreResult, player: str, recorded: int) -> str:
    """Why ``player``'s recorded figure differs from the recomputed one, in one clause."""
    delta = recorded - result.scores.get(player, 0)
    return _line_explanation(result, player, delta) or _total_explanation(result, player, recorded)


def _radelci_explanation(result: ScoreResult, player: str, recorded: int) -> str:
    """Why ``player``'s recorded radelci differ: an award, a cancellation, or one that stays."""
    after = result.radelci_after.get(player, 0)
    label = contract_label(result.contract)
    if recorded == after - 1 and result.award_reason:
        return f"but {result.award_reason} gives everyone one"
    if recorded == after + 1 and player in result.cancelled:
        if result.contract == "klop":
            return f"but {player}'s +70 in the Klop cancels one"
        return f"but winning the {label} cancels one of {player}'s"
    kept = result.won is False and (player == result.declarer or _doubled(result, player))
    if recorded == after - 1 and kept and result.radelci_before.get(player, 0) >= 1:
        return f"but a radelc is cancelled only when the declarer's side wins, and the {label} was lost"
    return f"recomputed {after}"


def _recorded_parts(
    recorded: Recorded | Mapping[str, object],
) -> tuple[Mapping[str, int], Mapping[str, int] | None]:
    """(scores, radelci) of a ``Recorded``, a record's ``recorded`` object, or a plain scores mapping."""
    if isinstance(recorded, Recorded):
        return recorded.scores, recorded.radelci
    scores = recorded.get("scores")
    if isinstance(scores, Mapping):
        radelci = recorded.get("radelci")
        return scores, radelci if isinstance(radelci, Mapping) else None
    return recorded, None  # type: ignore[return-value]


def audit_scores(
    recorded: Recorded | Mapping[str, object], result: ScoreResult, players: Iterable[str]
) -> list[Finding]:
    """One ``A_SCORE_MISMATCH`` per player whose recorded score (or radelci) differs from the recomputed."""
    scores, radelci = _recorded_parts(recorded)
    players = tuple(players)
    findings = []
    for player in players:
        got, want = int(scores.get(player, 0)), result.scores.get(player, 0)
        if got != want:
            why = explain_score(result, player, got)
            message = f"recorded {signed(got)} for {player}, recomputed {signed(want)}: {why}"
            findings.append(Finding(CODE, message, player=player))
    if radelci is not None:
        for player in players:
            got, want = int(radelci.get(player, 0)), result.radelci_after.get(player, 0)
            if got != want:
                why = _radelci_explanation(result, player, got)
                findings.append(Finding(CODE, f"{player}'s radelci recorded {got}, {why}", player=player))
    return findings
