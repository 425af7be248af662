"""The command line's parameters turned into values without loading pydantic, when they are plain.

typer 0.29 (pinned in pyproject.toml: ``tests/test_cli_help.py`` reads its help, and this module its
internals) coerces every parameter of the command being run through a pydantic ``TypeAdapter`` that it
builds as the command starts, even a parameter left at its
default: importing pydantic and building the adapters costs about 0.1 s of CPU, more than a third of
``tarock check``'s start-up and a tenth of its whole run over 30,000 records (docs/performance.md).

``light_runtime_param`` gives typer a coercion that does, for the plain cases, what typer's adapters do,
through typer's own helpers -- a text stays the text, a path becomes a ``Path`` checked by
``coerce_cli_path``, a choice becomes its ``Enum`` member by ``coerce_cli_choice``, a list each of its
items -- and hands anything else (numbers, flags, a value that is not one of the choices, …) to typer's own
adapter, built then, so every error message stays typer's.  ``tests/test_cli_params.py`` compares both
ways over every parameter of every command.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

from typer import _coercion
from typer._param_types import coerce_cli_choice, coerce_cli_path, lenient_issubclass

_TYPERS_OWN = _coercion.build_runtime_param
"""typer's own builder of a parameter's coercion (through pydantic)."""


@dataclass(frozen=True)
class LightRuntimeParam(_coercion.RuntimeParam):
    """A parameter's coercion: plain values here, anything else by typer's own adapter (built when first
    needed, kept in ``typers``)."""

    descriptor: _coercion.TypeDescriptor
    typers: list[_coercion.RuntimeParam] = field(default_factory=list)

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        annotation, info = self.annotation, self.parameter_info
        if get_origin(annotation) is list and isinstance(value, (list, tuple)):
            item_type = get_args(annotation)[0]
            items = [_plain(item_type, info, item, param, ctx) for item in value]
            if all(item is not _NOT_PLAIN for item in items):
                return items
        else:
            plain = _plain(annotation, info, value, param, ctx)
            if plain is not _NOT_PLAIN:
                return plain
        if not self.typers:
            self.typers.append(_TYPERS_OWN(self.descriptor))
        return self.typers[0]._coerce_value(value, param=param, ctx=ctx)


_NOT_PLAIN = object()
"""``_plain``'s answer for a value it leaves to typer's adapter."""


def _plain(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """``value`` as typer's adapter for ``annotation`` gives it, when that is plain to say (else ``_NOT_PLAIN``):
    typer's ``build_leaf_adapter`` takes a parser first, then a choice, …, a text, then a path."""
    if info.parser is not None or not isinstance(value, (str, Enum)):
        return _NOT_PLAIN
    if lenient_issubclass(annotation, Enum):
        try:
            return coerce_cli_choice(value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        except ValueError:
            return _NOT_PLAIN  # typer's adapter says why, in its words
    if isinstance(value, Enum):
        return _NOT_PLAIN
    if annotation is str:
        return value
    if lenient_issubclass(annotation, Path) and info.path_type is None and value:
        return coerce_cli_path(annotation(value), info, path_type=annotation, param=param, ctx=ctx)
    return _NOT_PLAIN


def light_runtime_param(descriptor: _coercion.TypeDescriptor) -> _coercion.RuntimeParam:
    """What typer's ``build_runtime_param`` gives, without pydantic for plain values; a parameter that opens
    files is typer's own."""
    if descriptor.file_annotation is not None:
        return _TYPERS_OWN(descriptor)
    return LightRuntimeParam(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation,
                             descriptor=descriptor)
