"""tarock: the rules library. Cards, rulesets, a validating replay engine, scoring and record formats.

It knows nothing of the store, polars or duckdb: those live downstream in ``ingest``, ``analysis`` and
``dashboards``.  The everyday entry points are available from the package itself (loaded when first
used, so ``import tarock.cards`` stays light)::

    import tarock
    for item in tarock.read_records("data/examples/seed_session.jsonl"):
        rp = tarock.replay(item.deal)
        print(rp.status, tarock.score_facts(rp.facts).scores)

docs/architecture.md maps the sub-packages.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"
ENGINE_VERSION = "5"
"""What a store generation was built by (``gen-v<ENGINE_VERSION>-…``, docs/store.md): raised when stored rows
change, so ``ingest --rescore`` rebuilds older stores.  2: the ``hands`` table (issue 25).  3: the slimmer
files (issue 22): ``deals.record`` stored packed, a hand's counts computed by the views (which read a
version-2 generation as well).  4: the child tables' files without ``deal_id`` and ``content_hash``, and
``record_packed`` version 2 (issue 22; the views read version-3 generations as well).  5: every stored copy
keyed by its record's place in the file, ``source_pos``, not its line (issue 35: a ``.json`` list on one line
joined every deal with every other's rows)."""

_ENTRY_POINTS = {
    "Deal": "tarock.deal",
    "Finding": "tarock.findings",
    "Game": "tarock.game",
    "replay": "tarock.engine",
    "Replay": "tarock.replay_state",
    "options_for": "tarock.options",
    "score_facts": "tarock.rules.rulesets",
    "loads": "tarock.formats.codec",
    "dumps": "tarock.formats.codec",
    "read_records": "tarock.formats.reader",
    "read_many": "tarock.formats.reader",
}
"""Public names and the modules that define them."""

__all__ = ["ENGINE_VERSION", "__version__", *_ENTRY_POINTS]


def __getattr__(name: str) -> Any:
    module = _ENTRY_POINTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tarock' has no attribute {name!r}")
    return getattr(import_module(module), name)
