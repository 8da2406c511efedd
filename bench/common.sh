# Shared helpers of the bench/ scripts (sourced, not run).
# shellcheck shell=bash
# The globals they set (WALL, STATUS, SIM, XSIM_FLAT_NET, SMPI_CFG, ...) are read by the scripts.
# shellcheck disable=SC2034

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)

# As root, Open MPI's mpirun refuses to start without these.
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
MPIRUN=${MPIRUN:-mpirun}

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# find_or_build_xsim BUILD_DIR: make sure BUILD_DIR holds a built libxsim.so.
# Configures and builds the repository there when it does not.
find_or_build_xsim() {
    local build=$1
    if [ ! -f "$build/libxsim/libxsim.so" ]; then
        echo "# building xsim in $build" >&2
        cmake -S "$REPO_DIR" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2 || die "cmake failed"
    fi
    cmake --build "$build" --target xsim >&2 || die "building libxsim failed"
    # the source state the library was just built from (machine_description reports it)
    XSIM_BUILT_FROM="$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$REPO_DIR" diff --quiet HEAD -- . ':!bench' ':!examples/skeletons' 2>/dev/null || echo ' + uncommitted changes')"
}

# build_with_xsim BUILD_DIR SOURCE OUT [MPICC FLAGS...]: compile one C program with mpicc
# (-O2 -std=c99, then the flags given) and link it with BUILD_DIR's libxsim.
build_with_xsim() {
    local build=$1 source=$2 out=$3
    shift 3
    mpicc -O2 -std=c99 "$@" "$source" -o "$out" -L"$build/libxsim" -Wl,-rpath,"$build/libxsim" -lxsim ||
        die "mpicc $(basename "$source") -lxsim failed"
}

# build_ring_allreduce BUILD_DIR OUT: compile bench/ring_allreduce.c against BUILD_DIR's libxsim.
build_ring_allreduce() { build_with_xsim "$1" "$BENCH_DIR/ring_allreduce.c" "$2"; }

# run_timed WORK TAG LIMIT CMD...: runs CMD (a ring_allreduce run, xsim or SMPI) under
# `timeout LIMIT` and /usr/bin/time, stdout and stderr into WORK/TAG.out and WORK/TAG.err.
# Sets STATUS (exit status; 124 = stopped at LIMIT seconds, 99 = finished without rank 0's
# predicted-time line), WALL (whole-process wall seconds; ">LIMIT" when stopped) and SIM
# (the predicted time rank 0 printed; "-" when the run failed).
run_timed() {
    local work=$1 tag=$2 limit=$3
    shift 3
    rm -f "$work/$tag.time"
    STATUS=0
    timeout "$limit" /usr/bin/time -f "%e" -o "$work/$tag.time" "$@" >"$work/$tag.out" 2>"$work/$tag.err" || STATUS=$?
    WALL=$(tail -n1 "$work/$tag.time" 2>/dev/null || echo "?")
    SIM=$(predicted_time "$work/$tag.out")
    if [ "$STATUS" = 0 ] && [ -z "$SIM" ]; then STATUS=99; fi
    if [ "$STATUS" != 0 ]; then
        echo "# $tag failed (status $STATUS): $(tail -n2 "$work/$tag.err" | tr '\n' ' ' | cut -c1-200)" >&2
        [ "$STATUS" = 124 ] && WALL=">$limit"
        SIM="-"
    fi
    return 0
}

# predicted_time FILE: the time rank 0 of a bench program printed into FILE (its stdout under
# xsim, SMPI or natively: "<program>: N ranks, predicted time X s ..."), or nothing.
predicted_time() {
    sed -n 's/^[A-Za-z0-9_]*: [0-9]* ranks, predicted time \([0-9.eE+-]*\) s.*/\1/p' "$1" | head -n1
}

# --- The matched xsim / SMPI network (see smpi_compare.sh's header and README.md) ---------
# Every pair of ranks: 12 us latency, 1834e6 B/s (the on-node level of xsim's default machine).
XSIM_FLAT_NET='network.level=[{name="flat", latency=12e-6, bandwidth=1834e6, rendezvous=4096}]'
# SMPI: model corrections off, the same collective algorithms as xsim, no compute, free clock
# reads; then speed options (no privatization, 64 KiB stacks like -xsim-stack 64k, no guard);
# quiet, except the whole run's simulated time at the end (smpi/display-timing, on stderr).
SMPI_CFG=(--cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no
          --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=network/crosstraffic:0
          --cfg=smpi/allreduce:rdb --cfg=smpi/barrier:ompi_bruck --cfg=smpi/wtime:0
          --cfg=contexts/stack-size:64 --cfg=contexts/guard-size:0
          --cfg=smpi/display-timing:yes --log=root.thres:warning --log=smpi_utils.thres:info)

# have_smpi: whether smpicc and smpirun are on PATH.
have_smpi() { command -v smpicc >/dev/null && command -v smpirun >/dev/null; }

# ensure_smpi: installs Debian's libsimgrid-dev when smpicc/smpirun are missing; fails when
# they are still missing afterwards.
ensure_smpi() {
    have_smpi && return 0
    echo "# smpicc/smpirun missing: installing Debian's libsimgrid-dev" >&2
    if [ "$(id -u)" = 0 ]; then apt-get install -y libsimgrid-dev >&2 || true
    else sudo apt-get install -y libsimgrid-dev >&2 || true; fi
    have_smpi
}

