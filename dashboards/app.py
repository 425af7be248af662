"""The dashboard's entrypoint: page router, sidebar filters, and the frame every page shares.

Run with ``tarock dashboard`` (or ``streamlit run dashboards/app.py``).  Pages
live in ``app_pages/`` (never ``pages/``, so Streamlit's legacy directory
discovery stays off) and each has a ``url_path``: ``/replay?deal=ID&step=N``
and the other pages' addresses are deep links, filters included, because
every filter and selection is kept in the query string (``url_state``).
"""

from __future__ import annotations

import streamlit as st

from dashboards import data
from dashboards.sidebar import sidebar_filters

st.set_page_config(page_title="Tarock review", page_icon=":material/playing_cards:", layout="wide")

PAGES = [
    st.Page("app_pages/overview.py", title="Overview", icon=":material/dashboard:", default=True),
    st.Page("app_pages/contracts.py", title="Contracts", icon=":material/bar_chart:", url_path="contracts"),
    st.Page("app_pages/players.py", title="Players", icon=":material/groups:", url_path="players"),
    st.Page("app_pages/audit.py", title="Audit", icon=":material/gavel:", url_path="audit"),
    st.Page("app_pages/replay.py", title="Replay", icon=":material/playing_cards:", url_path="replay"),
    st.Page("app_pages/ingest.py", title="Ingest", icon=":material/upload_file:", url_path="ingest"),
]

page = st.navigation(PAGES)
sidebar_filters()
page.run()
data.warm_up()
