"""How a ruleset declares its options: each one a dataclass field that names its possible values.

A ruleset's options class (``tarock.rules.slovenian.options``, ``tarock.rules.koenigrufen.options``) is a
frozen dataclass whose fields are made with ``option(default, *others)``: the field *is* the declaration, so
adding an option is one line in its ruleset's package, and the loader (``tarock.options``) validates records
and command lines against it with no second list to keep equal.
"""

from __future__ import annotations

from dataclasses import Field, field, fields
from typing import Any

Choices = tuple[Any, ...] | range
"""An option's possible values, the default first; a ``range`` for a whole number."""


class OptionError(ValueError):
    """An unknown option or an impossible option value."""


def option(default: Any, *others: Any, values: range | None = None) -> Any:
    """A dataclass field for an option whose value is ``default`` or one of ``others`` (or, with ``values``,
    a whole number in that range)."""
    choices: Choices = values if values is not None else (default, *others)
    return field(default=default, metadata={"choices": choices})


def choices_of(options_class: type) -> dict[str, Choices]:
    """Each option of a ruleset's options class with its possible values, in field order."""
    return {f.name: _choices(f) for f in fields(options_class)}


def _choices(f: Field[Any]) -> Choices:
    choices: Choices = f.metadata["choices"]
    return choices


class OptionsBase:
    """What every ruleset's options class can say about itself."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}
