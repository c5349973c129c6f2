#!/usr/bin/env bash
# `make run`: the main job: every shipped reproduction in its quick version (each under a
# minute on a 2-core machine); prints the verdicts and where each REPORT.md is.
set -euo pipefail
rs=${1:-build/routesim}
out=${RS_RESULTS:-results}
"$rs" reproduce all --quick --out "$out"
echo "reports: $(ls "$out"/*/REPORT.md | tr '\n' ' ')"
