"""The kept tally: a tally's output kept in the cache, so that ``stockade tally`` on a
log it has already tallied prints it again without loading the fold.

A tally folds the whole log with the rules, which loads most of the core and msgspec:
that import alone is several times the interpreter's own start. The output of
``tally`` is a function of the log's bytes, the code and data of the core, and the
command's arguments; when all of them are as they were, the output is too. So the slow
path (core/cli/read_commands.py) keeps what it printed (so do ``do`` and ``run``, of the
state they wrote, when that is certain to be what a fold prints: ``keep_after_write``),
and the console script (core/cli/kept.py, called by tui/launcher.py before anything
heavy is imported) prints it again when everything it depends on verifies:

* the log's full content as read now (its length and BLAKE2b digest) is the content the
  kept output was folded from;
* the log has no unfinished-group marker beside it (``.NAME.writing``, which hides
  entries from a reader), neither when it was kept nor now;
* the code fingerprint (every .py and .toml of ``stockade.core``, by path and content)
  is the one it was kept with;
* the command's arguments (the file as given, --json, --format, --at) are the same.

Anything else (a file missing, unreadable, garbage or from another version; the cache
off) is a miss, and the tally folds as it always did. The files live beside the
snapshots (``cache_dir``), one per log (named by a digest of its resolved path), with a
checksum over the payload (JSON: plain data, nothing in it is ever run).

Import-light by design: this module is imported by every ``stockade`` run that may be a
tally, before msgspec or the model, so it imports only os, sys, json and a BLAKE2b
(from ``_blake2``: ``hashlib`` would load OpenSSL, ~2 ms, for a hash it does not use).
"""

from __future__ import annotations

import functools  # already loaded by the interpreter's start: free here
import json
import os
import sys
import time

try:  # CPython's own BLAKE2, without the OpenSSL that hashlib loads first
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b

VERSION = 1
MAGIC = b"stockade kept tally\n"
MEMO_MAGIC = b"stockade code memo\n"
SUFFIX = ".tally"
MAX_FILES = 24  # kept tallies per cache folder (as many as snapshots), oldest pruned
MAX_ENTRIES = 16  # outputs kept per log (formats, --at, --json)
# A source whose stat is this recent is hashed again on every run rather than memoised:
# a file written twice within the file system's clock tick keeps its size and mtime (git
# calls such an index entry "racily clean").
RACY_NS = 2_000_000_000

# (the file as given, its resolved path, --json, --format, --at)
Key = tuple[str, str, bool, str, int | None]


def cache_dir() -> str | None:
    """The folder of the snapshots and kept tallies (snapcache.cache_dir, without
    importing platformdirs on Linux: tests/log/test_kept_tally.py checks they agree), or
    None when the cache is off."""
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


def core_root() -> str:
    """The folder of ``stockade.core`` (this file is core/log/kept_tally.py)."""
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
    by its stat (size, mtime, ctime, inode) in ``memo_dir/code-*.memo``: an unchanged
    tree costs a stat per file; any changed stat hashes that file again."""
    try:
        sources = _sources(root)
    except OSError:
        return None
    if not sources:
        return None
    # one memo per tree: two installations sharing a cache dir do not overwrite each other's
    tree = blake2b(root.encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()
    memo_name = "code-" + tree
    memo = _read_memo(os.path.join(memo_dir, memo_name + ".memo")) if memo_dir else {}
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
        rows: dict[str, object] = {rel: [*held[:4], held[4].hex()] for rel, held in fresh.items()}
        _write(memo_dir, memo_name + ".memo", MEMO_MAGIC, rows)
    return digest.hexdigest()


@functools.cache  # the code does not change while the process runs
def code_fingerprint() -> str | None:
    """The fingerprint of this installation's core (memoised in the cache dir): once
    per process, though a folding tally asks it when it looks and when it keeps."""
    return fingerprint(core_root(), cache_dir())


def _read_memo(path: str) -> dict[str, tuple[int, int, int, int, bytes]]:
    payload = _read(path, MEMO_MAGIC)
    if not isinstance(payload, dict):
        return {}
    memo: dict[str, tuple[int, int, int, int, bytes]] = {}
    for rel, held in payload.items():
        if not (
            isinstance(held, list)
            and len(held) == 5
            and all(type(v) is int for v in held[:4])
            and type(held[4]) is str
        ):
            return {}
        try:
            content = bytes.fromhex(held[4])
        except ValueError:
            return {}
        memo[rel] = (held[0], held[1], held[2], held[3], content)
    return memo


def _read(path: str, magic: bytes) -> object:
    """The payload of a file ``_write`` wrote, or None (missing, cut short, garbage)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(magic)
    if data[:head] != magic or len(data) < head + 16:
        return None
    body = data[head + 16 :]
    if blake2b(body, digest_size=16).digest() != data[head : head + 16]:
        return None
    try:
        return json.loads(body)
    except ValueError:  # pragma: no cover - the checksum held
        return None


