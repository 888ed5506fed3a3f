"""The exit codes are the README's table, as the plain ints a process exits with: no enum
class is built for them when a command starts (that cost every commit ~1.4M instructions)."""

from __future__ import annotations

import re

from tests.support.repos import PROJECT
from tg_git.domain.errors import ExitCode
from tg_git.domain.errors import TgGitError


def test_the_codes_are_the_readme_s_as_plain_ints() -> None:
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    documented = sorted(int(n) for n in re.findall(r"(?m)^\| (\d+) \|", table))
    codes = {name: value for name, value in vars(ExitCode).items() if name.isupper()}
    assert sorted(codes.values()) == documented
    assert all(type(value) is int for value in codes.values())
    assert (ExitCode.HALT, TgGitError("x").code, TgGitError("x", ExitCode.DRIFT).code) == (7, 1, 6)
