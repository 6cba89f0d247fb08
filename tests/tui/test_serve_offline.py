"""``stockade serve``: what counts as loopback, and a page that asks nothing of the
internet (no stylesheet or font from another host: offline, the symbols must still
have a font)."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from stockade.tui.serve import allowed_hosts, is_loopback, make_server

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("127.3.4.5", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("127.evil.example", False),  # a name: its DNS can point anywhere
        ("127.0.0.1.nip.io", False),
        ("1270.0.0.1", False),
        ("10.0.0.7", False),
        ("::2", False),
        ("0.0.0.0", False),
    ],
)
def test_loopback_is_judged_as_an_address_never_by_its_spelling(host, loopback):
    assert is_loopback(host) is loopback


def test_a_name_that_starts_with_127_is_no_loopback(tmp_path):
    game = tmp_path / "demo.jsonl"
    shutil.copyfile(SAMPLES / "demo.jsonl", game)
    with pytest.raises(OSError, match="secret link is required"):
        make_server(game, host="127.evil.example", no_token=True)
    assert "localhost:8000" not in allowed_hosts("127.evil.example", 8000)
    assert "localhost:8000" in allowed_hosts("127.0.0.1", 8000)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_page_makes_no_third_party_request_and_serves_its_fonts(tmp_path):
    game = tmp_path / "demo.jsonl"
    shutil.copyfile(SAMPLES / "demo.jsonl", game)
    port = _free_port()
    server = make_server(game, port=port)
    origin = f"http://127.0.0.1:{port}"

    async def fetch() -> tuple[str, list[tuple[str, int, int]]]:
        app = await server._make_app()
        client = TestClient(TestServer(app, host="127.0.0.1", port=port))
        await client.start_server()
        try:
            page = await client.get(f"/?token={server.token}")
            assert page.status == 200
            html = await page.text()
            fonts = []
            for url in re.findall(r"url\(\"([^\"]+)\"\)", html):
                got = await client.get(url.removeprefix(origin))
                fonts.append((url, got.status, len(await got.read())))
            return html, fonts
        finally:
            await client.close()

    html, fonts = asyncio.run(fetch())
    # Every absolute address in the page is this server's own.
    for url in re.findall(r"(?:https?|wss?)://[^\s\"'<>)]+", html):
        if url.startswith("http://www.w3.org/"):  # an SVG namespace: a name, never fetched
            continue
        assert url.split("/")[2] == f"127.0.0.1:{port}", url
    assert "googleapis" not in html and "gstatic" not in html
    assert "@font-face" in html and fonts, html[:800]
    for url, status, size in fonts:
        assert status == 200 and size > 10_000, (url, status, size)
