"""``stockade serve``: the same Textual app in a browser, through textual-serve.

Each browser session runs its own ``stockade FILE`` process (textual-serve starts it and
carries its screen over a websocket). The first one takes the game's write lock and
writes; the others open it read-only and follow it live (core/book/follow.py).

By default the server listens on 127.0.0.1 only. ``--lan`` listens on this machine's
address on the local network, for a tablet or phone at the table.

Safe by default, as Jupyter is (a local server that drives a user's files): any web
page the user visits can reach 127.0.0.1, so loopback is no boundary.

* A secret token (``secrets.token_urlsafe``) on every address, loopback included,
  printed once, as a URL and as a QR code. A request that carries neither the token
  (``?token=``) nor the cookie the first page with it sets is refused with HTTP 403 and
  logged. ``--no-token`` opts out on loopback only, with a warning.
* The Host header must name the address served (a DNS-rebinding page sends its own
  name), and an Origin header, when there is one, must be that address too: a
  WebSocket opened by another site's page (cross-site WebSocket hijacking) is refused
  with HTTP 403 before it starts a session.
* At most ``max_sessions`` browser sessions at once (each one is a process); one more is
  refused with HTTP 503.
* The log never shows the token (the access log prints each request line without its
  query), and an error is one line, never a traceback with its locals.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import secrets
import shlex
import socket
import sys
from functools import partial
from pathlib import Path

from aiohttp import web
from aiohttp.typedefs import Handler
from textual_serve.server import Server

log = logging.getLogger("stockade.serve")

COOKIE = "stockade_token"
DEFAULT_PORT = 8000
MAX_SESSIONS = 4  # browser sessions at once: each runs its own app process
_TOKEN_IN_TEXT = re.compile(r"([?&]token=)[^\s&\"']*")


def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` query parameter hidden."""
    return _TOKEN_IN_TEXT.sub(r"\1(hidden)", text)


class OneLineFormatter(logging.Formatter):
    """A log record as one line, the token hidden: an exception is named, never shown
    as a traceback (textual-serve's handler printed ~100 lines with every local)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            message = f"{message} ({type(error).__name__}: {error})"
        return redact(" ".join(message.split()))


def lan_address() -> str | None:
    """This machine's address on the local network (the one its default route uses);
    None when there is none. Sends nothing: a UDP "connect" only picks a route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else str(address)


def is_loopback(host: str) -> bool:
    """Does ``host`` name this machine only: ``localhost``, or an address in 127.0.0.0/8
    or ::1 (judged as an address, never by its spelling: "127.evil.example" is a name
    anyone's DNS can point anywhere)?"""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def app_command(path: Path | None) -> str:
    """The shell command textual-serve runs for each browser session."""
    argv = [sys.executable, "-m", "stockade.tui.launcher"]
    if path is not None:
        argv.append(str(Path(path).resolve()))
    return shlex.join(argv)


