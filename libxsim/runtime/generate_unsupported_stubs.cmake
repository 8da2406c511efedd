# Writes OUTPUT: a weak stub for every MPI_* function declared in MPI_HEADER, and for every
# MPIX_* function of EXTENSION_HEADERS (a ;-list, maybe empty: Open MPI's persistent
# collectives MPIX_*_init, all implemented now by bindings/collectives.cpp and
# neighbor_collectives.cpp; a later header's new ones would otherwise reach the real library
# with xsim's handles),
# under its PMPI_ (PMPIX_) name, with the MPI_ name a weak alias of it
# (bindings/profiling_alias.hpp). An implemented call replaces the stub's PMPI_X with its
# strong definition; its own weak MPI_X alias wins over the stub's because the stubs come last
# in libxsim's link (libxsim/CMakeLists.txt), and tests/pmpi checks that every MPI_X of
# libxsim.so is its PMPI_X.
#
# Open MPI 4.1's mpi.h writes some declarations with a space before "(" (MPI_T_init_thread,
# MPI_T_cvar_get_info, MPI_Unpack_external, ...): the name may be followed by blanks. A
# name this missed would be defined by no stub, bind to the real library and be handed
# xsim's handles. FORWARDED (a ;-list of MPI_X names, maybe empty) names the functions that
# go to the real library on purpose: they get no stub (neither MPI_X nor PMPI_X); a name
# there that the headers do not declare is an error (a stale list).
# tests/pmpi/check_symbols.sh checks that libxsim.so defines every other function mpi.h
# declares.
set(names "")
foreach(header IN LISTS MPI_HEADER EXTENSION_HEADERS)
  file(STRINGS "${header}" declarations REGEX "^OMPI_DECLSPEC[^(]*[ *]MPIX?_[A-Za-z0-9_]+[ \t]*\\(")
  foreach(line IN LISTS declarations)
    if(line MATCHES "[ *](MPIX?_[A-Za-z0-9_]+)[ \t]*\\(")
      list(APPEND names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
foreach(name IN LISTS FORWARDED)
  list(FIND names "${name}" found)  # (script mode: no IN_LIST without a policy setting)
  if(found EQUAL -1)
    message(FATAL_ERROR "generate_unsupported_stubs: ${name} is in FORWARDED but not declared in ${MPI_HEADER}")
  endif()
  list(REMOVE_ITEM names "${name}")
endforeach()
set(body "// Generated from ${MPI_HEADER} ${EXTENSION_HEADERS} by generate_unsupported_stubs.cmake. Do not edit.\n")
string(APPEND body "extern \"C\" [[noreturn]] __attribute__((visibility(\"hidden\"))) void xsim_unsupported_call(const char* name);\n")
string(APPEND body "#define XSIM_STUB(name) \\\n")
string(APPEND body "    extern \"C\" __attribute__((weak)) int P##name() { xsim_unsupported_call(#name); } \\\n")
string(APPEND body "    extern \"C\" __attribute__((weak, alias(\"P\" #name))) int name();\n")
foreach(name IN LISTS names)
  string(APPEND body "XSIM_STUB(${name})\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
