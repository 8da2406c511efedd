#!/usr/bin/env python3
"""What libxsim.so exports (libxsim/exports.map): no C++ name, and every C function xsim defines.

  check_exports.py NM READELF LIBXSIM OBJECT_OR_ARCHIVE...

Fails when the library exports a C++ (_Z) name outside ALLOWED_CXX: with libxsim preloaded the
loader binds the program's libraries to libxsim's copies of std::/toml:: template instances (a
static destroyed twice, DOLFINx), and the program's own functions could interpose on xsim's.
Fails too when a function with C linkage and default visibility, defined in the objects libxsim
is linked from (an MPI binding, an interposed C library call: a name the program must reach),
is not exported: exports.map misses it. And when one of the names every run needs is missing.
"""
import subprocess
import sys

# C++ names libxsim must export (none today: it replaces no operator new/delete, and nothing
# looks a C++ name up in it). Mangled names.
ALLOWED_CXX = set()

# Names every run reaches: a check that would pass on an empty export list is no check.
REQUIRED = ["MPI_Init", "PMPI_Init", "MPI_Send", "PMPI_Allreduce", "mpi_init_", "pmpi_send_", "xsim_time",
            "xsim_region_begin", "__libc_start_main", "__cxa_atexit", "exit", "clock_gettime", "pthread_create",
            "dlopen", "signal", "sigaction", "getpid", "rand", "GOMP_parallel", "_gfortran_st_open"]


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def exported(nm, library):
    names = set()
    for line in run(nm, "-D", "--defined-only", library).splitlines():
        parts = line.split()
        if len(parts) == 3:
            names.add(parts[2].split("@")[0])
    return names


def c_definitions(readelf, path):
    """Global or weak, default-visibility, defined functions and variables with a C name."""
    names = {}
    member = path
    for line in run(readelf, "-sW", path).splitlines():
        if line.startswith("File: "):
            member = line[len("File: "):]
            continue
        parts = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(parts) < 8 or not parts[0].endswith(":") or not parts[0][:-1].isdigit():
            continue
        kind, bind, visibility, index, name = parts[3], parts[4], parts[5], parts[6], parts[7]
        if kind not in ("FUNC", "OBJECT", "IFUNC") or bind not in ("GLOBAL", "WEAK"):
            continue
        if visibility != "DEFAULT" or index == "UND" or name.startswith("_Z") or name.startswith("DW.ref."):
            continue
        names.setdefault(name, member)
    return names


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    nm, readelf, library = sys.argv[1], sys.argv[2], sys.argv[3]
    # $<TARGET_OBJECTS:...> reaches add_test as one ;-separated argument.
    objects = [o for arg in sys.argv[4:] for o in arg.split(";") if o]
    names = exported(nm, library)
    failures = []

    cxx = sorted(n for n in names if n.startswith("_Z") and n not in ALLOWED_CXX)
    if cxx:
        demangled = run("c++filt", *cxx[:20]).splitlines() if cxx else []
        failures.append(f"{library} exports {len(cxx)} C++ names (libxsim/exports.map lists the exported ones; "
                        "ALLOWED_CXX in tests/check_exports.py the C++ ones that must be), e.g.:\n  " +
                        "\n  ".join(demangled))

    missing = [n for n in REQUIRED if n not in names]
    if missing:
        failures.append(f"{library} does not export {', '.join(missing)}")

    defined = {}
    for path in objects:
        defined.update(c_definitions(readelf, path))
    unlisted = sorted(n for n in defined if n not in names)
    if unlisted:
        failures.append(f"{len(unlisted)} C names xsim defines are not exported (add them to libxsim/exports.map, "
                        "or give them internal linkage or hidden visibility):\n  " +
                        "\n  ".join(f"{n} ({defined[n]})" for n in unlisted[:40]))

    if failures:
        print("\n".join(failures))
        return 1
    cxx_total = sum(1 for n in names if n.startswith("_Z"))
    print(f"{library}: {len(names)} exported names, {cxx_total} C++; "
          f"{len(defined)} C definitions in {len(objects)} objects, all exported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
