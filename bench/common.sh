# Shared helpers of the bench/ scripts (sourced, not run).
# shellcheck shell=bash

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

# build_ring_allreduce BUILD_DIR OUT: compile bench/ring_allreduce.c against BUILD_DIR's libxsim.
build_ring_allreduce() {
    local build=$1 out=$2
    mpicc -O2 -std=c99 "$BENCH_DIR/ring_allreduce.c" -o "$out" \
        -L"$build/libxsim" -Wl,-rpath,"$build/libxsim" -lxsim || die "mpicc ring_allreduce.c failed"
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
