#!/usr/bin/env python3
"""Writes xsim's Fortran entry points from one list of calls (calls.def).

usage: generate_bindings.py CALLS_DEF OUTPUT_CPP [NM LIBMPI_MPIFH]

For every call of CALLS_DEF (X, or MPIX_X for Open MPI's extensions, which become mpix_x_
calling MPIX_X, and so on): a function mpi_x_ taking Fortran arguments (all by reference,
IERROR last, hidden CHARACTER lengths after it) that converts them and calls the C binding
MPI_X, plus the other gfortran manglings (mpi_x__, mpi_x, MPI_X) and the pmpi_ forms as
aliases, and ompi_x_f, which Open MPI's Fortran 2008 bindings (`use mpi_f08`,
libmpi_usempif08.so) call with the same arguments but CHARACTER lengths as INTEGER values.
Given NM and Open MPI's libmpi_mpifh.so, every mpi_*_ (and mpix_*_) entry point that library
exports that is neither generated here nor hand-written (HAND_WRITTEN) gets a stub that stops
the run naming the call, under all those names.
"""
import re
import subprocess
import sys

# Fortran calls written by hand in libxsim/fortran/*.cpp (irregular arguments or results).
HAND_WRITTEN = {
    "wtime", "wtick", "aint_add", "aint_diff", "f_sync_reg", "waitall", "waitany", "waitsome", "testall",
    "testany", "testsome", "alltoallw", "ialltoallw", "neighbor_alltoallw", "ineighbor_alltoallw",
    "op_create", "comm_create_errhandler", "errhandler_create", "buffer_detach", "comm_get_attr", "attr_get",
    "type_get_contents", "comm_create_keyval", "keyval_create", "type_create_keyval", "comm_set_attr",
    "attr_put", "type_set_attr", "type_get_attr", "grequest_start", "win_get_attr", "win_create_keyval",
    "win_set_attr", "win_create_errhandler", "file_create_errhandler",
}
# ... and of Open MPI's MPIX_ extension (persistent collectives: alltoallw.cpp).
HAND_WRITTEN_X = {"alltoallw_init", "neighbor_alltoallw_init"}

NULLS = {"comm": "MPI_COMM_NULL", "group": "MPI_GROUP_NULL", "type": "MPI_DATATYPE_NULL", "op": "MPI_OP_NULL",
         "info": "MPI_INFO_NULL", "errhandler": "MPI_ERRHANDLER_NULL", "request": "MPI_REQUEST_NULL",
         "message": "MPI_MESSAGE_NULL", "win": "MPI_WIN_NULL", "file": "MPI_FILE_NULL"}
HANDLES = {"comm": "MPI_Comm", "group": "MPI_Group", "type": "MPI_Datatype", "op": "MPI_Op",
           "info": "MPI_Info", "errhandler": "MPI_Errhandler", "request": "MPI_Request", "message": "MPI_Message",
           "win": "MPI_Win", "file": "MPI_File"}


class Arg:
    """One Fortran argument: its C++ parameter, the setup before the call, the C argument,
    the C parameter type (for prototypes) and what is written back after the call."""

    def __init__(self, i, kind):
        self.i, self.kind = i, kind
        self.params, self.setup, self.after, self.hidden = [], [], [], []
        self.c_arg = self.c_type = None