class StockadeServer(Server):
    """textual-serve's server, with the token, the Host and Origin checks and the cap on
    sessions on every request (see the module)."""

    def __init__(
        self,
        command: str,
        host: str,
        port: int,
        token: str | None,
        title: str,
        max_sessions: int = MAX_SESSIONS,
    ):
        super().__init__(command, host=host, port=port, title=title)
        self.token = token
        self.max_sessions = max_sessions
        self.sessions = 0
        self.allowed_hosts = allowed_hosts(host, port)

    @property
    def url(self) -> str:
        """The address to open: with the token when one is required."""
        return f"{self.public_url}/" + (f"?token={self.token}" if self.token else "")

    def initialize_logging(self) -> None:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(OneLineFormatter())
        logging.basicConfig(level="INFO", handlers=[handler], force=True)

    # textual-serve builds its aiohttp app here and offers no public hook for a
    # middleware; the guard must see every route (the static files too), so it is added
    # to the app this builds (tests/tui/test_serve.py fails if textual-serve stops calling it).
    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.append(self._check_request)
        app.middlewares.append(self._local_fonts)
        return app

    @web.middleware
    async def _local_fonts(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The page with no third-party request: textual-serve's template loads Roboto
        Mono's stylesheet from a font host on the internet; offline, or behind a
        firewall, that request hangs or fails. The font ships with textual-serve (its
        static files): the link becomes a local ``@font-face``."""
        response = await handler(request)
        if isinstance(response, web.Response) and response.content_type == "text/html":
            text = response.text or ""
            static = request.app.router["static"].url_for(filename="/")
            response.text = local_fonts(text, f"{self.public_url}{static}".rstrip("/") + "/")
        return response

    def _has_token(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        return secrets.compare_digest(given.encode(), self.token.encode())

    def refusal(self, request: web.Request) -> str:
        """Why ``request`` is refused ("" if it is not): a foreign Host or Origin, or
        no valid token."""
        host = request.headers.get("Host", "")
        if host.lower() not in self.allowed_hosts:
            return f"Host {host[:80]!r} is not the address served"
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in {
            f"{scheme}://{name}" for scheme in ("http", "https") for name in self.allowed_hosts
        }:
            return f"Origin {origin[:80]!r} is another site"
        if not self._has_token(request):
            return "no valid token"
        return ""

    @web.middleware
    async def _check_request(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        why = self.refusal(request)
        if why:
            log.warning(
                "refused %s %s from %s: %s (HTTP 403)",
                request.method,
                request.path,
                request.remote,
                why,
            )
            return web.Response(
                status=403,
                text="Stockade: refused. This game is served with a secret to this "
                "address only; open the link with its token, as printed where "
                "'stockade serve' runs.\n",
            )
        if request.path == "/ws":  # textual-serve's websocket: one app process each
            return await self._session(request, handler)
        response = await handler(request)
        if self.token and "token" in request.query and not response.prepared:
            # the page's scripts, styles and websocket then carry the secret as a cookie
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict")
        return response

    async def _session(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A browser session, if fewer than ``max_sessions`` are open (HTTP 503 if not)."""
        if self.sessions >= self.max_sessions:
            log.warning(
                "refused a browser session from %s: %d already open, the most served "
                "at once (HTTP 503)",
                request.remote,
                self.sessions,
            )
            return web.Response(
                status=503,
                text=f"Stockade: {self.sessions} browser sessions are open, the most "
                "this server runs at once; close one and reload.\n",
            )
        self.sessions += 1
        try:
            response: web.StreamResponse = await handler(request)
            return response
        finally:
            self.sessions -= 1

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
        else:
            say(
                "Warning: served without a token (--no-token): any web page open in a "
                "browser on this machine can reach it."
            )
        say("The first browser session writes; the others follow it. Ctrl+C stops.")


_LINK = re.compile(r"<link\b[^>]*\bhref=\"(https?://[^\"]*)\"[^>]*>", re.IGNORECASE)
# Roboto Mono as textual-serve ships it; a character the font lacks (a symbol, a box)
# falls back, per character, to the browser's own monospace font, as the page asks.
_FONT_FACES = """<style>
@font-face {{ font-family: "Roboto Mono"; font-style: normal; font-display: swap;
  src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }}
@font-face {{ font-family: "Roboto Mono"; font-style: italic; font-display: swap;
  src: url("{static}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }}
</style>"""


def local_fonts(page: str, static: str) -> str:
    """``page`` with every link to another host (the font host's stylesheet) replaced
    by the fonts served from ``static`` (this server's static files, ending in /)."""
    origin = static.split("/", 3)[:3]  # scheme, "", host[:port]

    def swap(found: re.Match[str]) -> str:
        if found.group(1).split("/", 3)[:3] == origin:
            return found.group(0)  # this server's own file
        return _FONT_FACES.format(static=static)

    return _LINK.sub(swap, page)


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host header values that name the address served (lower case)."""
    names = {host}
    if is_loopback(host):
        names |= {"localhost", "127.0.0.1", "[::1]"}
    elif ":" in host:
        names = {f"[{host}]"}
    with_port = {f"{name}:{port}" for name in names}
    if port == 80:
        with_port |= names
    return frozenset(name.lower() for name in with_port)


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
    no_token: bool = False,
    max_sessions: int = MAX_SESSIONS,
) -> StockadeServer:
    """The server ``serve`` runs: on 127.0.0.1 unless ``lan`` or ``host``; with a fresh
    secret token unless ``no_token`` (refused beyond loopback).
    Raises OSError when ``lan`` finds no local network address, or ``no_token`` is
    asked beyond loopback."""
    if lan and host is None:
        host = lan_address()
        if host is None:
            raise OSError("no local network address found; use --host ADDRESS")
    host = host or "127.0.0.1"
    beyond_loopback = not is_loopback(host)
    if no_token and beyond_loopback:
        raise OSError("--no-token is for 127.0.0.1 only; beyond it the secret link is required")
    token = None if no_token else secrets.token_urlsafe(24)
    title = Path(path).name if path is not None else "Stockade"
    return StockadeServer(
        app_command(path),
        host=host,
        port=port,
        token=token,
        title=title,
        max_sessions=max(1, max_sessions),
    )


def serve(
    path: Path | None,
    port: int = DEFAULT_PORT,
    lan: bool = False,
    host: str | None = None,
    no_token: bool = False,
    max_sessions: int = MAX_SESSIONS,
) -> int:
    """Run the server until Ctrl+C; returns the exit code."""
    try:
        server = make_server(path, port, lan, host, no_token, max_sessions)
    except OSError as exc:
        print(f"stockade: {exc}", file=sys.stderr)
        return 1
    server.serve()
    return 0
