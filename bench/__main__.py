"""``python -m bench``: every bench, and their tables in docs/benchmarks.md (see bench/all.py)."""

from __future__ import annotations

from bench.all import main

raise SystemExit(main())
