"""The HTML report (`tg-git report`).

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- report

report_no_session
    en  no session {id!r} in the ledger; `tg-git report --json` lists them.
    ko  원장에 세션 {id!r}이(가) 없습니다. `tg-git report --json`이 세션 목록을 보여 줍니다.

report_unwritable
    en  cannot write {path} ({error}); {fix}, or choose another file with -o.
    ko  {path}을(를) 쓸 수 없습니다 ({error}). {fix}. 또는 -o로 다른 파일을 고르세요.
"""
