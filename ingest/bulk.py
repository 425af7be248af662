"""Ingest's bulk path: a plain, clean Slovenian record straight to its rows, without a Deal or a check object.

Most records of a large ingest are plain (``tarock.record_decode.plain_record``: complete, canonical,
no bidding, announcements or table events) and clean.  On the usual path such a record still becomes a
``Deal``, a ``Replay``, a score breakdown, a check object and then rows, a deal at a time; that was most
of ingest's time.  Here the decoded record goes to the C kernel as it is (``lane_rows``: the deal, king,
talon exchange, play and scoring facts in one call, its tricks appended to the partition's buffer), then
to the compiled scorer with the radelci its session has reached (``tarock.fast_score``), and its
``deals`` and ``results`` rows are made directly (``ingest.rows.CleanRows``).

The kernel and the scorer vouch only for what they can: a deal with anything to report, or an option
they do not handle, is declined.  A declined record, and every later deal of its session (their radelci
follow from it), go the usual way: read by ``tarock.records``, checked by ``tarock.checking.Checker``,
whose ledger for the session starts from the radelci the bulk path had reached.  The stored rows are the
same either way, which ``tests/test_ingest_bulk.py`` checks table by table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ingest.rows import NO_DECLARER, CleanRows, ShardRows, canonical_json, parse_date
from tarock import ENGINE_VERSION, accel
from tarock.cards import TAROK_MASK
from tarock.checking import Checker
from tarock.deal import EMPTY
from tarock.fast_lane import plan_for
from tarock.fast_score import plan_of, prepared, roster_of
from tarock.options import OptionError, SlovenianOptions, options_for
from tarock.record_decode import Plain, plain_record
from tarock.records import ReaderLimits, ReadItem, read_line
from tarock.sessions import SessionLedger
from tarock.slovenian import CARDS_PER_HAND

RULESET = "slovenian"


class BulkPath:
    """The bulk path of one shard: takes plain records as they are read, then adds the clean ones' rows.

    ``for_shard`` gives None where there is no bulk path (no compiled kernel or scorer, or overrides
    that are not valid options).
    """

    def __init__(self, rows: ShardRows, file: str, abspath: str, limits: ReaderLimits,
                 overrides: Mapping[str, Any], kernel: Any, score: Callable[..., Any],
                 default: SlovenianOptions) -> None:
        self.rows = rows
        self.file = file
        self.abspath = abspath
        self.limits = limits
        self.overrides = overrides
        self.kernel = kernel
        self.score = score
        self.default = default
        self.ledgers: dict[str, dict[str, int]] = {}
        """Radelci per player name of every session the bulk path has scored deals of."""
        self.shard_key = rows.shard_key
        self._added = rows.added
        self._default_specs: dict[tuple[str, int], _Spec] = {}
        """By contract and number of players, under the default options (with the overrides)."""
        self._specs: dict[tuple[str, int, int], _Spec] = {}
        """By contract, number of players and the options' identity (checked: ``_Spec.options``)."""
        self._rosters: dict[tuple[str, ...], tuple[bytes, ...] | None] = {}
        self._default_options_json = rows.effective_options(RULESET, EMPTY)

    @classmethod
    def for_shard(cls, rows: ShardRows, file: str, abspath: str, limits: ReaderLimits,
                  overrides: Mapping[str, Any]) -> BulkPath | None:
        kernel, score = accel.KERNEL, prepared()
        if kernel is None or score is None:
            return None
        try:
            default = options_for(RULESET, None, overrides)
        except OptionError:
            return None
        return cls(rows, file, abspath, limits, overrides, kernel, score, default)  # type: ignore[arg-type]

    take = staticmethod(plain_record)
    """The record of a line when it is plain (``records.read_records``'s ``take``), else None."""

    def item(self, plain: Plain) -> ReadItem:
        """A declined record read the usual way."""
        item = read_line(self.abspath, plain.line, plain.data, self.limits, canonical_text=True)
        return ReadItem(self.file, item.line, item.deal, item.finding, item.raw, item.text)

    def hand_over(self, session: str, checker: Checker) -> None:
        """Give ``checker`` the session's radelci so far: the rest of the session is checked the usual way."""
        radelci = self.ledgers.pop(session, None)
        if radelci is not None:
            checker.ledgers[session] = SessionLedger(radelci=radelci)

    def add(self, plain: Plain) -> bool:
        """Replay, score and add the rows of a clean deal; False (nothing added) when it is not one."""
        r = plain.record
        players = plain.players
        raw = r.options
        if raw is None:
            options, texts = self.default, self._default_options_json
            spec = self._default_specs.get((r.contract, len(players)))
        else:
            try:
                options = options_for(RULESET, raw, self.overrides)
            except OptionError:
                return False
            texts = self.rows.effective_options(RULESET, raw)
            spec = self._specs.get((r.contract, len(players), id(options)))
            if spec is not None and spec.options is not options:
                spec = None
        if spec is None:
            spec = self._spec(r.contract, len(players), options, raw is None)
        roster = self._rosters.get(players) or self._roster(players)
        if spec.plan is None or roster is None:
            return False
        declarer = r.declarer
        if spec.has_declarer:
            if declarer is None:
                return False
            seat = players.index(declarer)  # type: ignore[arg-type]
        elif declarer is not None:
            return False
        else:
            seat = -1
        part = spec.part
        tricks, lines = part.trick_bytes, part.component_bytes
        sizes = len(tricks), len(lines)
        try:
            lane = self.kernel.lane_rows(
                list(map(r.hands.__getitem__, players)), r.talon, r.tricks, None, players,  # type: ignore[union-attr]
                spec.per_hand, seat, seat if spec.declarer_leads else 0, spec.calls_king, r.called_king,
                r.talon_pick, r.stash, spec.klop, TAROK_MASK, spec.play_rules, spec.outcome_rules, tricks)
            if lane is None:
                return False
            partner, facts, n_tricks = lane
            session = r.session
            ledger = None if session is None else self.ledgers.get(session)  # type: ignore[arg-type]
            before = tuple(map(ledger.get, players, spec.zeros)) if ledger else spec.zeros
            scored = self.score(spec.plan, roster, None if seat < 0 else seat, None if partner < 0 else partner,
                                facts, before, len(part.deals) * spec.n, lines, None)
            if scored is None:
                del tricks[sizes[0]:]
                return False
            won, scores, after, breakdown = scored
            if spec.klop:
                declarer_points = opponents_points = None
                card_points = canonical_json(dict(zip(players, facts[0])))
            else:
                declarer_points, opponents_points = facts[0], facts[1]
                card_points = _CARD_POINTS[declarer_points][opponents_points]
            part.add((
                plain.deal_id, plain.digest, self.file, plain.line, self.shard_key, players, session, r.seq,
                parse_date(r.date), players[-1], players[0], r.contract, declarer,
                None if partner < 0 else players[partner], r.called_king, "ok", won, declarer_points,
                opponents_points, card_points, n_tricks, 0, 0, False, False, texts[1], texts[0], ENGINE_VERSION,
                plain.text,  # bytes: Arrow takes UTF-8 for a string column (msgspec wrote it)
            ), players, spec.roles(seat, partner), scores, before, after, breakdown)
        except BaseException:
            del tricks[sizes[0]:], lines[sizes[1]:]
            raise
        self._added(plain.line)
        if session is not None:
            if ledger is None:
                ledger = self.ledgers[session] = {}  # type: ignore[index]
            ledger.update(zip(players, after))
        return True

    def _spec(self, contract: str, n: int, options: SlovenianOptions, default: bool) -> _Spec:
        plan = plan_for(contract, options)
        c = plan.contract
        available = not (c.four_players_only and n == 3)
        spec = _Spec(options, self.rows.clean_part(RULESET, n), plan_of(contract, options) if available else None,
                     c.has_declarer, c.declarer_leads, c.calls_king and n == 4, CARDS_PER_HAND[n], plan.klop,
                     plan.play_rules, plan.outcome_rules, (None,) * n, (0,) * n, n, c.name in NO_DECLARER, {})
        if default:
            self._default_specs[contract, n] = spec
        else:
            if len(self._specs) >= 4096:
                self._specs.clear()
            self._specs[contract, n, id(options)] = spec
        return spec

    def _roster(self, players: tuple[str, ...]) -> tuple[bytes, ...] | None:
        roster = roster_of(players)
        if len(self._rosters) >= 4096:
            self._rosters.clear()
        self._rosters[players] = roster
        return roster


