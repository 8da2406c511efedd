#!/usr/bin/env bash
# hot_path.sh: the figures of issue 14's hot path, for one build, one row per call:
#   msgs/s       mpirun -np 1 ring_allreduce -xsim-np N -xsim-compute none -iterations I
#                (default N=65536, I=50), and again with 10 iterations (the rate used to fall
#                with the run's length): messages + collective_messages of the report over
#                the report's wall_time_s (engine), and over the process's CPU seconds
#                (user + sys, /usr/bin/time): on a shared machine the CPU figure is the one
#                to compare, the wall figure depends on the load.
#   measured/none  the same program, 10 iterations, at M ranks on P processes (default
#                65536 on 1), once with -xsim-compute none and once with measured (the
#                default): engine wall, CPU seconds, and peak RSS per rank (peak_rss_bytes of
#                the largest process / (M / P), everything included).
#   engine_p2p   mpirun -np 1 engine_p2p -mode shift -xsim-np 16384 -rounds 60: messages over
#                wall_time_s (whole run; bench/engine_p2p.sh gives the marginal rate).
#   fiber_switch <build>/bench/fiber_switch (Google Benchmark), ns per jump with 1 and 65,536
#                fibers, when it was built.
# Every run is repeated --repeat times (default 3); the row holds medians. The load average
# before and after goes into the row: other work on the machine slows the wall figures.
# The none and measured runs alternate (none first in odd repeats, measured first in even
# ones) after one untimed warm-up run of the same size: on a VM whose balloon returns freed
# memory to the host (free page reporting), the first large run after a pause pays the host's
# first touch again, up to 20 s of sys time at 2^20 ranks, and whichever mode ran first took
# it (bench/RESULTS.md, "Session 12").
# Writes (appends) the row to the table of section "hot_path.sh" of bench/RESULTS.md
# (--label names the row, e.g. the commit; --no-write only prints).
#
# Usage: bench/hot_path.sh [--build DIR] [--label TEXT] [--ranks N] [--iterations I]
#                          [--measured-ranks M] [--measured-procs P] [--repeat K]
#                          [--results FILE] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=${XSIM_BUILD:-/tmp/benchbuild}
label=""
ranks=65536
iterations=50
mranks=65536
mprocs=1
repeat=3
results="$BENCH_DIR/RESULTS.md"
write=1
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --label) label=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --iterations) iterations=$2; shift 2 ;;
        --measured-ranks) mranks=$2; shift 2 ;;
        --measured-procs) mprocs=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
for v in "$ranks" "$iterations" "$mranks" "$mprocs" "$repeat"; do
    [[ "$v" =~ ^[1-9][0-9]*$ ]] || die "'$v' is not a positive whole number"
done

