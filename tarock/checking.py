"""Check a stream of records: replay, score and audit each deal, and build its check object.

Shared by ``tarock check`` and ingest so that both say exactly the same
thing about a deal.  Deals of one session are scored in input order with a
radelci ledger per session (records of a session are expected in ``seq``
order; ``tarock score`` and ingest sort a session by ``seq`` first).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping

from tarock.audit import audit_scores
from tarock.engine import Replay, replay
from tarock.records import ReadItem
from tarock.scoring import ScoreResult
from tarock.sessions import SessionLedger
from tarock.summary import deal_summary, finding_dict, parse_error


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

    def check(self, item: ReadItem) -> dict[str, Any]:
        """The check object of one input item."""
        if item.deal is None:
            assert item.finding is not None
            return parse_error(item.finding)
        rp = replay(item.deal, self.overrides)
        summary = deal_summary(rp, item.file, item.line)
        return score_summary(summary, rp, self.score(rp))

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
