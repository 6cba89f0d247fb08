"""Typed reading of the user's TOML files (config, themes)."""
