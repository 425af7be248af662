"""Simulated sessions of Slovenian tarok: realistic ``tarock-record/1`` records at any volume.

Each session is a table of three or four players (Slovenian first names)
playing deals in turn, the dealer moving on each deal.  Hands are dealt at
random, and the heuristic players of ``tarock.sim.players`` bid, call a
king, take the talon, lay away, announce and play.  Every record carries the
score sheet line (``recorded``) the project's own scoring gives, radelci
carried through the session by a ``SessionLedger``.

With ``mistakes`` > 0 a deal gets, with that probability, exactly one
mistake (``tarock.sim.mistakes``): a renons in play or in the stash, or a
slip on the score sheet.  Each becomes one line of the ground truth
(``{id, kind, code, trick, player}``) that ``tarock check`` must reproduce.
Every simulated deal is checked before it is written, and a deal whose
findings differ from what was injected stops the run (``SimulationError``):
the truth file is never wrong silently.  A clean deal is checked by the
kernel's lane and scored by the compiled scorer (``tarock.sim.lane_score``);
one with a mistake, or one the lane declines, is replayed by the engine.

Sessions are seeded independently from ``(seed, session index)``, so the
output is byte-identical whatever the number of worker processes.
"""

from __future__ import annotations

import gc
import gzip
import io
import multiprocessing
import random
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import orjson

from tarock.check.audit import audit_scores
from tarock.cards import CODES, cards_of, codes_of, mask_of
from tarock.deal import FORMAT, Deal
from tarock.engine import replay
from tarock.facts import DealFacts
from tarock.game import Game, Phase
from tarock.options import DEFAULT_SLOVENIAN, OptionError, koenigrufen_options
from tarock.sim.randomplay import deal_masks
from tarock.rules.slovenian.scoring import ScoreResult
from tarock.rules.sessions import SessionLedger
from tarock.sim.compiled import call_king, choose_stash, pick_talon, wishes
from tarock.sim.errors import SimulationError
from tarock.sim.record_deal import record_deal
from tarock.sim.koenigrufen_sim import KoenigrufenSession
from tarock.sim.lane_score import score_announced, score_clean
from tarock.sim.record_text import TrickTexts, codes
from tarock.sim.table import Table
from tarock.sim.mistakes import Kind, faulty_stash, mistake_order, renons_cards, score_slip
from tarock.sim.players import (
    NO_ANNOUNCEMENTS,
    Announcing,
    Bidding,
    CardPlay,
    HandValue,
    announce,
    run_bidding,
)
from tarock.rules.slovenian.contracts import CARDS_PER_HAND

NAME_POOL = ("Ana", "Boris", "Cilka", "David", "Eva", "Franc", "Gregor", "Hana", "Igor", "Jana", "Klemen",
             "Lara", "Matej", "Nina", "Oskar", "Petra")
"""The first names tables are drawn from."""

FIRST_DAY = datetime(2026, 1, 1, 19, 0)
"""Session ``i`` starts on this day plus ``i`` days, at 19:00."""

DEALS_PER_CHUNK = 1000
"""About this many deals go to a worker at a time."""

_LINE = orjson.OPT_APPEND_NEWLINE

GZIP_LEVEL = 6
"""The compression level of a ``.gz`` output (the bytes depend on it: the same records, the same file)."""




@dataclass(slots=True)
class SimulationStats:
    """What a run wrote: deals, sessions, injected mistakes by kind, contracts, and the time it took."""

    deals: int = 0
    sessions: int = 0
    mistakes: int = 0
    contracts: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds else 0.0

    def add(self, record: dict[str, Any], truth: list[dict[str, Any]]) -> None:
        """Count one written deal and its ground-truth lines."""
        self.deals += 1
        self.contracts[record["contract"]] += 1
        self.mistakes += len(truth)
        for line in truth:
            self.kinds[line["kind"]] += 1


