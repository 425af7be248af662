"""Simulated Königrufen sessions: four players, heuristic play, mistakes with ground truth.

The Königrufen side of ``tarock.sim.simulate`` (``--ruleset koenigrufen``):
the players of ``tarock.sim.koenigrufen_players`` bid, call a king (or
concede when it lies in the talon), take a talon half, lay away, announce
and play; every record carries the score sheet line (``recorded``, no
radelci in Königrufen) under the run's options, which the record states.
With ``mistakes`` > 0 a deal gets, with that probability, exactly one
mistake: a renons in play (the kinds Königrufen has), a king the declarer
holds called (``R_OWN_KING``), a faulty stash, or one figure written wrong
on the score sheet.  Every deal is replayed before it is written and must
yield exactly the injected finding (``SimulationError`` otherwise).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Iterator

from tarock.accel.kr_lane import score_played
from tarock.cards import CODES, KINGS, KINGS_MASK, cards_of, codes_of, mask_of
from tarock.check.audit import audit_scores
from tarock.deal import FORMAT, Deal
from tarock.engine import replay
from tarock.facts import KoenigrufenFacts
from tarock.game import Game, Phase
from tarock.options import KoenigrufenOptions
from tarock.rules.koenigrufen.contracts import BIRDS, CARDS_PER_HAND, HALF, counted_bonuses, leader
from tarock.rules.rulesets import score_facts
from tarock.rules.slovenian.scoring import ScoreResult
from tarock.sim.koenigrufen_players import (
    Bidding,
    KoenigrufenPlay,
    announce,
    choose_half,
    choose_king,
    kr_stash,
    run_bidding,
    should_concede,
    wish,
)
from tarock.sim.mistakes import SCORE_CODE, Kind, faulty_stash, renons_cards, transpose
from tarock.sim.players import HandValue
from tarock.sim.randomplay import deal_masks
from tarock.sim.compiled import hand_values
from tarock.sim.errors import SimulationError
from tarock.sim.record_deal import record_deal
from tarock.sim.record_text import TrickTexts, codes
from tarock.sim.table import Table

KINDS: tuple[Kind, ...] = (
    Kind("follow_suit", "R_FOLLOW_SUIT", 22.0, "play"),
    Kind("must_tarok", "R_MUST_TAROK", 14.0, "play"),
    Kind("must_overtrump", "R_MUST_OVERTRUMP", 8.0, "play"),
    Kind("pagat", "R_PAGAT", 4.0, "play"),
    Kind("lead_tarok", "R_LEAD_TAROK", 4.0, "play"),
    Kind("own_king", "R_OWN_KING", 3.0, "king"),
    Kind("stash", "R_STASH", 5.0, "stash"),
    Kind("sign_slip", SCORE_CODE, 8.0, "score"),
    Kind("transposed_digits", SCORE_CODE, 4.0, "score"),
    Kind("kontra_forgotten", SCORE_CODE, 4.0, "score"),
    Kind("bonus_left_off", SCORE_CODE, 6.0, "score"),
)
"""The mistakes a Königrufen table makes, weighted by how often clubs see them."""

Finding = tuple[str, int | None, str]


def mistake_order(rng: random.Random) -> list[Kind]:
    """Every kind in a random order, the common ones likelier first."""
    keyed = [(rng.random() ** (1.0 / k.weight), k) for k in KINDS]
    keyed.sort(key=lambda pair: pair[0], reverse=True)
    return [k for _, k in keyed]


@dataclass(slots=True)
class DealInPlay:
    """One deal being built: the dealt cards, the bidding and what follows it."""

    players: tuple[str, ...]
    hands: list[int]
    dealt: list[list[int]]
    talon: list[int]
    values: list[HandValue]
    bidding: Bidding
    king: int | None = None
    partner: int | None = None
    conceded: bool = False
    pick: tuple[int, ...] = ()
    stash: int = 0
    bird: str | None = None
    announcements: tuple[dict[str, object], ...] = ()
    game: Game | Table | None = None


class KoenigrufenSession:
    """One table's evening of Königrufen (the same shape as ``tarock.sim.simulate._Session``)."""

    def __init__(self, seed: int, index: int, mistakes: float, options: KoenigrufenOptions,
                 names: tuple[str, ...], first_day: Any) -> None:
        self.rng = rng = random.Random(f"koenigrufen:{seed}:{index}")
        self.rate = mistakes
        self.options = options
        self.changed = options.changed()  # what the records state: the same for every deal of the run
        self.table = tuple(rng.sample(names, 4))
        self.named = rng.random() < 0.5
        self._trick_texts = TrickTexts(self.named)
        self.first_dealer = rng.randrange(4)
        self.id = f"kr{seed}-{index:05d}"
        self.clock = first_day + timedelta(days=index)

    def deals(self, count: int) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
        for seq in range(1, count + 1):
            yield self._deal(seq)

    def _seating(self, seq: int) -> tuple[str, ...]:
        dealer = (self.first_dealer + seq - 1) % 4
        return self.table[dealer + 1:] + self.table[:dealer + 1]

    def _deal(self, seq: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        rng = self.rng
        self.clock += timedelta(minutes=rng.randint(3, 7))
        players = self._seating(seq)
        dealt, talon, hands = deal_masks(rng, 4, redeal_without_tarok=False)
        values = hand_values(hands)
        wishes = [wish(values[s], hands[s], s, self.options, rng) for s in range(4)]
        bidding = run_bidding(wishes, self.options)
        plan = mistake_order(rng) if rng.random() < self.rate else []
        state = rng.getstate() if plan else None  # each attempt at a mistake starts from here
        deal = mistake = None
        slips: list[Kind] = []
        for i, kind in enumerate(plan):
            if kind.stage == "score":
                slips = [k for k in plan[i:] if k.stage == "score"]
                break
            assert state is not None  # a plan, so a state
            rng.setstate(state)
            deal = DealInPlay(players, list(hands), dealt, talon, values, bidding)
            mistake = play_deal(deal, rng, self.options, kind)
            if mistake is not None:
                break
            deal = None
        if deal is None:
            if state is not None:
                rng.setstate(state)
            deal = DealInPlay(players, list(hands), dealt, talon, values, bidding)
            play_deal(deal, rng, self.options)
        record = self._record(deal, seq)
        game = deal.game
        tricks, trick_seats = (game.tricks, game.trick_seats) if game is not None else ([], [])
        stash = tuple(cards_of(deal.stash))

        def checked() -> Deal:
            return record_deal(record, dealt, talon, deal.pick, stash, deal.king, tricks, trick_seats,
                               self.named)

        if mistake is None and not slips:  # clean: checked once by the kernel, scored by the compiled scorer
            fast = score_played(bidding.contract.name, self.options, players, dealt, talon, bidding.bids,
                                tuple(sorted(bidding.declarers)), deal.king, deal.pick or None,
                                stash if deal.pick else None, tricks, trick_seats, bool(deal.announcements),
                                deal.conceded, checked)
            if fast is not None:
                record["recorded"] = {"scores": {p: s for p, s in zip(players, fast[1]) if s}}
                return record, []
        result = self._score(checked(), mistake)
        truth = [_truth(record["id"], mistake[0], *mistake[1])] if mistake is not None else []
        record["recorded"], slipped = self._sheet(result, players, slips, record["id"])
        return record, truth + slipped

    # -- the record and its score
    def _record(self, deal: DealInPlay, seq: int) -> dict[str, Any]:
        players, bidding = deal.players, deal.bidding
        record: dict[str, Any] = {
            "format": FORMAT,
            "id": f"{self.id}-{seq:03d}",
            "session": self.id,
            "seq": seq,
            "date": self.clock.isoformat(),
            "ruleset": "koenigrufen",
        }
        if self.changed:
            record["options"] = dict(self.changed)
        record |= {
            "players": list(players),
            "hands": {p: codes(h) for p, h in zip(players, deal.dealt)},
            "talon": codes(deal.talon),
            "bidding": [[players[s], bid] for s, bid in bidding.bids],
            "contract": bidding.contract.name,
        }
        if bidding.declarers:
            names = [players[s] for s in bidding.declarers]
            record["declarer"] = names[0] if len(names) == 1 else names
        if deal.king is not None:
            record["called_king"] = CODES[deal.king]
        if deal.conceded:
            record["conceded"] = True
        if deal.pick:
            record["talon_pick"] = [CODES[c] for c in deal.pick]
            record["stash"] = codes_of(deal.stash)
        if deal.announcements:
            record["announcements"] = [dict(a) for a in deal.announcements]
        record["tricks"] = self._trick_texts(deal.game.players, deal.game.tricks, deal.game.trick_seats) \
            if deal.game is not None else []
        return record

    def _score(self, deal: Deal, mistake: tuple[str, Finding] | None) -> ScoreResult:
        """Replay the deal as the checker will (``record_deal``: the record's ``Deal``), make sure it finds just
        the injected mistake, and score it."""
        rp = replay(deal)
        got = [(f.code, f.trick, f.player) for f in rp.findings]
        want = [mistake[1]] if mistake is not None else []
        if got != want or not isinstance(rp.facts, KoenigrufenFacts):
            raise SimulationError(f"deal {deal.id}: the replay finds {got}, the simulator meant {want}")
        return score_facts(rp.facts)

    def _sheet(self, result: ScoreResult, players: tuple[str, ...], slips: list[Kind],
               deal_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The ``recorded`` line (every non-zero figure) and, with the first of ``slips`` the deal has room
        for, one figure written wrong and its truth line."""
        scores = {p: result.scores[p] for p in players if result.scores[p]}
        for kind in slips:
            slip = score_slip(kind, result, self.rng)
            if slip is None:
                continue
            player, wrong = slip
            written = scores | {player: wrong}
            scores = {p: written[p] for p in players if written.get(p)}
            got = [(f.code, f.player) for f in audit_scores({"scores": scores}, result, players)]
            if got != [(SCORE_CODE, player)]:
                raise SimulationError(f"deal {deal_id}: the audit finds {got}, the simulator meant {player}'s figure")
            return {"scores": scores}, [_truth(deal_id, kind.name, SCORE_CODE, None, player)]
        return {"scores": scores}, []


def play_deal(deal: DealInPlay, rng: random.Random, options: KoenigrufenOptions, kind: Kind | None = None,
              announcing: bool = True) -> tuple[str, Finding] | None:
    """King, talon, stash, announcements and card play after the bidding, as a simulated table does them, with a
    mistake of ``kind`` if the deal has room for it; returns (kind name, finding) of the mistake made, None when
    none was.  Without ``announcing`` nobody announces but a Besserrufer's declarer their bird, which that game
    must have (the play-outs of ``tarock.sim.koenigrufen_playouts``)."""
    contract, declarers = deal.bidding.contract, deal.bidding.declarers
    players = deal.players
    made: tuple[str, Finding] | None = None
    declarer = declarers[0] if declarers else None
    if contract.name == "besserrufer" and declarer is not None:
        birds = [b for b, (card, _) in BIRDS.items()
                 if deal.hands[declarer] >> card & 1 and b in counted_bonuses(contract, options)]
        deal.bird = birds[-1] if birds else None
    if contract.calls_king and declarer is not None:
        own = deal.hands[declarer] & KINGS_MASK
        if kind is not None and kind.name == "own_king":
            if not own or own == KINGS_MASK:
                return None
            deal.king = rng.choice([k for k in KINGS if own >> k & 1])
            made = (kind.name, (kind.code, None, players[declarer]))
        else:
            deal.king = choose_king(deal.hands[declarer], rng)
        deal.partner = next((s for s in range(4) if s != declarer and deal.hands[s] >> deal.king & 1), None)
        in_talon = deal.king in deal.talon
        if in_talon and contract.talon == HALF and should_concede(deal.values[declarer], rng):
            if kind is not None:
                return None
            deal.conceded = True
            if deal.bird is not None:
                deal.announcements = ({"player": players[declarer], "bonus": deal.bird},)
            return None
    elif kind is not None and kind.name == "own_king":
        return None
    if contract.talon_group and declarer is not None:
        deal.pick = choose_half(deal.talon, contract, deal.king)
        after = deal.hands[declarer] | mask_of(deal.pick)
        keep = 1 << BIRDS[deal.bird][0] if deal.bird is not None else 0
        taroks_first = contract.color and options.color_discard_restriction
        stash = kr_stash(after, len(deal.pick), deal.king, taroks_first, keep)
        if kind is not None and kind.name == "stash":
            faulty = None if taroks_first else faulty_stash(rng, after & ~keep, stash, None)
            if faulty is None:
                return None
            stash = faulty
            made = (kind.name, (kind.code, None, players[declarer]))
        deal.stash = stash
        deal.hands[declarer] = after & ~stash
    elif kind is not None and kind.name == "stash":
        return None
    if announcing:
        deal.announcements = tuple(announce(rng, contract, options, players, declarers, deal.partner, deal.king,
                                            deal.hands, deal.values, deal.bird))
    elif deal.bird is not None and declarer is not None:  # a bird only where a Besserrufer has a declarer
        deal.announcements = ({"player": players[declarer], "bonus": deal.bird},)
    valat = any(a.get("bonus") == "valat" and deal.players.index(str(a["player"])) == declarer
                for a in deal.announcements)
    pagat_ultimo = next((players.index(str(a["player"])) for a in deal.announcements
                         if a.get("bonus") == "pagat_ultimo"), None)
    first = leader(contract, declarers)
    heuristics = KoenigrufenPlay(contract, declarers, deal.partner, deal.king, deal.hands, pagat_ultimo,
                                 first, valat)
    in_play = kind if kind is not None and kind.stage == "play" else None
    game: Game | Table
    if in_play is None:  # played legally: the replay of the record is the one check
        game = Table(players, deal.hands, contract, options, first)
        game.play_with(heuristics)
    else:
        game = Game(players, list(deal.hands), contract, options, first)
        found = play_with_mistake(game, heuristics, in_play, rng)
        if found is None:
            return None
        made = (in_play.name, found)
    deal.game = game
    return made


def play_with_mistake(game: Game, heuristics: KoenigrufenPlay, kind: Kind | None, rng: random.Random
                      ) -> Finding | None:
    """Play the deal out; with a play ``kind``, make that renons at the first chance from a random
    point on.  Returns its finding, or None when no chance came."""
    start = rng.randrange(4 * CARDS_PER_HAND) if kind is not None else 0
    expected: Finding | None = None
    done = 0
    while game.phase != Phase.DONE:
        if kind is not None and expected is None and game.played >= start:
            seat = game.turn
            cards = renons_cards(game, seat, game.legal_mask(), kind.code)
            if cards:
                expected = (kind.code, len(game.tricks) + 1, game.players[seat])
                game.play(rng.choice(cards))
                if len(game.tricks) > done:
                    done += 1
                    heuristics.trick_done(game.tricks[-1], game.winners[-1])
                continue
        game.play(heuristics.choose(game, game.turn, game.legal_mask()))
        if len(game.tricks) > done:
            done += 1
            heuristics.trick_done(game.tricks[-1], game.winners[-1])
    return expected


def score_slip(kind: Kind, result: ScoreResult, rng: random.Random) -> tuple[str, int] | None:
    """(player, wrong figure) for a Königrufen score-sheet slip of ``kind``, or None when the deal has no
    room for it: a sign slip, two digits swapped, the game's kontra forgotten on one figure, or one
    bonus line left off one figure."""
    name = kind.name
    if name == "sign_slip":
        writers = [p for p, s in result.scores.items() if s]
        if not writers:
            return None
        player = rng.choice(writers)
        return player, -result.scores[player]
    if name == "transposed_digits":
        options = [(p, t) for p, s in result.scores.items() if (t := transpose(s, rng)) is not None]
        return rng.choice(options) if options else None
    if name == "kontra_forgotten":
        lines = [ln for ln in result.lines if ln.component == "game" and ln.value
                 and ln.basis.get("kontra", 1) > 1]
        if not lines:
            return None
        line = rng.choice(lines)
        player = line.players[0]
        return player, result.scores[player] - line.value + line.value // line.basis["kontra"]
    if name == "bonus_left_off":
        lines = [ln for ln in result.lines if ln.component not in ("game", "penalty") and ln.value]
        if not lines:
            return None
        line = rng.choice(lines)
        player = line.players[0]
        return player, result.scores[player] - line.value
    raise ValueError(f"{name} is not a score-sheet mistake")


def _truth(deal_id: str, kind: str, code: str, trick: int | None, player: str) -> dict[str, Any]:
    return {"id": deal_id, "kind": kind, "code": code, "trick": trick, "player": player}
