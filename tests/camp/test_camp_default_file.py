"""``stockade camp`` without a file keeps the campaign in the data dir, as the app's
palette does, never in the current folder."""

from __future__ import annotations

from pathlib import Path

from stockade.core.cli import main
from stockade.tui.camp import default_camp_log


class RecordingUI:
    def __init__(self) -> None:
        self.paths: list[Path | None] = []

    def open_camp(self, path: Path | None, options: dict[str, str]) -> int:
        self.paths.append(path)
        return 0


def test_no_file_means_the_ui_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ui = RecordingUI()
    assert main(["camp"], ui=ui) == 0
    assert ui.paths == [None]


def test_the_default_is_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("STOCKADE_DATA_DIR", str(tmp_path / "data"))
    assert default_camp_log() == tmp_path / "data" / "camp.jsonl"
    assert (tmp_path / "data").is_dir()
