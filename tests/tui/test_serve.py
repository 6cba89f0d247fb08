"""``stockade serve``: the app in a real browser (headless Chromium from the
distribution, driven by selenium through chromedriver), and the secret token.

Only loopback addresses. The browser test is skipped, saying why, where Chromium,
chromedriver or selenium cannot be had (.ci/run installs them with apt-get when it can).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listens(pid: int, port: int) -> bool:
    """Does process ``pid`` itself listen on ``port``? (The server prints its URL before
    it binds; a connection alone could reach another test's server on that port.)"""
    if not Path("/proc/net/tcp").exists():  # no /proc: any listener on the port
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False
    sockets = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # LISTEN
                sockets.add(f"socket:[{fields[9]}]")
    try:
        return any(os.readlink(fd) in sockets for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:  # it exited meanwhile
        return False


class Served:
    """``stockade serve FILE`` running in its own process group."""

    def __init__(self, tmp_path: Path, game: Path, *extra: str):
        self.out = tmp_path / "serve.out"
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "STOCKADE_CONFIG_DIR": str(tmp_path / "config"),
            "STOCKADE_DATA_DIR": str(tmp_path / "data"),
            "COLUMNS": "200",  # the URL on one line
        }
        # A free port can be taken by another test process (xdist) between asking and
        # binding: then the server says so and exits, and it starts again on another.
        for _ in range(5):
            self.port = free_port()
            self.process = subprocess.Popen(
                [sys.executable, "-m", "stockade.tui.launcher", "serve", str(game)]
                + ["--port", str(self.port), *extra],
                stdout=self.out.open("w"),
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                env=env,
                start_new_session=True,  # stop() signals its group: the app it serves too
            )
            url = self._wait_for_url()
            if url is not None:
                self.url = url
                return
        raise AssertionError(f"stockade serve found no free port:\n{self.output()}")

    def _wait_for_url(self) -> str | None:
        """The URL once the server listens; None when its port was taken meanwhile."""
        hang_guard = time.monotonic() + 300  # a server that never starts, not a slow one
        while time.monotonic() < hang_guard:
            found = re.search(r"Open this in a browser: (\S+)", self.output())
            if found and _listens(self.process.pid, self.port):
                return found.group(1)
            if self.process.poll() is not None:
                if "address already in use" in self.output().lower():
                    return None
                break
            time.sleep(0.2)
        raise AssertionError(f"stockade serve did not start:\n{self.output()}")

    def output(self) -> str:
        return self.out.read_text(errors="replace")

    def wait_for(self, wanted, what: str) -> str:
        """The server's output once ``wanted(output)`` holds (it logs as it goes)."""
        hang_guard = time.monotonic() + 120  # a server that hung, never a slow one
        while not wanted(log := self.output()):
            assert time.monotonic() < hang_guard, f"the server never logged {what}:\n{log}"
            time.sleep(0.1)
        return log

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)


@pytest.fixture
def game(tmp_path) -> Path:
    target = tmp_path / "demo.jsonl"
    shutil.copyfile(SAMPLES / "demo.jsonl", target)
    return target


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


# ------------------------------------------------------------------ the token
def test_a_request_without_the_token_is_refused_and_logged(tmp_path, game):
    served = Served(tmp_path, game, "--require-token")
    try:
        base = f"http://127.0.0.1:{served.port}"
        token = served.url.split("token=", 1)[1]
        assert len(token) >= 32
        assert status_of(f"{base}/") == 403
        assert status_of(f"{base}/?token=wrong") == 403
        assert status_of(f"{base}/static/js/textual.js") == 403
        assert status_of(f"{base}/ws") == 403
        assert status_of(f"{base}/?token={token}") == 200
        log = served.wait_for(lambda log: log.count("refused GET") >= 4, "the refusals logged")
        assert "HTTP 403" in log
        assert served.output().count(token) >= 1  # printed once, as the URL
    finally:
        served.stop()


def test_without_a_token_the_server_listens_on_loopback_only(tmp_path, game):
    served = Served(tmp_path, game, "--no-token")
    try:
        assert served.url == f"http://127.0.0.1:{served.port}/"
        assert status_of(served.url) == 200
        assert "Warning: served without a token" in served.output()
    finally:
        served.stop()


def status_with(url: str, **headers: str) -> int:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


async def _handshake(url: str, origin: str | None) -> int:
    """The HTTP status of a WebSocket handshake to ``url`` (101 when it opens)."""
    import aiohttp

    headers = {"Origin": origin} if origin else {}
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers) as ws:
                await ws.close()
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return int(exc.status)


