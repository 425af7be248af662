"""Ingest's bulk path: a plain, clean Slovenian record straight to its rows, without a Deal or a check object.

Most records of a large ingest are plain (``tarock.formats.decode.plain_record``: complete, canonical,
no table events) and clean.  On the usual path such a record still becomes a
``Deal``, a ``Replay``, a score breakdown, a check object and then rows, a deal at a time; that was most
of ingest's time.  Here the decoded record goes to ingest's own C extension as it is
(``ingest/_bulkrows.c``: ``add_plain`` / ``add_clean``): the deal, king, talon exchange and play by the rules
kernel's ``run_lane`` (``tarock/accel/_fastplay.c``, reached through its capsule), its tricks appended to the
partition's buffer; the score from the compiled scorer with the radelci its session has reached,
``tarock.accel.scorer``; the score sheet compared; the ``deals`` and ``results`` values appended to the
partition's columns, ``ingest.rows.CleanRows`` -- all in one call.  A bidding is checked here and stored as
``bids`` rows; a deal with announcements is first replayed by the fast lane (``tarock.accel.lane``), whose
Python checks the announcements and kontras the scorer then reads.

The kernel and the scorer vouch only for what they can: a deal with anything to report, or options the
accelerator does not declare (``tarock.accel.declared``), is declined, and goes the usual way: read by
``tarock.formats.reader``, checked by ``tarock.check.checker.Checker``.  Both keep one radelci ledger per
session (``share_ledger``), so the deals of a session may take either path, in ``seq`` order.  The stored rows
are the same either way, which ``tests/ingest/test_ingest_bulk.py`` checks file by file.  Without the
compiled extensions (``ingest._bulkrows``, the kernel, the scorer) the bulk path is off and every record
goes the usual way.

What ``add_clean`` reads is laid out by name: its context by ``_bulkrows.CONTEXT_FIELDS``, built once
per contract, number of players and options (``BulkPath._spec``); its ``deals`` row by
``_bulkrows.DEAL_ROW``, which must be ``CleanRows.ROW``; the plain record's fields by ``Plain._fields``
(``_load``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ingest.rows import POS_INDEX, CleanRows, ShardRows, canonical_json, parse_date, source_pos
from tarock.cards import CODE_INDEX
from tarock.rules.rulesets import NO_DECLARER
from tarock import accel
from tarock.check.checker import Checker
from tarock.deal import EMPTY
from tarock.accel.lane import bidding_agrees, plan_for, replay_slovenian
from tarock.accel.scorer import extra_of, plan_of, prepared, roster_of
from tarock.options import OptionError, SlovenianOptions, options_for
from tarock.formats.decode import Plain, fast_deal, plain_record
from tarock.formats.items import ReaderLimits, ReadItem
from tarock.formats.reader import read_line
from tarock.rules.sessions import SessionLedger
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, Contract

RULESET = "slovenian"


def _load() -> ModuleType | None:
    """``ingest._bulkrows`` ready for plain records, or None: not built (or built against another kernel), or
    laid out otherwise than ``Plain`` and ``CleanRows`` (warned)."""
    try:
        from ingest import _bulkrows  # type: ignore[attr-defined]  # compiled: no stub
    except (ImportError, AttributeError):  # not built, or the kernel's capsule is missing or another's
        return None
    try:
        _bulkrows.init(Plain._fields)
    except (TypeError, ValueError) as exc:
        warnings.warn(f"ingest: the bulk path is off: {exc}", RuntimeWarning, stacklevel=2)
        return None
    if tuple(_bulkrows.DEAL_ROW) != CleanRows.ROW:
        warnings.warn("ingest: the bulk path is off: ingest._bulkrows writes a deals row other than "
                      "CleanRows.ROW (rebuild with `pip install -e .`)", RuntimeWarning, stacklevel=2)
        return None
    return _bulkrows


BULKROWS: ModuleType | None = _load()
"""Ingest's C extension of the bulk path (``ingest/_bulkrows.c``), or None: then the bulk path is off."""


