from __future__ import annotations

from tg_git.main import main

raise SystemExit(main())
