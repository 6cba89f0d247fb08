"""The derived store: what a game's log folds to, kept beside the snapshots so that a
later run need not fold it again. A cache, never the truth: anything that does not
verify is a miss, and the caller folds as without a store.

One store per log (named by a digest of the log's resolved path), one entry per kind
of derived data: ``tally`` (the tally's typed rows, rendered on every run by the code
that renders a folded tally: core/cli/tally_report.py) and ``snap`` (the folded state
of a prefix of the log: core/log/snapcache.py). This module owns the folder, the keys
and the pruning; it knows nothing of what an entry holds. The files themselves, each
authenticated by a MAC under a per-user key, are core/log/entry_files.py's.

An entry is used only when every key it was written under is the reader's:

* ``log``: the log's resolved path; ``size`` and ``digest``: the length and BLAKE2b of
  the bytes the writer itself read or wrote (``Content``: the bytes a fold read, or
  those read at open followed by every append this process made). Never a re-read
  after a write: another program can change the file between the two;
* ``code``: the fingerprint of every .py and .toml of ``stockade.core`` by path and
  content, taken once per process before any data file is read (``code_fingerprint``;
  the CLI and the app ask it first thing), so code or data changed while a process
  runs can only make its entries misses;
* ``runtime``: the Python and msgspec versions;
* ``version``: the entry format's.

Import-light by design: the tally answered from the store imports this before msgspec
or the model, so it imports only os, sys and CPython's own BLAKE2 (from ``_blake2``:
``hashlib`` would load OpenSSL, ~2 ms, for a hash it does not use). The files are
imported when the store is on and asked: a fold with the store off (every open asks
``cache_dir`` and holds a ``Content``) never loads them.
"""

from __future__ import annotations

import functools  # already loaded by the interpreter's start: free here
import os
import sys
import time

try:  # CPython's own BLAKE2, without the OpenSSL that hashlib loads first
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

VERSION = 1  # of the entry format (the header and its keys)
MAX_LOGS = 24  # stores per folder (games opened from temporary copies would otherwise
# leave theirs behind for ever); the least recently written go first
KINDS = ("tally", "snap")
MEMO_PREFIX = "code-"
# A source whose stat is this recent is hashed again on every run rather than memoised:
# a file written twice within the file system's clock tick keeps its size and mtime (git
# calls such an index entry "racily clean").
RACY_NS = 2_000_000_000


# ------------------------------------------------------------------- the folder
def cache_dir() -> str | None:
    """The folder of the derived stores, or None when the store is off
    (``STOCKADE_CACHE_DIR`` set to ``off``, ``0``, ``no`` or nothing). Else that
    variable, or the platform's user cache dir (``~/.cache/stockade/snapshots`` on
    Linux, without importing platformdirs there)."""
    env = os.environ.get("STOCKADE_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no") else env
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        if not base:
            base = os.path.expanduser("~/.cache")
        return os.path.join(base, "stockade", "snapshots")
    from platformdirs import user_cache_dir

    return os.path.join(user_cache_dir("stockade"), "snapshots")


def entry_path(folder: str, resolved: str, kind: str) -> str:
    from stockade.core.log.entry_files import store_name  # the store on: its files

    return os.path.join(folder, f"{store_name(resolved)}.{kind}")


# ------------------------------------------------------------------ the content
class Content:
    """The length and BLAKE2b of a log's bytes as this process read or wrote them:
    ``Content(data)`` for bytes read, ``extend`` for each append made after them.

    ``later=True`` holds the bytes read and hashes them on first need, so that the
    snapshot's check of a prefix of the same bytes (``prefix_digest``) is a step of
    the one pass over them, not a second pass; ``settle`` finishes it (the opener
    calls it once the fold is made, so the bytes are not kept)."""

    __slots__ = ("_hash", "size", "_pending", "_done")

    def __init__(self, data: bytes | memoryview = b"", *, later: bool = False) -> None:
        self.size = len(data)
        self._done = 0
        if later and data:
            self._hash = blake2b(digest_size=32)
            self._pending: bytes | memoryview | None = data
        else:
            self._hash = blake2b(data, digest_size=32)
            self._pending = None

    def settle(self) -> None:
        """Hash whatever of the bytes read is not hashed yet, and let them go."""
        pending = self._pending
        if pending is not None:
            self._hash.update(memoryview(pending)[self._done :])
            self._pending = None

    def prefix_digest(self, n: int) -> str | None:
        """The digest of the first ``n`` bytes read, made on the way to the whole;
        None when they are no longer held or were hashed past already."""
        pending = self._pending
        if pending is None or not self._done <= n <= len(pending):
            return None
        self._hash.update(memoryview(pending)[self._done : n])
        self._done = n
        return str(self._hash.copy().hexdigest())

    def extend(self, data: bytes) -> None:
        self.settle()
        self._hash.update(data)
        self.size += len(data)

    def digest(self) -> str:
        self.settle()
        return str(self._hash.hexdigest())

    def key(self) -> tuple[int, str]:
        return self.size, self.digest()


