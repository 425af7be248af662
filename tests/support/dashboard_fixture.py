"""The small store the dashboard tests open: hand-chosen example records, ingested like ``tarock ingest``.

Ten deals, all with the players Ana, Boris, Cilka and David, and two rejected lines:

* ``seed_session.jsonl`` — the worked session of the rules (docs/rules.md), four deals of session
  ``seed-004`` dated 2026-01-01..04: Ena (Cilka, won), Berač (Boris, won), Solo tri (Cilka,
  won), Dva (David, lost);
* ``r_follow_suit.json`` — ``example-r_follow_suit`` (Dva by Cilka, lost; Boris's R_FOLLOW_SUIT
  in trick 1) and its clean twin ``example-r_follow_suit-ok`` (lost);
* ``r_stash.json`` — ``example-r_stash`` (Dva by Cilka, won; Cilka's R_STASH: a king laid away)
  and ``example-r_stash-ok`` (won);
* ``e_parse.jsonl`` — two lines that are not records (rejects) and ``example-seed-pik10-trick``
  (Tri by Ana, lost);
* ``disputed.json`` — made here: seed deal 1 outside its session as ``disputed-1`` (still dated
  2026-01-01), its score sheet saying +30 for Ana where the cards give +40 (one A_SCORE_MISMATCH).

Only the seed deals and ``disputed-1`` have a date; only the seed deals a session.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson

from ingest.commands import ingest
from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
FILES = ("seed_session.jsonl", "findings/r_follow_suit.json", "findings/r_stash.json", "findings/e_parse.jsonl")


def disputed_record() -> dict[str, object]:
    """Seed deal 1 on its own, with a score sheet that wrote +30 for Ana (the cards give +40)."""
    first = orjson.loads((EXAMPLES / "seed_session.jsonl").read_bytes().splitlines()[0])
    for key in ("session", "seq"):
        first.pop(key)
    return {**first, "id": "disputed-1", "recorded": {"scores": {"Ana": 30, "Cilka": 40}}}


def build_store(root: Path) -> Path:
    """Ingest the fixture records into ``root/store`` (the inputs are copied to ``root/in``); the store path."""
    inputs = root / "in"
    inputs.mkdir(parents=True)
    for name in FILES:
        shutil.copy(EXAMPLES / name, inputs / Path(name).name)
    (inputs / "disputed.json").write_bytes(orjson.dumps(disputed_record()))
    store = root / "store"
    summary = ingest([inputs], store, executor="local:1", quiet=True)
    assert (summary.stored, summary.rejected, summary.failed) == (10, 2, [])
    return store
