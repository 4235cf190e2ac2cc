#!/usr/bin/env bash
# The demo's second half: under each edition's rules, the figures of one of its courses and
# a seeded race there with bots; its record is written to OUT and replayed.
set -euo pipefail
cli=$1; out=$2
for pair in ravensburger-1989:ravensburger-1989/a-white pro-ludo-2006:pro-ludo-2006/circus-maximus \
            dicetree-2022:dicetree-2022/hippodrom-constantinople; do
  rules=${pair%%:*}; course=${pair#*:}
  echo
  echo "== $rules on $course"
  # 1989 and 2006 do not say whether a disqualified chariot keeps its place (RULES.md
  # section 2): a race under them needs the group's answer, here "it keeps its place".
  settings=()
  case $rules in
    ravensburger-1989|pro-ludo-2006) settings=(--set disqualification.keeps_place=true) ;;
  esac
  "$cli" course validate "$course" --ruleset "$rules"
  "$cli" race --ruleset "$rules" "${settings[@]}" --course "$course" --players 4 --seed 1 \
    --bots greedy,search --record "$out/race-$rules.jsonl" | tail -n 8
  "$cli" replay "$out/race-$rules.jsonl"
done