# ------------------------------------------------------------ code and runtime
def code_fingerprint() -> str | None:
    """The fingerprint of this installation's core (memoised in the cache dir), or
    None when the store is off. Asked first thing by every command and the app, and
    kept for the process: the code and data as they were before any was read, so a
    change made while a process runs makes its entries misses, never an old figure
    under a new fingerprint."""
    folder = cache_dir()
    return None if folder is None else _code_fingerprint(core_root(), folder)


def core_root() -> str:
    """The folder of ``stockade.core`` (this file is core/log/derived.py)."""
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def _sources(root: str) -> list[tuple[str, os.stat_result, str]]:
    """Every .py and .toml under ``root``: (path inside it, stat, full path), sorted."""
    found: list[tuple[str, os.stat_result, str]] = []
    pending = [""]
    while pending:
        rel = pending.pop()
        with os.scandir(os.path.join(root, rel) if rel else root) as entries:
            for entry in entries:
                name = entry.name
                inner = f"{rel}/{name}" if rel else name
                if name.endswith((".py", ".toml")):  # a folder so named fails to read
                    found.append((inner, entry.stat(), entry.path))
                elif entry.is_dir(follow_symlinks=False) and name != "__pycache__":
                    pending.append(inner)
    found.sort()
    return found


def fingerprint(root: str, memo_dir: str | None) -> str | None:
    """A digest of every .py and .toml under ``root``, by path and content, or None
    when one cannot be read. With ``memo_dir``, each file's content digest is memoised
    by its stat (size, mtime, ctime, inode) in an authenticated ``code-*`` entry: an
    unchanged tree costs a stat per file; any changed stat hashes that file again."""
    from stockade.core.log.entry_files import store_name, write_file  # the store on

    try:
        sources = _sources(root)
    except OSError:
        return None
    if not sources:
        return None
    # one memo per tree: two installations sharing a cache dir do not overwrite each other's
    memo_name = MEMO_PREFIX + store_name(root)[:16]
    memo = _read_memo(memo_dir, memo_name) if memo_dir else {}
    fresh: dict[str, tuple[int, int, int, int, bytes]] = {}
    recent = time.time_ns() - RACY_NS
    digest = blake2b(digest_size=16)
    for rel, st, full in sources:
        stamp = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        held = memo.get(rel)
        if held is not None and held[:4] == stamp:
            content = held[4]
        else:
            try:
                with open(full, "rb") as f:
                    content = blake2b(f.read(), digest_size=16).digest()
            except OSError:
                return None  # a module we cannot read could be one that folds
        if max(st.st_mtime_ns, st.st_ctime_ns) < recent:
            fresh[rel] = (*stamp, content)
        digest.update(rel.encode() + b"\0" + content)
    if memo_dir and fresh != memo:
        import json

        rows = {rel: [*held[:4], held[4].hex()] for rel, held in fresh.items()}
        write_file(memo_dir, memo_name, {"kind": "memo"}, json.dumps(rows).encode("ascii"))
    return str(digest.hexdigest())


def _read_memo(folder: str, name: str) -> dict[str, tuple[int, int, int, int, bytes]]:
    from stockade.core.log.entry_files import json_loads, read_file

    found = read_file(folder, name, {"kind": "memo"})
    try:
        payload: Any = json_loads(found) if found is not None else {}
        return {
            rel: (int(h[0]), int(h[1]), int(h[2]), int(h[3]), bytes.fromhex(h[4]))
            for rel, h in payload.items()
        }
    except (ValueError, TypeError, IndexError, AttributeError):
        return {}


@functools.cache  # once per process (per tree and folder: tests change them)
def _code_fingerprint(root: str, folder: str) -> str | None:
    return fingerprint(root, folder)


def forget_code_fingerprint() -> None:
    """Take the fingerprint again on its next use (a test standing for a new process)."""
    _code_fingerprint.cache_clear()