def convert(i, kind):
    a = Arg(i, kind)
    v = f"a{i}"
    m = re.fullmatch(r"(types|requests)\[(\d+)\]", kind)
    widened = re.fullmatch(r"int>aints\[(\d+)\]", kind)
    if kind == "null":
        a.c_arg, a.c_type = "nullptr", "void*"
    elif kind == "buf":
        a.params.append(f"void* {v}")
        a.c_arg, a.c_type = f"fortran::buffer({v})", "void*"
    elif kind in ("int", "bool"):
        a.params.append(f"const MPI_Fint* {v}")
        a.c_arg, a.c_type = f"*{v}", "int"
    elif kind in ("int*",):
        a.params.append(f"MPI_Fint* {v}")
        a.c_arg, a.c_type = v, "int*"
    elif kind in ("aint", "count", "offset"):
        t = {"aint": "MPI_Aint", "count": "MPI_Count", "offset": "MPI_Offset"}[kind]
        a.params.append(f"const {t}* {v}")
        a.c_arg, a.c_type = f"*{v}", t
    elif kind in ("aint*", "count*", "offset*"):
        t = {"aint*": "MPI_Aint", "count*": "MPI_Count", "offset*": "MPI_Offset"}[kind]
        a.params.append(f"{t}* {v}")
        a.c_arg, a.c_type = v, f"{t}*"
    elif kind == "int>aint":
        a.params.append(f"const MPI_Fint* {v}")
        a.c_arg, a.c_type = f"static_cast<MPI_Aint>(*{v})", "MPI_Aint"
    elif kind == "int>aint*":
        a.params.append(f"MPI_Fint* {v}")
        a.setup.append(f"MPI_Aint c{i} = 0;")
        a.c_arg, a.c_type = f"&c{i}", "MPI_Aint*"
        a.after.append(f"if (*ierror == MPI_SUCCESS) *ierror = fortran::store_narrowed({v}, c{i}, \"{{call}}\");")
    elif widened:
        a.params.append(f"const MPI_Fint* {v}")
        a.setup.append(f"auto c{i} = fortran::widened({v}, *a{widened.group(1)});")
        a.c_arg, a.c_type = f"c{i}.data()", "MPI_Aint*"
    elif kind == "bool*":
        a.params.append(f"MPI_Fint* {v}")
        a.setup.append(f"int c{i} = 0;")
        a.c_arg, a.c_type = f"&c{i}", "int*"
        a.after.append(f"*{v} = fortran::logical(c{i});")
    elif kind in HANDLES:
        a.params.append(f"const MPI_Fint* {v}")
        a.c_arg, a.c_type = f"fortran::{kind}_f2c(*{v})", HANDLES[kind]
    elif kind.endswith("*") and kind[:-1] in HANDLES:
        h = kind[:-1]
        a.params.append(f"MPI_Fint* {v}")
        a.setup.append(f"{HANDLES[h]} c{i} = {NULLS[h]};")
        a.c_arg, a.c_type = f"&c{i}", HANDLES[h] + "*"
        a.after.append(f"*{v} = fortran::{h}_c2f(c{i});")
    elif kind.endswith("&") and kind[:-1] in HANDLES:
        h = kind[:-1]
        a.params.append(f"MPI_Fint* {v}")
        a.setup.append(f"{HANDLES[h]} c{i} = fortran::{h}_f2c(*{v});")
        a.c_arg, a.c_type = f"&c{i}", HANDLES[h] + "*"
        a.after.append(f"*{v} = fortran::{h}_update(*{v}, c{i});")
    elif m:
        h = "type" if m.group(1) == "types" else "request"
        a.params.append(f"const MPI_Fint* {v}")
        a.setup.append(f"auto c{i} = fortran::{h}s_f2c({v}, *a{m.group(2)});")
        a.c_arg, a.c_type = f"c{i}.data()", HANDLES[h] + "*"
    elif kind == "status*":
        a.params.append(f"MPI_Fint* {v}")
        a.setup.append(f"MPI_Status c{i} = fortran::initial_status({v});")
        a.c_arg, a.c_type = f"fortran::status_arg({v}, &c{i})", "MPI_Status*"
        a.after.append(f"fortran::store_status({v}, c{i});")
    elif kind == "status":
        a.params.append(f"const MPI_Fint* {v}")
        a.setup.append(f"MPI_Status c{i} = fortran::load_status({v});")
        a.c_arg, a.c_type = f"&c{i}", "MPI_Status*"
    elif kind == "status&":
        a.params.append(f"MPI_Fint* {v}")
        a.setup.append(f"MPI_Status c{i} = fortran::load_status({v});")
        a.c_arg, a.c_type = f"&c{i}", "MPI_Status*"
        a.after.append(f"fortran::store_status({v}, c{i});")
    elif kind == "str":
        a.params.append(f"const char* {v}")
        a.hidden.append(f"std::size_t l{i}")
        a.setup.append(f"const std::string c{i} = fortran::from_fortran({v}, l{i});")
        a.c_arg, a.c_type = f"c{i}.c_str()", "const char*"
    elif kind in ("str*", "str*?"):
        a.params.append(f"char* {v}")
        a.hidden.append(f"std::size_t l{i}")
        a.setup.append(f"fortran::OutString c{i}({v}, l{i});")
        a.c_arg, a.c_type = f"c{i}.data()", "char*"
        # str*?: written only when the call succeeded and set its LOGICAL result (binding()
        # names it), as Open MPI leaves VALUE alone when MPI_INFO_GET finds no key.
        a.after.append(f"c{i}.store();" if kind == "str*" else f"if (*ierror == MPI_SUCCESS && {{found}}) c{i}.store();")
    elif kind == "len":
        a.params.append(f"const MPI_Fint* {v}")
        a.c_arg, a.c_type = f"c{{out}}.clamp(*{v})", "int"
    elif kind == "ranges":
        a.params.append(f"MPI_Fint* {v}")
        a.c_arg, a.c_type = f"reinterpret_cast<int(*)[3]>({v})", "int(*)[3]"
    elif kind == "weights":
        a.params.append(f"MPI_Fint* {v}")
        a.c_arg, a.c_type = f"fortran::weights({v})", "int*"
    else:
        raise SystemExit(f"generate_bindings.py: unknown argument kind '{kind}'")
    return a


