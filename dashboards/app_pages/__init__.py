"""The dashboard's pages, each a Streamlit script (dashboards/app.py lists them)."""