@functools.cache
def runtime() -> str:
    """The Python and msgspec versions (msgspec's from its installed metadata's folder
    name, without importing it)."""
    return f"{sys.implementation.cache_tag} {sys.version.split()[0]} msgspec {_msgspec_version()}"


def _msgspec_version() -> str:
    from importlib.util import find_spec  # loaded by the interpreter's start already

    try:
        spec = find_spec("msgspec")
        where = os.path.dirname(os.path.dirname(spec.origin)) if spec and spec.origin else ""
        for name in os.listdir(where):
            if name.startswith("msgspec-") and name.endswith((".dist-info", ".egg-info")):
                return name[len("msgspec-") :].rsplit(".", 1)[0]
    except (OSError, ValueError, ImportError):
        pass
    return "unknown"


def keys_for(resolved: str, kind: str, content: tuple[int, str] | None) -> dict[str, object]:
    """Every key the ``kind`` entry of the log at ``resolved`` is written and read
    under. ``content``: the length and digest of the bytes it was derived from (None
    for an entry that carries its own: a snapshot covers a prefix of the log). A
    ``code`` of None (no fingerprint) means nothing is written or read."""
    keys: dict[str, object] = {
        "version": VERSION,
        "kind": kind,
        "log": resolved,
        "code": code_fingerprint(),
        "runtime": runtime(),
    }
    if content is not None:
        keys["size"], keys["digest"] = content
    return keys


def read_entry(resolved: str, kind: str, content: tuple[int, str] | None) -> bytes | None:
    """The payload of the ``kind`` entry of the log at ``resolved``, if it was derived
    from ``content`` by this code and runtime; else None (the store off included)."""
    folder = cache_dir()
    if folder is None:
        return None
    keys = keys_for(resolved, kind, content)
    if keys["code"] is None:
        return None
    from stockade.core.log.entry_files import read_file

    return read_file(folder, os.path.basename(entry_path(folder, resolved, kind)), keys)


def write_entry(
    resolved: str,
    kind: str,
    content: tuple[int, str] | None,
    payload: bytes | Iterable[bytes | bytearray | memoryview],
) -> bool:
    """Keep ``payload`` as the ``kind`` entry of the log at ``resolved``, derived from
    ``content``; then prune the folder. Best effort."""
    folder = cache_dir()
    if folder is None:
        return False
    keys = keys_for(resolved, kind, content)
    if keys["code"] is None:
        return False
    from stockade.core.log.entry_files import make_folder, store_name, write_file_from

    try:
        make_folder(folder)
    except OSError:
        return False
    name = os.path.basename(entry_path(folder, resolved, kind))
    pieces = (payload,) if isinstance(payload, bytes) else payload
    if not write_file_from(folder, name, keys, pieces):
        return False
    prune(folder, keep=store_name(resolved))
    return True


def forget(resolved: str) -> None:
    """Remove every entry of the log at ``resolved`` (its next reads fold)."""
    folder = cache_dir()
    if folder is not None:
        from stockade.core.log.entry_files import unlink

        for kind in KINDS:
            unlink(entry_path(folder, resolved, kind))


def prune(folder: str, keep: str) -> None:
    """At most ``MAX_LOGS`` stores in ``folder``: the least recently written go, every
    entry of each; the store ``keep`` (just written) stays. Leftover temporary files
    (a process killed mid-write) go once they are an hour old."""
    from stockade.core.log.entry_files import unlink

    try:
        stores: dict[str, float] = {}
        now = time.time()
        for entry in os.scandir(folder):
            name = entry.name
            stem, _, kind = name.partition(".")
            if name.startswith(".") and name.endswith(".tmp"):
                if now - entry.stat(follow_symlinks=False).st_mtime > 3600:
                    unlink(entry.path)
            elif kind in KINDS and len(stem) == 32 and stem != keep:
                when = entry.stat(follow_symlinks=False).st_mtime
                stores[stem] = max(stores.get(stem, 0.0), when)
        if len(stores) < MAX_LOGS:
            return
        for stem in sorted(stores, key=stores.__getitem__)[: len(stores) - MAX_LOGS + 1]:
            for kind in KINDS:
                unlink(os.path.join(folder, f"{stem}.{kind}"))
    except OSError:
        pass


__all__ = [
    "Content",
    "cache_dir",
    "code_fingerprint",
    "entry_path",
    "fingerprint",
    "forget",
    "forget_code_fingerprint",
    "keys_for",
    "prune",
    "read_entry",
    "runtime",
    "write_entry",
]
