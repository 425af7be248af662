"""A page script's bare string is drawn on the page (Streamlit's "magic"): only the module docstring may be one.

The Replay page showed "The width of a breakdown's Detail in one of the tables …" above its title: a constant's
docstring, written as a string statement after it, which Streamlit writes out like ``st.write``.
"""

from __future__ import annotations

import ast

import pytest

from tests.support.paths import ROOT

PAGES = sorted((ROOT / "dashboards" / "app_pages").glob("*.py")) + [ROOT / "dashboards" / "app.py"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_script_has_a_string_statement_but_its_docstring(page) -> None:
    body = ast.parse(page.read_text(encoding="utf-8")).body
    strays = [node.lineno for node in body[1:]
              if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
    assert strays == [], f"{page.name}: a string statement on line(s) {strays} is drawn on the page"
