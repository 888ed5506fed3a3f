"""`tg-git doctor`: each check, its finding and its fix.

The entry format: see ``tg_git.text.messages``.
"""

TEXTS = r"""
# ---- doctor

doctor.hooks
    en  hooks
    ko  훅

doctor.hook_python
    en  hook python
    ko  훅의 파이썬

doctor.config
    en  config
    ko  설정

doctor.ledger
    en  ledger
    ko  원장

doctor.push
    en  push
    ko  푸시

doctor.remote_tags
    en  remote tags
    ko  원격 태그

doctor_mark_ok
    en  "ok "
    ko  정상

doctor_mark_fix
    en  FIX
    ko  문제

doctor_fix_line
    en  "    fix: {fix}"
    ko  "    해결: {fix}"

doctor_summary
    en  tg-git doctor: {n} problems found.
    ko  tg-git doctor: 문제 {n}개 발견.

doctor_summary_one
    en  tg-git doctor: {n} problem found.
    ko  tg-git doctor: 문제 {n}개 발견.

doctor_run
    en  run {fix}.
    ko  다음을 실행하세요: {fix}.

doctor_and
    en  " and "
    ko  " 및 "

doctor_or
    en  " (or {command})"
    ko  " (또는 {command})"

doctor_hooks_missing
    en  not wired in {folder}: {hooks}
    ko  {folder}에 연결되지 않음: {hooks}

doctor_no_post_merge
    en  " (without it, a merge or pull that crosses 90/95 % saves only at the next commit)"
    ko  " (없으면 90/95 %를 넘긴 `git merge`나 `git pull`은 다음 커밋에서야 저장됩니다)"

doctor_hooks_ok
    en  {hooks} run by {who}
    ko  {hooks}: {who}에서 실행

doctor_stale_python
    en  the hooks run {python}, which no longer exists, and `tg-git` is not on PATH
    ko  훅이 실행하는 {python} 파일이 더 이상 없고, `tg-git`도 PATH에 없습니다

doctor_stale_python_fix
    en  run `tg-git install` again with the tg-git you use now.
    ko  지금 쓰는 tg-git으로 `tg-git install`을 다시 실행하세요.

doctor_no_command
    en  the pre-commit framework runs tg-git's hooks, but the `tg-git` command is not on PATH for init/status/resume
    ko  pre-commit 프레임워크가 tg-git 훅을 실행하지만, init/status/resume에 쓸 `tg-git` 명령이 PATH에 없습니다

doctor_no_command_fix
    en  install it once: `pipx install tg-git` (see README).
    ko  한 번 설치하세요: `pipx install tg-git` (README 참고).

doctor_pre_commit_ok
    en  .pre-commit-config.yaml lists tg-git
    ko  .pre-commit-config.yaml에 tg-git이 있습니다

doctor_config_fix
    en  fix the file it names, or `tg-git init`.
    ko  메시지가 가리키는 파일을 고치거나 `tg-git init`을 실행하세요.

doctor_sparse
    en  this sparse checkout leaves out .tg-git/ (HEAD has it): every commit here is refused, as none could be counted
    ko  이 작업 트리는 `git sparse-checkout`으로 .tg-git/을 빼고 있습니다(HEAD에는 있음). 여기서 한 커밋은 집계될 수 없어 모두 거부됩니다

doctor_sparse_fix
    en  bring it back: `git sparse-checkout add .tg-git`.
    ko  되돌리세요: `git sparse-checkout add .tg-git`.

doctor_config_ok
    en  budget {budget:,}, profile {profile}
    ko  예산 {budget:,}, 추정 프로필 {profile}

doctor_ledger_fix
    en  restore it from history (`git checkout HEAD -- .tg-git`).
    ko  히스토리에서 복원하세요(`git checkout HEAD -- .tg-git`).

doctor_no_session
    en  no session has started
    ko  시작된 세션이 없습니다

doctor_start_fix
    en  run `tg-git session start`.
    ko  `tg-git session start`를 실행하세요.

doctor_ledger_ok
    en  session {id}: ~{used:,}/{max:,} tokens ({pct}%)
    ko  세션 {id}: ~{used:,}/{max:,} 토큰 ({pct}%)

doctor_follow_tags_on
    en  push.followTags is on (checkpoint tags travel with a plain `git push` only when it is on)
    ko  push.followTags 켜짐 (이 설정이 켜져 있어야 `git push`만으로 체크포인트 태그가 함께 갑니다)

doctor_follow_tags_off
    en  push.followTags is off (checkpoint tags travel with a plain `git push` only when it is on)
    ko  push.followTags 꺼짐 (이 설정이 켜져 있어야 `git push`만으로 체크포인트 태그가 함께 갑니다)

doctor_follow_tags_fix
    en  run `tg-git install` or `git config push.followTags true`.
    ko  `tg-git install` 또는 `git config push.followTags true`를 실행하세요.

doctor_no_remote
    en  no remote configured; nothing to compare
    ko  설정된 원격 저장소가 없어 비교할 것이 없습니다

doctor_remote_silent
    en  {remote} did not answer in {seconds} s
    ko  {remote}: {seconds}초 안에 응답하지 않았습니다

doctor_remote_silent_fix
    en  check the network, then run doctor again.
    ko  네트워크를 확인한 뒤 `tg-git doctor`를 다시 실행하세요.

doctor_remote_failed
    en  cannot list {remote}'s tags ({reason})
    ko  {remote}의 태그 목록을 가져올 수 없습니다 ({reason})

doctor_remote_failed_fix
    en  check `git remote -v` and access to {remote}.
    ko  `git remote -v`와 {remote} 접근 권한을 확인하세요.

doctor_tags_absent
    en  {n} of {total} checkpoint tags are not on {remote} (first: {first})
    ko  체크포인트 태그 {total}개 중 {n}개가 {remote}에 없습니다 (첫 번째: {first})

doctor_tags_absent_fix
    en  run `git push {remote} --follow-tags` (or `git push {remote} 'refs/tags/{prefix}*'`).
    ko  `git push {remote} --follow-tags`(또는 `git push {remote} 'refs/tags/{prefix}*'`)를 실행하세요.

doctor_tags_ok
    en  {remote} has all {total} checkpoint tags
    ko  {remote}에 체크포인트 태그 {total}개가 모두 있습니다
"""
