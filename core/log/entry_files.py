"""The files of the derived store (core/log/derived.py): each authenticated, each
written whole or not at all, none followed through a link.

A file is ``MAGIC``, a keyed BLAKE2b (a MAC, as an HMAC is) over the header and the
payload, the header (the keys it was written under, JSON, one line), then the payload.
The key is per user: 32 random bytes in the folder (``key``, 0600, made on first use).
A file edited and re-summed without the key does not verify. Files are created 0600
with O_CREAT|O_EXCL|O_NOFOLLOW under a random temporary name, then renamed into place;
the folder is made 0700; a file is read through O_NOFOLLOW and only when it is a regular
file of a bounded size. This module knows nothing of what a file holds, nor of which
keys an entry needs (``core.log.derived`` says).

Import-light, as derived.py is: os, sys, stat and CPython's own BLAKE2 (from
``_blake2``: ``hashlib`` would load OpenSSL, ~2 ms, for a hash it does not use); json
when a header is written, or read before msgspec is loaded.
"""

from __future__ import annotations

import os
import stat
import sys

try:  # CPython's own BLAKE2, without the OpenSSL that hashlib loads first
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another interpreter
    from hashlib import blake2b
from _operator import _compare_digest as same_mac  # hmac.compare_digest, without hmac

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

MAGIC = b"stockade derived\n"
MAC_BYTES = 32
MAX_ENTRY_BYTES = 256 << 20  # a snapshot of the longest game is a few tens of MB
KEY_FILE = "key"

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def store_name(resolved: str) -> str:
    """The name (before the kind) of the store of the log at ``resolved``."""
    return blake2b(resolved.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def user_key(folder: str, create: bool) -> bytes | None:
    """The per-user MAC key (``folder/key``, 32 random bytes, 0600), made on first use
    when ``create``; None when it cannot be had or is not as made (another owner, a
    link, other permissions, another length)."""
    path = os.path.join(folder, KEY_FILE)
    for _ in range(2):
        try:
            fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _BINARY)
        except FileNotFoundError:
            if not create or not _make_key(folder, path):
                return None
            continue
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if (
                not stat.S_ISREG(st.st_mode)
                or st.st_mode & 0o077
                or (hasattr(os, "getuid") and st.st_uid != os.getuid())
                or st.st_size != 32
            ):
                return None
            key = os.read(fd, 33)
        except OSError:
            return None
        finally:
            os.close(fd)
        return key if len(key) == 32 else None
    return None


def _make_key(folder: str, path: str) -> bool:
    """Make the key file; True when it exists now (made here or by another process)."""
    try:
        make_folder(folder)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    except FileExistsError:
        return True
    except OSError:
        return False
    try:
        os.write(fd, os.urandom(32))
        os.fsync(fd)
    except OSError:
        os.close(fd)
        unlink(path)
        return False
    os.close(fd)
    return True


def make_folder(folder: str) -> None:
    os.makedirs(folder, mode=0o700, exist_ok=True)


def _mac_of(key: bytes, header: bytes) -> Any:
    """The MAC of an entry, fed its header: the payload is fed after it."""
    mac = blake2b(key=key, digest_size=MAC_BYTES, person=b"stockade store")
    mac.update(len(header).to_bytes(8, "big"))
    mac.update(header)
    return mac


def _mac(key: bytes, header: bytes, payload: bytes) -> bytes:
    mac = _mac_of(key, header)
    mac.update(payload)
    return bytes(mac.digest())


def write_file(folder: str, name: str, keys: dict[str, object], payload: bytes) -> bool:
    """Write an entry: ``MAGIC``, the MAC, the header (``keys``, JSON, one line), the
    payload; atomically (a new 0600 file under a random name, O_EXCL|O_NOFOLLOW, then
    a rename over ``name``). Best effort: False when it could not be written."""
    return write_file_from(folder, name, keys, (payload,))


def write_file_from(
    folder: str,
    name: str,
    keys: dict[str, object],
    pieces: Iterable[bytes | bytearray | memoryview],
) -> bool:
    """``write_file`` of the payload made of ``pieces``, each written as it comes and
    never all held at once (a long game's snapshot is tens of MB): the MAC is made on
    the way and written in its place last. A piece that cannot be made (ValueError or
    TypeError from ``pieces``) leaves no file, as a failed write does."""
    key = user_key(folder, create=True)
    if key is None:
        return False
    import json

    header = json.dumps(keys, separators=(",", ":"), sort_keys=True).encode("ascii")
    mac = _mac_of(key, header)
    tmp = os.path.join(folder, f".{name}.{os.urandom(8).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC | _BINARY
    try:
        fd = os.open(tmp, flags, 0o600)
    except OSError:
        return False
    try:
        try:
            _write_all(fd, MAGIC + bytes(MAC_BYTES) + header + b"\n")
            for piece in pieces:
                mac.update(piece)
                _write_all(fd, piece)
            if os.pwrite(fd, mac.digest(), len(MAGIC)) != MAC_BYTES:
                raise OSError("the MAC was not written whole")
        finally:
            os.close(fd)
        os.replace(tmp, os.path.join(folder, name))
        return True
    except (OSError, ValueError, TypeError):
        unlink(tmp)
        return False


def _write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def read_file(folder: str, name: str, keys: dict[str, object]) -> bytes | None:
    """The payload of entry ``name`` if it verifies (the MAC under this user's key) and
    was written under exactly ``keys``; else None."""
    key = user_key(folder, create=False)
    if key is None:
        return None
    try:
        fd = os.open(os.path.join(folder, name), os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _BINARY)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY_BYTES:
            return None
        parts = []
        while chunk := os.read(fd, 1 << 20):
            parts.append(chunk)
        data = b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)
    head = len(MAGIC)
    end = data.find(b"\n", head + MAC_BYTES)
    if data[:head] != MAGIC or end < 0:
        return None
    header, payload = data[head + MAC_BYTES : end], data[end + 1 :]
    if not same_mac(_mac(key, header, payload), data[head : head + MAC_BYTES]):
        return None
    try:
        if json_loads(header) != keys:
            return None
    except ValueError:  # pragma: no cover - the MAC held
        return None
    return payload


def json_loads(data: bytes) -> object:
    """JSON read with msgspec when the process has loaded it (a warm open has): json's
    import, its regular expressions compiled, cost ~5 M instructions; else json
    (a tally answered from the store loads no msgspec). The same plain data either way;
    ValueError when it is not JSON."""
    loaded = sys.modules.get("msgspec")
    if loaded is not None:
        decoded: object = loaded.json.decode(data)
        return decoded
    import json

    return json.loads(data)


def unlink(path: str) -> None:
    try:  # noqa: SIM105 (contextlib is one import more at every start)
        os.unlink(path)
    except OSError:
        pass


__all__ = [
    "MAC_BYTES",
    "json_loads",
    "make_folder",
    "read_file",
    "store_name",
    "unlink",
    "user_key",
    "write_file",
    "write_file_from",
]
