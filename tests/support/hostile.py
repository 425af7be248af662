"""Record files whose text is hostile to the places it is shown: spreadsheet formulas, terminal escapes.

The example records of ``data/examples`` with their players, session and ids renamed: names that a
spreadsheet would run as a formula (``=…``, ``@…``, ``+…``, ``-…``) or that carry terminal control
characters (ESC, BEL).  The deals stay legal and score as before, so every output has rows to show.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.support.paths import ROOT

EXAMPLES = ROOT / "data" / "examples"
SEED_PLAYERS = ("Ana", "Boris", "Cilka", "David")

FORMULA_NAMES = {
    "Ana": '=HYPERLINK("http://evil.example","x")',
    "Boris": "@SUM(1+1)",
    "Cilka": "+Cilka",
    "David": "-David",
}
"""Players a spreadsheet would evaluate; Boris's R_FOLLOW_SUIT message starts with his name."""

CONTROL_NAMES = {
    "Ana": "Ana\x1b[2J\x1b]0;pwned\x07",
    "Boris": "Bo\x1b[31mris",
    "Cilka": "Cil\x00ka\x9b",
    "David": "Da\x08vid",
}
"""Players with ESC (clear screen, set the window title), BEL, NUL, CSI (C1) and backspace in them."""


def _rename(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def hostile_records(names: dict[str, str], session: str, id_prefix: str) -> list[dict[str, Any]]:
    """The seed session, the follow-suit renons example and a disputed copy of seed deal 1, renamed.

    ``session`` replaces the seed session's name and ``id_prefix`` goes before every deal id.
    """
    seed = [orjson.loads(line) for line in (EXAMPLES / "seed_session.jsonl").read_bytes().splitlines()]
    renons = orjson.loads((EXAMPLES / "findings" / "r_follow_suit.json").read_bytes())
    disputed = {k: v for k, v in seed[0].items() if k not in ("session", "seq")}
    disputed |= {"id": "disputed-1", "recorded": {"scores": {"Ana": 30, "Cilka": 40}}}
    out = []
    for record in [*seed, *renons, disputed]:
        record = _rename(record, names)
        if record.get("session") is not None:
            record["session"] = session
        record["id"] = id_prefix + record["id"]
        out.append(record)
    return out


def write_hostile(path: Path, names: dict[str, str], session: str, id_prefix: str) -> Path:
    """``hostile_records`` as a JSON Lines file at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in hostile_records(names, session, id_prefix)))
    return path
