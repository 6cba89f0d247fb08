"""The string bounds with their patterns (``core.model.bounds`` says what each allows):
what a line or a command is held to when it is decoded strictly (the strict twin types
of ``core.model.record_bounds``, the camp's records). Apart from ``bounds`` because
msgspec compiles a pattern when its ``Meta`` is made, and a log read, which checks the
strings of every line in bulk, never needs these."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from stockade.core.model.bounds import (
    HANDLE_CHARS,
    MAX_HANDLE,
    MAX_NAME,
    MAX_TEXT,
    MAX_TRAITS,
    MAX_UNITS,
    NO_CONTROL,
    Cvp,
)

Handle = Annotated[str, Meta(max_length=MAX_HANDLE, pattern=HANDLE_CHARS)]
Name = Annotated[str, Meta(max_length=MAX_NAME, pattern=NO_CONTROL)]
Text = Annotated[str, Meta(max_length=MAX_TEXT, pattern=NO_CONTROL)]

Handles = Annotated[list[Handle], Meta(max_length=MAX_UNITS)]
Pair = Annotated[list[Handle], Meta(max_length=2)]  # the two halves of a squad
Counters = Annotated[list[Name], Meta(max_length=2)]
Traits = Annotated[list[Name], Meta(max_length=MAX_TRAITS)]
HandleMap = Annotated[dict[Handle, Name], Meta(max_length=MAX_UNITS)]
CvpTable = Annotated[dict[Name, Cvp], Meta(max_length=64)]
