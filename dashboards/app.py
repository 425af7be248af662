"""The dashboard's entrypoint: page router, sidebar filters, and the frame every page shares.

Run with ``tarock dashboard`` (or ``streamlit run dashboards/app.py``).  Pages
live in ``app_pages/`` (never ``pages/``, so Streamlit's legacy directory
discovery stays off) and each has a ``url_path``: ``/replay?deal=ID&step=N``
and the other pages' addresses are deep links, filters included, because
every filter and selection is kept in the query string (``url_state``).
A server that offers no uploads (``dashboards.pages``: served beyond this machine
without ``--allow-uploads``) has no Ingest page.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboards import data
from dashboards.pages import page_specs, uploads_enabled
from dashboards.sidebar import sidebar_filters

# The page icon, served by this server: an emoji or a Material name would make the browser fetch it from an
# external host, which fails offline (tests/dashboards/test_dashboard_browser.py fails on any console error).
# (A string under it would be written to every page: Streamlit shows a script's bare expressions.)
ICON = Path(__file__).resolve().parent / "assets" / "icon.png"

st.set_page_config(page_title="Tarock review", page_icon=str(ICON), layout="wide")

PAGES = [st.Page(spec.script, title=spec.title, icon=spec.icon, url_path=spec.url_path, default=spec.default)
         for spec in page_specs(uploads_enabled())]

page = st.navigation(PAGES)
sidebar_filters()
page.run()
data.warm_up()
