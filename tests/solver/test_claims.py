"""Claim adjudication (docs/penalties.md, "Claims": ``M_BAD_CLAIM`` when the claim could have been beaten."""

from __future__ import annotations

import random

from tarock.solver.claims import claim_findings, claim_is_sound
from tarock.engine import replay
from tarock.sim.randomplay import random_record
from tarock.formats.codec import deal_from_obj


def test_a_claim_before_the_last_trick_is_sound_exactly_when_the_last_trick_was_won() -> None:
    # With one card each left, the last trick is forced: a claim after trick 11 by the declarer is
    # sound exactly when the declarer's side took trick 12 in the full record.
    seen = set()
    for seed in range(40):
        record = random_record(random.Random(seed), 4, "tri")
        full = replay(deal_from_obj(record))
        if full.status == "error" or len(full.tricks) != 12:
            continue
        side = {full.declarer, full.partner}
        won_last = full.winners[-1] in side
        record["tricks"] = record["tricks"][:11]
        record["claim"] = {"player": record["declarer"], "after_trick": 11}
        claimed = replay(deal_from_obj(record))
        assert claim_is_sound(claimed) is won_last
        findings = claim_findings(claimed)
        assert [f.code for f in findings] == ([] if won_last else ["M_BAD_CLAIM"])
        seen.add(won_last)
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_no_claim_nothing_to_adjudicate() -> None:
    rp = replay(deal_from_obj(random_record(random.Random(1), 4, "tri")))
    assert claim_is_sound(rp) is None and claim_findings(rp) == []
