"""`tg-git verify`: why a commit drifts and what could not be checked.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- verify

verify_ok
    en  tg-git: ledger matches history ({n} commits checked).
    ko  tg-git: 원장이 히스토리와 일치합니다 (커밋 {n}개 확인).

verify_drift
    en  tg-git: drift in {commit} ({subject}): {reason}
    ko  tg-git: {commit} ({subject}) 불일치: {reason}

verify_summary
    en  tg-git: {n} of {checked} commits drift from the ledger; recount them with a new commit (`tg-git repair` restores lost events) or accept them, as your team prefers.
    ko  tg-git: 커밋 {checked}개 중 {n}개가 원장과 맞지 않습니다. 팀 방침에 따라 새 커밋으로 다시 집계하거나(`tg-git repair`는 잃은 이벤트를 복구합니다) 지금 상태 그대로 받아들이세요.

verify_unseen
    en  tg-git: not checked: {what}
    ko  tg-git: 확인하지 못함: {what}

repaired
    en  tg-git: rebuilt {files} ledger file(s): {events:,} events kept ({restored:,} restored), {dropped:,} broken line(s) dropped; staged.
    ko  tg-git: 원장 파일 {files}개를 다시 만들었습니다: 이벤트 {events:,}개 유지({restored:,}개 복구), 깨진 줄 {dropped:,}개 제거. 스테이징했습니다.

hook_repaired
    en  tg-git: repaired {path}: dropped {n} line(s) that were not events (junk or conflict markers); every event was kept.
    ko  tg-git: {path} 복구: 이벤트가 아닌 줄 {n}개(잡음 또는 충돌 표시)를 지웠습니다. 모든 이벤트는 유지됩니다.

# ---- verify: why a commit drifts, what could not be checked

verify_shallow
    en  {n} commit(s) at this shallow clone's boundary (their parents are not here); `git fetch --unshallow` lets verify check them.
    ko  얕은 클론 경계의 커밋 {n}개(부모 커밋이 여기 없음). `git fetch --unshallow` 후에는 `tg-git verify`로 검사할 수 있습니다.

verify_other_estimator
    en  {commit}: counted with estimator {recorded!r}; this tg-git has {ours!r}, so its count was not re-estimated
    ko  {commit}: 이 커밋을 집계한 추정기({recorded!r})가 이 tg-git의 추정기({ours!r})와 달라서 다시 추정하지 않았습니다

drift_changed
    en  changed {n} event(s) this clone recorded otherwise (edited by hand?)
    ko  이 클론이 다르게 기록한 이벤트 {n}개가 바뀌었습니다(손으로 고쳤나요?)

drift_lost
    en  removed {n} event line(s) that are nowhere now (edited or deleted by hand?)
    ko  지금은 어디에도 없는 이벤트 줄 {n}개가 지워졌습니다(손으로 고치거나 지웠나요?)

drift_unreadable
    en  its ledger lines do not read as events ({error})
    ko  원장 줄을 이벤트로 읽을 수 없습니다 ({error})

drift_checkpoint_like
    en  looks like a checkpoint but changes more than the checkpoint files, uncounted
    ko  체크포인트처럼 보이지만 체크포인트 파일 외의 것도 바꾸었고 집계되지 않았습니다

drift_outside
    en  outside the budget: made where no tg-git hook ran (its change estimates {estimate:,} tokens), and `verify.outside` is "refuse"
    ko  예산 밖: tg-git 훅이 실행되지 않은 곳에서 만든 커밋입니다(변경은 약 {estimate:,} 토큰). `verify.outside`가 "refuse"입니다

verify_outside
    en  tg-git: outside the budget: {commit} ({subject}), made where no tg-git hook ran (~{estimate:,} tokens; not counted, not drift)
    ko  tg-git: 예산 밖: {commit} ({subject}), tg-git 훅이 실행되지 않은 곳에서 만든 커밋(약 {estimate:,} 토큰, 집계하지 않으며 불일치도 아님)

verify_outside_hint
    en  tg-git: {n} commit(s) outside the budget; `tg-git config set verify.outside refuse` makes them refuse a push, `ignore` leaves them unlisted.
    ko  tg-git: 예산 밖 커밋 {n}개. `tg-git config set verify.outside refuse`로 푸시를 거부하게 하거나, `ignore`로 목록에서 뺄 수 있습니다.

drift_uncounted
    en  not counted: its change estimates {estimate:,} tokens but it added no ledger event (--no-verify?)
    ko  집계되지 않음: 변경은 약 {estimate:,} 토큰으로 추정되지만 원장 이벤트가 추가되지 않았습니다 (--no-verify?)

drift_while_removed
    en  not counted: committed while .tg-git/ was removed (its change estimates {estimate:,} tokens)
    ko  집계되지 않음: .tg-git/이 지워져 있는 동안 커밋되었습니다(변경은 약 {estimate:,} 토큰으로 추정됩니다)

drift_short
    en  the ledger claims {claimed:,} tokens, the change estimates {estimate:,}
    ko  원장에는 {claimed:,} 토큰으로 되어 있지만 변경은 약 {estimate:,} 토큰으로 추정됩니다
"""