def _write(folder: str, name: str, magic: bytes, payload: dict[str, object]) -> bool:
    """Write ``payload`` atomically (a temporary file, then a rename); best effort."""
    # ASCII: a path's undecodable bytes (surrogates) travel as \udcxx escapes
    body = json.dumps(payload, separators=(",", ":")).encode("ascii")
    target = os.path.join(folder, name)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        os.makedirs(folder, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(magic + blake2b(body, digest_size=16).digest() + body)
        os.replace(tmp, target)
        return True
    except OSError:
        try:  # noqa: SIM105 (contextlib is one import more at every start)
            os.unlink(tmp)
        except OSError:
            pass
        return False


def marker_of(log: str) -> str:
    """The unfinished-group marker beside ``log`` (core/log/files.py group_marker)."""
    head, name = os.path.split(log)
    return os.path.join(head, f".{name}.writing")


def log_digest(log: str) -> tuple[int, str] | None:
    """The length and digest of ``log``'s content, or None when it cannot be read or
    has an unfinished group beside it (a reader hides that group's entries)."""
    try:
        with open(log, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if os.path.lexists(marker_of(log)):  # after the read, as opening a log checks it
        return None
    return len(data), blake2b(data, digest_size=32).hexdigest()


def file_for(folder: str, resolved: str) -> str:
    name = blake2b(resolved.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return os.path.join(folder, name + SUFFIX)


def lookup(key: Key) -> tuple[str, str] | None:
    """The kept (stdout, stderr) of the tally ``key`` names, if everything it was
    computed from is unchanged; else None."""
    folder = cache_dir()
    if folder is None:
        return None
    resolved = key[1]
    payload = _read(file_for(folder, resolved), MAGIC)
    if not isinstance(payload, dict) or payload.get("version") != VERSION:
        return None
    if payload.get("log") != resolved:
        return None
    output = _entries(payload).get(key)
    if output is None:
        return None
    found = log_digest(resolved)
    if found is None or [payload.get("size"), payload.get("digest")] != list(found):
        return None
    if payload.get("code") != code_fingerprint():
        return None
    return output


def keep(key: Key, digest: tuple[int, str], stdout: str, stderr: str) -> bool:
    """Keep the output of the tally ``key`` names, folded from a log of ``digest``
    (its length and digest, the same before and after the fold). Best effort."""
    folder = cache_dir()
    code = code_fingerprint()
    if folder is None or code is None:
        return False
    resolved = key[1]
    name = os.path.basename(file_for(folder, resolved))
    header = {"version": VERSION, "code": code, "log": resolved}
    header.update(size=digest[0], digest=digest[1])
    payload = _read(os.path.join(folder, name), MAGIC)
    entries: dict[Key, tuple[str, str]] = {}
    if isinstance(payload, dict) and all(payload.get(k) == v for k, v in header.items()):
        entries = {k: v for k, v in _entries(payload).items() if k != key}
    while len(entries) >= MAX_ENTRIES:
        del entries[next(iter(entries))]
    entries[key] = (stdout, stderr)
    rows = [[list(k), out, err] for k, (out, err) in entries.items()]
    if not _write(folder, name, MAGIC, {**header, "entries": rows}):
        return False
    _prune(folder, keep=name)
    return True


def _entries(payload: dict[str, object]) -> dict[Key, tuple[str, str]]:
    """The outputs a kept file holds, by key ({} when any row is not as written)."""
    rows = payload.get("entries")
    if not isinstance(rows, list):
        return {}
    entries: dict[Key, tuple[str, str]] = {}
    for row in rows:
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], list)):
            return {}
        key, out, err = row
        if not (
            len(key) == 5
            and isinstance(key[0], str)
            and isinstance(key[1], str)
            and type(key[2]) is bool
            and isinstance(key[3], str)
            and (key[4] is None or type(key[4]) is int)
            and isinstance(out, str)
            and isinstance(err, str)
        ):
            return {}
        entries[(key[0], key[1], key[2], key[3], key[4])] = (out, err)
    return entries


def _prune(folder: str, keep: str) -> None:
    try:
        kept = [
            os.path.join(folder, n)
            for n in os.listdir(folder)
            if n.endswith(SUFFIX) and len(n) == 32 + len(SUFFIX) and n != keep
        ]
        if len(kept) < MAX_FILES:
            return
        kept.sort(key=os.path.getmtime)
        for old in kept[: len(kept) - MAX_FILES + 1]:
            os.unlink(old)
    except OSError:
        pass


__all__ = ["cache_dir", "code_fingerprint", "fingerprint", "keep", "log_digest", "lookup"]
