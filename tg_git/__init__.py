"""tg-git: Token Guard for Git."""

from __future__ import annotations

__version__ = "0.1.0"
