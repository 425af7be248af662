"""Every parameter of every command coerced without pydantic (``tarock/cli_params.py``) gives what typer's own
pydantic adapter gives: the same value, or the same error in the same words; and ``tarock check`` starts
without loading pydantic."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import typer
from typer import _click
from typer._coercion import build_runtime_param

from tarock.cli import app
from tarock.cli_params import LightRuntimeParam, light_runtime_param
from tests.support.paths import ROOT

EXAMPLE = str(ROOT / "data" / "examples")
TEXTS = ("json", "text", "JSON", "csv", "x", "", "3", "-2", "1.5", "true", "no", "slovenian", EXAMPLE,
         "no/such/file.jsonl", "-")
"""Values as a command line gives them: choices (right, wrong case, wrong), numbers, flags, paths."""


def _parameters() -> Iterator[tuple[str, Any, Any]]:
    """(command name, command, parameter) for every parameter of every command and subcommand."""
    def walk(name: str, command: Any) -> Iterator[tuple[str, Any, Any]]:
        for param in command.params:
            if hasattr(param, "type_descriptor"):
                yield name, command, param
        for sub_name, sub in getattr(command, "commands", {}).items():
            yield from walk(f"{name} {sub_name}".strip(), sub)

    yield from walk("", typer.main.get_command(app))


PARAMETERS = list(_parameters())


def _outcome(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        return "value", runtime.coerce(value, param=param, ctx=ctx)
    except Exception as exc:  # noqa: BLE001 -- the error itself is what is compared
        return type(exc).__name__, str(getattr(exc, "message", exc))


def _values(param: Any) -> list[Any]:
    values: list[Any] = [None, param.default, *TEXTS, tuple(TEXTS[:3]), (EXAMPLE, EXAMPLE), ()]
    choices = param.type_descriptor.choices or ()
    values += [c for c in choices if isinstance(c, Enum)]
    return values


def test_every_command_has_parameters_to_compare() -> None:
    # the walk reaches the commands users run most: check's files and --format, ingest's --store
    names = {(name, param.name) for name, _, param in PARAMETERS}
    assert {("check", "files"), ("check", "fmt"), ("ingest", "store")} <= names
    assert len(PARAMETERS) >= 40


@pytest.mark.parametrize(("name", "command", "param"), PARAMETERS,
                         ids=[f"{name}:{param.name}" for name, _, param in PARAMETERS])
def test_light_coercion_gives_what_typers_own_gives(name: str, command: Any, param: Any) -> None:
    ctx = _click.Context(command, info_name=name)
    light = light_runtime_param(param.type_descriptor)
    own = build_runtime_param(param.type_descriptor)
    for value in _values(param):
        assert _outcome(light, value, param, ctx) == _outcome(own, value, param, ctx), value


def test_plain_values_are_coerced_without_typers_adapter() -> None:
    # check's files and --format given as a user types them never need pydantic's adapter
    [(_, command, files)] = [(n, c, p) for n, c, p in PARAMETERS if (n, p.name) == ("check", "files")]
    [(_, _, fmt)] = [(n, c, p) for n, c, p in PARAMETERS if (n, p.name) == ("check", "fmt")]
    ctx = _click.Context(command, info_name="check")
    light_files, light_fmt = light_runtime_param(files.type_descriptor), light_runtime_param(fmt.type_descriptor)
    assert isinstance(light_files, LightRuntimeParam) and isinstance(light_fmt, LightRuntimeParam)
    assert light_files.coerce((EXAMPLE,), param=files, ctx=ctx) == [Path(EXAMPLE)]
    assert light_fmt.coerce("json", param=fmt, ctx=ctx).value == "json"
    assert light_files.typers == [] and light_fmt.typers == []
    # a wrong choice goes to typer's adapter, which says why
    with pytest.raises(_click.exceptions.BadParameter, match="'xml' is not one of"):
        light_fmt.coerce("xml", param=fmt, ctx=ctx)
    assert len(light_fmt.typers) == 1


def test_check_starts_without_pydantic(tmp_path: Path) -> None:
    # the console script in a fresh interpreter over a real record file: -X importtime lists every module loaded
    records = tmp_path / "one.jsonl"
    records.write_bytes((ROOT / "data" / "examples" / "seed_session.jsonl").read_bytes())
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "tarock.cli", "check", "-f", "json", str(records)],
                          capture_output=True, text=True, cwd=ROOT)
    loaded = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "tarock.check.fast" in loaded  # the listing is there: the command ran
    assert [m for m in loaded if m.split(".")[0] == "pydantic"] == []
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == records.read_bytes().count(b"\n") and all(r["id"] for r in results)