class _Setup(NamedTuple):
    """A deal up to the talon pick: what every attempt at the rest of the deal starts from (a named tuple, as
    ``_Played``: made once or twice a deal, at a tuple's cost)."""

    players: tuple[str, ...]
    dealt: list[list[int]]  # each hand's cards, lowest first
    hands: list[int]
    talon: list[int]
    values: list[HandValue]
    bidding: Bidding
    called_king: int | None
    partner: int | None
    pick: tuple[int, ...]


Finding = tuple[str, int | None, str]
"""What the checker must report for an injected mistake: (code, trick, player)."""


class _Played(NamedTuple):
    """The rest of a deal as played, with the mistake made in it (its kind and finding), if any."""

    stash: int
    announcing: Announcing
    game: Game | Table
    mistake: tuple[Kind, Finding] | None


class _Session:
    """One table's evening: players, the dealer's turn, the radelci ledger and the random stream."""

    def __init__(self, n_players: int, seed: int, index: int, mistakes: float) -> None:
        self.rng = rng = random.Random(f"{seed}:{index}")
        self.n = n_players
        self.rate = mistakes
        self.table = tuple(rng.sample(NAME_POOL, n_players))
        self.named = rng.random() < 0.5
        self.first_dealer = rng.randrange(n_players)
        self.ledger = SessionLedger()
        self.id = f"s{seed}-{index:05d}"
        self.clock = FIRST_DAY + timedelta(days=index)
        self._trick_texts = TrickTexts(self.named)

    def deals(self, count: int) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """The session's deals in order, each with its ground-truth lines."""
        for seq in range(1, count + 1):
            yield self._deal(seq)

    # -- one deal ------------------------------------------------------------------
    def _seating(self, seq: int) -> tuple[str, ...]:
        """Players in playing order for deal ``seq``: forehand first, the dealer last."""
        dealer = (self.first_dealer + seq - 1) % self.n
        return self.table[dealer + 1:] + self.table[:dealer + 1]

    def _deal(self, seq: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Deal ``seq``: the record and the ground truth of its mistake (none, or one line)."""
        rng = self.rng
        self.clock += timedelta(minutes=rng.randint(3, 7))
        setup = self._setup(self._seating(seq))
        plan = mistake_order(rng, self.named) if rng.random() < self.rate else []
        played, slips = self._play_with(setup, plan)
        record = self._record(setup, played, seq)
        game = played.game
        stash = tuple(cards_of(played.stash))
        deal = None
        if played.mistake is None and not slips:  # clean: the compiled way, unless it declines
            if not played.announcing.items:
                recorded = score_clean(setup.bidding.contract, setup.players, setup.dealt, setup.talon, setup.pick,
                                       stash, setup.called_king, game.tricks, game.trick_seats,
                                       setup.bidding.declarer, setup.bidding.bids, self.ledger)
            else:
                deal = record_deal(record, setup.dealt, setup.talon, setup.pick, stash, setup.called_king,
                                   game.tricks, game.trick_seats, self.named)
                recorded = score_announced(deal, game.trick_seats, self.ledger)
            if recorded is not None:
                record["recorded"] = recorded
                return record, []
        deal_id = record["id"]
        if deal is None:
            deal = record_deal(record, setup.dealt, setup.talon, setup.pick, stash, setup.called_king, game.tricks,
                               game.trick_seats, self.named)
        result = self._score(deal, played.mistake[1] if played.mistake else None)
        truth = []
        if played.mistake is not None:
            kind, finding = played.mistake
            truth.append(_truth(deal_id, kind.name, *finding))
        record["recorded"], slipped = _score_sheet(result, setup.players, slips, rng, deal_id)
        return record, truth + slipped

    def _score(self, deal: Deal, expected: Finding | None) -> ScoreResult:
        """Replay the deal as the checker will (``record_deal``: the record's ``Deal``), make sure it finds
        just the injected mistake, and score it with the session's radelci."""
        rp = replay(deal)
        got = [(f.code, f.trick, f.player) for f in rp.findings]
        want = [expected] if expected is not None else []
        if got != want or not isinstance(rp.facts, DealFacts):
            raise SimulationError(f"deal {deal.id}: the replay finds {got}, the simulator meant {want}")
        result = self.ledger.apply(rp.facts)
        assert result is not None  # facts given, so the deal is scored
        return result

    def _setup(self, players: tuple[str, ...]) -> _Setup:
        """Deal, bid, call a king and pick the talon."""
        rng = self.rng
        n = self.n
        dealt, talon, hands = deal_masks(rng, n)
        values, wants = wishes(rng, hands)
        bidding = run_bidding(wants, n)
        contract, declarer = bidding.contract, bidding.declarer
        king = partner = None
        if declarer is not None and contract.calls_king and n == 4:
            king = call_king(hands[declarer], rng)
            partner = next((s for s in range(n) if s != declarer and hands[s] >> king & 1), None)
        pick = pick_talon(talon, contract.talon_group) if contract.talon_group else ()
        return _Setup(players, dealt, hands, talon, values, bidding, king, partner, pick)

    def _play_with(self, setup: _Setup, plan: list[Kind]) -> tuple[_Played, list[Kind]]:
        """The rest of the deal with the first mistake of ``plan`` it has room for.

        Returns the play and, when that first possible mistake is a slip on
        the score sheet, the score-sheet kinds to try (in plan order) once the
        deal is scored.
        """
        for i, kind in enumerate(plan):
            if kind.stage == "score":
                return self._play_clean(setup), [k for k in plan[i:] if k.stage == "score"]
            played = self._play(setup, kind)
            if played is not None:
                return played, []
        return self._play_clean(setup), []

    def _play_clean(self, setup: _Setup) -> _Played:
        """Stash, announce and play without a mistake."""
        played = self._play(setup, None)
        assert played is not None  # only a mistake that finds no room gives None
        return played

    def _play(self, setup: _Setup, kind: Kind | None) -> _Played | None:
        """Stash, announce and play; None when a mistake of ``kind`` cannot be made in this deal."""
        exchanged = self._exchange(setup, kind)
        if exchanged is None:
            return None
        hands, stash, finding = exchanged
        contract, declarer = setup.bidding.contract, setup.bidding.declarer
        announcing = NO_ANNOUNCEMENTS
        if declarer is not None:
            announcing = announce(self.rng, contract, setup.players, declarer, setup.partner, hands,
                                  setup.values)
        leader = declarer if contract.declarer_leads and declarer is not None else 0
        heuristics = CardPlay(contract, self.n, declarer, setup.partner, setup.called_king, hands,
                              announcing.pagat_ultimo, leader)
        in_play = kind if kind is not None and kind.stage == "play" else None
        game: Game | Table
        if in_play is None:  # played legally: the replay of the record is the one check
            game = Table(setup.players, hands, contract, DEFAULT_SLOVENIAN, leader)
            game.play_with(heuristics)
            played = None
        else:
            game = Game(setup.players, hands, contract, DEFAULT_SLOVENIAN, leader)
            played = self._play_cards(game, heuristics, in_play)
            if played is None:
                return None
        finding = finding or played
        return _Played(stash, announcing, game, (kind, finding) if kind is not None and finding else None)

    def _exchange(self, setup: _Setup, kind: Kind | None) -> tuple[list[int], int, Finding | None] | None:
        """The hands after the talon exchange, the stash, and the finding of a faulty stash when
        ``kind`` is ``stash`` (None when this deal has no stash to get wrong)."""
        declarer = setup.bidding.declarer
        hands = list(setup.hands)
        wrong = kind if kind is not None and kind.stage == "stash" else None
        if declarer is None or not setup.pick:
            return None if wrong else (hands, 0, None)
        after = hands[declarer] | mask_of(setup.pick)
        stash = choose_stash(after, len(setup.pick), setup.called_king)
        finding = None
        if wrong:
            faulty = faulty_stash(self.rng, after, stash, setup.called_king)
            if faulty is None:
                return None
            stash = faulty
            finding = (wrong.code, None, setup.players[declarer])
        hands[declarer] = after & ~stash
        return hands, stash, finding

    def _play_cards(self, game: Game, heuristics: CardPlay, kind: Kind | None) -> Finding | None:
        """Play the deal out; with a play ``kind``, make that mistake at the first chance from a
        random point on.  Returns the finding the mistake must yield, or None when no chance came."""
        start = self.rng.randrange(game.n * CARDS_PER_HAND[game.n]) if kind is not None else 0
        expected = None
        tricks = game.tricks
        done = 0
        while game.phase != Phase.DONE:
            made = None
            if kind is not None and expected is None and game.played >= start:
                made = expected = self._mistake(game, heuristics, kind)
            if made is None:
                game.play(heuristics.choose(game, game.turn, game.legal_mask()))
            if len(tricks) > done:
                done += 1
                heuristics.trick_done(tricks[-1], game.winners[-1])
        return expected

    def _mistake(self, game: Game, heuristics: CardPlay, kind: Kind) -> Finding | None:
        """Make a play mistake of ``kind`` now if the table allows it; returns its finding, or None
        (nothing played) when it does not.

        ``out_of_turn``: the player after the one whose turn it is plays
        first (a legal card for the trick as it lies), then the skipped player
        plays in turn; never at a trick's first or last place, so only the
        one who jumped the queue is out of turn.  A renons: a held card that
        breaks exactly the rule ``kind`` names.
        """
        seat = game.turn
        trick = len(game.tricks) + 1
        if kind.name == "out_of_turn":
            if not 1 <= len(game.current_trick) <= game.n - 2:
                return None
            early = (seat + 1) % game.n
            game.play(heuristics.choose(game, early, game.legal_mask(early)), early)
            game.play(heuristics.choose(game, seat, game.legal_mask(seat)), seat)
            return kind.code, trick, game.players[early]
        cards = renons_cards(game, seat, game.legal_mask(), kind.code)
        if not cards:
            return None
        game.play(self.rng.choice(cards))
        return kind.code, trick, game.players[seat]

    def _record(self, setup: _Setup, played: _Played, seq: int) -> dict[str, Any]:
        """The deal as a ``tarock-record/1`` object, keys in canonical order, without ``recorded``."""
        players = setup.players
        bidding = setup.bidding
        record: dict[str, Any] = {
            "format": FORMAT,
            "id": f"{self.id}-{seq:03d}",
            "session": self.id,
            "seq": seq,
            "date": self.clock.isoformat(),
            "ruleset": "slovenian",
            "players": list(players),
            "hands": {p: codes(h) for p, h in zip(players, setup.dealt)},
            "talon": codes(setup.talon),
            "bidding": [[players[s], bid] for s, bid in bidding.bids],
            "contract": bidding.contract.name,
        }
        if bidding.declarer is not None:
            record["declarer"] = players[bidding.declarer]
        if setup.called_king is not None:
            record["called_king"] = CODES[setup.called_king]
        if setup.pick:
            record["talon_pick"] = [CODES[c] for c in setup.pick]
            record["stash"] = codes_of(played.stash)
        if played.announcing.items:
            record["announcements"] = [dict(a) for a in played.announcing.items]
        game = played.game
        record["tricks"] = self._trick_texts(game.players, game.tricks, game.trick_seats)
        return record


def _score_sheet(result: ScoreResult, players: tuple[str, ...], slips: list[Kind], rng: random.Random,
                 deal_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``recorded`` line (the figure of every player who writes, everyone's radelci after the
    deal) and its ground truth: with the first of ``slips`` the deal has room for, one figure is
    written wrong."""
    scores = {p: result.scores[p] for p in players if result.scores[p]}
    radelci = {p: result.radelci_after[p] for p in players}
    for kind in slips:
        slip = score_slip(kind, result, rng)
        if slip is not None:
            player, wrong = slip
            written = scores | {player: wrong}
            scores = {p: written[p] for p in players if written.get(p)}
            _verify_slip(scores, radelci, result, players, player, deal_id)
            truth = _truth(deal_id, kind.name, kind.code, None, player)
            return {"scores": scores, "radelci": radelci}, [truth]
    return {"scores": scores, "radelci": radelci}, []


def _truth(deal_id: str, kind: str, code: str, trick: int | None, player: str) -> dict[str, Any]:
    return {"id": deal_id, "kind": kind, "code": code, "trick": trick, "player": player}


def _verify_slip(scores: dict[str, int], radelci: dict[str, int], result: ScoreResult,
                 players: tuple[str, ...], player: str, deal_id: str) -> None:
    """The audit must flag the slipped figure, and only that one."""
    got = [(f.code, f.player) for f in audit_scores({"scores": scores, "radelci": radelci}, result, players)]
    if got != [("A_SCORE_MISMATCH", player)]:
        raise SimulationError(f"deal {deal_id}: the audit finds {got}, the simulator meant {player}'s figure")


# -- runs ----------------------------------------------------------------------------


Simulated = list[tuple[dict[str, Any], list[dict[str, Any]]]]
"""Deals as (record object, ground-truth lines of its mistake)."""


def simulate_sessions(players: int, seed: int, first: int, count: int, deals_per_session: int,
                      mistakes: float, ruleset: str = "slovenian",
                      options: tuple[tuple[str, Any], ...] = ()) -> Simulated:
    """Sessions ``first`` … ``first + count - 1`` of a run, every deal with its ground-truth lines
    (``options``: the Königrufen options' overrides, as items)."""
    out: Simulated = []
    with _rare_collections():
        if ruleset == "koenigrufen":
            kr_options = koenigrufen_options(None, dict(options))
            for index in range(first, first + count):
                session = KoenigrufenSession(seed, index, mistakes, kr_options, NAME_POOL, FIRST_DAY)
                out.extend(session.deals(deals_per_session))
            return out
        for index in range(first, first + count):
            out.extend(_Session(players, seed, index, mistakes).deals(deals_per_session))
    return out


YOUNG_COLLECTION = 100_000
"""Allocations between two collections of the cyclic garbage collector's youngest generation while deals are
simulated (Python's default: 700)."""


@contextmanager
def _rare_collections() -> Iterator[None]:
    """Collect the youngest generation every ``YOUNG_COLLECTION`` allocations for the block.  A deal allocates
    thousands of short-lived objects, all freed by their reference counts, and the default threshold spent a
    tenth of the simulator's time scanning them (``bench/bench_simulate.py``); nothing the simulator makes is
    cyclic garbage, so memory stays as it was."""
    saved = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)


def _chunk_worker(args: tuple[int, int, int, int, int, float, str, tuple[tuple[str, Any], ...]]) -> Simulated:
    """``simulate_sessions`` for a process pool (one picklable argument)."""
    return simulate_sessions(*args)


RULESETS = ("slovenian", "koenigrufen")


def _check_arguments(players: int, sessions: int, deals_per_session: int, mistakes: float,
                     workers: int, ruleset: str = "slovenian", options: Mapping[str, Any] | None = None) -> None:
    if ruleset not in RULESETS:
        raise ValueError(f"the simulator plays {' or '.join(RULESETS)}, not {ruleset!r}")
    if ruleset == "koenigrufen":
        if players != 4:
            raise ValueError(f"koenigrufen is played by 4 players, not {players}")
        try:
            koenigrufen_options(None, options)
        except OptionError as exc:
            raise ValueError(str(exc)) from None
    elif options:
        raise ValueError("options are simulated for koenigrufen only; slovenian plays its defaults")
    if players not in (3, 4):
        raise ValueError(f"slovenian is played by 3 or 4 players, not {players}")
    if sessions < 0 or deals_per_session < 1:
        raise ValueError("sessions must be at least 0 and deals per session at least 1")
    if not 0.0 <= mistakes <= 1.0:
        raise ValueError(f"mistakes is a probability between 0 and 1, not {mistakes}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")


def simulate(players: int, sessions: int, deals_per_session: int, seed: int, mistakes: float = 0.0,
             workers: int = 1, ruleset: str = "slovenian", options: Mapping[str, Any] | None = None
             ) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every simulated deal in session order, as (record object, ground-truth lines of its mistakes).

    ``mistakes`` is the probability that a deal gets one injected mistake.
    With ``workers`` > 1, chunks of sessions are simulated in a process pool
    and handed back in order; the deals are the same either way.  The
    arguments are checked here, before any deal (``ValueError``), so a caller
    can check them before it creates anything.
    """
    _check_arguments(players, sessions, deals_per_session, mistakes, workers, ruleset, options)
    return _simulated(players, sessions, deals_per_session, seed, mistakes, workers, ruleset, options)


def _simulated(players: int, sessions: int, deals_per_session: int, seed: int, mistakes: float, workers: int,
               ruleset: str, options: Mapping[str, Any] | None) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """``simulate``'s deals, its arguments checked."""
    per_chunk = max(1, DEALS_PER_CHUNK // deals_per_session)
    items = tuple((options or {}).items())
    chunks = [(players, seed, first, min(per_chunk, sessions - first), deals_per_session, mistakes, ruleset, items)
              for first in range(0, sessions, per_chunk)]
    if workers == 1 or len(chunks) < 2:
        with _rare_collections():  # the whole run, not each chunk: a chunk's records are written and freed
            for chunk in chunks:  # before the next young collection, so that one has little to scan
                yield from _chunk_worker(chunk)
        return
    with multiprocessing.Pool(min(workers, len(chunks))) as pool:
        for batch in pool.imap(_chunk_worker, chunks):
            yield from batch


def truth_path(out: str | Path) -> Path:
    """Where the ground truth of ``out`` goes: ``sample.jsonl.gz`` -> ``sample.truth.jsonl`` beside it."""
    out = Path(out)
    name = out.name.removesuffix(".gz")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return out.with_name(f"{stem}.truth.jsonl")


def _open_output(out: Path, stack: ExitStack) -> BinaryIO:
    """``out`` for writing; gzip (no name, mtime 0, so the bytes depend only on the content) for ``.gz``."""
    raw = stack.enter_context(out.open("wb"))
    if out.suffix != ".gz":
        return raw
    gz = stack.enter_context(gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=GZIP_LEVEL))
    return stack.enter_context(io.BufferedWriter(gz, 1 << 20))


def write_simulation(out: str | Path, players: int, sessions: int, deals_per_session: int, seed: int,
                     mistakes: float = 0.0, workers: int = 1, ruleset: str = "slovenian",
                     options: Mapping[str, Any] | None = None) -> SimulationStats:
    """Write the simulated records to ``out`` (JSON Lines, gzip for ``.gz``) and their ground truth
    to ``truth_path(out)``; returns what was written and how long it took.  Arguments the simulator refuses
    raise ``ValueError`` before either file is created."""
    out = Path(out)
    truth = truth_path(out)
    if truth == out:
        raise ValueError(f"{out} would be overwritten by its own ground truth; choose another name")
    stats = SimulationStats(sessions=sessions)
    began = time.perf_counter()
    deals = simulate(players, sessions, deals_per_session, seed, mistakes, workers, ruleset, options)  # checks first
    with ExitStack() as stack:
        records = _open_output(out, stack)
        truths = stack.enter_context(truth.open("wb"))
        for record, lines in deals:
            records.write(orjson.dumps(record, option=_LINE))
            for line in lines:
                truths.write(orjson.dumps(line, option=_LINE))
            stats.add(record, lines)
    stats.seconds = time.perf_counter() - began
    return stats
