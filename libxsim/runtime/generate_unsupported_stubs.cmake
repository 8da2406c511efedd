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
set(names "")
foreach(header IN LISTS MPI_HEADER EXTENSION_HEADERS)
  file(STRINGS "${header}" declarations REGEX "^OMPI_DECLSPEC[^(]*[ *]MPIX?_[A-Za-z0-9_]+\\(")
  foreach(line IN LISTS declarations)
    if(line MATCHES "[ *](MPIX?_[A-Za-z0-9_]+)\\(")
      list(APPEND names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
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
