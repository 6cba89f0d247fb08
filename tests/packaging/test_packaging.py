"""Stockade installs as a player would install it, beside anything else (issue 9).

The slow half (marked ``packaging``; run it alone with ``pytest -m packaging``) builds
the sdist and, from it, the wheel with ``python -m build``, installs the wheel into a
fresh venv that already holds unrelated packages named ``core`` and ``tui``, and runs
the console script there. The build environment's backend comes from the package index
(pip's cache). The wheel's dependencies are the ones this test environment holds, found
by walking the wheel's own ``Requires-Dist`` (and theirs) and linked into the venv, each
checked against its requirement; pip installs the wheel without resolving them again
(that resolution, reading the index for some thirty packages, was half the module's
CPU), then every requirement in the venv is found met there, as ``pip check`` does.
A dependency missing from pyproject.toml is missing from the venv, as from a player's.
It skips only when this Python cannot make a venv, and says why.

The fast half checks that pyproject.toml's ``packages`` list names every folder that
holds code or data, so a new folder cannot silently go missing from the wheel.
"""

from __future__ import annotations

import email.parser
import json
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Literal

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# One worker runs this module's tests (pyproject.toml: --dist loadgroup), so the sdist and wheel are
# built once and the venv made once.
pytestmark = pytest.mark.xdist_group("test_packaging")

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"core": "stockade.core", "tui": "stockade.tui", "themes": "stockade.themes"}
FOLDERS["sample_games"] = "stockade.sample_games"
DATA_SUFFIXES = {".py", ".toml", ".tcss", ".jsonl", ".json", ".txt", ".md", ".stockade"}
# What another project might ship under these names; Stockade must never add them.
FOREIGN = ("core", "tui", "themes", "sample_games")


# ------------------------------------------------------------------------ fast half
def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_folder_with_code_or_data_is_a_listed_package():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    wanted = set()
    for folder, name in FOLDERS.items():
        for directory in [ROOT / folder, *(ROOT / folder).rglob("*")]:
            if not directory.is_dir() or directory.name == "__pycache__":
                continue
            if any(f.suffix in DATA_SUFFIXES for f in directory.iterdir() if f.is_file()):
                rel = directory.relative_to(ROOT / folder).parts
                wanted.add(".".join((name, *rel)))
    assert wanted - listed == set(), "add these to [tool.setuptools] packages"
    assert listed - wanted == set(), "these listed packages have no folder"


def test_the_package_dir_maps_each_folder_under_one_import_name():
    mapping = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert mapping == {name: folder for folder, name in FOLDERS.items()}
    assert all(p.startswith("stockade.") for p in _pyproject()["tool"]["setuptools"]["packages"])


# ------------------------------------------------------------------------ slow half
def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **kw.pop("env", {})}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)
    assert out.returncode == 0, f"{' '.join(cmd)} -> {out.returncode}\n{out.stdout}\n{out.stderr}"
    return out


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """The sdist, and the wheel built FROM that sdist (so the sdist is proven complete), as
    ``python -m build`` makes them: in an environment that holds only the backend that
    pyproject.toml's ``[build-system] requires`` names, never this checkout's venv. One
    such environment serves both builds (``python -m build`` makes a second, with pip in
    it, for the wheel): the sdist declares the same requirements, checked below, so a
    second environment would hold the same packages."""
    import build  # the test extra has it: a missing one fails here, never skips
    from pyproject_hooks import quiet_subprocess_runner

    out = tmp_path_factory.mktemp("dist")
    python = _venv_python(tmp_path_factory.mktemp("build-env") / "v")
    _run([sys.executable, "-m", "venv", "--without-pip", str(python.parent.parent)])
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]

    def backend_for(srcdir: Path, kind: Literal["sdist", "wheel"]) -> build.ProjectBuilder:
        """The backend of srcdir, with what it asks for to build `kind` installed."""
        made = build.ProjectBuilder(
            srcdir, python_executable=str(python), runner=quiet_subprocess_runner
        )
        if wanted := made.get_requires_for_build(kind):
            _run([*pip, *sorted(wanted)])
        return made

    requires = build.ProjectBuilder(ROOT).build_system_requires
    _run([*pip, *sorted(requires)])
    sdist = Path(backend_for(ROOT, "sdist").build("sdist", out))
    unpacked = tmp_path_factory.mktemp("sdist")
    with tarfile.open(sdist) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on; build itself does the same
            tar.extractall(unpacked, filter="data")
        else:
            tar.extractall(unpacked)
    (tree,) = unpacked.iterdir()
    assert build.ProjectBuilder(tree).build_system_requires == requires
    wheel = Path(backend_for(tree, "wheel").build("wheel", out))
    return {"sdist": sdist, "wheel": wheel}


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(_run([str(python), "-c", code]).stdout.strip())


