"""What an ingest is configured with, and the store generation that configuration scores into.

Everything that changes what the store would hold for the same input is
here: the ruleset option overrides and the reader limits (with the engine
version they make up the *generation*).  A store holds one generation at a
time for readers; ingesting under other options needs ``--rescore``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ingest.rows import canonical_json, short_hash
from tarock import ENGINE_VERSION
from tarock.formats.items import ReaderLimits
from tarock.options import SCOPE


@dataclass(frozen=True, slots=True)
class IngestOptions:
    """Ruleset option overrides (``KEY=VALUE`` as given, on top of each record's options) and reader limits."""

    ruleset_options: tuple[tuple[str, Any], ...] = ()
    limits: ReaderLimits = field(default_factory=ReaderLimits)

    @classmethod
    def make(cls, ruleset_options: Mapping[str, Any] | None = None,
             limits: ReaderLimits | None = None) -> IngestOptions:
        """The configuration of these overrides and limits.  Overrides that only name a ruleset (``SCOPE``, a
        ruleset's defaults as a rules table: ``--rules slovenian``) change nothing, so they are no overrides and
        score into the same generation as none."""
        overrides = dict(ruleset_options or {})
        if overrides.keys() == {SCOPE}:
            overrides = {}
        return cls(tuple(sorted(overrides.items())), limits or ReaderLimits())

    @property
    def overrides(self) -> dict[str, Any]:
        return dict(self.ruleset_options)

    @property
    def options_json(self) -> str:
        """The configuration as canonical JSON (stored in ``ingest_runs`` and every shard marker)."""
        return canonical_json({"ruleset_options": self.overrides, "limits": asdict(self.limits)})

    @property
    def options_hash(self) -> str:
        return short_hash(self.options_json)

    @property
    def generation(self) -> str:
        """The store generation this configuration scores into: engine version and options hash."""
        version = re.sub(r"[^A-Za-z0-9._-]", "_", ENGINE_VERSION)
        return f"gen-v{version}-{self.options_hash}"
