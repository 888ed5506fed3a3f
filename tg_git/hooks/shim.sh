#!/bin/sh
# tg-git hook shim (tg-git-shim-v1). Installed by `tg-git install`; `tg-git uninstall` removes it.
# A hook that was here before tg-git was kept next to this file as HOOK.pre-tg-git and runs first.
HOOK_NAME="@HOOK@"
TG_GIT_PYTHON="@PYTHON@"
here=$(dirname "$0")
if [ -x "$here/$HOOK_NAME.pre-tg-git" ]; then
    "$here/$HOOK_NAME.pre-tg-git" "$@" || exit $?
fi
if [ "$HOOK_NAME" = post-commit ]; then
    # The pre-commit hook leaves this file only when a save or an index repair is due.
    # (in the work tree's own git dir, so linked worktrees each have theirs)
    gitdir=$(git rev-parse --git-dir 2>/dev/null) || exit 0
    [ -f "$gitdir/tg-git/post-commit.json" ] || exit 0
fi
if [ -x "$TG_GIT_PYTHON" ]; then
    exec "$TG_GIT_PYTHON" -m tg_git hook "$HOOK_NAME"
elif command -v tg-git >/dev/null 2>&1; then
    exec tg-git hook "$HOOK_NAME"
else
    echo "tg-git: not found (was it uninstalled?); this $HOOK_NAME hook did nothing. Reinstall tg-git or run \`tg-git uninstall\`." >&2
    exit 0
fi