work=$(mktemp -d /tmp/xsim-hotpath.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
[ -n "$label" ] || label=$XSIM_BUILT_FROM
build_ring_allreduce "$build" "$work/ring_allreduce"
build_with_xsim "$build" "$BENCH_DIR/engine_p2p.c" "$work/engine_p2p"
load_before=$(cut -d' ' -f1 /proc/loadavg)

# run_once TAG K NP PROGRAM ARGS...: report TAG.K.json, "wall user sys" in TAG.K.time
run_once() {
    local tag=$1 k=$2 np=$3 status=0
    shift 3
    /usr/bin/time -f "%e %U %S" -o "$work/$tag.$k.time" "$MPIRUN" --oversubscribe -np "$np" "$@" \
        -xsim-report "$work/$tag.$k.json" >"$work/$tag.$k.out" 2>"$work/$tag.$k.err" || status=$?
    [ "$status" = 0 ] || die "$tag failed (status $status): $(tail -n3 "$work/$tag.$k.err")"
}
# run TAG NP PROGRAM ARGS...: --repeat runs
run() {
    local tag=$1 np=$2 k
    shift 2
    for k in $(seq 1 "$repeat"); do run_once "$tag" "$k" "$np" "$@"; done
}
# none and measured at M ranks on P processes, alternated after a warm-up (see the header)
run_modes() {
    local k
    run_once warmup 1 "$mprocs" "$work/ring_allreduce" -xsim-np "$mranks" -xsim-compute none -iterations 1
    for k in $(seq 1 "$repeat"); do
        if (( k % 2 )); then
            run_once none "$k" "$mprocs" "$work/ring_allreduce" -xsim-np "$mranks" -xsim-compute none
            run_once measured "$k" "$mprocs" "$work/ring_allreduce" -xsim-np "$mranks" -xsim-compute measured
        else
            run_once measured "$k" "$mprocs" "$work/ring_allreduce" -xsim-np "$mranks" -xsim-compute measured
            run_once none "$k" "$mprocs" "$work/ring_allreduce" -xsim-np "$mranks" -xsim-compute none
        fi
    done
}

run rate10 1 "$work/ring_allreduce" -xsim-np "$ranks" -xsim-compute none -iterations 10
run rate 1 "$work/ring_allreduce" -xsim-np "$ranks" -xsim-compute none -iterations "$iterations"
run_modes
run p2p 1 "$work/engine_p2p" -xsim-np 16384 -xsim-compute none -mode shift -rounds 60
switch="-"
if [ -x "$build/bench/fiber_switch" ]; then
    "$build/bench/fiber_switch" --benchmark_repetitions="$repeat" --benchmark_report_aggregates_only=true \
        --benchmark_format=json >"$work/switch.json" 2>/dev/null || die "fiber_switch failed"
    switch=$(python3 - "$work/switch.json" <<'EOF'
import json, sys
benchmarks = json.load(open(sys.argv[1]))["benchmarks"]
# Medians when repeated; with --repeat 1 Google Benchmark writes the single runs, no aggregates.
rows = {b["run_name"]: b for b in benchmarks if b.get("aggregate_name") == "median"} or \
       {b.get("run_name", b["name"]): b for b in benchmarks if "aggregate_name" not in b}
def ns(n):
    hit = [b for name, b in rows.items() if name.endswith("/%d" % n)]
    return "%.1f" % hit[0]["ns_per_switch"] if hit and "ns_per_switch" in hit[0] else "?"
print("%s / %s" % (ns(1), ns(65536)))
EOF
)
fi
load_after=$(cut -d' ' -f1 /proc/loadavg)

row=$(python3 - "$work" "$repeat" "$label" "$ranks" "$iterations" "$mranks" "$mprocs" "$switch" \
    "$load_before" "$load_after" <<'EOF'
import json, statistics, sys
work, repeat, label, ranks, iterations, mranks, mprocs, switch, lb, la = sys.argv[1:11]
repeat, mranks, mprocs = int(repeat), int(mranks), int(mprocs)
def runs(tag):
    out = []
    for k in range(1, repeat + 1):
        r = json.load(open(f"{work}/{tag}.{k}.json"))
        wall, user, sys_ = (float(x) for x in open(f"{work}/{tag}.{k}.time").read().split()[-3:])
        out.append((r, user + sys_))
    return out
med = statistics.median
def rates(tag):
    rs = runs(tag)
    n = rs[0][0]["messages"] + rs[0][0].get("collective_messages", 0)
    return n, med(n / r["wall_time_s"] for r, _ in rs), med(n / cpu for _, cpu in rs)
msgs, per_wall, per_cpu = rates("rate")
_, per_wall10, per_cpu10 = rates("rate10")
def summary(tag):
    rs = runs(tag)
    return med(r["wall_time_s"] for r, _ in rs), med(c for _, c in rs), med(r["peak_rss_bytes"] for r, _ in rs) / (mranks / mprocs)
nw, nc, nrss = summary("none")
mw, mc, mrss = summary("measured")
p2p = runs("p2p")
p2p_rate = med((r["messages"]) / r["wall_time_s"] for r, _ in p2p)
print(f"| {label} | {lb} / {la} | {msgs:,} | {per_wall10 / 1e6:.2f} M / {per_wall / 1e6:.2f} M | "
      f"{per_cpu10 / 1e6:.2f} M / {per_cpu / 1e6:.2f} M | "
      f"{nw:.1f} / {mw:.1f} ({mw / nw:.2f}x) | {nc:.1f} / {mc:.1f} ({mc / nc:.2f}x) | {nrss:,.0f} / {mrss:,.0f} | "
      f"{p2p_rate / 1e6:.2f} M | {switch} |")
EOF
)
header="| build | load avg before / after | messages (N=$ranks, $iterations it.) | msgs/s per engine wall (10 / $iterations it.) | msgs/s per CPU s (10 / $iterations it.) | none / measured engine wall s (M=$mranks, P=$mprocs) | none / measured CPU s | none / measured peak RSS per rank B | engine_p2p msgs/s (16,384, shift) | fiber_switch ns (1 / 65,536 fibers) |"
sep="|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "$header"
echo "$sep"
echo "$row"

if [ "$write" = 1 ]; then
    section="hot_path.sh"
    body="$work/body.md"
    python3 - "$results" "$section" "$header" "$sep" "$row" "$body" <<'EOF'
import os, sys
path, section, header, sep, row, body = sys.argv[1:7]
text = open(path).read() if os.path.exists(path) else ""
rows = []
if "## " + section in text:  # keep the rows already there (same columns): one row per build
    part = text.split("## " + section, 1)[1].split("\n## ", 1)[0]
    rows = [l for l in part.split("\n") if l.startswith("| ") and not l.startswith("| build ")]
    # The table's header names M and P for both kinds of rows: keep it (a row's label says which).
    header = next((l for l in part.split("\n") if l.startswith("| build ")), header)
open(body, "w").write("\n".join(["Rows appended by `bench/hot_path.sh` (medians of its --repeat runs; see the script's header).", "", header, sep] + rows + [row]) + "\n")
EOF
    write_results "$results" "$section" "$body"
    echo "# written to $results" >&2
fi
