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
  # every edition races with no --set: where the texts imply a value, the data gives it
  "$cli" course validate "$course" --ruleset "$rules"
  "$cli" race --ruleset "$rules" --course "$course" --players 4 --seed 1 \
    --bots greedy,search --record "$out/race-$rules.jsonl" | tail -n 8
  "$cli" replay "$out/race-$rules.jsonl"
done