def _dependencies(wheel: Path) -> list[metadata.Distribution]:
    """The distributions the wheel requires, and those they require in turn, as this
    test environment holds them; each must meet the requirement that names it."""
    with zipfile.ZipFile(wheel) as whl:
        (name,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        wanted = email.parser.BytesParser().parsebytes(whl.read(name)).get_all("Requires-Dist")
    todo = [(Requirement(line), "") for line in wanted or []]
    assert todo, "the wheel requires nothing"
    found: dict[str, metadata.Distribution] = {}
    walked: set[tuple[str, str]] = set()
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        try:
            dist = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            pytest.fail(f"the wheel needs {requirement}: not installed in this environment")
        assert requirement.specifier.contains(dist.version, prereleases=True), (
            f"the wheel needs {requirement}: this environment holds {dist.version}"
        )
        key = canonicalize_name(requirement.name)
        found[key] = dist
        for wants in ("", *sorted(requirement.extras)):
            if (key, wants) not in walked:
                walked.add((key, wants))
                todo += [(Requirement(line), wants) for line in dist.requires or []]
    return list(found.values())


def _link_into(site: Path, dist: metadata.Distribution) -> None:
    """What pip would unpack for ``dist`` (its top-level packages, modules and metadata,
    by its RECORD), linked into ``site`` from where this environment holds it."""
    assert dist.files, f"{dist.metadata['Name']} has no RECORD"
    tops = {f.parts[0] for f in dist.files} - {"..", "__pycache__"}
    for top in sorted(tops):
        assert not (site / top).exists(), f"{dist.metadata['Name']} would overwrite {top}"
        (site / top).symlink_to(Path(str(dist.locate_file(top))))


def _assert_requirements_met(site: Path) -> None:
    """What ``pip check`` checks, read in this process (``pip check`` started two
    interpreters and pip's imports: 2 s of CPU): every requirement of every package in
    ``site`` (its markers evaluated, as the venv's Python is this one) is met by a
    package in ``site`` of a version it allows."""
    held = {
        canonicalize_name(d.metadata["Name"]): d for d in metadata.distributions(path=[str(site)])
    }
    assert "stockade" in held, sorted(held)
    unmet = []
    for name, dist in sorted(held.items()):
        for line in dist.requires or []:
            wanted = Requirement(line)
            if wanted.marker and not wanted.marker.evaluate({"extra": ""}):
                continue
            there = held.get(canonicalize_name(wanted.name))
            if there is None or not wanted.specifier.contains(there.version, prereleases=True):
                unmet.append(f"{name} requires {wanted}: {there.version if there else 'missing'}")
    assert not unmet, unmet


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory) -> dict:
    """A fresh venv with someone else's ``core`` and ``tui`` in it, then the wheel's
    dependencies (linked from this environment) and the wheel."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    # No pip inside it (ensurepip would install one just to be run once): this venv's pip
    # installs into it with --python, and --no-compile skips byte-compiling the
    # dependencies, which nothing here needs (Python compiles what it imports).
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"this Python cannot create a venv: {made.stderr.strip()[-300:]}")
    python = _venv_python(venv)
    site = _site_packages(python)
    for name in ("core", "tui"):  # another project's top-level packages
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(f"WHO = 'other {name}'\n", encoding="utf-8")
    before = {p.name for p in site.iterdir()}
    for dist in _dependencies(dists["wheel"]):
        _link_into(site, dist)
    pip = [sys.executable, "-m", "pip", "--python", str(python)]
    _run([*pip, "install", "--quiet", "--no-compile", "--no-deps", str(dists["wheel"])])
    _assert_requirements_met(site)
    after = {p.name for p in site.iterdir()}
    script = venv / ("Scripts/stockade.exe" if os.name == "nt" else "bin/stockade")
    return {"python": python, "site": site, "gained": after - before, "script": script}


@pytest.mark.packaging
def test_the_sdist_carries_every_folder_and_no_build_debris(dists):
    with tarfile.open(dists["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for folder in FOLDERS:
        assert f"{folder}/__init__.py" in names
    assert "pyproject.toml" in names and "README.md" in names
    assert "sample_games/demo.jsonl" in names and "themes/dark.toml" in names
    assert not [n for n in names if n.startswith((".venv/", "bench/out/")) or "__pycache__" in n]


@pytest.mark.packaging
def test_the_wheel_holds_one_import_name(dists):
    with zipfile.ZipFile(dists["wheel"]) as whl:
        tops = {n.split("/", 1)[0] for n in whl.namelist()}
        names = set(whl.namelist())
    assert tops == {"stockade", dists["wheel"].name.split("-py3")[0] + ".dist-info"}
    assert "stockade/__init__.py" not in names  # a namespace package: no folder of its own
    for data in ("stockade/themes/dark.toml", "stockade/tui/stockade.tcss"):
        assert data in names
    assert "stockade/core/data/rulings.toml" in names
    assert "stockade/sample_games/demo.jsonl" in names


@pytest.mark.packaging
def test_installed_wheel_adds_only_stockade(installed):
    gained = installed["gained"]
    assert not gained & set(FOREIGN), gained
    assert "stockade" in gained
    for name in ("core", "tui"):  # the other project's packages, untouched
        init = installed["site"] / name / "__init__.py"
        assert init.read_text(encoding="utf-8") == f"WHO = 'other {name}'\n"
        assert sorted(p.name for p in (installed["site"] / name).iterdir()) == ["__init__.py"]
    record = next(installed["site"].glob("stockade-*.dist-info")) / "RECORD"
    for line in record.read_text(encoding="utf-8").splitlines():
        path = line.split(",", 1)[0]
        assert path.startswith(("stockade/", "stockade-", "../")), path


@pytest.mark.packaging
def test_both_packages_named_core_work_side_by_side(installed):
    code = (
        "import core, tui; from stockade.core.book.game import Game; "
        "import stockade.tui.launcher; print(core.WHO, '|', tui.WHO, '|', Game.__module__)"
    )
    out = _run([str(installed["python"]), "-c", code], cwd=installed["site"].parent)
    assert out.stdout.strip() == "other core | other tui | stockade.core.book.game"


@pytest.mark.packaging
def test_the_console_script_runs_from_the_install(installed, tmp_path):
    script = str(installed["script"])
    env = {
        "STOCKADE_CONFIG_DIR": str(tmp_path / "c"),
        "STOCKADE_DATA_DIR": str(tmp_path / "d"),
        "STOCKADE_CACHE_DIR": "off",
    }
    version = _run([script, "--version"], cwd=tmp_path, env=env).stdout.strip()
    assert version == f"stockade {_pyproject()['project']['version']}"
    # A shipped sample, found inside the install (not in this checkout).
    where = "import stockade.sample_games as s, pathlib; print(pathlib.Path(s.__file__).parent)"
    samples = Path(_run([str(installed["python"]), "-c", where]).stdout.strip())
    assert installed["site"] in samples.parents
    sample = samples / "demo.jsonl"
    expected = json.loads((samples / "demo.expected.json").read_text(encoding="utf-8"))
    tally = json.loads(_run([script, "tally", str(sample), "--json"], cwd=tmp_path, env=env).stdout)
    for side, want in expected["sides"].items():
        got = tally["sides"][side]
        assert (got["cvp"], got["cvp_if_ended"]) == (want["cvp"], want["cvp_if_ended"]), side
    text = _run([script, "tally", str(sample)], cwd=tmp_path, env=env).stdout
    assert text.startswith("CVP tally: Demo")
    check = _run([script, "check", str(sample)], cwd=tmp_path, env=env)
    assert "sound" in check.stdout