class BulkPath:
    """The bulk path of one shard: takes plain records as they are read, then adds the clean ones' rows.

    ``for_shard`` gives None where there is no bulk path (no compiled kernel, scorer or ``ingest._bulkrows``,
    or overrides that are not valid options).
    """

    def __init__(self, rows: ShardRows, file: str, abspath: str, limits: ReaderLimits,
                 overrides: Mapping[str, Any], kernel: Any, score: Callable[..., Any],
                 default: SlovenianOptions, bulkrows: ModuleType) -> None:
        self.rows = rows
        self.file = file
        self.abspath = abspath
        self.limits = limits
        self.overrides = overrides
        self.kernel = kernel
        """The rules kernel (``tarock.accel.KERNEL``): the fast lane of a deal with announcements."""
        self.score = score
        self.default = default
        self._add_plain: Callable[..., bool | None] = bulkrows.add_plain
        self._add_clean: Callable[..., bool] = bulkrows.add_clean
        self._context_fields: tuple[str, ...] = bulkrows.CONTEXT_FIELDS
        self.ledgers: dict[str, dict[str, int]] = {}
        """Radelci per player name of every session the bulk path has scored deals of (the very dict of the
        checker's ledger for a session whose deals took both paths: ``share_ledger``)."""
        self._added = rows.added_positions
        self._default_specs: dict[tuple[str, int], _Spec] = {}
        """By contract and number of players, under the default options (with the overrides)."""
        self._specs: dict[tuple[str, int, int], _Spec] = {}
        """By contract, number of players and the options' identity (checked: ``_Spec.options``)."""
        self._rosters: dict[tuple[str, ...], tuple[bytes, ...] | None] = {}
        self._default_contexts: dict[tuple[str, int], tuple[Any, ...]] = {}
        """The ``add_clean`` contexts of the default specs, for ``add_plain``."""
        self._default_options_json = rows.effective_options(RULESET, EMPTY)

    @classmethod
    def for_shard(cls, rows: ShardRows, file: str, abspath: str, limits: ReaderLimits,
                  overrides: Mapping[str, Any]) -> BulkPath | None:
        kernel, score = accel.KERNEL, prepared()
        if kernel is None or score is None or BULKROWS is None:
            return None
        try:
            default = options_for(RULESET, None, overrides)
        except OptionError:
            return None
        return cls(rows, file, abspath, limits, overrides, kernel, score, default,  # type: ignore[arg-type]
                   BULKROWS)

    def new_batch(self) -> None:
        """Start adding to the new partitions of ``rows`` (after ``ShardRows.take_batch``); the radelci
        ledgers go on."""
        self._default_specs.clear()
        self._specs.clear()
        self._default_contexts.clear()

    @staticmethod
    def take(line: int, data: bytes, index: int = 0) -> Plain | None:
        """The record of a line when it is plain (``records.read_records``'s ``take``), else None; ``index``:
        its place among the records starting on that line (``ingest.rows.source_pos``)."""
        return plain_record(line, data, source_pos(line, index))

    def item(self, plain: Plain) -> ReadItem:
        """A declined record read the usual way."""
        item = read_line(self.abspath, plain.line, plain.data, self.limits, canonical_text=True)
        return ReadItem(self.file, item.line, item.deal, item.finding, item.raw, item.text,
                        plain.pos & POS_INDEX)

    def share_ledger(self, session: str, checker: Checker) -> None:
        """Make the bulk path and ``checker`` keep one radelci ledger for ``session``, whoever scores its
        next deal: called before ``checker`` checks a deal of it."""
        radelci = self.ledgers.get(session)
        ledger = checker.ledgers.get(session)
        if ledger is None:
            checker.ledgers[session] = ledger = SessionLedger(radelci={} if radelci is None else radelci)
        self.ledgers[session] = ledger.radelci

    def add(self, plain: Plain) -> bool:
        """Replay, score and add the rows of a clean deal; False (nothing added) when it is not one."""
        added = self._add_plain(plain, self._default_contexts, self._rosters, self._default_options_json)
        if added is not None:  # the usual case, found in one call: default options, no bidding, a known roster
            return added
        r = plain.record
        players = plain.players
        raw = r.options
        if raw is None:
            options, texts = self.default, self._default_options_json
            spec = self._default_specs.get((r.contract, len(players)))
            if spec is None:
                spec = self._spec(r.contract, len(players), options, True)
        else:
            try:
                resolved = options_for(RULESET, raw, self.overrides)
            except OptionError:
                return False
            if not isinstance(resolved, SlovenianOptions):
                return False
            options = resolved
            texts = self.rows.effective_options(RULESET, raw)
            spec = self._specs.get((r.contract, len(players), id(options)))
            if spec is None or spec.options is not options:
                spec = self._spec(r.contract, len(players), options, False)
        roster = self._rosters.get(players) or self._roster(players)
        if spec.context is None or roster is None:
            return False
        bids = None if r.bidding is None else tuple(r.bidding)
        extra = announced = None
        if r.announcements:  # valid announcements are the Python engine's to say: the fast lane's replay
            deal = fast_deal(plain.data)
            replayed = None if deal is None else replay_slovenian(deal, options, self.kernel)
            if replayed is None or replayed.facts is None:
                return False
            extra = extra_of(replayed.facts.announced, replayed.facts.kontra)
            if extra is None:
                return False
            announced = deal.announcements  # type: ignore[union-attr]
        elif bids is not None:
            declarers = (players.index(r.declarer),) if spec.contract.has_declarer and r.declarer is not None else ()
            if not bidding_agrees(bids, players, spec.contract, declarers, spec.options):
                return False
        if not self._add_clean(plain, spec.context, roster, texts, extra):
            return False
        deal_index = len(spec.part.deals) - 1
        if bids is not None:
            spec.part.bids.extend([(deal_index, idx, player, bid) for idx, (player, bid) in enumerate(bids)])
        if announced:
            spec.part.announcements.extend([(deal_index, idx, a.player, a.bonus, a.kontra, a.level, a.against)
                                            for idx, a in enumerate(announced)])
        return True

    def _spec(self, contract: str, n: int, options: SlovenianOptions, default: bool) -> _Spec:
        """How to add deals of a contract under these options, for ``add``: ``_Spec.context`` holds what
        ``_bulkrows.add_clean`` reads, in the order of the names it gives (``CONTEXT_FIELDS``)."""
        c = CONTRACTS[contract]
        plan = plan_for(contract, options)  # None: options the accelerator does not declare
        score_plan = None if plan is None or (c.four_players_only and n == 3) else plan_of(contract, options)
        context = None
        part = self.rows.clean_part(RULESET, n, self.file)
        if plan is not None and score_plan is not None:
            values: dict[str, Any] = {
                "per_hand": CARDS_PER_HAND[n], "has_declarer": c.has_declarer,
                "declarer_leads": c.declarer_leads, "calls_king": c.calls_king and n == 4,
                "lane_plan": plan.kernel_plan, "scorer": self.score, "scorer_plan": score_plan,
                "zeros": (0,) * n, "nones": (None,) * n, "roles": _roles(n, c.name in NO_DECLARER),
                "ledgers": self.ledgers, "added": self._added, "parse_date": parse_date,
                "klop_card_points_json": _klop_points, "card_points_json": _CARD_POINTS, "card_index": CODE_INDEX,
                **part.columns(),
            }
            missing = [name for name in self._context_fields if name not in values]
            if missing:
                raise LookupError(f"ingest._bulkrows reads {', '.join(missing)}, which ingest.bulk does not "
                                  "give")
            context = tuple(values[name] for name in self._context_fields)
        spec = _Spec(options, context, c, part)
        if default:
            self._default_specs[contract, n] = spec
            if context is not None:
                self._default_contexts[contract, n] = context
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


