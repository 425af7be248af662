"""Which deal and step the Replay page shows, kept in the ``deal`` and ``step`` query parameters.

``/replay?deal=ID&step=N`` is a deep link to step N as the page numbers it
("step N of M", counted from 1; ``step=0`` is the first step too, ``step=end``
the final, score step; a step past the end shows the end), and the address
shows the step the page shows.  ``tables=A,B`` (the What-if
page's links) sets the score step's breakdown under those rules tables side
by side; ``tables_asked`` reads it, keeping only the deal's ruleset's tables.  The step is resolved once
the deal's number of steps is known, so the slider never receives a value
outside its range.  The previous / next buttons and the deal pickers move
through the callbacks below.
"""

from __future__ import annotations

import re

import streamlit as st

from analysis.whatif import MAX_TABLES
from dashboards import url_state
from tarock.rules.tables import builtin_tables

DEAL = "deal"
"""Session key (and query parameter) of the deal shown."""
STEP = "replay_step"
"""The step slider's key."""
_ASKED = "step"  # session key (and query parameter) of the step asked for, as text: its number from 1, or "end"
_PENDING = "replay_step_pending"
TABLES = "tables"
"""Query parameter of the rules tables the score step sets side by side (comma-separated names)."""


_STEP = re.compile(r"[0-9]+")  # ASCII digits only: str.isdigit() also takes '²' and '٣', which int() refuses or reads


def _step_text(text: str) -> str:
    """A step asked for in the URL: ``end`` or ASCII digits (past nine of them: the end); ValueError otherwise."""
    if text == "end":
        return text
    if not _STEP.fullmatch(text):
        raise ValueError(text)
    return "end" if len(text) > 9 else str(int(text))


def adopt_url() -> None:
    """Take the deal and step from the URL when a link or the address bar changed them.

    A new deal without a step starts at the first step.
    """
    adopted = url_state.adopt({DEAL: str, _ASKED: _step_text})
    if DEAL in adopted and _ASKED not in adopted:
        st.session_state[_ASKED] = "1"
    if adopted:
        st.session_state[_PENDING] = True


def choose_deal(deal_id: str | None) -> None:
    """Show ``deal_id`` from its first step (the deal pickers' callback)."""
    st.session_state[DEAL] = deal_id
    st.session_state[_ASKED] = "1"
    st.session_state[_PENDING] = True


def resolve_step(n_steps: int) -> None:
    """Give the slider its value (a step's index, from 0) for a deal of ``n_steps`` steps: the step asked for
    (its number, from 1), kept in range."""
    last = n_steps - 1
    asked = str(st.session_state.get(_ASKED, "1"))
    if st.session_state.pop(_PENDING, False) or STEP not in st.session_state:
        st.session_state[STEP] = last if asked == "end" else min(max(_number(asked) - 1, 0), last)
    else:
        st.session_state[STEP] = min(max(_number(st.session_state[STEP]), 0), last)


def _number(value: object) -> int:
    """A step kept in the session as a number (0 for anything else: never a traceback)."""
    try:
        return int(str(value)) if _STEP.fullmatch(str(value)) and len(str(value)) <= 9 else 0
    except ValueError:
        return 0


def move(delta: int, last: int) -> None:
    """Step back or forward (the previous / next buttons' callback)."""
    st.session_state[STEP] = min(max(st.session_state.get(STEP, 0) + delta, 0), last)


def jump(to: int) -> None:
    """Go to step ``to`` (the previous / next finding buttons' callback)."""
    st.session_state[STEP] = to


def write_url(deal_id: str | None, step: int | None) -> None:
    """Put the deal and the step shown (its index) into the URL, as the page numbers the step (from 1)."""
    text = None if deal_id is None or step is None else step_number(step)
    if text is not None:
        st.session_state[_ASKED] = text
    url_state.publish({DEAL: deal_id, _ASKED: text})


def step_number(index: int | None) -> str:
    """The ``step`` parameter of the step at ``index`` (from 0; None: the final step): its number as the page
    shows it, from 1, or ``end``."""
    return "end" if index is None else str(index + 1)


def tables_asked(text: str | None, ruleset: str) -> tuple[tuple[str, ...], str | None]:
    """The rules tables ``text`` (the ``tables`` parameter) names for a deal of ``ruleset``, and a notice saying
    what was ignored (None when nothing was).

    Only the names of the built-in tables of the deal's ruleset are taken (its defaults and its presets; never a
    file: an address is typed by anyone), each once, at most ``MAX_TABLES``; anything else is left out.
    """
    if not text:
        return (), None
    offered = [t.name for t in builtin_tables() if t.ruleset == ruleset]
    names = list(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    kept = [n for n in names if n in offered]
    junk = [n for n in names if n not in offered]
    notes = []
    if junk:
        shown = ", ".join(repr(n if len(n) <= 40 else n[:40] + "…") for n in junk[:3]) + (" …" if len(junk) > 3 else "")
        notes.append(f"Ignored {shown} in the address's tables: not a {ruleset} rules table "
                     f"(the {ruleset} tables: {', '.join(offered)}).")
    if len(kept) > MAX_TABLES:
        notes.append(f"At most {MAX_TABLES} tables are set side by side: {', '.join(kept[MAX_TABLES:])} left out.")
        kept = kept[:MAX_TABLES]
    if not kept and names:
        notes.append("The score is shown as stored.")
    elif not names:
        notes.append(f"Ignored tables={text[:40]!r} in the address: no table named.")
    return tuple(kept), " ".join(notes) or None


def drop_tables() -> None:
    """Show the stored score alone (the score step's button): the tables leave the address."""
    st.query_params.pop(TABLES, None)
