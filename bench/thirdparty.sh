#!/usr/bin/env bash
# thirdparty.sh: build well-known third-party MPI codes natively and relinked with libxsim,
# run both at the same small scale and xsim at a large scale, and print one table row per
# run (issue 12, "proof with real codes"). Nothing is downloaded: you place each code's
# source tree somewhere and name it on the command line.
#
# Usage: bench/thirdparty.sh [options] CODE=SRCDIR [CODE=SRCDIR ...]
#   CODE    SRCDIR is the top of                              tried with (bench/RESULTS.md)
#   npb     NPB3.4-MPI (has config/make.def.template, IS/ CG/)  NPB 3.4.1
#   hpcg    the HPCG repository (has configure, setup/)          hpcg-benchmark/hpcg 3.1
#   lulesh  LULESH 2.0 (has lulesh.cc, Makefile)                 LLNL/LULESH
#   minimd  the miniMD repository (has ref/Makefile.openmpi)     Mantevo/miniMD
#   osu     OSU micro-benchmarks 5.x (has configure, mpi/)      osu-micro-benchmarks 5.3
#   imb     Intel MPI Benchmarks (has src_cpp/, Makefile)        intel/mpi-benchmarks
#   hpl     HPL 2.3 from its repository (has configure.ac,       icl-utk-edu/hpl
#           testing/ptest/HPL.dat; needs autoconf, automake, libtool and libblas-dev)
#   clover  CloverLeaf_ref (has clover.in, Makefile)           UK-MAC/CloverLeaf_ref
#   ior     the IOR repository (has bootstrap, configure.ac;     hpc/ior 4.1.0+dev
#           needs autoconf, automake, libtool, pkg-config): ior (MPIIO, POSIX) and mdtest
#   hpgmg   the HPGMG repository (has configure,                 hpgmg/hpgmg
#           finite-volume/source/); needs python3
# Options:
#   --build DIR     xsim build directory holding libxsim/libxsim.so (default $XSIM_BUILD or
#                   /tmp/benchbuild; configured and built from this repository if missing)
#   --work DIR      where sources are copied and built (default /tmp/xsim-thirdparty); the
#                   SRCDIRs are never modified
#   --large N       simulated ranks of the large-scale runs (default 1024; LULESH takes the
#                   largest cube <= N; NPB IS at most 1024 and LU class A/B at most 256, as
#                   the codes require)
#   --large-procs P real processes of the large-scale runs (default 2)
#   --stages LIST   any of "build native xsim large" (default: all four)
#   --timeout S     limit of every build step and run (default 300)
#   --npb-kernels L NPB kernels to build and run (default "is ep cg mg ft lu")
#   --npb-class C   NPB class of the large-scale runs (default A; the same-scale runs use S)
#   --hpcg-ranks N  simulated ranks of HPCG's large run (default 128: every rank computes a
#                   16^3 block for real, about a second of CPU each)
#   --hpgmg-ranks N simulated ranks of HPGMG's large run (default 512: one 16^3 box each)
#
# What each run does (commands as a user types them; -np = real processes):
#   native  mpirun --oversubscribe -np P ./app ARGS
#   xsim    mpirun --oversubscribe -np P ./app.xsim ARGS -xsim-report R.json  (P ranks: same scale)
#   large   mpirun --oversubscribe -np LP ./app.xsim ARGS -xsim-np N -xsim-report R.json
#           (OSU and IMB, which time MPI calls only, add -xsim-compute none)
# The relinked binary is the same object files linked with
#   -L$BUILD/libxsim -Wl,-rpath,$BUILD/libxsim -lxsim
# Output: a markdown table on stdout: code | case | run | ranks | P | exit | verified | answer
# | reported s | simulated s | wall s. "verified" is the code's own self-check; "answer" is
# "same" when the run's printed results, with timing lines removed, equal the native run's
# at the same rank count (- when there is no native run to compare). "reported s" is the
# time the code prints (NPB "Time in seconds", HPCG total, LULESH elapsed, miniMD t_total,
# OSU/IMB: the last size's latency in us). Logs: WORK/logs/<code>_<case>_<run>_<ranks>.*
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=${XSIM_BUILD:-/tmp/benchbuild}
work=/tmp/xsim-thirdparty
large=1024
large_procs=2
stages="build native xsim large"
timeout_s=300
npb_kernels="is ep cg mg ft lu"
npb_class=A
hpcg_ranks=128
hpgmg_ranks=512
codes=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --large) large=$2; shift 2 ;;
        --large-procs) large_procs=$2; shift 2 ;;
        --stages) stages=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --npb-kernels) npb_kernels=$2; shift 2 ;;
        --npb-class) npb_class=$2; shift 2 ;;
        --hpcg-ranks) hpcg_ranks=$2; shift 2 ;;
        --hpgmg-ranks) hpgmg_ranks=$2; shift 2 ;;
        -h|--help) sed -n '2,51p' "$0"; exit 0 ;;
        *=*) codes+=("$1"); shift ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ ${#codes[@]} -gt 0 ] || die "name at least one CODE=SRCDIR (see --help)"
has_stage() { case " $stages " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if has_stage build; then find_or_build_xsim "$build"; fi
[ -f "$build/libxsim/libxsim.so" ] || die "no libxsim.so in $build/libxsim (run with --stages build first)"
xlib="$build/libxsim"
XLINK="-L$xlib -Wl,-rpath,$xlib -lxsim"   # for make variables
xlink=(-L"$xlib" "-Wl,-rpath,$xlib" -lxsim)  # for commands run here
logs="$work/logs"
mkdir -p "$logs"

# fresh_copy SRC DEST: DEST becomes a copy of SRC (the user's tree is never built in).
fresh_copy() {
    [ -d "$1" ] || die "source directory '$1' does not exist"
    rm -rf "$2"; mkdir -p "$2"; cp -a "$1/." "$2/"
}
# clean DIR TARGET: the code's own clean target, so a tree the user already built is rebuilt
# (a stale binary would otherwise be "up to date" and never relinked)
clean() { make -C "$1" "$2" >/dev/null 2>&1 || true; }
# step LOG CMD...: one build step, bounded, output into LOG; dies naming LOG on failure.
step() {
    local log=$1; shift
    timeout "$timeout_s" "$@" >>"$log" 2>&1 || die "build step failed: $* (see $log)"
}

# ---- per-code builds: a native binary and the same objects relinked with libxsim ----

build_npb() { # SRC
    local d
    for d in native xsim; do
        fresh_copy "$1" "$work/npb/$d"
        clean "$work/npb/$d" clean; rm -f "$work/npb/$d"/bin/*.x
        cp "$work/npb/$d/config/make.def.template" "$work/npb/$d/config/make.def"
        # gfortran >= 10 rejects NPB's untyped MPI buffers without this flag (NPB's own advice)
        sed -i -E 's/^(FFLAGS[[:space:]]*=.*)$/\1 -fallow-argument-mismatch/' "$work/npb/$d/config/make.def"
        mkdir -p "$work/npb/$d/bin"
    done
    sed -i -E "s|^(CLINKFLAGS[[:space:]]*=.*)$|\1 $XLINK|; s|^(FLINKFLAGS[[:space:]]*=.*)$|\1 $XLINK|" \
        "$work/npb/xsim/config/make.def"
    local k c
    for d in native xsim; do
        for k in $npb_kernels; do
            for c in S "$npb_class"; do step "$logs/build_npb_$d.log" make -C "$work/npb/$d" "$k" CLASS="$c"; done
        done
    done
}

build_hpcg() {
    fresh_copy "$1" "$work/hpcg/src"
    mkdir -p "$work/hpcg/native"
    (cd "$work/hpcg/native" && step "$logs/build_hpcg.log" ../src/configure Linux_MPI &&
        step "$logs/build_hpcg.log" make -j2)
    rm -rf "$work/hpcg/xsim"; cp -a "$work/hpcg/native" "$work/hpcg/xsim"
    rm -f "$work/hpcg/xsim/bin/xhpcg"
    step "$logs/build_hpcg.log" make -C "$work/hpcg/xsim" HPCG_LIBS="$XLINK"
}

build_lulesh() {
    local d="$work/lulesh"
    fresh_copy "$1" "$d"
    clean "$d" clean
    # README: MPI on, OpenMP off (WITH_OPENMP=Off); the Makefile's mpig++ is Open MPI's mpicxx here
    step "$logs/build_lulesh.log" make -C "$d" -j2 MPICXX="mpicxx -DUSE_MPI=1" CXXFLAGS="-O3 -I. -Wall" LDFLAGS="-O3"
    (cd "$d" && step "$logs/build_lulesh.log" mpicxx -O3 lulesh.o lulesh-comm.o lulesh-viz.o lulesh-util.o \
        lulesh-init.o "${xlink[@]}" -lm -o lulesh2.0.xsim)
}

build_minimd() {
    local d="$work/minimd"
    fresh_copy "$1" "$d"
    clean "$d/ref" clean_openmpi
    step "$logs/build_minimd.log" make -C "$d/ref" openmpi -j2
    # shellcheck disable=SC2046
    (cd "$d/ref/Obj_openmpi" && step "$logs/build_minimd.log" mpicxx -O3 -fopenmp -mavx $(ls ./*.o) \
        "${xlink[@]}" -o ../miniMD_xsim)
}

build_osu() {
    fresh_copy "$1" "$work/osu/src"
    local d
    for d in native xsim; do
        mkdir -p "$work/osu/$d"
        local libs=""; [ $d = xsim ] && libs="$XLINK"
        (cd "$work/osu/$d" && step "$logs/build_osu.log" ../src/configure CC=mpicc CXX=mpicxx LIBS="$libs" &&
            step "$logs/build_osu.log" make -j2)
    done
}

build_imb() {
    local d="$work/imb"
    fresh_copy "$1" "$d"
    clean "$d" clean; rm -f "$d"/IMB-MPI1*
    # IMB builds with -Werror, which Open MPI 4.1's C++ binding header fails; skip that header
    step "$logs/build_imb.log" make -C "$d" IMB-MPI1 CC=mpicc CXX="mpicxx -DOMPI_SKIP_MPICXX=1"
    local link
    link=$(grep -E '^mpicxx .* -o IMB-MPI1 ' "$logs/build_imb.log" | tail -n1)
    [ -n "$link" ] || die "could not find IMB-MPI1's link line in $logs/build_imb.log"
    (cd "$d/src_cpp" && eval "step \"$logs/build_imb.log\" ${link/-o IMB-MPI1/-o ../IMB-MPI1.xsim} $XLINK")
}

build_hpl() {
    local d="$work/hpl"
    fresh_copy "$1" "$d"
    # The repository has no generated configure: autotools first, then the generic BLAS
    (cd "$d" && step "$logs/build_hpl.log" autoreconf -fi && step "$logs/build_hpl.log" ./configure CC=mpicc &&
        step "$logs/build_hpl.log" make -j2)
    local link
    link=$(grep -E '^mpicc .* -o xhpl ' "$logs/build_hpl.log" | tail -n1)
    [ -n "$link" ] || die "could not find xhpl's link line in $logs/build_hpl.log"
    (cd "$d/testing" && eval "step \"$logs/build_hpl.log\" ${link/-o xhpl /-o xhpl.xsim } $XLINK")
}

build_clover() {
    local d
    for d in native xsim; do fresh_copy "$1" "$work/clover/$d"; clean "$work/clover/$d" clean; done
    # OpenMP stays on as the Makefile has it; the runs set OMP_NUM_THREADS=1
    step "$logs/build_clover.log" make -C "$work/clover/native" COMPILER=GNU
    step "$logs/build_clover.log" make -C "$work/clover/xsim" COMPILER=GNU MPI_COMPILER="mpif90 $XLINK"
}

build_ior() {
    local d="$work/ior/native"
    fresh_copy "$1" "$d"
    (cd "$d" && step "$logs/build_ior.log" ./bootstrap && step "$logs/build_ior.log" ./configure CC=mpicc &&
        step "$logs/build_ior.log" make -j2)
    # the same objects (and libaiori.a) relinked: automake's LIBS is the last word of the link
    rm -rf "$work/ior/xsim"; cp -a "$d" "$work/ior/xsim"
    rm -f "$work/ior/xsim/src/ior" "$work/ior/xsim/src/mdtest"
    step "$logs/build_ior.log" make -C "$work/ior/xsim/src" ior mdtest LIBS="-lm $XLINK"
}

build_hpgmg() {
    local d="$work/hpgmg"
    fresh_copy "$1" "$d"
    # its configure (python): flat MPI, the default F-cycles, GSRB, BiCGStab, subcommunicators
    (cd "$d" && step "$logs/build_hpgmg.log" python3 ./configure --CC=mpicc --CFLAGS=-O2 --arch=build &&
        step "$logs/build_hpgmg.log" make -C build -j2)
    (cd "$d/build" && step "$logs/build_hpgmg.log" mpicc -O2 obj/finite-volume/source/*.o \
        -o bin/hpgmg-fv.xsim "${xlink[@]}" -lm)
}

# ---- runs ----

# run_one CODE CASE RUN RANKS P DIR VERIFY_RE ANSWER_CMD REPORTED_CMD -- CMD...
# Runs CMD in DIR under timeout and prints one table row. VERIFY_RE: a line every
# successful self-check prints (empty: the code has none). ANSWER_CMD: a shell filter
# keeping the results the code prints (no timings, dates or paths), compared with the
# native run's (empty: not compared). REPORTED_CMD: a shell filter printing the code's own
# time from its output.
run_one() {
    local code=$1 case=$2 run=$3 ranks=$4 procs=$5 dir=$6 verify=$7 answer=$8 reported=$9
    shift 10
    local tag="${code}_${case}_${run}_$ranks" out json rc=0 wall
    out="$logs/$tag.out"; json="$logs/$tag.json"; rm -f "$json"
    local extra=()
    [ "$run" = native ] || extra=(-xsim-report "$json")
    [ "$run" = large ] && extra+=(-xsim-np "$ranks")
    (cd "$dir" && timeout "$timeout_s" /usr/bin/time -f "%e" -o "$out.time" \
        "$MPIRUN" --oversubscribe -np "$procs" "$@" "${extra[@]}") >"$out" 2>&1 || rc=$?
    wall=$(tail -n1 "$out.time" 2>/dev/null || echo "?"); [ $rc = 124 ] && wall=">$timeout_s"
    local ok="-"
    if [ -n "$verify" ]; then grep -qE "$verify" "$out" && ok=yes || ok=no; fi
    local same="-" native="$logs/${code}_${case}_native_$ranks.answer"
    if [ -n "$answer" ]; then
        sh -c "$answer" <"$out" >"$out.answer" 2>/dev/null || true
        [ "$run" = native ] && cp "$out.answer" "$native"
        if [ "$run" != native ] && [ -f "$native" ]; then
            if [ ! -s "$out.answer" ]; then same="none printed"
            elif cmp -s "$native" "$out.answer"; then same=same
            else same=differs; fi
        fi
    fi
    local rep sim="-"
    rep=$(sh -c "$reported" <"$out" 2>/dev/null | head -n1); rep=${rep:--}
    [ -f "$json" ] && sim=$(sed -n 's/.*"simulated_time_s": *\([0-9.eE+-]*\).*/\1/p' "$json" | head -n1)
    local why=""
    if [ "$rc" != 0 ]; then
        why=$( { grep -m1 '^xsim:' "$out" || grep -m1 -iE 'more than once|ERROR:|error|fault' "$out" ||
            tail -n1 "$out"; } | cut -c1-100 | tr '|' '/')
        why=" ($why)"
    fi
    echo "| $code | $case | $run | $ranks | $procs | $rc$why | $ok | $same | $rep | ${sim:--} | $wall |"
}

# NPB: everything it prints but timings, rates, build options and Open MPI's messages
NPB_ANSWER="grep -vE 'Time in seconds|CPU Time|Initialization time|Mop/s|Compile date|Compile options|LINKFLAGS|FLINK|CLINK|MPICC|MPIFC|FFLAGS|CFLAGS|_LIB|_INC|RAND|^[[:space:]]*\$|^\\[|^--|^mpirun|^xsim:'"
run_npb() {
    local k np ranks cls
    for k in $npb_kernels; do
        local rep="sed -n 's/.*Time in seconds = *\\([0-9.]*\\).*/\\1/p'"
        local ver='Verification += +SUCCESSFUL'
        for np in 2 4; do
            has_stage native && run_one npb "$k.S" native $np $np "$work/npb/native/bin" "$ver" "$NPB_ANSWER" "$rep" -- "./$k.S.x"
            has_stage xsim && run_one npb "$k.S" xsim $np $np "$work/npb/xsim/bin" "$ver" "$NPB_ANSWER" "$rep" -- "./$k.S.x"
        done
        ranks=$large; cls=$npb_class
        [ "$k" = is ] && [ "$ranks" -gt 1024 ] && ranks=1024   # IS: "largest verified number is 1024"
        # LU stops with "SUBDOMAIN SIZE IS TOO SMALL" below 4x4 columns: 64^3 (A) and 102^3 (B)
        # allow a 16x16 process grid
        case "$k.$cls" in lu.A|lu.B) [ "$ranks" -gt 256 ] && ranks=256 ;; esac
        has_stage large && run_one npb "$k.$cls" large "$ranks" "$large_procs" "$work/npb/xsim/bin" "$ver" "$NPB_ANSWER" "$rep" -- "./$k.$cls.x"
    done
    return 0
}

HPCG_ARGS=(--nx=16 --ny=16 --nz=16 --rt=1)
run_hpcg() {
    # HPCG writes its report into a file named by the date; the check is in that file
    local d
    for d in native xsim; do
        has_stage "$d" || continue
        rm -f "$work/hpcg/$d/bin/"HPCG-Benchmark*.txt
        run_one hpcg "16^3" "$d" 2 2 "$work/hpcg/$d/bin" "" "" "true" -- ./xhpcg "${HPCG_ARGS[@]}"
        hpcg_summary "$work/hpcg/$d/bin" "$d" 2
    done
    if has_stage large; then
        rm -f "$work/hpcg/xsim/bin/"HPCG-Benchmark*.txt
        run_one hpcg "16^3" large "$hpcg_ranks" "$large_procs" "$work/hpcg/xsim/bin" "" "" "true" -- ./xhpcg "${HPCG_ARGS[@]}"
        hpcg_summary "$work/hpcg/xsim/bin" large "$hpcg_ranks"
    fi
    return 0
}
# hpcg_summary DIR RUN RANKS: one row from HPCG's report file (VALID, residual, total time)
hpcg_summary() {
    local f; f=$(find "$1" -maxdepth 1 -name 'HPCG-Benchmark*.txt' | head -n1)
    if [ -z "$f" ]; then echo "| hpcg | 16^3 report | $2 | $3 | | | no | - | - | - | |"; return; fi
    local valid=no; grep -q "HPCG result is VALID" "$f" && valid=yes
    local res t; res=$(sed -n 's/^Reproducibility Information::Scaled residual mean=//p' "$f")
    t=$(sed -n 's/^Benchmark Time Summary::Total=//p' "$f")
    echo "| hpcg | 16^3 report | $2 | $3 | | | $valid | residual $res | $t | | |"
}

LULESH_ANSWER="grep -E 'Problem size|MPI tasks|Iteration count|Final Origin Energy|MaxAbsDiff|TotalAbsDiff|MaxRelDiff'"
run_lulesh() {
    local rep="sed -n 's/^Elapsed time *= *\\([0-9.]*\\).*/\\1/p'" ver='MaxRelDiff'
    local np args=(-s 10 -i 50)
    for np in 1 8; do
        has_stage native && run_one lulesh s10 native $np $np "$work/lulesh" "$ver" "$LULESH_ANSWER" "$rep" -- ./lulesh2.0 "${args[@]}"
        has_stage xsim && run_one lulesh s10 xsim $np $np "$work/lulesh" "$ver" "$LULESH_ANSWER" "$rep" -- ./lulesh2.0.xsim "${args[@]}"
    done
    local c=1; while [ $(((c + 1) * (c + 1) * (c + 1))) -le "$large" ]; do c=$((c + 1)); done
    has_stage large && run_one lulesh s5 large $((c * c * c)) "$large_procs" "$work/lulesh" "$ver" "$LULESH_ANSWER" "$rep" -- ./lulesh2.0.xsim -s 5 -i 20
    return 0
}

# miniMD: the thermo lines (step T U P) without their wall-time column
MINIMD_ANSWER="awk 'NF==5 && \$1 ~ /^[0-9]+\$/ {print \$1, \$2, \$3, \$4}'"
run_minimd() {
    local rep="awk '/PERF_SUMMARY/ && !/grep_string/ {print \$5}'"
    local np args=(-i in.lj.miniMD -s 16 -n 50)
    export OMP_NUM_THREADS=1
    for np in 2 4; do
        has_stage native && run_one minimd lj16 native $np $np "$work/minimd/ref" "" "$MINIMD_ANSWER" "$rep" -- ./miniMD_openmpi "${args[@]}"
        has_stage xsim && run_one minimd lj16 xsim $np $np "$work/minimd/ref" "" "$MINIMD_ANSWER" "$rep" -- ./miniMD_xsim "${args[@]}"
    done
    has_stage large && run_one minimd lj32 large "$large" "$large_procs" "$work/minimd/ref" "" "$MINIMD_ANSWER" "$rep" -- ./miniMD_xsim -i in.lj.miniMD -s 32 -n 20
    return 0
}

# OSU/IMB print timings only: the answer is not compared, "reported" is the last latency
run_osu() {
    local rep="awk 'NF==2 && \$1 ~ /^[0-9]+\$/ {v=\$2} END {print v}'"
    local d
    for d in native xsim; do
        has_stage $d || continue
        run_one osu latency "$d" 2 2 "$work/osu/$d/mpi/pt2pt" "" "" "$rep" -- ./osu_latency -x 10 -i 100
        run_one osu allreduce "$d" 4 4 "$work/osu/$d/mpi/collective" "" "" "$rep" -- ./osu_allreduce -m 4096 -x 10 -i 100
    done
    # timing benchmarks: -xsim-compute none at scale, or the host's preemptions, charged to
    # whichever rank was running, reach every rank through each collective (README)
    has_stage large && run_one osu allreduce large "$large" "$large_procs" "$work/osu/xsim/mpi/collective" "" "" "$rep" -- ./osu_allreduce -m 4096 -x 10 -i 100 -xsim-compute none
    return 0
}

run_imb() {
    local rep="awk '\$1 ~ /^[0-9]+\$/ && NF==5 {v=\$5} END {print v}'"
    has_stage native && run_one imb "PingPong,Allreduce,Barrier" native 2 2 "$work/imb" "" "" "$rep" -- ./IMB-MPI1 PingPong Allreduce Barrier -msglog 0:12 -iter 100 -npmin 2
    has_stage xsim && run_one imb "PingPong,Allreduce,Barrier" xsim 2 2 "$work/imb" "" "" "$rep" -- ./IMB-MPI1.xsim PingPong Allreduce Barrier -msglog 0:12 -iter 100 -npmin 2
    has_stage large && run_one imb "Allreduce,Barrier" large "$large" "$large_procs" "$work/imb" "" "" "$rep" -- ./IMB-MPI1.xsim Allreduce Barrier -msglog 0:12 -iter 100 -npmin "$large" -xsim-compute none
    return 0
}

# HPL: the stock HPL.dat (864 small solves on 2x2, 1x4 and 4x1 grids) at 4 ranks, and one
# N=4096 solve on the largest square grid of at most --large ranks. Its self-check is the
# residual test of every solve; the answer is the residuals it prints.
HPL_ANSWER="grep -E '^\\|\\|Ax-b\\|\\|'"
hpl_large_dat() { # Q: HPL.dat for one N=4096, NB=64 solve on a Q x Q grid
    sed -e '5,8c\1            # of problems sizes (N)\n4096         Ns\n1            # of NBs\n64           NBs' \
        -e "10,12c\\1            # of process grids (P x Q)\\n$1           Ps\\n$1           Qs" \
        -e '14,15c\1            # of panel fact\n2            PFACTs (0=left, 1=Crout, 2=Right)' \
        -e '16,17c\1            # of recursive stopping criterium\n4            NBMINs (>= 1)' \
        -e '20,21c\1            # of recursive panel fact.\n1            RFACTs (0=left, 1=Crout, 2=Right)' \
        "$work/hpl/testing/ptest/HPL.dat"
}
run_hpl() {
    local rep="awk '/^W[RC]/ {v=\$6} END {print v}'" ver='[1-9][0-9]* tests completed and passed residual checks'
    local d="$work/hpl/testing"
    cp "$d/ptest/HPL.dat" "$d/HPL.dat"
    has_stage native && run_one hpl stock native 4 4 "$d" "$ver" "$HPL_ANSWER" "$rep" -- ./xhpl
    has_stage xsim && run_one hpl stock xsim 4 4 "$d" "$ver" "$HPL_ANSWER" "$rep" -- ./xhpl.xsim
    local q=1; while [ $(((q + 1) * (q + 1))) -le "$large" ]; do q=$((q + 1)); done
    mkdir -p "$d/large"; hpl_large_dat "$q" >"$d/large/HPL.dat"
    has_stage large && run_one hpl N4096 large $((q * q)) "$large_procs" "$d/large" "$ver" "" "$rep" -- ../xhpl.xsim
    return 0
}

# CloverLeaf: its own deck (960x960 cells, 87 steps, test problem 2), whose kinetic energy it
# checks against the known solution; the answer is its time-step lines (dt and the cell that
# set it) and that check, which it prints on standard output.
CLOVER_ANSWER="grep -E '^ Step +[0-9]|Test problem|considered'"
run_clover() {
    local rep="sed -n 's/^ *Wall clock *\\([0-9.E+-]*\\).*/\\1/p' | tail -n1" ver='This test is considered PASSED'
    local d
    export OMP_NUM_THREADS=1
    for d in native xsim; do
        has_stage $d && run_one clover 960x960 "$d" 4 4 "$work/clover/$d" "$ver" "$CLOVER_ANSWER" "$rep" -- -x OMP_NUM_THREADS ./clover_leaf
    done
    has_stage large && run_one clover 960x960 large "$large" "$large_procs" "$work/clover/xsim" "$ver" "" "$rep" -- -x OMP_NUM_THREADS ./clover_leaf
    return 0
}

# IOR: each case writes, checks (-W), reads back on the neighbour's rank (-C) and checks (-R)
# a fixed signature (-G), and keeps its file(s) (-k). Its answer is its option summary and any
# warning ("Incorrect data ..."); ior_files adds a row comparing the files' bytes with the
# native run's. mdtest's answer is its option lines (its rates are timings).
IOR_ANSWER="grep -E '^(api|access|type|segments|ordering|tasks|xfersize|blocksize|aggregate filesize) |WARNING|ERROR'"
ior_cases() { # DIR: NAME|ARGS of every case
    local g="-w -r -W -R -k -G 271828"
    echo "mpiio_indep|-a MPIIO -b 256k -t 64k -s 4 -C $g -o $1/mpiio_indep.dat"
    echo "mpiio_coll|-a MPIIO -c -b 256k -t 64k -s 4 -C $g -o $1/mpiio_coll.dat"
    echo "mpiio_view|-a MPIIO -c --mpiio.useFileView -b 256k -t 64k -s 4 -C $g -o $1/mpiio_view.dat"
    echo "mpiio_prealloc|-a MPIIO --mpiio.preallocate -b 256k -t 64k -s 2 -C $g -o $1/mpiio_prealloc.dat"
    echo "mpiio_fpp|-a MPIIO -F -b 256k -t 64k -s 2 -C $g -o $1/mpiio_fpp.dat"
    echo "mpiio_rand|-a MPIIO -z --random-offset-seed=7 -b 256k -t 16k -s 2 $g -o $1/mpiio_rand.dat"
    echo "posix_ssf|-a POSIX -b 256k -t 64k -s 4 -C -e $g -o $1/posix_ssf.dat"
    echo "posix_fpp|-a POSIX -F -b 256k -t 64k -s 2 -C $g -o $1/posix_fpp.dat"
}
# ior_files DIR RUN RANKS: one row, the checksum of every case's file(s) against the native run's
ior_files() {
    local sums="$logs/ior_files_$2_$3.md5" native="$logs/ior_files_native_$3.md5" f
    (cd "$1" && for f in *.dat*; do if [ -f "$f" ]; then md5sum "$f"; fi; done) >"$sums"
    local same="-"
    if [ "$2" != native ] && [ -f "$native" ]; then cmp -s "$sums" "$native" && same=same || same=differs; fi
    echo "| ior | files ($(wc -l <"$sums") checksums) | $2 | $3 | | | | $same | | | |"
    rm -f "$1"/*.dat*   # up to 1 GiB each at scale
}
run_ior() {
    local rep="awk '/^write / {print \$2 \" MiB/s\"}'" ver='^Finished'
    local run np ranks bin dir name args extra
    for run in native xsim large; do
        has_stage "$run" || continue
        np=2; ranks=2; bin="$work/ior/xsim/src"; extra=()
        [ "$run" = native ] && bin="$work/ior/native/src"
        # at scale -xsim-compute none: POSIX calls are not modeled, only charged as measured compute
        [ "$run" = large ] && { np=$large_procs; ranks=$large; extra=(-xsim-compute none); }
        dir="$work/ior/run_$run"; rm -rf "$dir"; mkdir -p "$dir"
        while IFS='|' read -r name args <&3; do   # fd 3: mpirun reads standard input
            # shellcheck disable=SC2086
            run_one ior "$name" "$run" "$ranks" "$np" "$dir" "$ver" "$IOR_ANSWER" "$rep" -- "$bin/ior" $args "${extra[@]}"
        done 3< <(ior_cases "$dir")
        ior_files "$dir" "$run" "$ranks"
        run_one ior mdtest "$run" "$ranks" "$np" "$dir" '^-- finished' \
            "grep -E 'tasks, [0-9]+ files'" "awk '/File creation/ {print \$3}'" -- "$bin/mdtest" -n 20 -i 1 -d "$dir/md" "${extra[@]}"
    done
    return 0
}

# HPGMG-FV times solves for at least 60 s per problem size (hard-coded minTime), so under xsim
# the number of solves follows the virtual solve time. The xsim runs use -xsim-compute none
# and a 10 ms network (every level), so every solve takes seconds of virtual time and the
# loops stop after a few dozen solves; the numbers solved do not depend on timing. The answer:
# the residual norms of the F-cycles (once per value), v-cycle and bottom-solver iteration
# counts, the Richardson error and order, the levels built.
HPGMG_ANSWER="grep -E 'norm=|v-cycles|Bottom solver|\\|\\|error\\|\\||order=|attempting to create|Tasks' | sed 's/ done (.*//' | uniq"
HPGMG_SLOW=(-xsim-compute none -xsim-set network.level.node.latency=0.01 -xsim-set network.level.switch.latency=0.01 -xsim-set network.level.system.latency=0.01)
run_hpgmg() {
    local rep="awk '/DOF=/ {sub(\"time=\", \"\", \$3); print \$3; exit}'" d="$work/hpgmg/build/bin"
    # natively its three 60 s timing loops take 200-330 s on 2 cores: at least 600 s for these runs
    local timeout_s=$((timeout_s < 600 ? 600 : timeout_s))
    # log2 box size 5, one box per rank: a 64^3 problem on 8 ranks
    has_stage native && run_one hpgmg "box32" native 8 8 "$d" "" "$HPGMG_ANSWER" "$rep" -- ./hpgmg-fv 5 1
    has_stage xsim && run_one hpgmg "box32" xsim 8 2 "$d" "" "$HPGMG_ANSWER" "$rep" -- ./hpgmg-fv.xsim 5 1 -xsim-np 8 "${HPGMG_SLOW[@]}"
    has_stage large && run_one hpgmg "box16" large "$hpgmg_ranks" "$large_procs" "$d" "" "" "$rep" -- ./hpgmg-fv.xsim 4 1 "${HPGMG_SLOW[@]}"
    return 0
}

echo "| code | case | run | ranks | P | exit | verified | answer | reported s | simulated s | wall s |"
echo "|---|---|---|---:|---:|---|---|---|---:|---:|---:|"
for spec in "${codes[@]}"; do
    code=${spec%%=*}; src=$(cd "${spec#*=}" 2>/dev/null && pwd) || die "no directory '${spec#*=}' for $code"
    case "$code" in npb|hpcg|lulesh|minimd|osu|imb|hpl|clover|ior|hpgmg) ;; *) die "unknown code '$code' (npb hpcg lulesh minimd osu imb hpl clover ior hpgmg)" ;; esac
    if has_stage build; then "build_$code" "$src" >&2; fi
    "run_$code"
done
