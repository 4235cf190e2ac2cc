#!/usr/bin/env bash
# The demo's second half: the course's figures under each edition's rules, and a race under
# each edition when the race engine is installed.
set -euo pipefail
cli=$1; out=$2
for rules in ravensburger-1989 pro-ludo-2006 dicetree-2022; do
  echo "== $rules"
  "$cli" course validate "${COURSE:-ravensburger-1989/a-white}" --ruleset "$rules" || true
  if "$cli" race --help >/dev/null 2>&1; then
    "$cli" race --ruleset "$rules" --course "${COURSE:-ravensburger-1989/a-white}" \
      --players 4 --seed 1 --record "$out/race-$rules.jsonl"
  fi
done
