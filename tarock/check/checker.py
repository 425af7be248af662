"""Check a stream of records: replay, score and audit each deal, and build its check object.

Shared by ``tarock check`` and ingest so that both say exactly the same
thing about a deal.  Deals of one session are scored in input order with a
radelci ledger per session (records of a session are expected in ``seq``
order; ``tarock score`` and ingest sort a session by ``seq`` first).  Sheet-only
records (a score sheet's hands, ``tarock import sheet``) are not scored: their
recorded figures are the scores, and the sheet audit checks their arithmetic.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Mapping

from tarock.check.audit import audit_scores
from tarock.engine import Replay, replay
from tarock.formats.items import ReadItem
from tarock.rules.slovenian.scoring import ScoreResult
from tarock.rules.sessions import SessionLedger
from tarock.formats.sheet_csv import SheetAuditor, SheetError, deal_to_row
from tarock.check.summary import deal_summary, finding_dict, parse_error


def score_summary(summary: dict[str, Any], rp: Replay, result: ScoreResult | None) -> dict[str, Any]:
    """Add the scores, breakdown, radelci and audit findings of a deal to its check object."""
    deal = rp.deal
    if result is None:
        summary.update(scores=None, breakdown=None, radelci_before=None, radelci_after=None,
                       won=None, penalty=None, unpenalised=None)
    else:
        summary.update(
            scores=dict(result.scores),
            breakdown=[{"players": list(line.players), "component": line.component, "detail": line.detail,
                        "value": line.value} for line in result.lines],
            radelci_before=dict(result.radelci_before),
            radelci_after=dict(result.radelci_after),
            won=result.won,
            penalty=result.policy,
            unpenalised=result.unpenalised,
        )
        if deal.recorded is not None:
            for f in audit_scores(deal.recorded, result, deal.players):
                summary["findings"].append(finding_dict(f, summary["file"], summary["line"]))
    summary["recorded"] = None if deal.recorded is None else dict(deal.recorded.scores)
    return summary


class Checker:
    """Replays and scores deals one by one, keeping one radelci ledger per session."""

    def __init__(self, overrides: Mapping[str, Any] | None = None) -> None:
        self.overrides = overrides
        self.ledgers: dict[str, SessionLedger] = {}
        self.auditors: dict[str, SheetAuditor] = {}

    def check(self, item: ReadItem) -> dict[str, Any]:
        """The check object of one input item."""
        if item.deal is None:
            assert item.finding is not None
            return parse_error(item.finding)
        rp = replay(item.deal, self.overrides)
        summary = deal_summary(rp, item.file, item.line)
        if rp.sheet_only:
            return self.sheet_summary(summary, rp)
        return score_summary(summary, rp, self.score(rp))

    def sheet_summary(self, summary: dict[str, Any], rp: Replay) -> dict[str, Any]:
        """A sheet-only deal's check object: the recorded figures as its scores, and the sheet audit.

        Nothing is recomputed (``breakdown`` null); the sheet's arithmetic is audited row by row
        (``tarock.formats.sheet_csv.SheetAuditor``, one state per session) into ``A_SCORE_MISMATCH`` findings.
        """
        deal = rp.deal
        recorded = deal.recorded
        ok = rp.status != "error" and recorded is not None
        summary.update(
            scores={p: recorded.scores.get(p, 0) for p in deal.players} if ok else None,  # type: ignore[union-attr]
            breakdown=None, radelci_before=None,
            radelci_after=dict(recorded.radelci) if ok and recorded.radelci is not None else None,  # type: ignore[union-attr]
            won=rp.won if rp.status != "error" else None, penalty=None, unpenalised=None,
            recorded=None if recorded is None else dict(recorded.scores), sheet_only=True,
        )
        auditor = self._auditor(deal.ruleset, deal.options) if ok else None
        if auditor is not None:
            for f in auditor.audit(deal_to_row(deal)):
                summary["findings"].append(finding_dict(f, summary["file"], summary["line"]))
        return summary

    def _auditor(self, ruleset: str, options: Mapping[str, Any]) -> SheetAuditor | None:
        """The sheet auditor for these options (slovenian only: sheets are audited by its rules)."""
        if ruleset != "slovenian":
            return None
        merged = {**options, **(self.overrides or {})}
        key = json.dumps(merged, sort_keys=True, default=str)
        auditor = self.auditors.get(key)
        if auditor is None:
            try:
                auditor = self.auditors[key] = SheetAuditor(merged)
            except SheetError:
                return None
        return auditor

    def score(self, rp: Replay) -> ScoreResult | None:
        """Score a replayed deal with its session's radelci (None for a deal in error)."""
        if rp.facts is None:
            return None
        session = rp.deal.session
        ledger = SessionLedger() if session is None else self.ledgers.setdefault(session, SessionLedger())
        return ledger.apply(rp.facts)


def check_items(items: Iterable[ReadItem], overrides: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """One check object per input item, in input order."""
    checker = Checker(overrides)
    for item in items:
        yield checker.check(item)
