"""analysis layer (see DESIGN.md)."""
