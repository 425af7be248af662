"""Check a stream of records: replay each deal and build its check object.

Shared by ``tarock check`` and ingest so that both say exactly the same
thing about a deal.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping

from tarock.engine import replay
from tarock.records import ReadItem
from tarock.summary import deal_summary, parse_error


def check_items(items: Iterable[ReadItem], overrides: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """One check object per input item, in input order."""
    for item in items:
        if item.deal is None:
            assert item.finding is not None
            yield parse_error(item.finding)
            continue
        rp = replay(item.deal, overrides)
        yield deal_summary(rp, item.file, item.line)
