"""The camp: the solitaire POW-camp game from Lone Warrior #138, event-sourced.

Pure domain code: no Textual, no terminal. The screen lives in ``tui.camp``.
"""
