"""What a regular install (``pip install .``, as pipx gives users) ships: every package and every
data file the code reads. An editable install reads the source tree and would hide a gap (the
price table was missing from regular installs until this test)."""

from __future__ import annotations

import fnmatch
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib

    PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
else:  # Python 3.10: tomlkit is a dependency
    import tomlkit

    PROJECT = tomlkit.parse((ROOT / "pyproject.toml").read_text(encoding="utf-8")).unwrap()

SETUP = PROJECT["tool"]["setuptools"]


def package_of(path: Path) -> str:
    """The dotted package a file under ``tg_git/`` (or ``hooks/``) belongs to."""
    rel = path.relative_to(ROOT)
    if rel.parts[0] == "hooks":
        return "tg_git.hooks"
    folder = path.parent
    while not (folder / "__init__.py").is_file():  # data in a plain folder: its package's
        folder = folder.parent
    return ".".join(folder.relative_to(ROOT).parts)


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, capture_output=True, check=True
    ).stdout
    return [ROOT / p for p in out.decode().split("\0") if p]


def test_every_package_is_listed() -> None:
    found = {package_of(p) for p in tracked("tg_git/**/__init__.py", "tg_git/__init__.py")}
    assert found and found <= set(SETUP["packages"]), found - set(SETUP["packages"])


def test_every_data_file_is_shipped() -> None:
    data = SETUP["package-data"]
    files = [p for p in tracked("tg_git", "hooks") if p.suffix not in (".py", ".pyc")]
    assert any(p.name == "prices.json" for p in files)
    missing = []
    for path in files:
        package = package_of(path)
        base = ROOT / (package.replace(".", "/") if package != "tg_git.hooks" else "hooks")
        rel = path.relative_to(base).as_posix()
        if not any(fnmatch.fnmatch(rel, glob) for glob in data.get(package, [])):
            missing.append(f"{path.relative_to(ROOT)} (package {package})")
    assert not missing, "not in [tool.setuptools.package-data]: " + ", ".join(missing)
