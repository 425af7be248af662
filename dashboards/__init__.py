"""dashboards layer (see docs/architecture.md)."""
