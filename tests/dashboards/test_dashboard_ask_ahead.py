"""``dashboards.data.ask_ahead``: a page's questions started together are each answered once, and a question
that fails ahead is asked again by the page, which then sees the error."""

from __future__ import annotations

import threading
from functools import partial

import pytest
import streamlit as st

from dashboards import data


def test_a_question_asked_ahead_is_computed_once_and_the_page_gets_its_answer() -> None:
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    calls: list[int] = []

    @st.cache_data(show_spinner=False)
    def slow_square(n: int) -> int:
        calls.append(n)
        started.set()
        release.wait(10)  # still computing when the page asks: the page must wait for it, not compute again
        finished.set()
        return n * n

    data.ask_ahead(partial(slow_square, 7))
    assert started.wait(10) and not finished.is_set()  # asked, and ask_ahead returned while it computes
    threading.Timer(0.2, release.set).start()
    assert slow_square(7) == 49
    assert calls == [7]  # one computation: the page waited for the thread's


def test_a_question_that_fails_ahead_fails_again_in_the_page() -> None:
    attempts: list[int] = []
    done = threading.Event()

    @st.cache_data(show_spinner=False)
    def broken(n: int) -> int:
        attempts.append(n)
        done.set()
        raise ValueError(f"no answer for {n}")

    data.ask_ahead(partial(broken, 3))
    assert done.wait(10)
    with pytest.raises(ValueError, match="no answer for 3"):
        broken(3)
    assert attempts == [3, 3]  # a failure is not cached: the page asked again and saw it
