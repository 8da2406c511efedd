#!/usr/bin/env bash
# payload_threshold.sh: a real-style halo code (bench/halo_app.c: 64 KiB faces malloc'ed per
# rank, parameters broadcast, an allreduce checked every iteration) under -xsim-payload on
# and auto, to show what the threshold saves: with it the faces are never written, so a
# rank costs what xsim needs, and runs fit where full payloads would not.
# For each MODE:RANKS pair runs once
#   mpirun --oversubscribe -np P halo_app -xsim-np RANKS -xsim-compute none -xsim-payload MODE
#          -xsim-report R.json [app args]
# and prints a markdown table: mode | ranks | P | wall s | predicted s | results |
# peak RSS/proc MiB | RSS/rank KiB (peak over RANKS/P).
#
# Usage: bench/payload_threshold.sh [--runs "on:4096 auto:4096 ..."] [--procs P] [--build DIR]
#                                   [--timeout SECONDS] [-- halo_app args]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

runs="on:4096 auto:4096 on:16384 auto:16384 auto:65536 auto:262144"
procs=2
build=${XSIM_BUILD:-/tmp/benchbuild}
timeout_s=3600
app_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --) shift; app_args=("$@"); break ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-payload-threshold.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
cmake --build "$build" --target bench_halo_app >&2 || die "building halo_app failed"
exe="$build/bench/halo_app"

echo "| mode | ranks | P | wall s | predicted s | results | peak RSS/proc MiB | RSS/rank KiB |"
echo "|---|---:|---:|---:|---:|---|---:|---:|"
for run in $runs; do
    mode=${run%%:*} ranks=${run##*:}
    tag="$mode.$ranks"
    status=0
    timeout "$timeout_s" /usr/bin/time -f "%e" -o "$work/$tag.time" \
        "$MPIRUN" --oversubscribe -np "$procs" "$exe" -xsim-np "$ranks" -xsim-compute none \
        -xsim-payload "$mode" -xsim-report "$work/$tag.json" "${app_args[@]+"${app_args[@]}"}" \
        >"$work/$tag.out" 2>"$work/$tag.err" || status=$?
    if [ "$status" != 0 ]; then
        echo "| $mode | $ranks | $procs | failed (status $status) | | $(tail -n1 "$work/$tag.err" | cut -c1-80) | | |"
        continue
    fi
    line=$(grep -E '^halo_app: ' "$work/$tag.out" || true)
    predicted=$(sed -nE 's/.*predicted time ([0-9.]+) s.*/\1/p' <<<"$line")
    results=$(sed -nE 's/.*s, results (.*)$/\1/p' <<<"$line")
    rss=$(sed -nE 's/.*"peak_rss_bytes": ([0-9]+).*/\1/p' "$work/$tag.json")
    awk -v m="$mode" -v n="$ranks" -v p="$procs" -v w="$(tail -n1 "$work/$tag.time")" -v s="$predicted" \
        -v r="$results" -v rss="$rss" 'BEGIN {
        printf "| %s | %d | %d | %.1f | %s | %s | %.0f | %.1f |\n", m, n, p, w, s, r, rss / 1048576,
               rss / (n / p) / 1024 }'
done