@dataclass(slots=True)
class _Spec:
    """What adding a deal of one contract, number of players and options needs: worked out once."""

    options: SlovenianOptions
    part: CleanRows
    plan: tuple[Any, ...] | None
    """The compiled scorer's plan (``tarock.fast_score.plan_of``); None when it has none, or the contract is
    not played by this many players (the usual path says so)."""
    has_declarer: bool
    declarer_leads: bool
    calls_king: bool
    per_hand: int
    klop: bool
    play_rules: tuple[Any, ...]
    outcome_rules: tuple[Any, ...]
    none: tuple[None, ...]
    zeros: tuple[int, ...]
    n: int
    everyone_alone: bool
    """Klop: every player's role is ``klop``."""
    known_roles: dict[tuple[int, int], tuple[str | None, ...]]

    def roles(self, seat: int, partner: int) -> tuple[str | None, ...]:
        """Each seat's role (``results.role``), as ``ingest.rows`` derives it from a check object."""
        roles = self.known_roles.get((seat, partner))
        if roles is None:
            if seat < 0:
                roles = ("klop",) * self.n if self.everyone_alone else self.none
            else:
                roles = tuple("declarer" if s == seat else "partner" if s == partner else "opponent"
                              for s in range(self.n))
            self.known_roles[seat, partner] = roles
        return roles


_CARD_POINTS = [[canonical_json({"declarer_side": ours, "opponents": theirs}) for theirs in range(71)]
                for ours in range(71)]
"""``card_points_json`` of a deal with a declarer, by the two sides' card points (0 to 70 each)."""
