"""What any screen says when the terminal is too small (no import beyond this)."""

TOO_SMALL = "terminal too small: need 80x24\n(make the window larger, or the font smaller)"
