"""SQL pieces with their bound parameters, and the one way the questions run a query.

A ``Fragment`` is SQL text plus the named parameters (``$name``) it uses.
Templates are filled with fragments by name, and the parameters of the
fragments used are merged: exactly those are bound, since DuckDB rejects
a parameter the query does not use.  Only fixed SQL (whitelisted column
expressions, the helpers' own text) is ever formatted into a query; every
value — filters, search terms, limits, vocabulary lists — is a parameter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from string import Formatter
from typing import TYPE_CHECKING, Any

import polars as pl

from ingest.store import COPY_KEY

if TYPE_CHECKING:
    from analysis.store import Store


@dataclass(frozen=True, slots=True)
class Fragment:
    """A piece of SQL and the named parameters it binds."""

    sql: str
    params: dict[str, Any] = field(default_factory=dict)

    def __and__(self, other: Fragment) -> Fragment:
        """Both conditions (a plain ``TRUE`` is dropped)."""
        if self == TRUE:
            return other
        if other == TRUE:
            return self
        return Fragment(f"({self.sql}) AND ({other.sql})", {**self.params, **other.params})


TRUE = Fragment("TRUE")


def same_copy(a: str, b: str) -> str:
    """The join condition of two per-deal tables' rows of the same stored copy (``ingest.store.COPY_KEY``).

    The queries join a child table's key-only view (``stored.results`` …, ``ingest.store.STORED``) with
    ``deals`` or with another child by it: the child files hold no ``content_hash`` (docs/store.md)."""
    return " AND ".join(f"{a}.{c} = {b}.{c}" for c in COPY_KEY)


def copy_columns(alias: str) -> str:
    """The stored copy's key columns of ``alias``, listed: for ``(r.shard, …) IN (SELECT d.shard, … FROM …)``."""
    return ", ".join(f"{alias}.{c}" for c in COPY_KEY)


def param(name: str, value: Any) -> Fragment:
    """The placeholder ``$name`` bound to ``value``."""
    return Fragment(f"${name}", {name: value})


def compose(template: str, **parts: Fragment) -> Fragment:
    """``template`` with each ``{name}`` replaced by that fragment's SQL; the parameters of those merged.

    Fragments the template does not use bind nothing.  Two fragments may
    bind the same name only to the same value.
    """
    used = {field for _, field, _, _ in Formatter().parse(template) if field}
    params: dict[str, Any] = {}
    for name, part in parts.items():
        if name not in used:
            continue
        for key, value in part.params.items():
            if key in params and params[key] != value:
                raise ValueError(f"parameter ${key} bound twice with different values (in {name})")
            params[key] = value
    return Fragment(template.format(**{name: part.sql for name, part in parts.items()}), params)


def run(store: Store, template: str, **parts: Fragment) -> pl.DataFrame:
    """Compose the query and run it on ``store``."""
    query = compose(template, **parts)
    return store.query(query.sql, query.params)