# smpi_version: SimGrid's version line.
smpi_version() { smpirun -version 2>/dev/null | head -n1; }

# build_ring_allreduce_smpi OUT: compile bench/ring_allreduce.c with smpicc.
build_ring_allreduce_smpi() {
    smpicc -O2 -std=c99 "$BENCH_DIR/ring_allreduce.c" -o "$1" || die "smpicc ring_allreduce.c failed"
}

# smpi_platform WORK N: writes WORK/platformN.xml, a <cluster> of N hosts whose routes cross
# the source's and the destination's private split-duplex link (6 us + 6 us = 12 us,
# bottleneck 1834e6 B/s, one queue per direction as xsim serializes a rank's sends and its
# receives separately; no backbone), and WORK/hostsN.txt, one host per rank.
smpi_platform() {
    local work=$1 n=$2
    cat >"$work/platform$n.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- $n hosts; route = source's private link + destination's private link, no backbone:
       latency 6us + 6us = 12e-6 s, bandwidth 1834e6 B/s -->
  <cluster id="flat" prefix="node-" suffix="" radical="0-$((n - 1))" speed="1Gf"
           bw="1834000000Bps" lat="6us" sharing_policy="SPLITDUPLEX"/>
</platform>
EOF
    seq 0 $((n - 1)) | sed 's/^/node-/' >"$work/hosts$n.txt"
}

# run_smpi WORK APP N LIMIT: runs the smpicc-built APP on N simulated ranks over
# smpi_platform's network with SMPI_CFG; sets WALL, STATUS and SIM as run_timed does (TAG
# smpiN), and SMPI_SIMULATED: the simulated time of the whole run (MPI_Init to the end, the
# span of simulated_time_s in an xsim report) that SMPI printed, or "-".
run_smpi() {
    local work=$1 app=$2 n=$3 limit=$4
    smpi_platform "$work" "$n"
    run_timed "$work" "smpi$n" "$limit" smpirun -np "$n" -platform "$work/platform$n.xml" \
        -hostfile "$work/hosts$n.txt" "$app" "${SMPI_CFG[@]}"
    SMPI_SIMULATED=$(sed -n 's/.*Simulated time: \([0-9.eE+-]*\) seconds.*/\1/p' "$work/smpi$n.err" | head -n1)
    if [ "$STATUS" != 0 ] || [ -z "$SMPI_SIMULATED" ]; then SMPI_SIMULATED="-"; fi
}

# smpi_too_slow PREV_N PREV_WALL N LIMIT: whether SMPI, having taken PREV_WALL s at PREV_N
# ranks, would likely exceed LIMIT s at N ranks. SMPI's time grows faster than N (doubling N
# at least doubles it), so the estimate is PREV_WALL x 1.25 x N / PREV_N.
smpi_too_slow() {
    python3 -c "import sys; sys.exit(0 if $2 * 1.25 * $3 / $1 > $4 else 1)"
}

# smpi_description: markdown lines saying how SMPI ran and what is matched with xsim.
smpi_description() {
    echo "- SimGrid: $(smpi_version)"
    echo "- network in both: every pair 12 us, 1834e6 B/s (xsim: one flat level via -xsim-set; SMPI: cluster, 6 us + 6 us private split-duplex links, no backbone, lat/bw factors 1, no cross-traffic)"
    echo "- SMPI: \`smpirun -np N -platform cluster.xml -hostfile hosts ring_allreduce_smpi ${SMPI_CFG[*]}\`"
}

# json_field FILE KEY: a top-level number of an xsim run report.
json_field() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}

# machine_description: date, nproc, memory, CPU model (markdown lines).
machine_description() {
    local cpu mem
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1)
    mem=$(free -g 2>/dev/null | awk '/^Mem:/ {print $2 " GiB"}')
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "- machine: $(nproc) cores (nproc), ${mem:-? GiB} memory, CPU: ${cpu:-unknown}"
    echo "- xsim built from: ${XSIM_BUILT_FROM:-$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
}

# write_results FILE SECTION_TITLE BODY_FILE: replace (or append) a "## SECTION_TITLE" section
# of FILE with "## SECTION_TITLE" followed by BODY_FILE's content.
write_results() {
    local file=$1 title=$2 body=$3
    python3 - "$file" "$title" "$body" <<'EOF'
import os, sys
path, title, body_path = sys.argv[1:4]
body = open(body_path).read().rstrip("\n") + "\n"
head = "## " + title
text = open(path).read() if os.path.exists(path) else "# xsim benchmark results\n\nWritten by the scripts in bench/ (see bench/README.md).\n"
lines = text.split("\n")
out, i, replaced = [], 0, False
while i < len(lines):
    if lines[i].strip() == head:
        out.append(head); out.append(""); out.extend(body.rstrip("\n").split("\n")); out.append("")
        i += 1
        while i < len(lines) and not lines[i].startswith("## "):
            i += 1
        replaced = True
        continue
    out.append(lines[i]); i += 1
result = "\n".join(out).rstrip("\n") + "\n"
if not replaced:
    result += "\n" + head + "\n\n" + body
open(path, "w").write(result)
EOF
}