def manglings(lower, prefix="mpi"):
    """Every name gfortran (and g77's second underscore) may call, with the pmpi_ forms
    (prefix mpi, or mpix for Open MPI's extensions)."""
    names = []
    for p in (prefix + "_", "p" + prefix + "_"):
        base = p + lower
        names += [base + "__", base, base.upper()]
    return names


def split_name(name):
    """calls.def's name: X (MPI_X) or MPIX_X (Open MPI's extension) -> (prefix, X)."""
    return ("mpix", name[len("MPIX_"):]) if name.startswith("MPIX_") else ("mpi", name)


def binding(name, kinds, removed):
    prefix, name = split_name(name)
    lower = name.lower()
    entry = f"{prefix}_{lower}_"
    args = [convert(i, k) for i, k in enumerate(kinds)]
    params = [p for a in args for p in a.params] + ["MPI_Fint* ierror"] + [h for a in args for h in a.hidden]
    out = []
    c_name = f"P{prefix.upper()}_{name}"  # as Open MPI does: a C PMPI tool does not count Fortran calls twice
    # MPI-1 names mpi.h refuses to let us call, and the extensions, which mpi.h does not
    # declare (<mpi-ext.h> does, when there is one): declared here under another name.
    if removed or prefix == "mpix":
        c_name = f"xsim_c_{prefix}_{name}"
        out.append(f'extern "C" int {c_name}({", ".join(a.c_type for a in args)}) __asm__("P{prefix.upper()}_{name}");')
    out.append(f'extern "C" void {entry}({", ".join(params)}) {{')
    for a in args:
        out += ["    " + s for s in a.setup]
    outputs = [a.i for a in args if a.kind in ("str*", "str*?")]
    for a in args:
        if a.kind == "len":
            if len(outputs) != 1:
                raise SystemExit(f"generate_bindings.py: {name}: len needs exactly one CHARACTER output")
            a.c_arg = a.c_arg.replace("{out}", str(outputs[0]))
    out.append(f"    *ierror = {c_name}({', '.join(a.c_arg for a in args)});")
    flags = [f"c{a.i}" for a in args if a.kind == "bool*"]
    for a in args:
        if a.kind == "str*?" and len(flags) != 1:
            raise SystemExit(f"generate_bindings.py: {name}: str*? needs exactly one bool* result")
        out += ["    " + s.replace("{found}", flags[0]) if a.kind == "str*?" else "    " + s for s in a.after]
    out = [line.replace("{call}", prefix.upper() + "_" + name.upper()) for line in out]
    out.append("}")
    for alias in manglings(lower, prefix):
        out.append(f'extern "C" decltype({entry}) {alias} __attribute__((alias("{entry}")));')
    out.append(f'extern "C" decltype({entry}) p{entry} __attribute__((alias("{entry}")));')
    out += f08_entry(lower, args, params, prefix)
    return out


def f08_entry(lower, args, params, prefix="mpi"):
    """ompi_x_f (ompix_x_f), what `use mpi_f08` calls: mpi_x_ itself, unless the call has
    CHARACTER arguments, whose lengths the Fortran 2008 bindings pass as INTEGER (4-byte)
    values where gfortran passes size_t: those get a function that widens them."""
    hidden = [h for a in args for h in a.hidden]
    if not hidden:
        entry = f"{prefix}_{lower}_"
        return [f'extern "C" decltype({entry}) o{prefix}_{lower}_f __attribute__((alias("{entry}")));']
    narrow = [p.replace("std::size_t ", "int ") for p in params]
    names = [p.split()[-1] for p in params]
    forwarded = [f"static_cast<std::size_t>({n})" if p.startswith("int ") else n for p, n in zip(narrow, names)]
    return [f'extern "C" void o{prefix}_{lower}_f({", ".join(narrow)}) {{',
            f'    {prefix}_{lower}_({", ".join(forwarded)});',
            "}"]


# MPI_SIZEOF: `use mpi` resolves the generic to one external subroutine per type and rank
# (mpi_sizeof_<type>_scalar_, _r1_ ... _r15_); each answers the bytes of one element, as
# Open MPI's do (a CHARACTER is 1 whatever its length; complex32 is COMPLEX(REAL32)).
SIZEOF_BYTES = {"character": 1, "logical": 4, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "real32": 4,
                "real64": 8, "real128": 16, "complex32": 8, "complex64": 16, "complex128": 32}


