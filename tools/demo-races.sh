#!/usr/bin/env bash
# The demo's second half: the course's figures under each edition's rules, then a seeded
# race under each edition with greedy bots, its record written to OUT and replayed.
set -euo pipefail
cli=$1; out=$2
course=${COURSE:-ravensburger-1989/a-white}
for rules in ravensburger-1989 pro-ludo-2006 dicetree-2022; do
  echo
  echo "== $rules"
  # 1989 and 2006 do not say whether a disqualified chariot keeps its place (RULES.md
  # section 2): a race under them needs the group's answer, here "it keeps its place".
  settings=()
  case $rules in
    ravensburger-1989|pro-ludo-2006) settings=(--set disqualification.keeps_place=true) ;;
  esac
  "$cli" course validate "$course" --ruleset "$rules"
  "$cli" race --ruleset "$rules" "${settings[@]}" --course "$course" --players 4 --seed 1 \
    --record "$out/race-$rules.jsonl" | tail -n 8
  "$cli" replay "$out/race-$rules.jsonl"
done
