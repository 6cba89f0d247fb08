"""``stockade serve``: the same Textual app in a browser, through textual-serve.

Each browser session runs its own ``stockade FILE`` process (textual-serve starts it and
carries its screen over a websocket). The first one takes the game's write lock and
writes; the others open it read-only and follow it live (core/book/follow.py).

By default the server listens on 127.0.0.1 only. ``--lan`` listens on this machine's
address on the local network, for a tablet or phone at the table, and then requires a
secret: a random token (``secrets.token_urlsafe``) printed once, as a URL and as a QR
code. A request that carries neither the token (``?token=``) nor the cookie the first
page with it sets is refused with HTTP 403 and logged.
"""

from __future__ import annotations

import logging
import secrets
import shlex
import socket
import sys
from functools import partial
from pathlib import Path

from aiohttp import web
from textual_serve.server import Server

log = logging.getLogger("stockade.serve")

COOKIE = "stockade_token"
DEFAULT_PORT = 8000


def lan_address() -> str | None:
    """This machine's address on the local network (the one its default route uses);
    None when there is none. Sends nothing: a UDP "connect" only picks a route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else str(address)


def app_command(path: Path | None) -> str:
    """The shell command textual-serve runs for each browser session."""
    argv = [sys.executable, "-m", "stockade.tui.launcher"]
    if path is not None:
        argv.append(str(Path(path).resolve()))
    return shlex.join(argv)


class StockadeServer(Server):
    """textual-serve's server, with a secret token checked on every request."""

    def __init__(self, command: str, host: str, port: int, token: str | None, title: str):
        super().__init__(command, host=host, port=port, title=title)
        self.token = token

    @property
    def url(self) -> str:
        """The address to open: with the token when one is required."""
        return f"{self.public_url}/" + (f"?token={self.token}" if self.token else "")

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        if self.token:
            app.middlewares.append(self._require_token)
        return app

    def _has_token(self, request: web.Request) -> bool:
        assert self.token is not None
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        return secrets.compare_digest(given.encode(), self.token.encode())

    @web.middleware
    async def _require_token(self, request: web.Request, handler) -> web.StreamResponse:
        if not self._has_token(request):
            log.warning(
                "refused %s %s from %s: no valid token (HTTP 403)",
                request.method,
                request.path,
                request.remote,
            )
            return web.Response(
                status=403,
                text="Stockade: this game is served with a secret; open the link with its "
                "token, as printed where 'stockade serve' runs.\n",
            )
        response = await handler(request)
        if "token" in request.query and not response.prepared:
            # the page's scripts, styles and websocket then carry the secret as a cookie
            response.set_cookie(COOKIE, self.token or "", httponly=True, samesite="Strict")
        return response

    async def on_startup(self, app: web.Application) -> None:
        # Plain text only: Rich would colour the link (escape codes a terminal cannot
        # copy back) and read "[...]" in a title as markup.
        say = partial(self.console.print, highlight=False, markup=False)
        say(f"Stockade: serving {self.title} on {self.public_url}")
        say(f"Open this in a browser: {self.url}", soft_wrap=True)
        if self.token:
            say("It holds the secret: anyone with the link can play. Scan it from a tablet:")
            qr = qr_text(self.url)
            if qr:
                say(qr)
        say("The first browser session writes; the others follow it. Ctrl+C stops.")


def qr_text(data: str) -> str:
    """``data`` as a QR code drawn in text ("" if the qrcode package is missing)."""
    try:
        import io

        import qrcode
    except ImportError:
        return ""
    code = qrcode.QRCode(border=1)
    code.add_data(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def make_server(
    path: Path | None,
    port: int = DEFAULT_PORT,
    lan: bool = False,
    host: str | None = None,
    require_token: bool = False,
) -> StockadeServer:
    """The server ``serve`` runs: on 127.0.0.1 unless ``lan`` or ``host``; with a fresh
    secret token whenever it listens beyond loopback, or when asked to.
    Raises OSError when ``lan`` finds no local network address."""
    if lan and host is None:
        host = lan_address()
        if host is None:
            raise OSError("no local network address found; use --host ADDRESS")
    host = host or "127.0.0.1"
    beyond_loopback = not (host.startswith("127.") or host in ("localhost", "::1"))
    wants_token = lan or require_token or beyond_loopback
    token = secrets.token_urlsafe(24) if wants_token else None
    title = Path(path).name if path is not None else "Stockade"
    return StockadeServer(app_command(path), host=host, port=port, token=token, title=title)


def serve(
    path: Path | None,
    port: int = DEFAULT_PORT,
    lan: bool = False,
    host: str | None = None,
    require_token: bool = False,
) -> int:
    """Run the server until Ctrl+C; returns the exit code."""
    try:
        server = make_server(path, port, lan, host, require_token)
    except OSError as exc:
        print(f"stockade: {exc}", file=sys.stderr)
        return 1
    server.serve()
    return 0
