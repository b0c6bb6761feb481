# history-commit.sh — sourced (with $month set, e.g. 2024-04) by the scripts that build sample
# histories: a fixed identity, `stamp` (the next day of the month at noon: day 11, 12, ...)
# and `commit MSG` (stamp, git add -A, commit). Deterministic: the same script gives the same
# commit ids.
export GIT_AUTHOR_NAME=sunset GIT_AUTHOR_EMAIL=sunset@example.invalid
export GIT_COMMITTER_NAME=sunset GIT_COMMITTER_EMAIL=sunset@example.invalid
n=0
stamp() {
    n=$((n + 1))
    export GIT_AUTHOR_DATE="$month-$((10 + n))T12:00:00+00:00" GIT_COMMITTER_DATE="$month-$((10 + n))T12:00:00+00:00"
}
commit() {
    stamp
    git add -A
    git commit -q -m "$1"
}