@dataclass(frozen=True, slots=True)
class _Spec:
    """What adding a deal of one contract, number of players and options needs: worked out once."""

    options: SlovenianOptions
    context: tuple[Any, ...] | None
    """``_bulkrows.add_clean``'s context; None when the accelerator does not declare the options, the
    compiled scorer has no plan for these, or the contract is not played by this many players (the usual
    path says so)."""
    contract: Contract
    part: CleanRows


def _roles(n: int, everyone_alone: bool) -> tuple[tuple[str | None, ...], ...]:
    """Each seat's role (``results.role``), as ``ingest.rows`` derives it from a check object, by (declarer
    seat + 1) * 5 + partner seat + 1 (-1: none), for every pair of seats (``_bulkrows.add_clean`` reads
    it)."""
    table = []
    for seat in range(-1, 4):
        for partner in range(-1, 4):
            if seat < 0:
                table.append(("klop",) * n if everyone_alone else (None,) * n)
            else:
                table.append(tuple("declarer" if s == seat else "partner" if s == partner else "opponent"
                                   for s in range(n)))
    return tuple(table)


def _klop_points(players: tuple[str, ...], points: tuple[int, ...]) -> str:
    """``card_points_json`` of a Klop: each player's points, by name."""
    return canonical_json(dict(zip(players, points)))


_CARD_POINTS = [[canonical_json({"declarer_side": ours, "opponents": theirs}) for theirs in range(71)]
                for ours in range(71)]
"""``card_points_json`` of a deal with a declarer, by the two sides' card points (0 to 70 each)."""
