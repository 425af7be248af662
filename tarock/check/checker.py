"""Check a stream of records: replay, score and audit each deal, and build its check result
(``tarock.check.result``).

Shared by ``tarock check`` and ingest so that both say exactly the same
thing about a deal.  Deals of one session are scored in the order given with a
radelci ledger per session; ``tarock.check.sessions`` (the session model every
command uses) gives them in ``seq`` order, each copy once.  Sheet-only
records (a score sheet's hands, ``tarock import sheet``) are not scored: their
recorded figures are the scores, and the sheet audit checks their arithmetic.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Mapping

from msgspec.structs import replace

from tarock.check.audit import audit_scores
from tarock.check.result import BreakdownLine, CheckResult, DealCheck, located
from tarock.deal import Deal
from tarock.engine import Replay, replay
from tarock.findings import Finding
from tarock.formats.items import ReadItem
from tarock.rules.slovenian.scoring import ScoreResult
from tarock.rules.sessions import SessionLedger
from tarock.formats.sheet_csv import SheetAuditor, SheetError, deal_to_rows
from tarock.check.summary import deal_summary, parse_error


def score_summary(summary: DealCheck, rp: Replay, result: ScoreResult | None) -> DealCheck:
    """A deal's check result with its scores, breakdown, radelci and audit findings added."""
    recorded = rp.deal.recorded
    recorded_scores = None if recorded is None else dict(recorded.scores)
    if result is None:
        return replace(summary, recorded=recorded_scores)
    findings = summary.findings
    if recorded is not None:
        audit = audit_scores(recorded, result, rp.deal.players)
        if audit:
            findings = findings + [located(f, summary.file, summary.line) for f in audit]
    return replace(
        summary,
        findings=findings,
        scores=dict(result.scores),
        breakdown=[BreakdownLine(list(line.players), line.component, line.detail, line.value)
                   for line in result.lines],
        radelci_before=dict(result.radelci_before),
        radelci_after=dict(result.radelci_after),
        won=result.won,
        penalty=result.policy,
        unpenalised=result.unpenalised,
        recorded=recorded_scores,
    )


class Checker:
    """Replays and scores deals one by one, keeping one radelci ledger per session."""

    def __init__(self, overrides: Mapping[str, Any] | None = None) -> None:
        self.overrides = overrides
        self.ledgers: dict[str, SessionLedger] = {}
        self.auditors: dict[str, SheetAuditor] = {}

    def check(self, item: ReadItem) -> CheckResult:
        """The check result of one input item."""
        if item.deal is None:
            assert item.finding is not None
            return parse_error(item.finding)
        return self.check_deal(item.deal, item.file, item.line)

    def check_deal(self, deal: Deal, file: str | None, line: int | None) -> DealCheck:
        """The check result of a deal read from ``file`` at ``line``."""
        rp = replay(deal, self.overrides)
        summary = deal_summary(rp, file, line)
        if rp.sheet_only:
            return self.sheet_summary(summary, rp)
        return score_summary(summary, rp, self.score(rp))

    def sheet_summary(self, summary: DealCheck, rp: Replay) -> DealCheck:
        """A sheet-only deal's check result: the recorded figures as its scores, and the sheet audit.

        Nothing is recomputed (``breakdown`` null); the sheet's arithmetic is audited row by row
        (``tarock.formats.sheet_csv.SheetAuditor``, one state per session) into ``A_SCORE_MISMATCH`` findings.
        """
        deal = rp.deal
        recorded = deal.recorded
        scores = radelci_after = None
        findings = summary.findings
        if rp.status != "error" and recorded is not None:
            scores = {p: recorded.scores.get(p, 0) for p in deal.players}
            radelci_after = None if recorded.radelci is None else dict(recorded.radelci)
            auditor = self._auditor(deal.ruleset, deal.options)
            if auditor is not None:
                audit: list[Finding] = []
                for row in deal_to_rows(deal):  # the hand, then the totals written under it
                    found = auditor.audit(row)
                    audit = [f for f in audit if f not in auditor.withdrawn] + found
                if audit:
                    findings = findings + [located(f, summary.file, summary.line) for f in audit]
        return replace(
            summary, findings=findings, scores=scores, breakdown=None, radelci_before=None,
            radelci_after=radelci_after, won=rp.won if rp.status != "error" else None, penalty=None,
            unpenalised=None, recorded=None if recorded is None else dict(recorded.scores), sheet_only=True,
        )

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


def check_items(items: Iterable[ReadItem],
                overrides: Mapping[str, Any] | None = None) -> Iterator[CheckResult]:
    """One check result per input item, in input order."""
    checker = Checker(overrides)
    for item in items:
        yield checker.check(item)
