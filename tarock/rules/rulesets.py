"""The rulesets side by side: what the layers above the engine need of each.

Sessions score a deal of either ruleset with ``score_facts``; audits and
reports name rulesets with ``ruleset_label`` and contracts with ``contract_label``; the store keeps one column
per breakdown component of any ruleset (``ALL_COMPONENTS``).
"""

from __future__ import annotations

from typing import Mapping

from tarock.rules.koenigrufen import contracts as koenigrufen
from tarock.rules.slovenian import scoring
from tarock.rules.koenigrufen import scoring as scoring_koenigrufen
from tarock.rules.slovenian import contracts as slovenian
from tarock.facts import AnyFacts, KoenigrufenFacts
from tarock.rules.slovenian.scoring import ScoreResult

COMPONENTS: Mapping[str, tuple[str, ...]] = {
    "slovenian": scoring.COMPONENTS,
    "koenigrufen": scoring_koenigrufen.COMPONENTS,
}
"""Each ruleset's breakdown components, in breakdown order."""

ALL_COMPONENTS: tuple[str, ...] = tuple(dict.fromkeys(c for names in COMPONENTS.values() for c in names))
"""Every breakdown component of any ruleset (slovenian's first, then Königrufen's own)."""

_LABELS: Mapping[str, str] = {
    **{c.name: c.label for c in slovenian.CONTRACTS.values()},
    **{c.name: c.label for c in koenigrufen.CONTRACTS.values()},
}


NO_DECLARER: frozenset[str] = frozenset(
    c.name for table in (slovenian.CONTRACTS, koenigrufen.CONTRACTS) for c in table.values() if not c.has_declarer)
"""Contracts every player plays for himself (Klop, Trischaken): reported apart from declared games."""

SEATS: Mapping[int, tuple[str, ...]] = {3: ("forehand", "second", "dealer"),
                                        4: ("forehand", "second", "third", "dealer")}
"""Seat names by number of players, forehand first, the dealer last."""


_RULESET_LABELS: Mapping[str, str] = {"slovenian": "Slovenian", "koenigrufen": "Königrufen"}


def ruleset_label(ruleset: str) -> str:
    """How a ruleset is named for people ("Königrufen"); its id (``koenigrufen``) stays in the store, JSON and
    CSV, and on the command line."""
    return _RULESET_LABELS.get(ruleset, ruleset)


def contract_label(contract: str) -> str:
    """How a contract of either ruleset is named in a sentence (contract names never clash)."""
    return _LABELS.get(contract, contract)


def score_facts(facts: AnyFacts, radelci_before: Mapping[str, int] | None = None) -> ScoreResult:
    """Score one deal of either ruleset from its facts and the radelci the players hold."""
    if isinstance(facts, KoenigrufenFacts):
        return scoring_koenigrufen.score_deal(facts, radelci_before)
    return scoring.score_deal(facts, radelci_before)
