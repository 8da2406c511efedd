#!/usr/bin/env python3
"""mpich_testsuite.py: run MPICH's MPI test suite (test/mpi of github.com/pmodels/mpich) under
xsim, relinked with -lxsim, and natively where xsim fails, and print one line per test case.

Nothing is downloaded: SRCDIR is the top of an MPICH source tree (or of its test/mpi). The
suite's autoconf step is replaced by a fixed mpitestconf.h for Open MPI on Linux; each test
program and MTest's utility library are compiled with mpicc, once, into WORK/bin. A case of a
directory's testlist ("name ranks [arg=...]") runs as
    mpirun -np P ./name.x ARGS -xsim-np RANKS -xsim-quiet   (P = 2 when RANKS >= 2, else 1)
and passes when it exits 0 and prints "No Errors". A failing case is run natively at RANKS
ranks (mpirun --oversubscribe -np RANKS ./name.n ARGS) to tell xsim's failures from the
suite's own expectations on Open MPI (MPICH-only calls, MPIX, error-code conventions).

A directory's testlist may name subdirectories (errors: attr, coll, ..., io); they are run
too. configure's substitutions are made as for Open MPI with MPI-IO, RMA and Fortran
(@iodir@, @rmadir@, @f77dir@, @f90dir@, @ALLOCMEMF@); lines with any other (spawn, C++,
f08, threads, faults, name publishing, the collective-error tests configure leaves out by
default) are skipped. `basic` has no testlist (MPICH's own top-level list comments it out):
its programs that check themselves run at fixed sizes (BASIC_CASES).

Fortran (f77, f90, errors/f77, errors/f90): the sources are prepared in WORK/gen as MPICH's
configure and make would: the .h.in headers with INTEGER*8 for MPI_ADDRESS_KIND and
MPI_OFFSET_KIND, f77/io's write tests merged from ioharness.tlt by maint/testmerge, and the
f90 directories made from the f77 ones by maint/f77tof90 (perl). Programs are compiled with
mpifort (f77: -fallow-argument-mismatch) and linked with MTest's util/mtest_f77.f or
util/mtest_f90.f90; a program's other sources (C helpers) come from its X_SOURCES line in
the directory's Makefile.am.

Output, one line per case: DIR NAME RANKS ARGS  PASS | FAIL (native pass|fail) | build error.
The last line counts them. Details of every case go to WORK/results.json.

Usage: bench/mpich_testsuite.py SRCDIR [--build DIR] [--work DIR] [--dirs attr,coll,...]
                                [--timeout S] [--only PREFIX,...]
--only keeps the programs whose names start with one of the prefixes (--dirs coll --only p_:
the persistent collectives, whose MPI-4 names are mapped to Open MPI's MPIX_ ones with -D).
--dirs names top-level directories (errors, f77, ...) or subdirectories (errors/io).
Default directories: attr coll comm datatype errhan group info init pt2pt topo (those of the
first run; rma, io, basic, errors, f77 and f90 run with --dirs; spawn, threads and the C++ and
f08 ones are not run by this script). Tried with MPICH 4.x at 6a79bf6 (bench/RESULTS.md,
"MPICH's test suite", sessions 16 and 27).
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

DEFAULT_DIRS = "attr,coll,comm,datatype,errhan,group,info,init,pt2pt,topo"

# What configure would find on Debian with Open MPI (mpitestconf.h), and dtpools' header.
MPITESTCONF = """#ifndef MPITESTCONF_H_INCLUDED
#define MPITESTCONF_H_INCLUDED
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STDARG_H 1
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_LONG_LONG 1
#define HAVE_LONG_LONG_INT 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_IO 1
#define HAVE_PTHREAD_H 1
#define HAVE_ATOMIC 1
#define USE_STRICT_MPI 1
#define POINTERINT_t long
#define F77_NAME_LOWER_USCORE 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#endif
"""
DTPOOLSCONF = "#define HAVE_STDLIB_H 1\n#define HAVE_STRING_H 1\n"


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# MPI-4's persistent collectives, which Open MPI 4.1 has as MPIX_<Coll>_init in <mpi-ext.h>
# (coll/p_*.c call the MPI-4 names): mapped with -D when the extension is there.
PERSISTENT_COLLECTIVES = ["Barrier", "Bcast", "Reduce", "Allreduce", "Gather", "Gatherv", "Scatter", "Scatterv",
                          "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw", "Reduce_scatter",
                          "Reduce_scatter_block", "Scan", "Exscan", "Neighbor_allgather", "Neighbor_allgatherv",
                          "Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw"]


def persistent_collective_flags():
    """-include mpi.h and mpi-ext.h, and -DMPI_X_init=MPIX_X_init for each, if mpicc's MPI has Open MPI's
    persistent collectives extension; else nothing (the p_ tests then fail to build)."""
    dirs = sh(["mpicc", "--showme:incdirs"]).stdout.split()
    for d in dirs:
        path = os.path.join(d, "mpi-ext.h")
        if os.path.exists(path) and "OMPI_HAVE_MPI_EXT_PCOLLREQ" in open(path).read():
            names = ["-DMPI_%s_init=MPIX_%s_init" % (c, c) for c in PERSISTENT_COLLECTIVES]
            return ["-include", "mpi.h", "-include", "mpi-ext.h"] + names
    return []


def prepare(src, work):
    """The suite's headers completed, and libmtest.a (MTest, dtpools, the main of run())."""
    inc = os.path.join(src, "include")
    for path, text in ((os.path.join(work, "include", "mpitestconf.h"), MPITESTCONF),
                       (os.path.join(work, "include", "mtest_mpix.h"), ""),  # generated by MPICH's build
                       (os.path.join(work, "dtpoolsconf.h"), DTPOOLSCONF)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    flags = ["-O1", "-w", "-I" + os.path.join(work, "include"), "-I" + inc,
             "-I" + os.path.join(src, "dtpools", "include")] + persistent_collective_flags()
    lib = os.path.join(work, "libmtest.a")
    if os.path.exists(lib):
        return flags, lib
    sources = [os.path.join(src, "util", f) for f in ("mtest.c", "mtest_common.c", "dtypes.c", "mtest_single.c",
                                                        "run_mpitests.c")]
    dtp = os.path.join(src, "dtpools", "src")
    sources += [os.path.join(dtp, f) for f in sorted(os.listdir(dtp)) if f.endswith(".c")]
    objects = []
    for s in sources:
        o = os.path.join(work, "obj", os.path.basename(s)[:-2] + ".o")
        os.makedirs(os.path.dirname(o), exist_ok=True)
        # dtpools includes "../dtpoolsconf.h" relative to its include directory's parent.
        r = sh(["mpicc"] + flags + ["-I" + work, "-iquote", work, "-c", s, "-o", o])
        if r.returncode:
            sys.exit("mpich_testsuite: compiling %s failed:\n%s" % (s, r.stderr[-2000:]))
        objects.append(o)
    r = sh(["ar", "rcs", lib] + objects)
    if r.returncode:
        sys.exit("mpich_testsuite: ar failed: " + r.stderr)
    return flags, lib


# configure's substitutions in testlists (Open MPI with MPI-IO, RMA and Fortran); a line that
# still holds an @...@ after them is one configure would leave out here.
TESTLIST_SUBST = {"@iodir@": "io", "@rmadir@": "rma", "@f77dir@": "f77", "@f90dir@": "f90",
                  "@ALLOCMEMF@": "allocmemf 1", "@ALLOCMEMFC@": "allocmemf90 1"}

# basic/ has no testlist: its programs print no "No Errors"; they pass by exiting 0 without
# printing FAILURE (netpipe and adapt are benchmarks, left out).
BASIC_CASES = [("self", 1), ("simple", 4), ("sendrecv", 4), ("srtest", 4), ("wtime", 1), ("patterns", 2)]

FORTRAN_DIRS = ("f77", "f90", "errors/f77", "errors/f90")


def is_fortran(d):
    return d.startswith(FORTRAN_DIRS)


def cases_of(root_of, d):
    """The cases of d's testlist and of the subdirectories it names: (dir, name, ranks, args).
    root_of(d) is the tree d is in (the source, or WORK/gen for the Fortran directories)."""
    if d == "basic":
        return [(d, name, ranks, []) for name, ranks in BASIC_CASES]
    root = root_of(d)
    path = os.path.join(root, d, "testlist")
    if not os.path.exists(path):
        path += ".in"
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        line = line.split("#")[0]
        for k, v in TESTLIST_SUBST.items():
            line = line.replace(k, v)
        line = line.strip()
        if not line or "@" in line:
            continue
        parts = line.split()
        sub = d + "/" + parts[0]
        if len(parts) == 1 and os.path.isdir(os.path.join(root_of(sub), sub)):
            out += cases_of(root_of, sub)
            continue
        if len(parts) < 2 or not parts[1].isdigit():
            continue
        args = [kv[4:] for kv in parts[2:] if kv.startswith("arg=")]
        out.append((d, parts[0], int(parts[1]), args))
    return out


def sources_of(srcdir, name):
    """A program's sources: its X_SOURCES (or nodist_X_SOURCES) in Makefile.am, else X.c/.f/.f90."""
    mk = os.path.join(srcdir, "Makefile.am")
    if os.path.exists(mk):
        text = open(mk).read().replace("\\\n", " ")
        for line in text.splitlines():
            key, _, value = line.partition("=")
            if key.strip() in (name + "_SOURCES", "nodist_" + name + "_SOURCES"):
                files = [os.path.join(srcdir, f) for f in value.split()]
                if files and all(os.path.exists(f) for f in files):
                    return files
    for ext in (".c", ".f", ".f90"):
        if os.path.exists(os.path.join(srcdir, name + ext)):
            return [os.path.join(srcdir, name + ext)]
    return []


def prepare_fortran(src, work):
    """WORK/gen/{f77,f90,errors/f77,errors/f90} made as MPICH's configure and make would, and
    MTest's Fortran utilities compiled (WORK/obj/mtest_f77.o, mtest_f90.o and its module)."""
    gen = os.path.join(work, "gen")
    stamp = os.path.join(gen, ".done")
    if not os.path.exists(stamp):
        if os.path.exists(gen):
            shutil.rmtree(gen)
        for d in FORTRAN_DIRS:
            shutil.copytree(os.path.join(src, d), os.path.join(gen, d))
        # configure's headers: INTEGER*8 is MPI_ADDRESS_KIND and MPI_OFFSET_KIND with gfortran.
        for top, _, files in os.walk(gen):
            for f in files:
                if f.endswith(".h.in"):
                    text = open(os.path.join(top, f)).read()
                    text = text.replace("@F77_MPI_ADDRESS@", "integer*8").replace("@F77_MPI_OFFSET@", "integer*8")
                    with open(os.path.join(top, f[:-3]), "w") as o:
                        o.write(text)
        # f90 from f77, as maint/updatefiles does, then f90/io's harness as its Makefile.ap does.
        for top in ("", "errors/"):
            for leaf in sorted(os.listdir(os.path.join(gen, top + "f77"))):
                indir = os.path.join(gen, top + "f77", leaf)
                if not os.path.isdir(indir):
                    continue
                outdir = os.path.join(gen, top + "f90", leaf)
                os.makedirs(outdir, exist_ok=True)
                r = sh(["perl", os.path.join(src, "maint", "f77tof90"), indir, outdir, "Makefile.am", "Makefile.ap"])
                if r.returncode:
                    sys.exit("mpich_testsuite: f77tof90 %s failed:\n%s" % (indir, r.stderr[-2000:]))
        f77io, f90io = os.path.join(gen, "f77", "io"), os.path.join(gen, "f90", "io")
        sed = {"ioharness.defn": ["-e", r's/filename="\(.*\)f.f\"/filename="\1f90.f90"/g',
                                  "-e", "s/include.*iooffset.*/integer (kind=MPI_OFFSET_KIND)offset/g"],
               "ioharness.tlt": ["-e", "s/include.*mpif.*/use mpi/g", "-e", "s/fheader/f90header/g",
                                 "-e", "s/^C/!/g", "-e", "/implicit *none/d"]}
        for f, expr in sed.items():
            with open(os.path.join(f90io, f), "w") as o:
                subprocess.run(["sed"] + expr + [os.path.join(f77io, f)], stdout=o, check=True)
        testmerge = os.path.join(gen, "testmerge")  # perl runs "#! @PERL@" as a command: substitute it
        with open(testmerge, "w") as o:
            o.write(open(os.path.join(src, "maint", "testmerge.in")).read().replace("@PERL@", "/usr/bin/perl"))
        for d in (f77io, f90io):
            r = sh(["perl", testmerge, "-defn=" + os.path.join(src, "maint", "common.defn"),
                    "ioharness.defn", "ioharness.tlt"], cwd=d)
            if r.returncode:
                sys.exit("mpich_testsuite: testmerge in %s failed:\n%s" % (d, r.stderr[-2000:]))
        # The C helpers include "../../include/mpitestconf.h".
        os.symlink(os.path.join(work, "include"), os.path.join(gen, "include"))
        open(stamp, "w").close()
    mod = os.path.join(work, "fmod")
    os.makedirs(mod, exist_ok=True)
    os.makedirs(os.path.join(work, "obj"), exist_ok=True)
    for f in ("mtest_f77.f", "mtest_f90.f90"):
        o = os.path.join(work, "obj", f.split(".")[0] + ".o")
        if not os.path.exists(o):
            r = sh(["mpifort", "-w", "-fallow-argument-mismatch", "-J", mod, "-c",
                    os.path.join(src, "util", f), "-o", o])
            if r.returncode:
                sys.exit("mpich_testsuite: compiling %s failed:\n%s" % (f, r.stderr[-2000:]))
    return gen


def include_dirs(srcdir):
    """The -I directories of srcdir's Makefile.am (AM_FFLAGS += -I../attr) and srcdir itself."""
    dirs = [srcdir]
    mk = os.path.join(srcdir, "Makefile.am")
    if os.path.exists(mk):
        for line in open(mk):
            if line.split("=")[0].split("+")[0].strip() in ("AM_FFLAGS", "AM_FCFLAGS"):
                dirs += [os.path.normpath(os.path.join(srcdir, w[2:])) for w in line.split() if w.startswith("-I")]
    return ["-I" + d for d in dirs]


def build(root, work, flags, lib, xsim_lib, d, name):
    srcdir = os.path.join(root, d)
    sources = sources_of(srcdir, name)
    if not sources:
        return "no source " + name
    out = os.path.join(work, "bin", d)
    os.makedirs(out, exist_ok=True)
    xsim, native = (os.path.join(out, name + e) for e in (".x", ".n"))
    if os.path.exists(xsim) and os.path.exists(native):
        return "ok"
    fortran = any(not s.endswith(".c") for s in sources)
    objects = []
    for s in sources:
        obj = os.path.join(out, name + "-" + os.path.basename(s) + ".o")
        if s.endswith(".c"):
            cmd = ["mpicc"] + flags + ["-I" + srcdir, "-c", s, "-o", obj]
        else:
            moddir = os.path.join(out, name + ".mod.d")  # the program's own modules
            os.makedirs(moddir, exist_ok=True)
            cmd = (["mpifort", "-w", "-fallow-argument-mismatch", "-fcray-pointer"] + include_dirs(srcdir) +
                   ["-I" + os.path.join(work, "fmod"), "-J", moddir, "-c", s, "-o", obj])
        r = sh(cmd)
        if r.returncode:
            return "compile error: " + (r.stderr.strip().splitlines() or ["?"])[-1][:160]
        objects.append(obj)
    linker = "mpicc"
    if fortran:
        linker = "mpifort"
        util = "mtest_f90.o" if d.startswith(("f90", "errors/f90")) else "mtest_f77.o"
        objects.append(os.path.join(work, "obj", util))
    r = sh([linker] + objects + [lib, "-o", native, "-lm"])
    if r.returncode:
        return "link error (Open MPI lacks a call)"
    r = sh([linker] + objects + [lib, "-o", xsim, "-L" + xsim_lib, "-Wl,-rpath," + xsim_lib, "-lxsim", "-lm"])
    return "ok" if r.returncode == 0 else "link error with -lxsim: " + r.stderr[-160:]


def run(cmd, timeout, cwd, env, d):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)
        out = r.stdout + r.stderr
        if d == "basic":
            return r.returncode == 0 and "FAILURE" not in out, out
        return r.returncode == 0 and "No Errors" in out, out
    except subprocess.TimeoutExpired:
        return False, "time limit reached"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("srcdir")
    ap.add_argument("--build", default=os.environ.get("XSIM_BUILD", "/tmp/benchbuild"))
    ap.add_argument("--work", default="/tmp/xsim-mpich-tests")
    ap.add_argument("--dirs", default=DEFAULT_DIRS)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--only", default="", help="run only the programs whose names start with one of these (a,b,...)")
    o = ap.parse_args()
    src = o.srcdir if os.path.exists(os.path.join(o.srcdir, "util", "mtest.c")) else os.path.join(o.srcdir, "test", "mpi")
    if not os.path.exists(os.path.join(src, "util", "mtest.c")):
        sys.exit("mpich_testsuite: %s is not an MPICH source tree (no test/mpi/util/mtest.c)" % o.srcdir)
    xsim_lib = os.path.join(os.path.abspath(o.build), "libxsim")
    if not os.path.exists(os.path.join(xsim_lib, "libxsim.so")):
        sys.exit("mpich_testsuite: no %s/libxsim.so (build xsim first: cmake --build %s)" % (xsim_lib, o.build))
    work = os.path.abspath(o.work)
    os.makedirs(os.path.join(work, "cwd"), exist_ok=True)
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    flags, lib = prepare(src, work)
    dirs = o.dirs.split(",")
    gen = prepare_fortran(src, work) if any(is_fortran(d) or d == "errors" for d in dirs) else None
    root = lambda d: gen if is_fortran(d) else src
    cases = [c for d in dirs for c in cases_of(root, d)]
    if o.only:
        cases = [c for c in cases if c[1].startswith(tuple(o.only.split(",")))]
    programs = sorted({(d, n) for d, n, _, _ in cases})
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        built = dict(zip(programs, pool.map(lambda p: build(root(p[0]), work, flags, lib, xsim_lib, *p), programs)))
    results, counts = [], {}
    for d, name, ranks, args in cases:
        rec = {"dir": d, "name": name, "ranks": ranks, "args": args, "build": built[(d, name)]}
        if rec["build"] == "ok":
            binary = os.path.join(work, "bin", d, name)
            procs = "2" if ranks >= 2 else "1"
            rec["xsim"], out = run(["mpirun", "--oversubscribe", "-np", procs, binary + ".x"] + args +
                                   ["-xsim-np", str(ranks), "-xsim-quiet"], o.timeout, os.path.join(work, "cwd"), env, d)
            rec["xsim_output"] = out[-3000:]
            if not rec["xsim"]:
                rec["native"], out = run(["mpirun", "--oversubscribe", "-np", str(ranks), binary + ".n"] + args,
                                         o.timeout, os.path.join(work, "cwd"), env, d)
                rec["native_output"] = out[-1500:]
            verdict = "PASS" if rec["xsim"] else "FAIL (native %s)" % ("pass" if rec["native"] else "fail")
        else:
            verdict = rec["build"]
        key = verdict if verdict.startswith(("PASS", "FAIL")) else "not built"
        counts[key] = counts.get(key, 0) + 1
        results.append(rec)
        print("%s %s %d %s  %s" % (d, name, ranks, " ".join(args), verdict), flush=True)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("# " + ", ".join("%s: %d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()
