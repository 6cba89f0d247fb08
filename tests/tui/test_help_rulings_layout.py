"""The help's rulings read at 80 columns: a long topic never squeezes its ruling into a
column a word wide (a new player saw "(A20… / a / reje… / surr…" one word per line)."""

from rich.console import Console

from stockade.core.reads.rulings import rulings
from stockade.tui.screens.help import rulings_block


def test_every_ruling_keeps_its_topic_on_a_line_and_its_words_in_lines_of_text():
    console = Console(width=72, record=True, color_system=None)
    console.print(rulings_block())
    lines = console.export_text().splitlines()
    for ruling in rulings():
        assert f"{ruling.topic} ({ruling.rule})" in lines
        first_words = " ".join(ruling.ruling.split()[:5])
        assert any(first_words in line for line in lines), first_words
