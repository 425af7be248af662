"""dashboards layer (see DESIGN.md)."""
