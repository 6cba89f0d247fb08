"""What the one-shot command tests share (a plain module, not a test module): the demo
game, and a child interpreter that runs the console script's ``main`` and reports the
dataclasses, type hints and msgspec fields it made on the way."""

from __future__ import annotations

from pathlib import Path

from stockade.sample_games.catalog import HERE as SAMPLE_DIR

ROOT = Path(__file__).resolve().parents[2]
DEMO = Path(SAMPLE_DIR) / "demo.jsonl"

# ``stockade tally LOG`` as the console script runs it, in a fresh interpreter, with the
# store off (the tally folds): what it imported, how many times ``get_type_hints`` ran,
# and which dataclasses were made, counted from before the first import of the core.
CHILD = """
import contextlib, dataclasses, io, json, sys, typing
import msgspec.structs
made, hints, fields = [], [], []
process = dataclasses._process_class
def counted(cls, *args, **kwargs):
    made.append(f"{cls.__module__}.{cls.__qualname__}")
    return process(cls, *args, **kwargs)
dataclasses._process_class = counted
get_type_hints = typing.get_type_hints
def counted_hints(obj, *args, **kwargs):
    hints.append(getattr(obj, "__qualname__", repr(obj)))
    return get_type_hints(obj, *args, **kwargs)
typing.get_type_hints = counted_hints
struct_fields = msgspec.structs.fields
def counted_fields(cls):
    fields.append(cls.__qualname__)
    return struct_fields(cls)
msgspec.structs.fields = counted_fields
from stockade.tui.launcher import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules), "made": made, "hints": hints,
                  "fields": fields}))
"""
