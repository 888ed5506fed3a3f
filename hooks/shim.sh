#!/bin/sh
# tg-git hook shim (tg-git-shim-v1). Installed by `tg-git install`; `tg-git uninstall` removes it.
# A hook that was here before tg-git was kept next to this file as HOOK.pre-tg-git and runs first.
HOOK_NAME="@HOOK@"
TG_GIT_PYTHON="@PYTHON@"
# Every process counts on the commit path: the shell's own expansions, no dirname or git
# where they are not needed (bench/hook.py times this shim).
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
status=0
# PATH's absolute folders only: an empty or relative entry names the current folder, the work
# tree, where a clone can track an executable `cat` or `rm` (a hook kept from before tg-git
# runs with the PATH git gave it).
user_path=$PATH
PATH= rest=$user_path:
while [ -n "$rest" ]; do
    case ${rest%%:*} in /*) PATH=${PATH:+$PATH:}${rest%%:*} ;; esac
    rest=${rest#*:}
done
if [ "$HOOK_NAME" = pre-push ]; then
    # Both hooks read the refs being pushed from stdin: keep a copy for the second.
    refs=$(cat)
fi
# Run a command with pre-push's refs on its stdin; other hooks keep the stdin git gave them.
with_input() {
    if [ "$HOOK_NAME" != pre-push ]; then
        "$@"
    elif [ -n "$refs" ]; then
        printf '%s\n' "$refs" | "$@"
    else
        "$@" </dev/null
    fi
}
if [ -x "$here/$HOOK_NAME.pre-tg-git" ]; then
    (PATH=$user_path; with_input "$here/$HOOK_NAME.pre-tg-git" "$@") || status=$?
    # A failing pre-* hook stops the commit or push, so there is nothing to count. A post-*
    # hook's status changes nothing in git: tg-git's save runs whatever it returned (and we
    # return it).
    case "$HOOK_NAME" in
    post-*) ;;
    *) [ "$status" -eq 0 ] || exit "$status" ;;
    esac
fi
if [ "$HOOK_NAME" = post-merge ]; then
    # `git merge --squash` (argument 1) commits nothing: the commit that follows counts and
    # saves. Hooks run at the top of the work tree: without .tg-git/ there is nothing to save.
    if [ "$1" = 1 ] || [ ! -d .tg-git ]; then
        exit "$status"
    fi
fi
if [ "$HOOK_NAME" = post-commit ]; then
    # The pre-commit hook leaves this file only when a save or an index repair is due. The git
    # dir comes from git itself (GIT_DIR, linked worktrees, --separate-git-dir all work), or,
    # without a process, when nothing can make it another: no variable that moves it, git ran
    # this hook at the top of a work tree whose .git is a folder, and this hook lives in that
    # folder's hooks/ (not core.hooksPath). `cd -P .` stays where it is and sets PWD to the
    # folder's physical path: no `$(pwd -P)` subshell.
    if [ -z "${GIT_DIR-}${GIT_WORK_TREE-}${GIT_COMMON_DIR-}" ] && [ -d .git ] && [ .git/hooks -ef "$here" ]; then
        cd -P . || exit "$status"
        TG_GIT_HOOK_GIT_DIR="$PWD/.git"
    else
        TG_GIT_HOOK_GIT_DIR=$(git rev-parse --absolute-git-dir 2>/dev/null) || exit "$status"
    fi
    # The lines this commit added to the ledger (its own event) go into the journal now, in
    # the shell, when HEAD holds the ledger the pre-commit hook staged: a commit that leaves
    # history before tg-git next runs keeps its event. (Python's journal_due does the same.)
    # The file's format is tg_git.githooks.markers' (JOURNAL_DUE_HEAD), written here at install.
    # The lines are copied by the shell itself (`read` and `printf` are built in), and the
    # file is ended by emptying it (a redirection; `rm` would be a process): an empty file is
    # nothing due, and the next pre-commit hook writes it afresh or removes it. Only a plain
    # file is read (`-s` holds for a folder too), and it is emptied by `true`, not `:`: a
    # redirection that fails on a special built-in ends a POSIX shell (dash), and with it the
    # save below; a file that cannot be emptied is removed, and a link only ever removed.
    due="$TG_GIT_HOOK_GIT_DIR/@JOURNAL_DUE@"
    if [ -f "$due" ] && [ -s "$due" ]; then
        {
            @JOURNAL_DUE_READ@
            if [ -n "$blob" ] && [ "$(git rev-parse -q --verify "HEAD:$rel" 2>/dev/null </dev/null)" = "$blob" ]; then
                while IFS= read -r line; do printf '%s\n' "$line"; done 2>/dev/null >>"$target"
            fi
        } <"$due"
        { [ ! -h "$due" ] && true 2>/dev/null >"$due"; } || rm -f "$due"
    fi
    # The metrics push after a commit, where this clone opted in (`tg-git metrics --hook on`
    # leaves the file; a tracked config alone never makes a commit send anything anywhere).
    [ -f "$TG_GIT_HOOK_GIT_DIR/tg-git/post-commit.json" ] || [ -f "$TG_GIT_HOOK_GIT_DIR/tg-git/export-on" ] || exit "$status"
    export TG_GIT_HOOK_GIT_DIR
fi
if [ -x "$TG_GIT_PYTHON" ]; then
    # -c, not -m tg_git: runpy and what it imports would cost every hook ~2 ms (bench/hook.py).
    # Nothing of the work tree (this hook's current folder) is imported: -E ignores PYTHONPATH
    # and the other PYTHON* variables, and the '' that -c puts first on sys.path goes before
    # the first import (-I would drop the user's site-packages too; -P needs Python 3.11).
    # The cyclic garbage collector is off while the modules load (they make no garbage);
    # tg_git.githooks.precommit.collect_from_here turns it on where the hook's work starts.
    # The process ends without the interpreter's teardown (tg_git.githooks.runner.leave),
    # with the hook's own exit code even when nobody reads its output any more.
    if [ "$status" -eq 0 ] && [ "$HOOK_NAME" != pre-push ]; then
        # Nothing is left to do after it: the shell becomes Python (no second process). -S:
        # no site module (its .pth files cost every hook a few ms); the folder tg-git was
        # installed from at `tg-git install` goes last on the path, and a tg-git moved since
        # is found through the site module after all; one removed since is said, as here
        # below, and blocks nothing.
        exec "$TG_GIT_PYTHON" -S -E -c 'import gc, sys; gc.disable(); sys.path[:] = [p for p in sys.path if p] + [@SITE@]
try:
    from tg_git.main import main
except ImportError:
    import site; site.main()
    try:
        from tg_git.main import main
    except ImportError:
        sys.stderr.write(@NOT_FOUND_PY@ + "\n"); sys.exit(0)
code = main()
try:
    from tg_git.githooks.runner import leave
except ImportError:
    sys.exit(code)
leave(code)' hook "$HOOK_NAME" "$@"
    fi
    with_input "$TG_GIT_PYTHON" -E -c 'import gc, sys; gc.disable(); sys.path[:] = [p for p in sys.path if p]
try:
    from tg_git.main import main
except ImportError:
    sys.stderr.write(@NOT_FOUND_PY@ + "\n"); sys.exit(0)
code = main()
try:
    from tg_git.githooks.runner import leave
except ImportError:
    sys.exit(code)
leave(code)' hook "$HOOK_NAME" "$@"
elif command -v tg-git >/dev/null 2>&1; then
    with_input tg-git hook "$HOOK_NAME" "$@"
else
    echo @NOT_FOUND@ >&2
    exit "$status"
fi
ours=$?
[ "$status" -ne 0 ] && exit "$status"
exit "$ours"
