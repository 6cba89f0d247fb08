"""The main screen's widgets, one per file."""
