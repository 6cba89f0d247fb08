"""A short log is decoded with a decoder of the record kinds it names
(``core.model.record_decoder``): the same records as the decoder of every kind, and
where that narrow decoder cannot take a line, the whole decoder's records or error."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from stockade.core.log.log_lines import MAX_LINE_BYTES
from stockade.core.log.streamed_read import STREAM_CHUNK
from stockade.core.model import events as ev
from stockade.core.model.record_decoder import NARROW_BYTES, RecordDecoder

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_games").glob("*.jsonl"))
WHOLE = msgspec.json.Decoder(ev.AnyRecord)


def fresh() -> RecordDecoder[ev.Record]:
    return RecordDecoder(ev.AnyRecord)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_a_sample_game_reads_the_same_with_its_own_kinds(path: Path) -> None:
    blob = path.read_bytes()
    decoder = fresh()
    assert decoder.decode_lines(blob) == WHOLE.decode_lines(blob)
    assert not decoder.made()  # read without the decoder of every kind


def _error(decode, blob: bytes) -> str:
    with pytest.raises(msgspec.MsgspecError) as caught:
        decode(blob)
    return str(caught.value)


GAME = ev.encode(ev.GameCreated(seq=1, grp=1, scenario="s", sides=[]))
PHASE = ev.encode(ev.PhaseSet(seq=2, grp=2, turn=1, attacker="A", phase="RPh"))
UNTAGGED = GAME.replace(b'"kind":"game",', b"")
UNKNOWN = PHASE.replace(b'"kind":"phase"', b'"kind":"parade"')


@pytest.mark.parametrize(
    "lines",
    [
        [GAME, UNTAGGED],  # one kind named: a lone class would take the untagged line
        [GAME, PHASE, UNTAGGED],  # two kinds named: their union refuses it
        [GAME, UNKNOWN],  # a kind no record has
        [GAME, PHASE.replace(b'"turn":1', b'"turn":"one"')],  # a kind named, a bad field
        [GAME, PHASE[:-5]],  # not JSON
    ],
    ids=["untagged-one-kind", "untagged-two-kinds", "unknown-kind", "bad-field", "not-json"],
)
def test_a_line_the_narrow_decoder_cannot_take_gets_the_whole_decoders_error(
    lines: list[bytes],
) -> None:
    blob = b"\n".join(lines) + b"\n"
    assert _error(fresh().decode_lines, blob) == _error(WHOLE.decode_lines, blob)


def test_a_long_log_is_read_with_the_decoder_of_every_kind() -> None:
    """Past ``NARROW_BYTES`` the scan for kinds costs what the whole decoder does."""
    line = PHASE + b"\n"
    blob = GAME + b"\n" + line * (NARROW_BYTES // len(line) + 1)
    decoder = fresh()
    assert decoder.decode_lines(blob) == WHOLE.decode_lines(blob)
    assert decoder.made()


def test_a_long_logs_pieces_are_each_read_with_the_decoder_of_every_kind() -> None:
    """A long log is read in pieces of whole lines (``core.log.streamed_read``), each at
    least a chunk less one line long: longer than a log the narrow decoder takes, so no
    piece is scanned for its kinds."""
    assert STREAM_CHUNK - MAX_LINE_BYTES > NARROW_BYTES


def test_one_line_is_read_with_the_decoder_of_every_kind() -> None:
    decoder = fresh()
    assert decoder.decode(PHASE) == WHOLE.decode(PHASE)
    assert decoder.made()


def test_a_kind_the_scan_does_not_see_is_read_by_the_whole_decoder() -> None:
    """JSON may spell a key or a tag with escapes, which the scan for kinds does not
    read: the narrow decoder then lacks that kind, and the whole one reads the line."""
    escaped_key = PHASE.replace(b'"kind"', b'"kin\\u0064"')
    escaped_tag = PHASE.replace(b'"phase":"RPh"', b'"phase":"MPh"').replace(
        b'"kind":"phase"', b'"kind":"pha\\u0073e"'
    )
    unit = ev.encode(
        ev.UnitEntered(seq=3, grp=3, handle="a1", side="A", unit_kind="squad", counter="4-6-7")
    )
    for line in (escaped_key, escaped_tag):
        blob = b"\n".join([GAME, unit, line]) + b"\n"
        assert fresh().decode_lines(blob) == WHOLE.decode_lines(blob)
