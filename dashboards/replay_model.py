"""The replay viewer's model: one deal as a list of steps, built by replaying its record.

The dashboard's Replay page draws a ``Step`` at a time; everything it shows
comes from here, so the states can be tested without Streamlit.  A deal is
replayed with the rules engine (``tarock.formats.codec.loads`` then
``tarock.engine.replay``), never rebuilt from the store's trick rows, so the
viewer shows exactly what the engine judged.

The steps have a fixed layout so that a link can point at a trick without
replaying the deal first (the Audit page links every finding this way):
``deal``, ``bidding`` (with the king call), ``talon``, ``stash``,
``announcements``, then one step per trick played, then ``score``.  Klop and
Trischaken, where nobody takes the talon, have no ``stash`` step: the layout
follows from the contract alone (``phases``), which a linking page knows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dashboards.labels import contract_label
from tarock.rules.koenigrufen import contracts as koenigrufen
from tarock.rules.slovenian import contracts as slovenian
import re

from tarock.cards import CARD_POINTS, CARD_SUIT, CODE_INDEX, CODES, cards_of, mask_of
from tarock.engine import Replay, replay
from tarock.findings import Finding
from tarock.formats.codec import loads

PHASES = ("deal", "bidding", "talon", "stash", "announcements")
"""The steps before the first trick, in order."""

FIRST_TRICK_STEP = len(PHASES)
"""Step index of trick 1 (in a contract with a stash step)."""
NO_STASH = frozenset({"klop", "trischaken"})
"""Contracts everyone plays, nobody taking the talon: their replay has no Stash step (issue 23)."""


def phases(contract: str | None) -> tuple[str, ...]:
    """The steps before the first trick of a deal played as ``contract``: ``PHASES``, without the stash in
    Klop and Trischaken."""
    return tuple(p for p in PHASES if p != "stash") if contract in NO_STASH else PHASES

_PHASE_OF_CODE = {
    "E_PARSE": "deal",
    "E_DECK": "deal",
    "W_MISDEAL": "deal",
    "E_BID": "bidding",
    "E_KING": "bidding",
    "R_OWN_KING": "bidding",
    "E_TALON": "talon",
    "R_STASH": "stash",
    "E_NOT_IN_HAND": "stash",
    "E_ANNOUNCE": "announcements",
}
"""Where a finding without a trick belongs; any other code belongs to the final ``score`` step."""

_SUIT_ORDER = (0, 1, 2, 3, 4)  # taroks, hearts, diamonds, spades, clubs
_HELD = re.compile(r"\bholding ([A-Z0-9]+(?:(?:,? | or | and )[A-Z0-9]+)*)")
"""The cards a renons sentence says the player held back ("… while holding D1", tarock/rules/play.py)."""


def held_back(findings: Iterable[Finding]) -> int:
    """The cards the renons findings of a trick say their players held back, as a mask (drawn ringed in the
    player's hand, so the viewer sees what should have been played)."""
    mask = 0
    for f in findings:
        if f.severity != "renons" or f.trick is None:
            continue
        for match in _HELD.finditer(f.message):
            mask |= mask_of(CODE_INDEX[w] for w in re.split(r",? | or | and ", match.group(1)) if w in CODE_INDEX)
    return mask


def step_for_finding(code: str, trick: int | None, contract: str | None = None) -> int | None:
    """The step showing a finding with ``code`` and ``trick`` in a deal played as ``contract``; None for the
    final ``score`` step.

    Pure arithmetic on the fixed step layout (see the module docstring), so a
    page can link to the place of a finding without replaying the deal.  A
    trick past the last one played (a record that stops early) is shown on
    the final step.
    """
    layout = phases(contract)
    if trick is not None:
        return len(layout) + trick - 1
    phase = _PHASE_OF_CODE.get(code)
    return layout.index(phase) if phase in layout else None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player at one step: the hand to draw and which of its cards are already gone.

    ``cards`` are canonical codes in display order (taroks high to low, then
    each suit from the king down); ``gone`` are those already played (drawn
    greyed out); ``marked`` are cards to highlight (the talon cards taken,
    the cards laid away).
    """

    name: str
    role: str
    cards: tuple[str, ...]
    gone: frozenset[str]
    marked: frozenset[str]


@dataclass(frozen=True, slots=True)
class PlayView:
    """One card of the trick on the table, with the marks the viewer draws on it."""

    player: str
    card: str
    leads: bool
    wins: bool
    faulty: bool


@dataclass(frozen=True, slots=True)
class Step:
    """Everything the viewer shows at one step.

    ``lines`` are plain sentences for the step (the bids, the talon pick, the
    announcements, the trick's outcome); ``findings`` are those that
    happened at this step, with their sentences.
    """

    index: int
    phase: str
    title: str
    seats: tuple[SeatView, ...]
    lines: tuple[str, ...]
    findings: tuple[Finding, ...]
    talon: tuple[str, ...] = ()
    talon_group: int = 0
    talon_taken: frozenset[str] = frozenset()
    trick_no: int | None = None
    trick: tuple[PlayView, ...] = ()
    leader: str | None = None
    winner: str | None = None
    stash: tuple[str, ...] = ()  # the cards laid away, shown from the Stash step on


@dataclass(frozen=True, slots=True)
class DealReplay:
    """A deal's steps and the facts the viewer's header needs."""

    deal_id: str
    players: tuple[str, ...]
    contract: str
    declarer: str | None
    partner: str | None
    status: str
    steps: tuple[Step, ...]


def _talon_group(ruleset: str, contract: str) -> int:
    """Cards the declarer takes from the talon in this contract (one dealt group); 0 when none."""
    if ruleset == "koenigrufen":
        return koenigrufen.CONTRACTS[contract].talon_group if contract in koenigrufen.CONTRACTS else 0
    return slovenian.CONTRACTS[contract].talon_group if contract in slovenian.CONTRACTS else 0


def display_order(cards: int) -> tuple[str, ...]:
    """The codes of a mask of cards as a hand is held: taroks high to low, then ♥ ♦ ♠ ♣ from the king down."""
    return tuple(CODES[c] for c in sorted(cards_of(cards), key=lambda c: (_SUIT_ORDER[CARD_SUIT[c]], -c)))


def _words(name: str) -> str:
    return name.replace("_", " ")


class _Builder:
    """Builds the steps of one replayed deal (kept apart from ``build_replay`` for its many small parts)."""

    def __init__(self, rp: Replay) -> None:
        self.rp = rp
        self.deal = rp.deal
        self.players = self.deal.players
        self.talon_group = _talon_group(self.deal.ruleset, rp.contract)
        self.declarers = set(rp.declarers) or ({rp.declarer} if rp.declarer is not None else set())
        self.hands: list[int] = list(rp.hands) if rp.hands is not None else [0] * len(self.players)
        self.pick, self.stash = self._exchange()
        self.play_hands = list(self.hands)
        if rp.declarer is not None and (self.pick or self.stash):
            self.play_hands[rp.declarer] = (self.hands[rp.declarer] | self.pick) & ~self.stash
        self.phases = phases(rp.contract)
        self.first_trick = len(self.phases)
        score_step = self.first_trick + len(rp.tricks)
        self.findings_at: dict[int, list[Finding]] = {}
        for f in rp.findings:
            step = step_for_finding(f.code, f.trick, rp.contract)
            self.findings_at.setdefault(score_step if step is None else min(step, score_step), []).append(f)

    def _exchange(self) -> tuple[int, int]:
        """(talon cards taken, cards laid away) as masks: as recorded, else as the engine infers them."""
        rp, deal = self.rp, self.deal
        declarer = rp.declarer
        if declarer is None or not self.talon_group or rp.talon is None:
            return 0, 0
        hand = self.hands[declarer]
        played = 0
        for cards, seats in zip(rp.tricks, rp.trick_seats):
            played |= mask_of(c for c, s in zip(cards, seats) if s == declarer)
        stash_given = mask_of(deal.stash) if deal.stash is not None else None
        if deal.talon_pick is not None:
            pick = mask_of(deal.talon_pick)
        else:
            pick = (played | (stash_given or 0)) & ~hand & mask_of(rp.talon)
        stash = stash_given if stash_given is not None else (hand | pick) & ~played
        return pick, stash

    def role(self, seat: int) -> str:
        if seat in self.declarers:
            return "declarer"
        if seat == self.rp.partner:
            return "partner"
        return ""

    def seats(self, hands: list[int], gone: int = 0, marked: int = 0) -> tuple[SeatView, ...]:
        return tuple(
            SeatView(name, self.role(s), display_order(hands[s]),
                     frozenset(CODES[c] for c in cards_of(hands[s] & gone)),
                     frozenset(CODES[c] for c in cards_of(hands[s] & marked)))
            for s, name in enumerate(self.players)
        )

    def step(self, index: int, phase: str, title: str, seats: tuple[SeatView, ...], lines: list[str],
             **extra: Any) -> Step:
        if "stash" in self.phases and index >= self.phases.index("stash") and self.stash:
            extra.setdefault("stash", display_order(self.stash))
        return Step(index, phase, title, seats, tuple(lines), tuple(self.findings_at.get(index, ())), **extra)

    # -- the phases before play ------------------------------------------------
    def deal_step(self) -> Step:
        n = len(self.players)
        first, dealer = self.players[0], self.players[-1]
        lines = [f"{n} players: {', '.join(self.players)}; {first} is forehand, {dealer} dealt."]
        if self.rp.hands is None:
            lines.append("The hands could not be rebuilt from this record.")
        talon = tuple(CODES[c] for c in self.rp.talon or ())
        return self.step(0, "deal", "Deal", self.seats(self.hands), lines, talon=talon)

    def bidding_step(self) -> Step:
        deal = self.deal
        lines = [f"{p}: {'pass' if b == 'pass' else contract_label(b)}" for p, b in deal.bidding or ()]
        if deal.bidding is None:
            lines.append("The record has no bidding.")
        who = self.rp.player(self.rp.declarer)
        label = contract_label(self.rp.contract)
        lines.append(f"{who} plays {label}." if who else f"Everyone plays {label}.")
        if deal.called_king is not None:
            partner = self.rp.player(self.rp.partner)
            outcome = f"{partner} holds it" if partner else "nobody is the partner"
            lines.append(f"{who} calls {CODES[deal.called_king]}: {outcome}.")
        return self.step(self.phases.index("bidding"), "bidding", "Bidding", self.seats(self.hands), lines)

    def talon_step(self) -> Step:
        talon = tuple(CODES[c] for c in self.rp.talon or ())
        who = self.rp.player(self.rp.declarer)
        if self.pick and who:
            lines = [f"{who} takes {' '.join(display_order(self.pick))} from the talon."]
        else:
            lines = [f"No talon exchange in {contract_label(self.rp.contract)}."]
        return self.step(self.phases.index("talon"), "talon", "Talon", self.seats(self.hands), lines, talon=talon,
                         talon_group=self.talon_group,
                         talon_taken=frozenset(CODES[c] for c in cards_of(self.pick)))

    def stash_step(self) -> Step:
        hands = list(self.hands)
        declarer = self.rp.declarer
        if declarer is not None and (self.pick or self.stash):
            hands[declarer] = self.hands[declarer] | self.pick
            lines = [f"{self.players[declarer]} lays away {' '.join(display_order(self.stash)) or 'nothing'}."]
        else:
            lines = ["Nothing is laid away."]
        return self.step(self.phases.index("stash"), "stash", "Stash", self.seats(hands, marked=self.stash), lines)

    def announcements_step(self) -> Step:
        lines = []
        for a in self.deal.announcements:
            if a.bonus is not None:
                lines.append(f"{a.player} announces {_words(a.bonus)}.")
            else:
                level = {2: "kontra", 4: "re", 8: "sub", 16: "mord"}.get(a.level or 2, f"×{a.level}")
                lines.append(f"{a.player}: {level} on {_words(a.kontra or 'game')}.")
        if not lines:
            lines.append("No announcements.")
        return self.step(self.phases.index("announcements"), "announcements", "Announcements", self.seats(self.play_hands, marked=self.pick), lines)

    # -- play and the end --------------------------------------------------------
    def trick_steps(self) -> list[Step]:
        steps = []
        gone = 0
        rp = self.rp
        for t, (cards, seats, winner) in enumerate(zip(rp.tricks, rp.trick_seats, rp.winners), start=1):
            index = self.first_trick + t - 1
            gone |= mask_of(cards)
            faulty = {f.position for f in self.findings_at.get(index, ()) if f.severity in ("renons", "error")}
            plays = tuple(PlayView(self.players[s], CODES[c], pos == 0, s == winner, pos in faulty)
                          for pos, (c, s) in enumerate(zip(cards, seats)))
            leader, won_by = self.players[seats[0]], self.players[winner]
            points = sum(CARD_POINTS[c] for c in cards)
            lines = [f"{leader} leads; {won_by} wins the trick, its cards worth {points} points before counting "
                     "in threes."]
            held = held_back(self.findings_at.get(index, ()))
            if held:
                lines.append("The ringed card in the offender's hand is the one the rules asked for.")
            steps.append(self.step(index, "trick", f"Trick {t}",
                                   self.seats(self.play_hands, gone=gone, marked=(held | self.pick) & ~gone), lines,
                                   trick_no=t, trick=plays, leader=leader, winner=won_by))
        return steps

    def score_step(self, index: int, gone: int) -> Step:
        rp = self.rp
        lines = []
        if rp.card_points:
            lines.append("Card points: " + ", ".join(f"{_words(k)} {v}" for k, v in rp.card_points.items()) + ".")
        if rp.status == "error":
            lines.append("The record has an error, so the deal gets no recomputed score.")
        return self.step(index, "score", "Score", self.seats(self.play_hands, gone=gone), lines)


def build_replay(record: str | bytes, options: Mapping[str, Any] | None = None,
                 audit: Iterable[Finding] = ()) -> DealReplay:
    """Replay a stored canonical record (``deals.record``) into the viewer's steps.

    ``options`` are the deal's effective ruleset options (``deals.options_json``
    decoded), passed to the engine as overrides so the replay judges the deal
    exactly as the ingest did.  ``audit`` are the stored findings the replay
    cannot make itself (``A_SCORE_MISMATCH``: they compare the score sheet
    with the session's scoring); they are shown on the final step.
    """
    rp = replay(loads(record), options)
    rp.findings.extend(audit)
    b = _Builder(rp)
    before = {"deal": b.deal_step, "bidding": b.bidding_step, "talon": b.talon_step, "stash": b.stash_step,
              "announcements": b.announcements_step}
    steps = [before[phase]() for phase in b.phases]
    steps.extend(b.trick_steps())
    gone = 0
    for cards in rp.tricks:
        gone |= mask_of(cards)
    steps.append(b.score_step(len(steps), gone))
    return DealReplay(rp.deal.id, rp.deal.players, rp.contract, rp.player(rp.declarer), rp.player(rp.partner),
                      rp.status, tuple(steps))