def sizeof_entry(lower):
    """An MPI_SIZEOF specific procedure (lower: sizeof_<type>_<shape>), or None."""
    m = re.fullmatch(r"sizeof_([a-z0-9]+)_(scalar|r[0-9]+)", lower)
    if not m or m.group(1) not in SIZEOF_BYTES:
        return None
    entry = f"mpi_{lower}_"
    out = [f'extern "C" void {entry}(const void*, MPI_Fint* size, MPI_Fint* ierror) {{',
           f"    *size = {SIZEOF_BYTES[m.group(1)]};", "    *ierror = MPI_SUCCESS;", "}"]
    for alias in manglings(lower) + [f"pmpi_{lower}_", f"ompi_{lower}_f"]:
        out.append(f'extern "C" decltype({entry}) {alias} __attribute__((alias("{entry}")));')
    return out


def stub(prefix, lower):
    """Every name of an uncovered call (prefix mpi or mpix) stops the run naming it."""
    entry = f"{prefix}_{lower}_"
    out = [f'extern "C" void {entry}() {{ xsim::fortran::unsupported("{prefix.upper()}_{lower.upper()}"); }}']
    aliases = [f"p{prefix}_{lower}_", f"o{prefix}_{lower}_f"]
    for p in (prefix, "p" + prefix):
        aliases += [f"{p}_{lower}__", f"{p}_{lower}", f"{p}_{lower}".upper()]
    for alias in aliases:
        out.append(f'extern "C" decltype({entry}) {alias} __attribute__((alias("{entry}")));')
    return out


def main():
    if len(sys.argv) not in (3, 5):
        raise SystemExit(__doc__)
    calls, same = [], []  # same: (name, the call whose entry point it is, line)
    for number, line in enumerate(open(sys.argv[1]), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) == 3 and line[1] == "=":
            same.append((line[0], line[2], number))
            continue
        name, removed = line[0], False
        if name.endswith("@removed"):
            name, removed = name[: -len("@removed")], True
        calls.append((name, line[1:], removed, number))

    out = ["// Generated by libxsim/fortran/generate_bindings.py from calls.def. Do not edit.",
           "#include <mpi.h>", "",
           "// Fortran still has the MPI-1 names the C header marks deprecated.",
           '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"', "", "#include <cstddef>", "#include <string>", "",
           '#include "libxsim/fortran/convert.hpp"', "", "using namespace xsim;", ""]
    covered = set(HAND_WRITTEN)
    covered_x = set(HAND_WRITTEN_X)  # the mpix_ ones
    for name, kinds, removed, number in calls:
        prefix, base = split_name(name)
        done = covered_x if prefix == "mpix" else covered
        if base.lower() in done:
            raise SystemExit(f"{sys.argv[1]}:{number}: {name} is listed twice (or also written by hand)")
        done.add(base.lower())
        out += binding(name, kinds, removed) + [""]
    for name, target, number in same:
        if name.lower() in covered or target.lower() not in covered or target.lower() in HAND_WRITTEN:
            raise SystemExit(f"{sys.argv[1]}:{number}: {name} = {target}: {name} is listed twice, "
                             f"or {target} is not generated from an earlier line")
        covered.add(name.lower())
        entry = f"mpi_{target.lower()}_"
        for alias in [f"mpi_{name.lower()}_"] + manglings(name.lower()) + [f"pmpi_{name.lower()}_",
                                                                           f"ompi_{name.lower()}_f"]:
            out.append(f'extern "C" decltype({entry}) {alias} __attribute__((alias("{entry}")));')
        out.append("")

    if len(sys.argv) == 5:
        exported = set()
        listing = subprocess.run([sys.argv[3], "-D", "--defined-only", sys.argv[4]], check=True,
                                 capture_output=True, text=True).stdout
        for line in listing.splitlines():
            fields = line.split()
            if not fields:
                continue
            m = re.fullmatch(r"(mpix?)_([a-z0-9_]+?)_", fields[-1])
            if m and not fields[-1].endswith("__"):
                exported.add((m.group(1), m.group(2)))
        out.append("// Every other Fortran entry point of Open MPI's libmpi_mpifh.so stops the run.")
        for prefix, lower in sorted(exported):
            if lower not in (covered_x if prefix == "mpix" else covered):
                sizeof = sizeof_entry(lower) if prefix == "mpi" else None
                out += sizeof if sizeof else stub(prefix, lower)
    text = "\n".join(out) + "\n"
    try:
        if open(sys.argv[2]).read() == text:
            return
    except OSError:
        pass
    open(sys.argv[2], "w").write(text)


if __name__ == "__main__":
    main()