def handshake(url: str, origin: str | None = None) -> int:
    import asyncio

    return asyncio.run(_handshake(url, origin))


def a_malformed_request_is_one_line_not_a_traceback(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as raw:
        raw.sendall(b"GET /\x00\xff HTTP/9.9\r\nHost: \x01\r\n\r\n" + b"x" * 70000)
        with contextlib.suppress(OSError):
            raw.recv(4096)
    time.sleep(0.5)
    output = served.output()
    assert "Traceback" not in output and "locals" not in output.lower(), output
    assert len(output.splitlines()) < 40, output  # its own lines and the checks' before


def test_by_default_loopback_asks_for_the_token_and_checks_host_and_origin(tmp_path, game):
    """One server with the default options: the token, the host and the origin checked
    and logged, then a malformed request to the same server."""
    served = Served(tmp_path, game)
    try:
        base = f"http://127.0.0.1:{served.port}"
        assert "token=" in served.url  # a secret even on 127.0.0.1
        token = served.url.split("token=", 1)[1]
        assert status_of(f"{base}/") == 403
        assert status_of(f"{base}/?token={token}") == 200
        assert status_with(f"http://localhost:{served.port}/?token={token}") == 200
        # a DNS-rebinding page: right address, its own name
        assert status_with(f"{base}/?token={token}", Host=f"evil.example:{served.port}") == 403
        # another site's page, even holding the token
        evil = "http://evil.example"
        assert status_with(f"{base}/?token={token}", Origin=evil) == 403
        ws = f"ws://127.0.0.1:{served.port}/ws?token={token}&width=80&height=24"
        assert handshake(ws, origin=evil) == 403  # cross-site WebSocket hijacking
        assert handshake(ws.replace(token, "wrong"), origin=base) == 403
        # each of the seven requests has its line in the access log
        output = served.wait_for(
            lambda log: len(re.findall(r'"GET [^"]*" \d{3} ', log)) >= 7,
            "every request in the access log",
        )
        assert "Origin 'http://evil.example' is another site" in output
        # printed once, as the link; never in the access log
        assert output.count(token) == 1, output
        assert "token=(hidden)" in output
        a_malformed_request_is_one_line_not_a_traceback(served)
    finally:
        served.stop()


def test_sessions_beyond_the_cap_are_refused(tmp_path, game):
    served = Served(tmp_path, game, "--max-sessions", "1")
    try:
        token = served.url.split("token=", 1)[1]
        origin = f"http://127.0.0.1:{served.port}"
        ws = f"ws://127.0.0.1:{served.port}/ws?token={token}&width=80&height=24"

        async def two() -> tuple[int, int]:
            import aiohttp

            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(ws, headers={"Origin": origin}),
            ):
                return 101, await _handshake(ws, origin)

        import asyncio

        assert asyncio.run(two()) == (101, 503)
        served.wait_for(
            lambda log: "1 already open, the most served at once (HTTP 503)" in log,
            "the session refused",
        )
    finally:
        served.stop()


# ------------------------------------------------------------- a real browser
READ_SCREEN = "var r = document.querySelector('.xterm-rows'); return r ? r.innerText : '';"
# The centre of ``label`` in the last screen row that holds ``row_with`` (the footer).
LOCATE = """
const [label, rowWith] = arguments;
const rows = Array.from(document.querySelectorAll('.xterm-rows > div'));
for (let i = rows.length - 1; i >= 0; i--) {
  if (!rows[i].innerText.includes(rowWith)) continue;
  const walker = document.createTreeWalker(rows[i], NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const at = node.textContent.indexOf(label);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + label.length);
    const box = range.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  }
}
return null;
"""
# xterm.js draws on a canvas; with no canvas context it falls back to its DOM
# renderer, whose rows are text the test can read (what the player sees, as text).
NO_CANVAS = "HTMLCanvasElement.prototype.getContext = function () { return null; };"


def _browser():
    """Headless Chromium: one process for the test's every session (each a window)."""
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip(
            "no Chromium from the distribution (/usr/bin/chromium, /usr/bin/chromedriver): "
            "apt-get install chromium chromium-driver to run the browser test"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='stockade-chromium-')}")
    return webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))


