#!/usr/bin/env bash
# model_cost.sh: builds and runs bench/model_cost (Google Benchmark; see model_cost.cpp) and
# turns its JSON output into a markdown table (ns per query, queries per second) written
# into bench/RESULTS.md (section "model_cost").
#
# Usage: bench/model_cost.sh [--ranks N] [--repetitions K] [--build DIR] [--results FILE] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks=1048576
reps=3
build=${XSIM_BUILD:-/tmp/benchbuild}
results="$BENCH_DIR/RESULTS.md"
write=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --repetitions) reps=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

if [ ! -f "$build/build.ninja" ] && [ ! -f "$build/Makefile" ]; then
    cmake -S "$REPO_DIR" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2 || die "cmake failed"
fi
cmake --build "$build" --target bench_model_cost >&2 || die "building model_cost failed (libbenchmark-dev installed?)"
XSIM_BUILT_FROM="$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)"

work=$(mktemp -d /tmp/xsim-modelcost.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$build/bench/model_cost" --ranks "$ranks" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_min_time=0.3 --benchmark_out="$work/out.json" --benchmark_out_format=json >&2

table="$work/table.md"
python3 - "$work/out.json" >"$table" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print("| query | machine | model | ranks | CPU ns per query (median) | real ns (median) | queries/s (CPU) |")
print("|---|---|---|---:|---:|---:|---:|")
for b in d["benchmarks"]:
    if b.get("aggregate_name") not in (None, "median"):
        continue
    name = b["run_name"] if "run_name" in b else b["name"]
    query, machine, model, ranks = name.split("/")[:4]
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    cpu, real = b["cpu_time"] * scale, b["real_time"] * scale
    print(f"| {query} | {machine} | {model} | {ranks.split(':')[1]} | {cpu:.1f} | {real:.1f} | {1e9 / cpu:,.0f} |")
EOF
cat "$table"

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/model_cost.sh --ranks $ranks --repetitions $reps\` (= \`model_cost --ranks $ranks --benchmark_repetitions=$reps --benchmark_min_time=0.3\`)"
        echo "- random (src, dst) pairs over $ranks ranks, 64-byte messages for arrival(); torus3d resized to 64x32x32 nodes x 16 ranks"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "model_cost" "$body"
    echo "# written to $results" >&2
fi
