"""One thin module per command; each takes keyword arguments and returns an exit code."""

from __future__ import annotations

from tg_git.commands.agent import agent_setup, agent_status
from tg_git.commands.checkpoint import checkpoint, log
from tg_git.commands.config import config
from tg_git.commands.demo import demo
from tg_git.commands.doctor import doctor
from tg_git.commands.estimate import estimate
from tg_git.commands.init import init
from tg_git.commands.install import install, uninstall
from tg_git.commands.plan import next_step, note, record, session_start, task, task_list
from tg_git.commands.report import report
from tg_git.commands.resume import resume, verify
from tg_git.commands.status import status
from tg_git.commands.usage import usage, usage_import

__all__ = [
    "agent_setup",
    "agent_status",
    "checkpoint",
    "config",
    "demo",
    "doctor",
    "estimate",
    "init",
    "install",
    "log",
    "next_step",
    "note",
    "record",
    "report",
    "resume",
    "session_start",
    "status",
    "task",
    "task_list",
    "uninstall",
    "usage",
    "usage_import",
    "verify",
]  # fmt: skip