class Window:
    """One browser window, its own page and its own session of the served app; the
    driver is switched to it for each thing done there."""

    def __init__(self, driver, new: bool) -> None:
        self.driver = driver
        if new:
            driver.switch_to.new_window("window")
        self.handle = driver.current_window_handle
        # set for this window's page before it loads (a script per target)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_CANVAS})

    def _here(self):
        if self.driver.current_window_handle != self.handle:
            self.driver.switch_to.window(self.handle)
        return self.driver

    def get(self, url: str) -> None:
        self._here().get(url)

    def execute_script(self, script: str, *args):
        return self._here().execute_script(script, *args)

    def execute_cdp_cmd(self, command: str, params: dict):
        return self._here().execute_cdp_cmd(command, params)


def _wait(driver, predicate, what: str, timeout: float = 300) -> str:
    deadline = time.monotonic() + timeout  # a browser that hung, never a slow one
    text = ""
    while time.monotonic() < deadline:
        text = driver.execute_script(READ_SCREEN) or ""
        if predicate(text):
            return text
        time.sleep(0.2)
    raise AssertionError(f"the browser never showed {what}; it showed:\n{text}")


def _click(driver, label: str, row_with: str = "Palette") -> None:
    """A real mouse click (down and up) on ``label`` as drawn on the screen."""
    where = driver.execute_script(LOCATE, label, row_with)
    assert where, f"{label!r} is not on the screen"
    x, y = where
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
        )


def _current_phase(text: str) -> str:
    found = re.search(r"▶\[(\w+)\]", text)
    assert found, f"no current phase on the screen:\n{text}"
    return found.group(1)


def _kinds(path: Path) -> list[str]:
    return [json.loads(line)["kind"] for line in path.read_bytes().splitlines()]


def test_in_a_browser_click_next_phase_and_undo_and_a_second_session_follows(tmp_path, game):
    driver = _browser()
    served = None
    try:
        served = Served(tmp_path, game, "--require-token")
        writer = Window(driver, new=False)
        writer.get(served.url)
        text = _wait(writer, lambda t: "Game Turn" in t and "Palette" in t, "the main screen")
        phase = _current_phase(text)
        lines_before = _kinds(game)

        # a second session (its own window, its own connection): read-only, following
        # the first
        watcher = Window(driver, new=True)
        watcher.get(served.url)
        _wait(watcher, lambda t: "Game Turn" in t, "the main screen in the second session")

        _click(writer, "Next")
        text = _wait(writer, lambda t: _current_phase(t) != phase, "the next phase")
        moved_to = _current_phase(text)
        assert _kinds(game) == lines_before + ["phase"]  # on disk before the screen moved
        _wait(watcher, lambda t: _current_phase(t) == moved_to, "the writer's phase, live")

        _click(writer, "Undo")
        _wait(writer, lambda t: _current_phase(t) == phase, "the phase undone")
        assert _kinds(game) == lines_before + ["phase", "undo"]
        _wait(watcher, lambda t: _current_phase(t) == phase, "the undo, live")
    finally:
        driver.quit()
        if served is not None:
            served.stop()


# ------------------------------------------------------- where it listens, and the secret
def test_the_secret_is_required_beyond_loopback(game):
    from stockade.tui.serve import lan_address, make_server

    local = make_server(game, port=8123)  # a secret on loopback too, by default
    assert local.host == "127.0.0.1" and local.token and len(local.token) >= 32
    assert local.url == f"http://127.0.0.1:8123/?token={local.token}"
    bare = make_server(game, port=8123, no_token=True)
    assert (bare.token, bare.url) == (None, "http://127.0.0.1:8123/")
    with pytest.raises(OSError, match="127.0.0.1 only"):
        make_server(game, host="192.0.2.7", no_token=True)
    other = make_server(game, host="192.0.2.7")  # constructed, never started
    assert other.host == "192.0.2.7" and other.token and len(other.token) >= 32
    assert make_server(game, host="192.0.2.7").token != other.token  # fresh every time
    address = lan_address()
    if address is not None:
        on_lan = make_server(game, lan=True)
        assert on_lan.host == address and not address.startswith("127.") and on_lan.token


def test_serve_passes_its_options_to_the_ui(game, capsys):
    from stockade.core.cli import main

    calls = []

    class FakeUI:
        def serve(self, path, **options):
            calls.append((path, options))
            return 0

    assert main(["serve", str(game), "--lan", "--port", "9001"], ui=FakeUI()) == 0
    assert calls == [
        (game, {"port": 9001, "lan": True, "host": None, "no_token": False, "max_sessions": 4})
    ]
    assert main(["serve", str(game)]) == 2  # no UI: a usage error, one line
    assert main(["serve", str(game.with_name("missing.jsonl"))], ui=FakeUI()) == 1
