"""Widget values kept in the URL's query parameters, so every view is a link (``/replay?deal=ID&step=7``).

Each widget's value lives in ``st.session_state`` under its parameter's
name.  Per run, ``adopt`` (before the widgets are drawn) takes a parameter
from the URL when it differs from what this session last wrote there — a
link followed, an address typed, the browser's back button — and
``publish`` (after them) writes the current values back.  A parameter
missing from the URL keeps the session's value: the page menu drops the
query string on every page change, and the filters should survive that.

Streamlit's own ``bind="query-params"`` is not used: a bound widget ignores
a URL it did not write once it has a value (so an in-app link cannot set a
filter), and ``st.switch_page`` refuses to run while bound parameters exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from dashboards.labels import plain

_WRITTEN = "url_state_written"

Decoder = Callable[[str], Any]
"""Turns a parameter's text into the widget's value; raises ValueError for text it does not accept."""


def _written() -> dict[str, str | None]:
    return st.session_state.setdefault(_WRITTEN, {})


def adopt(decoders: Mapping[str, Decoder]) -> set[str]:
    """Copy into ``st.session_state`` every parameter whose URL text changed since this session wrote it
    (or whose widget's value Streamlit dropped when the page was left).

    Returns the names adopted this run.  Text a decoder rejects — whatever it raises — is
    ignored with a notice (a toast naming the parameter): the widget keeps its value and
    ``publish`` corrects the URL.  A link is typed by anyone, so it is never a traceback.
    """
    written = _written()
    adopted = set()
    for name, decode in decoders.items():
        text = st.query_params.get(name)
        if text is None or (text == written.get(name) and name in st.session_state):
            continue
        written[name] = text
        try:
            st.session_state[name] = decode(text)
        except Exception:  # noqa: BLE001 (any junk in the address: ignored, with a notice)
            _ignored(name, text)
            continue
        adopted.add(name)
    return adopted


def _ignored(name: str, text: str) -> None:
    """Say that the address's ``name=text`` was ignored (the text quoted short, Markdown escaped)."""
    shown = repr(text if len(text) <= 40 else text[:40] + "…")
    st.toast(f"Ignored {plain(name)}={plain(shown)} in the address: not a value this page takes.",
             icon=":material/link_off:")


def publish(values: Mapping[str, str | None]) -> None:
    """Write these parameters into the URL (None removes one) and remember them as this session's."""
    written = _written()
    for name, text in values.items():
        if text is None:
            st.query_params.pop(name, None)
        else:
            st.query_params[name] = text
        written[name] = text


def one_of(options: Any) -> Decoder:
    """A decoder accepting exactly the texts in ``options``."""
    allowed = set(options)

    def decode(text: str) -> str:
        if text not in allowed:
            raise ValueError(text)
        return text

    return decode
