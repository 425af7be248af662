"""Rules tables: a ruleset's options under one name — its defaults, a named preset, or a house table (TOML).

A table is what ``tarock rules show`` prints, what ``--rules`` applies and what ``score --compare`` sets
side by side.  Applied to records, a table is option overrides scoped to its ruleset
(``tarock.options.SCOPE``): on top of each record's own options, like ``-o``, for that ruleset's records
only.

A house table is a TOML file (docs/koenigrufen.md, "House tables")::

    ruleset = "koenigrufen"          # required: slovenian or koenigrufen
    preset = "oberoesterreich"       # optional: the table it starts from (default: the ruleset's defaults)
    name = "Linz club"               # optional: a title for listings
    [options]                        # optional: option = value, each checked against its declared values
    quapil = false

Values are taken as TOML types them (``quapil = "false"`` is refused: a string where true or false is
expected); every error names the file, the key and the allowed values, and a table that fails is never
partly applied.  Only a regular file is read (``tarock.formats.reader.open_regular``), as UTF-8.  Game and
bonus values are not set by a table: ``values`` picks a cup's table of them.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from tarock.formats.reader import NotRegularFile, open_regular
from tarock.options import _SPECS, SCOPE, OptionError, Options, options_for
from tarock.rules.choices import Choices

__all__ = ["RulesTable", "TableError", "builtin_tables", "load_table", "table_names"]

_KEYS = ("ruleset", "preset", "name", "options")


class TableError(OptionError):
    """A rules table that cannot be loaded: an unknown name, or a file with a bad key or value."""


@dataclass(frozen=True)
class RulesTable:
    """One ruleset's options under a name.

    ``name``: the preset's name, the ruleset's name for its defaults, or the file's path.  ``overrides``: what
    the engine takes (``tarock.options.options_for``'s ``overrides``), scoped to ``ruleset``.
    """

    name: str
    ruleset: str
    preset: str | None
    options: Options
    title: str = ""
    source: str = "preset"  # "defaults", "preset" or "file"
    set_options: Mapping[str, Any] = field(default_factory=dict)  # the file's own [options]

    @property
    def label(self) -> str:
        """How a listing heads the table for people: a house table by the ``name`` its file gives (its title),
        not its path; any other by its name."""
        return self.title if self.source == "file" and self.title else self.name

    @property
    def overrides(self) -> dict[str, Any]:
        out: dict[str, Any] = {SCOPE: self.ruleset}
        if self.preset is not None:
            out["preset"] = self.preset
        out.update(self.set_options)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ruleset": self.ruleset, "source": self.source, "preset": self.preset,
                "title": self.title, "options": self.options.to_dict(), "changed": self.options.changed()}


def builtin_tables() -> list[RulesTable]:
    """Every ruleset's defaults (named after the ruleset) and every named preset, ruleset by ruleset."""
    out = []
    for ruleset, spec in _SPECS.items():
        out.append(RulesTable(ruleset, ruleset, None, spec.default, "the ruleset's defaults", "defaults"))
        for preset in spec.presets:
            out.append(RulesTable(preset, ruleset, preset, options_for(ruleset, None, {"preset": preset})))
    return out


def table_names() -> list[str]:
    return [t.name for t in builtin_tables()]


def load_table(spec: str) -> RulesTable:
    """The table ``spec`` names: a ``.toml`` file, a ruleset (its defaults) or a preset; TableError else."""
    if spec.endswith(".toml") or Path(spec).is_file():
        return _load_file(Path(spec))
    matches = [t for t in builtin_tables() if t.name == spec]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise TableError(f"rules table {spec!r} is ambiguous: a preset of {', '.join(t.ruleset for t in matches)}")
    raise TableError(f"unknown rules table {spec!r}; known: {', '.join(table_names())}, or a .toml file")


def _allowed(choices: Choices) -> str:
    if isinstance(choices, range):
        return f"a whole number from {choices.start} to {choices.stop - 1}"
    return ", ".join(_toml_text(c) for c in choices)


def _toml_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "(unset)"
    return repr(value) if isinstance(value, str) else str(value)


def _load_file(path: Path) -> RulesTable:
    where = str(path)
    try:
        with open_regular(path) as fh:  # a FIFO waits for a writer, /dev/zero never ends: regular files only
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise TableError(f"{where}: no such rules table file") from None
    except NotRegularFile as exc:
        raise TableError(f"{where}: {exc}") from None
    except OSError as exc:
        raise TableError(f"{where}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise TableError(f"{where}: not valid TOML (not UTF-8: byte {exc.object[exc.start]:#04x} at "
                         f"offset {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"{where}: not valid TOML ({exc})") from None
    for key in data:
        if key not in _KEYS:
            extra = (" (game and bonus values are not set by a table: choose a cup's with options.values)"
                     if key in ("values", "games", "bonuses") else "")
            raise TableError(f"{where}: unknown key {key!r}; allowed: {', '.join(_KEYS)}{extra}")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in _SPECS:
        raise TableError(f"{where}: ruleset = {_toml_text(ruleset)} is not allowed; allowed: "
                         f"{', '.join(repr(r) for r in _SPECS)}" if ruleset is not None
                         else f"{where}: the key 'ruleset' is missing; allowed: {', '.join(repr(r) for r in _SPECS)}")
    spec = _SPECS[ruleset]
    preset = data.get("preset")
    if preset is not None and (not isinstance(preset, str) or preset not in spec.presets):
        raise TableError(f"{where}: preset = {_toml_text(preset)} is not a {ruleset} preset; allowed: "
                         f"{', '.join(repr(p) for p in spec.presets) or 'none'}")
    title = data.get("name", "")
    if not isinstance(title, str):
        raise TableError(f"{where}: name = {_toml_text(title)} must be a string")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TableError(f"{where}: options must be a table ([options]), not {_toml_text(options)}")
    for key, value in options.items():
        choices = spec.choices.get(key)
        if choices is None:
            raise TableError(f"{where}: options.{key} is not a {ruleset} option; allowed: {', '.join(spec.choices)}")
        if not _fits(value, choices):
            raise TableError(f"{where}: options.{key} = {_toml_text(value)} is not allowed; "
                             f"allowed: {_allowed(choices)}")
    base = {"preset": preset} if preset is not None else {}
    try:
        resolved = options_for(ruleset, None, {SCOPE: ruleset, **base, **options})
    except OptionError as exc:
        raise TableError(f"{where}: {exc}") from None
    return RulesTable(where, ruleset, preset, resolved, title, "file", dict(options))


def _fits(value: Any, choices: Choices) -> bool:
    """``value`` as TOML typed it is one of ``choices`` (``True`` is not ``1``; no strings for numbers)."""
    if isinstance(choices, range):
        return type(value) is int and value in choices
    return any(type(value) is type(c) and value == c for c in choices)
