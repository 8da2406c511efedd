#!/usr/bin/env bash
# Makes the README's pictures (docs/pictures/*.png) from the examples: each picture's run and
# its xsim-plot command. usage: docs/pictures/make_pictures.sh [BUILD_DIR] (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
out=$here/docs/pictures
plot=$here/launch/xsim-plot
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
skel=$build/examples/skeletons
xsim() { echo "+ mpirun -np 2 ${*#"$build/"}" >&2; mpirun --oversubscribe -np 2 "$@" -xsim-quiet; }
plot() { echo "+ xsim-plot $*" >&2; "$plot" "$@"; }

# Profile: sweep3d's wavefronts on 256 ranks; the ranks far from the corners wait longer.
xsim "$skel/sweep3d" -xsim-np 256 -xsim-compute none -xsim-payload off -xsim-profile "$work/sweep3d.json"
plot profile "$work/sweep3d.json" -o "$out/profile_sweep3d.png"

# Communication matrix: cg's row reductions and transposes on 256 ranks, in bytes.
xsim "$skel/cg" -xsim-np 256 -xsim-compute none -xsim-payload off -xsim-commmatrix "$work/cg.csv"
plot matrix "$work/cg.csv" --bytes -o "$out/matrix_cg.png"

# Timeline: ranks 0-15 of sweep3d on 64 ranks, the first wavefronts (both processes' trace parts).
xsim "$skel/sweep3d" -xsim-np 64 -xsim-compute none -xsim-payload off -xsim-trace "$work/sweep3d_trace.json" \
    -xsim-trace-ranks 0-15
plot timeline "$work"/sweep3d_trace.json* --window 8e-5:1.2e-3 -o "$out/timeline_sweep3d.png"

# What changed: stencil2d on 1024 ranks, a torus against a fat tree.
for m in torus3d fat-tree; do
    xsim "$skel/stencil2d" -xsim-np 1024 -xsim-compute none -xsim-payload off \
        -xsim-config "$here/examples/machines/$m.toml" -xsim-profile "$work/stencil2d_$m.json"
done
plot compare "$work/stencil2d_torus3d.json" "$work/stencil2d_fat-tree.json" --label-a "torus3d.toml" \
    --label-b "fat-tree.toml" --title "stencil2d, 1024 ranks: a 3-D torus (A) against a fat tree (B)" \
    -o "$out/compare_stencil2d_machines.png"

# What changed with the rank count: ring_exchange on 4,096 and 16,384 ranks (run reports).
for n in 4096 16384; do
    xsim "$build/examples/ring_exchange" -xsim-np $n -xsim-compute none -xsim-report "$work/ring_$n.json" >/dev/null
done
plot compare "$work/ring_4096.json" "$work/ring_16384.json" -o "$out/compare_ring_ranks.png"
ls -l "$out"/*.png
