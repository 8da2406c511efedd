// Privatization: which bytes of a loaded ELF object are the program's own writable data
// (this test binary is the fixture: its globals, a thread-local, and optind, which PIE
// copies into its .bss by an R_X86_64_COPY relocation), and switching rank images.
#include <dlfcn.h>
#include <getopt.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "libxsim/engine/options.hpp"
#include "libxsim/rank_state/privatization.hpp"

using namespace xsim::runtime;

int g_initialised[4] = {1, 2, 3, 4};  // .data
char g_zeroed[100];                    // .bss
thread_local int t_counter = 7;        // .tdata

namespace {

std::uintptr_t executable_bias() {
    std::uintptr_t bias = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) {
            *static_cast<std::uintptr_t*>(out) = info->dlpi_addr;
            return 1;  // the first object is the executable
        },
        &bias);
    return bias;
}

bool in(const std::vector<Range>& ranges, const void* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p) - executable_bias();
    for (const Range& r : ranges)
        if (a >= r.begin && a < r.end) return true;
    return false;
}

bool in(const std::vector<Segment>& segments, const void* p) {
    const char* c = static_cast<const char*>(p);
    for (const Segment& s : segments)
        if (c >= s.start && c < s.start + s.bytes) return true;
    return false;
}

// `pages` pages mapped privately from a file, as a library's .data is: page i holds the
// letter 'A' + i % 26 (the file is removed; the mapping stays). Null when it fails.
char* map_lettered_file(std::size_t pages, const char* name) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::string path = ::testing::TempDir() + name;
    {
        std::ofstream file(path, std::ios::binary);
        for (std::size_t i = 0; i < pages; ++i) file << std::string(page, static_cast<char>('A' + i % 26));
    }
    const int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0) return nullptr;
    void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    std::remove(path.c_str());
    return mapped == MAP_FAILED ? nullptr : static_cast<char*>(mapped);
}

// A callback run for rank 1 (not the loaded rank) sees rank 1's byte ('1') and writes 'c'
// into rank 1's globals.
void write_in_callback_of_rank_1(Privatization& priv, char& byte) {
    Privatization::ForRank owner(priv, 1, true);
    priv.load_for_callback();
    EXPECT_EQ(byte, '1');
    byte = 'c';
}

}  // namespace

TEST(ElfData, ProgramDataWithoutCopiesOrLoaderSections) {
    const ElfData d = read_elf_data("/proc/self/exe");
    ASSERT_EQ(d.error, "");
    EXPECT_TRUE(in(d.data, &g_initialised[3]));
    EXPECT_TRUE(in(d.data, &g_zeroed[99]));
    // optind belongs to the C library, which uses the executable's copy of it.
    EXPECT_TRUE(in(d.copies, &optind));
    EXPECT_FALSE(in(d.data, &optind));
    EXPECT_GT(d.tls_bytes, 0u);
}

TEST(ElfData, NotAnElfFileIsAnError) {
    const std::string path = ::testing::TempDir() + "xsim_not_elf.txt";
    std::ofstream(path) << "plain text, long enough to hold an ELF header if it were one.............\n";
    EXPECT_NE(read_elf_data(path).error, "");
    EXPECT_NE(read_elf_data("/nonexistent/file.so").error.find("cannot open"), std::string::npos);
    std::remove(path.c_str());
}

TEST(Discovery, CoversTheProgramsDataAndThreadLocalsOnly) {
    const Discovery found = discover();
    EXPECT_TRUE(in(found.segments, &g_initialised[0]));
    EXPECT_TRUE(in(found.segments, &g_zeroed[0]));
    EXPECT_TRUE(in(found.segments, &t_counter));
    EXPECT_FALSE(in(found.segments, &optind));
    EXPECT_FALSE(in(found.segments, stdout));  // the C library's own FILE
    ASSERT_FALSE(found.covered.empty());
}

TEST(ObjectKinds, SystemAndMpiLibrariesStayShared) {
    EXPECT_TRUE(is_foreign_object("/usr/lib/x86_64-linux-gnu/libc.so.6"));
    EXPECT_TRUE(is_foreign_object("/lib64/ld-linux-x86-64.so.2"));
    EXPECT_TRUE(is_foreign_object("/opt/openmpi/lib/libmpi.so.40"));
    EXPECT_TRUE(is_foreign_object("/opt/openmpi/lib/libopen-pal.so.40"));
    EXPECT_FALSE(is_foreign_object("/home/user/app/libphysics.so"));
}

// The loader names a library by the path it was found at: through pvbatch's DT_RUNPATH
// ($ORIGIN/../lib/x86_64-linux-gnu, pvbatch in /usr/bin) the C library is
// /usr/bin/../lib/x86_64-linux-gnu/libc.so.6, a system library all the same.
TEST(ObjectKinds, SystemDirectoriesReachedThroughDotDotAreSystemDirectories) {
    EXPECT_TRUE(is_foreign_object("/usr/bin/../lib/x86_64-linux-gnu/libc.so.6"));
    EXPECT_TRUE(is_foreign_object("/usr/bin/../lib/x86_64-linux-gnu/libstdc++.so.6"));
    EXPECT_TRUE(is_foreign_object("/usr/./lib//x86_64-linux-gnu/libz.so.1"));
    EXPECT_TRUE(is_foreign_object("/opt/../lib64/ld-linux-x86-64.so.2"));
    EXPECT_FALSE(is_foreign_object("/usr/lib/../../home/user/app/libphysics.so"));
    EXPECT_FALSE(is_foreign_object("/usr/lib/x86_64-linux-gnu/../../local/lib/libphysics.so"));
    EXPECT_FALSE(is_foreign_object("/usr/bin/../lib/x86_64-linux-gnu/libvtkParallelMPI-pv5.11.so.1", true));
}

// MPI's own libraries, by their names in Open MPI, MPICH and Intel MPI, against PMPI tools named
// after MPI: mpiP's libmpiP.so keeps its per-rank tables (the rank, the collector's buffers)
// in globals, which must be per simulated rank (e2e.pmpi.mpip_like).
TEST(ObjectKinds, MpiLibrariesByNameNotPmpiToolsNamedAfterMpi) {
    for (const char* mpi : {"/usr/lib/x86_64-linux-gnu/libmpi.so.40", "/usr/lib/x86_64-linux-gnu/libmpi_cxx.so.40",
                            "/usr/lib/x86_64-linux-gnu/libmpi_mpifh.so.40", "/opt/ompi/lib/libmpi_usempif08.so.40",
                            "/opt/mpich/lib/libmpich.so.12", "/opt/mpich/lib/libmpichfort.so.12",
                            "/opt/mpich/lib/libmpicxx.so.12", "/opt/mpich/lib/libmpifort.so.12",
                            "/opt/intel/mpi/lib/libmpi.so.12", "/opt/mpich/lib/libmpl.so.0", "libmpi.so"})
        EXPECT_TRUE(is_mpi_library(mpi)) << mpi;
    for (const char* tool : {"/opt/mpiP/lib/libmpiP.so", "/usr/lib/x86_64-linux-gnu/valgrind/libmpiwrap-amd64-linux.so",
                             "/opt/ibm/lib/libmpitrace.so", "/home/user/libmpiprofile.so", "libmpip.so"})
        EXPECT_FALSE(is_mpi_library(tool)) << tool;
    EXPECT_FALSE(is_foreign_object("/opt/mpiP/lib/libmpiP.so"));
}

// A library of the distribution built on MPI (DT_NEEDED libmpi*) keeps per-process MPI state
// (PETSc's PETSC_COMM_WORLD, hypre's error flag): per rank, like the program's own. MPI's
// own libraries stay shared even though they need libmpi.
TEST(ObjectKinds, SystemLibrariesThatNeedMpiArePerRank) {
    EXPECT_FALSE(is_foreign_object("/usr/lib/x86_64-linux-gnu/libpetsc_real.so.3.18", true));
    EXPECT_FALSE(is_foreign_object("/lib/x86_64-linux-gnu/libHYPRE-2.26.0.so", true));
    EXPECT_TRUE(is_foreign_object("/lib/x86_64-linux-gnu/libHYPRE-2.26.0.so", false));
    EXPECT_TRUE(is_foreign_object("/usr/lib/x86_64-linux-gnu/libmpi_mpifh.so.40", true));
    EXPECT_TRUE(is_foreign_object("/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_coll_tuned.so", true));
}

// OpenFOAM from Debian: libPstream.so needs libmpi; libOpenFOAM.so (which holds the rank's
// number) needs libPstream.so, and libfiniteVolume.so needs libOpenFOAM.so: all three are
// built on MPI, so their globals are per rank. What MPI itself needs (libz, libstdc++) is not.
TEST(ObjectKinds, LibrariesNeedingALibraryBuiltOnMpiAreBuiltOnMpi) {
    const std::vector<LoadedObject> objects = {
        {"/usr/bin/icoFoam", "", {"libfiniteVolume.so", "libOpenFOAM.so", "libPstream.so", "libc.so.6"}},
        {"/lib/libfiniteVolume.so", "libfiniteVolume.so", {"libOpenFOAM.so", "libstdc++.so.6"}},
        {"/lib/libOpenFOAM.so", "libOpenFOAM.so", {"libPstream.so", "libz.so.1", "libstdc++.so.6"}},
        {"/lib/libPstream.so", "libPstream.so", {"libmpi.so.40", "libstdc++.so.6"}},
        {"/lib/x86_64-linux-gnu/libz.so.1", "libz.so.1", {"libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libstdc++.so.6", "libstdc++.so.6", {"libm.so.6", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libmpi.so.40", "libmpi.so.40", {"libopen-pal.so.40", "libc.so.6"}},
        // Named by file name where the soname is missing.
        {"/usr/lib/x86_64-linux-gnu/libplugin_on_foam.so", "", {"libfiniteVolume.so"}},
    };
    const std::vector<bool> on = built_on_mpi(objects, nullptr);
    ASSERT_EQ(on.size(), objects.size());
    EXPECT_TRUE(on[0]);
    EXPECT_TRUE(on[1]);
    EXPECT_TRUE(on[2]);
    EXPECT_TRUE(on[3]);
    EXPECT_FALSE(on[4]);
    EXPECT_FALSE(on[5]);
    EXPECT_FALSE(on[6]);  // MPI's own libraries stay shared by is_foreign_object
    EXPECT_TRUE(on[7]);
    // A library that `also` accepts (a Python extension module) passes it on too.
    const std::vector<LoadedObject> python = {
        {"/usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.so", "", {"libopenblas.so.0"}},
        {"/usr/lib/python3/dist-packages/numpy/linalg/_umath_linalg.so", "", {"_multiarray_umath.so"}},
        {"/lib/x86_64-linux-gnu/libopenblas.so.0", "libopenblas.so.0", {"libc.so.6"}},
    };
    const std::vector<bool> on_python =
        built_on_mpi(python, [](const std::string& path) { return path.find("_multiarray_umath") != std::string::npos; });
    EXPECT_TRUE(on_python[0]);
    EXPECT_TRUE(on_python[1]);
    EXPECT_FALSE(on_python[2]);
}

// Debian's MPQC: its libraries are underlinked (libSCgroup.so.7 needs only MPI and the C++
// runtime, yet registers its classes in libSCclass.so.7's registry; libSCscf.so.7 needs no
// libSC* at all). What a library built on MPI relies on without needing it is built on MPI
// (part of the same program), and so is a library relying on such a one; a library it needs
// (liblapack) and what relies on none of them stay shared.
TEST(ObjectKinds, WhatAnUnderlinkedLibraryBuiltOnMpiReliesOnIsBuiltOnMpi) {
    const std::string d = "/lib/x86_64-linux-gnu/";
    std::vector<LoadedObject> objects = {
        {"/usr/bin/mpqc", "", {"libSCscf.so.7", "libSCgroup.so.7", "libSCclass.so.7", "libSCoptions.so.7"}},
        {d + "libSCscf.so.7", "libSCscf.so.7", {"libstdc++.so.6"}},
        {d + "libSCgroup.so.7", "libSCgroup.so.7", {"libmpi.so.40", "liblapack.so.3", "libstdc++.so.6"}},
        {d + "libSCclass.so.7", "libSCclass.so.7", {"libstdc++.so.6"}},
        {d + "libSCoptions.so.7", "libSCoptions.so.7", {"libstdc++.so.6"}},
        {d + "liblapack.so.3", "liblapack.so.3", {"libblas.so.3"}},
        {d + "libSCref.so.7", "libSCref.so.7", {"libstdc++.so.6"}},
    };
    objects[1].relies_on = {d + "libSCclass.so.7"};
    objects[2].relies_on = {d + "libSCclass.so.7"};
    objects[3].relies_on = {d + "libSCref.so.7"};
    const std::vector<bool> on = built_on_mpi(objects, nullptr);
    ASSERT_EQ(on.size(), objects.size());
    EXPECT_TRUE(on[2]);   // needs libmpi
    EXPECT_TRUE(on[3]);   // libSCgroup relies on it
    EXPECT_TRUE(on[6]);   // libSCclass (now built on MPI) relies on it
    EXPECT_TRUE(on[1]);   // relies on libSCclass
    EXPECT_FALSE(on[4]);  // relies on nothing, needed by the executable only
    EXPECT_FALSE(on[5]);  // needed (not relied on) by libSCgroup
    // Without a library built on MPI, relying alone changes nothing.
    objects[2].needed = {"liblapack.so.3", "libstdc++.so.6"};
    const std::vector<bool> off = built_on_mpi(objects, nullptr);
    for (std::size_t i = 1; i < objects.size(); ++i) EXPECT_FALSE(off[i]) << objects[i].path;
}

// What the real MPI library loads for itself as it starts is never the program's, whatever it
// needs or relies on. A singleton Open MPI under ruby: hwloc loads its OpenCL plugin, the ICD
// loader loads Mesa's Rusticl, which needs LLVM, which needs libedit, which needs libbsd, whose
// strlcpy the loader binds to libruby's (per rank: the interpreter's library). Taken as
// relying on libruby, libbsd and everything above it became per rank, and LLVM's constructors
// ran once more in each rank: "Option 'spirv-lower-const-expr' registered more than once".
TEST(ObjectKinds, WhatTheMpiLibraryLoadedForItselfIsNeverPerRank) {
    const std::string d = "/lib/x86_64-linux-gnu/";
    std::vector<LoadedObject> objects = {
        {"/usr/bin/ruby3.1", "", {"libruby-3.1.so.3.1", "libc.so.6"}},
        {d + "libruby-3.1.so.3.1", "libruby-3.1.so.3.1", {"libc.so.6"}},
        {d + "hwloc/hwloc_opencl.so", "", {"libOpenCL.so.1", "libhwloc.so.15"}},
        {d + "libOpenCL.so.1", "libOpenCL.so.1", {"libc.so.6"}},
        {d + "libRusticlOpenCL.so.1", "libRusticlOpenCL.so.1", {"libLLVM-15.so.1", "libclang-cpp.so.15"}},
        {d + "libclang-cpp.so.15", "libclang-cpp.so.15", {"libLLVM-15.so.1"}},
        {d + "libLLVM-15.so.1", "libLLVM-15.so.1", {"libedit.so.2", "libz.so.1"}},
        {d + "libedit.so.2", "libedit.so.2", {"libbsd.so.0", "libtinfo.so.6"}},
        {d + "libbsd.so.0", "libbsd.so.0", {"libmd.so.0"}},
        // A library of the program built on MPI that needs one the MPI library loaded.
        {d + "libfoo_mpi.so.1", "libfoo_mpi.so.1", {"libmpi.so.40", "libLLVM-15.so.1"}},
    };
    objects[8].relies_on = {d + "libruby-3.1.so.3.1"};  // strlcpy, bound to libruby's
    const auto interpreter = [](const std::string& path) { return path.find("libruby") != std::string::npos; };
    // Not known to be the MPI library's: the chain is per rank (what xsim did).
    const std::vector<bool> before = built_on_mpi(objects, interpreter);
    EXPECT_TRUE(before[1]);
    EXPECT_TRUE(before[8]);
    EXPECT_TRUE(before[6]);
    EXPECT_TRUE(before[4]);
    for (std::size_t i = 2; i <= 8; ++i) objects[i].mpi_loaded = true;
    const std::vector<bool> on = built_on_mpi(objects, interpreter);
    ASSERT_EQ(on.size(), objects.size());
    EXPECT_TRUE(on[1]);  // the interpreter's library
    for (std::size_t i = 2; i <= 8; ++i) EXPECT_FALSE(on[i]) << objects[i].path;
    EXPECT_TRUE(on[9]);  // the program's own library stays per rank
    // Even `also` or a DT_NEEDED libmpi do not make them the program's.
    objects[3].needed.push_back("libmpi.so.40");
    const std::vector<bool> all = built_on_mpi(objects, [](const std::string&) { return true; });
    for (std::size_t i = 2; i <= 8; ++i) EXPECT_FALSE(all[i]) << objects[i].path;
}

// note_loaded_by_mpi records what was loaded since its snapshot, and only that; the loaded
// objects' names carry it, and such an object's data stays shared (is_foreign_object).
TEST(ObjectKinds, ObjectsLoadedDuringTheMpiLibrarysStartAreItsOwn) {
    const std::vector<const void*> before = loaded_objects();
    void* handle = dlopen("libutil.so.1", RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle, nullptr) << dlerror();
    if (loaded_objects().size() == before.size()) GTEST_SKIP() << "libutil.so.1 was loaded already";
    note_loaded_by_mpi(before);
    bool found = false;
    for (const LoadedObject& o : loaded_object_names()) {
        const bool util = o.path.find("libutil.so.1") != std::string::npos;
        found = found || util;
        EXPECT_EQ(o.mpi_loaded, util) << o.path;
        EXPECT_EQ(loaded_by_mpi(o.path), util) << o.path;
        if (util) EXPECT_TRUE(is_foreign_object(o.path, true));
    }
    EXPECT_TRUE(found);
    EXPECT_FALSE(loaded_by_mpi(""));
    EXPECT_FALSE(loaded_by_mpi(executable_path()));
}

// Boost.Serialization keeps the registry where the program's (and Boost.MPI's) type
// information registers itself: per rank, although it does not need MPI; what it needs
// (libstdc++) stays shared.
TEST(ObjectKinds, BoostSerializationsRegistryIsPerRank) {
    EXPECT_TRUE(keeps_registry_of_program_objects("/lib/x86_64-linux-gnu/libboost_serialization.so.1.74.0"));
    EXPECT_TRUE(keeps_registry_of_program_objects("/usr/lib/x86_64-linux-gnu/libboost_wserialization.so.1.83.0"));
    EXPECT_FALSE(keeps_registry_of_program_objects("/lib/x86_64-linux-gnu/libboost_context.so.1.74.0"));
    EXPECT_FALSE(keeps_registry_of_program_objects("/lib/x86_64-linux-gnu/libstdc++.so.6"));
    const std::vector<LoadedObject> objects = {
        {"/tmp/app", "", {"libboost_mpi.so.1.74.0", "libboost_serialization.so.1.74.0", "libstdc++.so.6"}},
        {"/lib/x86_64-linux-gnu/libboost_mpi.so.1.74.0", "libboost_mpi.so.1.74.0",
         {"libboost_serialization.so.1.74.0", "libmpi.so.40", "libstdc++.so.6"}},
        {"/lib/x86_64-linux-gnu/libboost_serialization.so.1.74.0", "libboost_serialization.so.1.74.0",
         {"libstdc++.so.6", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libstdc++.so.6", "libstdc++.so.6", {"libm.so.6", "libc.so.6"}},
    };
    const std::vector<bool> on = built_on_mpi(objects, nullptr);
    ASSERT_EQ(on.size(), objects.size());
    EXPECT_TRUE(on[0]);
    EXPECT_TRUE(on[1]);
    EXPECT_TRUE(on[2]);
    EXPECT_FALSE(on[3]);
    EXPECT_FALSE(is_foreign_object(objects[2].path, on[2]));
}

// One release of one project (VTK 9.1's, ParaView 5.11's libraries): the libraries a library
// built on MPI needs of its own release are per rank with it (VTK's global controller lives in
// libvtkParallelCore, which does not need MPI; ParaView's per-rank libraries register their
// protobuf descriptors in libvtkprotobuf's database as they are constructed), and what needs
// them; libraries of other projects or releases (the C++ library, zlib, another VTK) are not.
TEST(ObjectKinds, LibrariesOfTheReleaseOfALibraryBuiltOnMpiArePerRank) {
    EXPECT_TRUE(is_same_release("libvtkParallelMPI-9.1.so.1", "libvtkParallelCore-9.1.so.1"));
    EXPECT_TRUE(is_same_release("/usr/lib/x86_64-linux-gnu/libvtkParallelMPI-9.1.so.1", "libvtksys-9.1.so.1"));
    EXPECT_TRUE(is_same_release("libvtkRemotingCore-pv5.11.so.1", "libvtkprotobuf-pv5.11.so.1"));
    EXPECT_TRUE(is_same_release("libvtkm_cont-pv5.11.so.1", "libvtkCommonCore-pv5.11.so.1"));
    EXPECT_FALSE(is_same_release("libvtkParallelMPI-9.1.so.1", "libvtkParallelCore-pv5.11.so.1"));  // another release
    EXPECT_FALSE(is_same_release("libvtkParallelMPI-9.1.so.1", "libvtkParallelCore-9.1.so.2"));
    EXPECT_FALSE(is_same_release("libvtkParallelMPI-9.1.so.1", "libstdc++.so.6"));
    EXPECT_FALSE(is_same_release("libvtkParallelMPI-9.1.so.1", "libtbb-9.1.so.1"));  // another project
    EXPECT_FALSE(is_same_release("libpetsc_real.so.3.18", "libpetsc_complex.so.3.18"));  // no version tag
    EXPECT_FALSE(is_same_release("libHYPRE-2.26.0.so", "libHYPRE_utilities-2.26.0.so"));  // "HYPRE": no lowercase project
    const std::vector<LoadedObject> objects = {
        {"/usr/bin/python3", "", {"libpython3.11.so.1.0", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libvtkParallelMPI-9.1.so.1", "libvtkParallelMPI-9.1.so.1",
         {"libvtkParallelCore-9.1.so.1", "libvtkCommonCore-9.1.so.1", "libmpi.so.40", "libstdc++.so.6"}},
        {"/lib/x86_64-linux-gnu/libvtkParallelCore-9.1.so.1", "libvtkParallelCore-9.1.so.1",
         {"libvtkCommonCore-9.1.so.1", "libvtksys-9.1.so.1", "libz.so.1"}},
        {"/lib/x86_64-linux-gnu/libvtkCommonCore-9.1.so.1", "libvtkCommonCore-9.1.so.1", {"libvtksys-9.1.so.1", "libtbb.so.12"}},
        {"/lib/x86_64-linux-gnu/libvtksys-9.1.so.1", "libvtksys-9.1.so.1", {"libstdc++.so.6"}},
        {"/lib/x86_64-linux-gnu/libvtkIOXML-9.1.so.1", "libvtkIOXML-9.1.so.1", {"libvtkCommonCore-9.1.so.1"}},
        {"/lib/x86_64-linux-gnu/libvtkFiltersCore-9.1.so.1", "libvtkFiltersCore-9.1.so.1", {"libvtksys-9.1.so.1"}},
        {"/lib/x86_64-linux-gnu/libz.so.1", "libz.so.1", {"libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libtbb.so.12", "libtbb.so.12", {"libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libstdc++.so.6", "libstdc++.so.6", {"libm.so.6", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libmpi.so.40", "libmpi.so.40", {"libopen-pal.so.40", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libopen-pal.so.40", "libopen-pal.so.40", {"libc.so.6"}},
    };
    const std::vector<bool> on = built_on_mpi(objects, nullptr);
    ASSERT_EQ(on.size(), objects.size());
    EXPECT_FALSE(on[0]);  // the interpreter itself does not need VTK here
    EXPECT_TRUE(on[1]);   // needs libmpi
    EXPECT_TRUE(on[2]);   // of its release, needed by it
    EXPECT_TRUE(on[3]);
    EXPECT_TRUE(on[4]);   // needed through libvtkParallelCore
    EXPECT_TRUE(on[5]);   // needs a per-rank library
    EXPECT_TRUE(on[6]);
    EXPECT_FALSE(on[7]);  // libz, libtbb, libstdc++: other projects
    EXPECT_FALSE(on[8]);
    EXPECT_FALSE(on[9]);
    EXPECT_FALSE(on[10]);  // MPI's own
    EXPECT_FALSE(on[11]);
    // Without a library built on MPI, VTK's libraries stay shared.
    const std::vector<LoadedObject> serial(objects.begin() + 2, objects.begin() + 5);
    const std::vector<bool> off = built_on_mpi(serial, nullptr);
    EXPECT_FALSE(off[0] || off[1] || off[2]);
}

// The DT_NEEDED names of a library file on disk (a rank's dlopen constructs the libraries
// another rank loaded that the opened file needs first): the C math library needs the C library.
TEST(ObjectKinds, NeededLibrariesAreReadFromTheFile) {
    Dl_info math{};
    ASSERT_NE(dladdr(reinterpret_cast<void*>(static_cast<double (*)(double)>(&::cos)), &math), 0);
    const std::vector<std::string> needed = needed_libraries_of_file(math.dli_fname);
    EXPECT_NE(std::find(needed.begin(), needed.end(), "libc.so.6"), needed.end()) << math.dli_fname;
    EXPECT_TRUE(needed_libraries_of_file("/nonexistent/libnothing.so").empty());
    EXPECT_TRUE(needed_libraries_of_file("/proc/self/status").empty());  // not ELF
}

// -xsim-privatize-libs names a library by its file name, with or without "lib" and the
// ".so" suffix, never by a longer or shorter name.
TEST(ObjectKinds, ALibraryIsNamedByItsFileNameWithOrWithoutLibAndSuffix) {
    const std::string fftw = "/usr/lib/x86_64-linux-gnu/libfftw3.so.3";
    for (const char* name : {"fftw3", "libfftw3", "libfftw3.so", "fftw3.so", "libfftw3.so.3"}) EXPECT_TRUE(library_has_name(fftw, name)) << name;
    for (const char* name : {"fftw", "fftw3f", "libfftw3.so.4", "libfftw3.s", "lib", ""}) EXPECT_FALSE(library_has_name(fftw, name)) << name;
    EXPECT_FALSE(library_has_name("/usr/lib/x86_64-linux-gnu/libfftw3f.so.3", "fftw3"));
    EXPECT_FALSE(library_has_name("/usr/lib/x86_64-linux-gnu/libfftw3_mpi.so.3", "fftw3"));
    EXPECT_TRUE(library_has_name("/usr/lib/x86_64-linux-gnu/libgmp.so.10", "gmp"));
}

// FFTW's MPI layer (libfftw3_mpi, built on MPI) keeps its state in the serial library it is
// named after (libfftw3: the planner its solvers join, freed by fftw_mpi_cleanup): that one
// is per rank too, and what needs it with it; what they need besides (libm, libc) is not.
TEST(ObjectKinds, SerialLibraryUnderAnMpiLayerNamedAfterItIsPerRank) {
    EXPECT_TRUE(is_mpi_layer_of("libfftw3_mpi.so.3", "libfftw3.so.3"));
    EXPECT_TRUE(is_mpi_layer_of("/lib/x86_64-linux-gnu/libfftw3f_mpi.so.3", "libfftw3f.so.3"));
    EXPECT_TRUE(is_mpi_layer_of("libadios2_c_mpi.so.2", "libadios2_c.so.2"));
    EXPECT_TRUE(is_mpi_layer_of("libfoo-openmpi.so.1", "libfoo.so.1"));
    EXPECT_FALSE(is_mpi_layer_of("libfftw3_mpi.so.3", "libfftw3f.so.3"));  // another precision
    EXPECT_FALSE(is_mpi_layer_of("libfftw3_mpi.so.3", "libm.so.6"));
    EXPECT_FALSE(is_mpi_layer_of("libcgns_openmpi.so", "libc.so.6"));  // a prefix, not a name
    EXPECT_FALSE(is_mpi_layer_of("libfftw3_threads.so.3", "libfftw3.so.3"));  // not an MPI layer
    EXPECT_FALSE(is_mpi_layer_of("libscalapack-openmpi.so.2.2", "liblapack.so.3"));
    const std::vector<LoadedObject> objects = {
        {"/tmp/app", "", {"libfftw3_mpi.so.3", "libfftw3.so.3", "libmpi.so.40", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libfftw3_mpi.so.3", "libfftw3_mpi.so.3", {"libfftw3.so.3", "libmpi.so.40", "libm.so.6"}},
        {"/lib/x86_64-linux-gnu/libfftw3.so.3", "libfftw3.so.3", {"libm.so.6", "libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libfftw3_omp.so.3", "libfftw3_omp.so.3", {"libfftw3.so.3", "libgomp.so.1"}},
        {"/lib/x86_64-linux-gnu/libm.so.6", "libm.so.6", {"libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libgomp.so.1", "libgomp.so.1", {"libc.so.6"}},
        {"/lib/x86_64-linux-gnu/libfftw3f.so.3", "libfftw3f.so.3", {"libm.so.6"}},
    };
    const std::vector<bool> on = built_on_mpi(objects, nullptr);
    ASSERT_EQ(on.size(), objects.size());
    EXPECT_TRUE(on[0]);
    EXPECT_TRUE(on[1]);
    EXPECT_TRUE(on[2]);
    EXPECT_TRUE(on[3]);  // its threads' settings live in the per-rank planner's library
    EXPECT_FALSE(on[4]);
    EXPECT_FALSE(on[5]);
    EXPECT_FALSE(on[6]);  // no MPI layer of the single-precision library is loaded
    EXPECT_FALSE(is_foreign_object(objects[2].path, on[2]));
}

TEST(Privatization, EachRankSeesItsOwnImage) {
    static int a = 10;
    static char b[3000];
    b[0] = 'x';
    Privatization p;
    ASSERT_EQ(p.start({{reinterpret_cast<char*>(&a), sizeof a, "a"}, {b, sizeof b, "b"}}, 3), "");
    EXPECT_GE(p.bytes_per_rank(), sizeof a + sizeof b);
    p.switch_to(0);
    a = 100;
    b[0] = '0';
    p.switch_to(1);
    EXPECT_EQ(a, 10);  // the start-up image
    EXPECT_EQ(b[0], 'x');
    a = 101;
    p.switch_to(0);
    EXPECT_EQ(a, 100);
    EXPECT_EQ(b[0], '0');
    p.switch_to(2);
    EXPECT_EQ(a, 10);
    p.switch_to(1);
    EXPECT_EQ(a, 101);
    {
        // A callback for rank 0 from inside rank 1's fiber: rank 0's image, then back.
        Privatization::ForRank owner(p, 0, true);
        p.load_for_callback();
        EXPECT_EQ(a, 100);
        a = 102;
    }
    EXPECT_EQ(a, 101);
    p.switch_to(0);
    EXPECT_EQ(a, 102);
}

// The pin (a rank's OpenMP workers use the loaded image: runtime/openmp_interposition.cpp)
// is asked before another rank's image is loaded, whatever asks, and only then; a guard that
// unpins lets the exchange go on.
TEST(Privatization, APinIsAskedBeforeAnotherRanksImageIsLoaded) {
    static int a = 1;
    Privatization p;
    ASSERT_EQ(p.start({{reinterpret_cast<char*>(&a), sizeof a, "a"}}, 3), "");
    p.switch_to(0);
    a = 5;
    struct Seen {
        Privatization* p;
        int calls = 0;
        std::size_t loaded = 99, wanted = 99;
    } seen{&p};
    const auto guard = [](void* context, std::size_t loaded, std::size_t wanted) {
        Seen& s = *static_cast<Seen*>(context);
        ++s.calls;
        s.loaded = loaded;
        s.wanted = wanted;
        s.p->set_pin(nullptr, nullptr);
    };
    p.set_pin(guard, &seen);
    p.switch_to(0);  // its own image: nothing to ask
    {
        Privatization::ForRank owner(p, 0, true);
        p.load_for_callback();
    }
    EXPECT_EQ(seen.calls, 0);
    {
        // A callback acting for rank 2 would load its image: asked first.
        Privatization::ForRank owner(p, 2, true);
        p.load_for_callback();
        EXPECT_EQ(seen.calls, 1);
        EXPECT_EQ(seen.loaded, 0u);
        EXPECT_EQ(seen.wanted, 2u);
        EXPECT_EQ(a, 1);  // rank 2's start-up image: the guard unpinned, the exchange went on
    }
    EXPECT_EQ(a, 5);
    p.switch_to(1);  // unpinned: not asked again
    EXPECT_EQ(seen.calls, 1);
    p.set_pin(guard, &seen);
    p.switch_to(0);  // a fiber switch
    EXPECT_EQ(seen.calls, 2);
    EXPECT_EQ(seen.loaded, 1u);
    EXPECT_EQ(seen.wanted, 0u);
    EXPECT_EQ(a, 5);
}

// A large image (here 64 pages mapped privately from a file, like a library's .data) is
// switched by written page: pages no one wrote are not copied and stay the file's in every
// image; a page first written by one rank is its own, and the start-up one for the others.
TEST(Privatization, LargeImagesSwitchOnlyTheWrittenPages) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 64;
    char* g = map_lettered_file(pages, "xsim_image.bin");
    ASSERT_NE(g, nullptr);
    auto at = [&](std::size_t p, std::size_t byte = 100) -> char& { return g[p * page + byte]; };

    const std::vector<Segment> image{{g + 8, pages * page - 8, "image"}};  // not page aligned
    at(1) = 'b';  // written before start-up
    EXPECT_EQ(Privatization::expected_bytes_per_rank(image), page);
    // A small image is copied whole: its whole slot is expected.
    EXPECT_EQ(Privatization::expected_bytes_per_rank({{g + 8, 1000, "small"}}), 1024u);
    Privatization priv;
    ASSERT_EQ(priv.start(image, 3), "");
    EXPECT_EQ(priv.switched_bytes(), page);
    priv.switch_to(2);
    EXPECT_EQ(at(1), 'b');
    priv.switch_to(0);
    at(3) = '0';
    priv.switch_to(1);
    EXPECT_EQ(priv.switched_bytes(), 2 * page);  // pages 1 and 3
    EXPECT_EQ(at(3), 'D');                   // the file's, not rank 0's
    at(5) = '1';
    priv.switch_to(0);
    EXPECT_EQ(at(3), '0');
    EXPECT_EQ(at(5), 'F');
    // xsim writes into rank 2's copy of a page no one wrote (a message arriving in a global
    // buffer while rank 0 runs): from then on that page is switched too.
    char* seen = static_cast<char*>(priv.view(&at(7), 1, 2));
    EXPECT_NE(seen, &at(7));
    EXPECT_EQ(*seen, 'H');
    *seen = '2';
    EXPECT_EQ(at(7), 'H');  // rank 0's own is unchanged
    EXPECT_EQ(priv.switched_bytes(), 4 * page);
    priv.switch_to(2);
    EXPECT_EQ(at(7), '2');
    EXPECT_EQ(at(3), 'D');
    EXPECT_EQ(at(5), 'F');
    EXPECT_EQ(at(8), 'I');  // never written: the file's page
    priv.switch_to(1);
    EXPECT_EQ(at(3), 'D');
    EXPECT_EQ(at(5), '1');
    EXPECT_EQ(at(7), 'H');
    // The first bytes lie outside the privatized range: shared, as written. Their page now
    // counts as written, so its privatized part is switched from now on.
    g[0] = 'z';
    priv.switch_to(0);
    EXPECT_EQ(g[0], 'z');
    EXPECT_EQ(at(3), '0');
    EXPECT_EQ(at(7), 'H');
    EXPECT_EQ(at(0), 'A');
    EXPECT_EQ(priv.switched_bytes(), 5 * page - 8);
    munmap(g, pages * page);
}

// A long run of written pages (a COMMON block every rank writes) is remapped at a switch,
// not copied: each rank keeps its own pages, a rank that never ran starts from the start-up
// image, and xsim's writes into a rank that is not loaded (view) land in that rank's pages,
// also for a buffer that starts on a partly privatized page before the run.
TEST(Privatization, LongRunsOfWrittenPagesAreRemapped) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 200;
    void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mapped, MAP_FAILED);
    char* g = static_cast<char*>(mapped);
    auto at = [&](std::size_t p, std::size_t byte = 100) -> char& { return g[p * page + byte]; };
    at(150) = 's';  // written before start-up: the start-up image
    const std::vector<Segment> image{{g + 40, pages * page - 40, "common block"}};
    Privatization priv;
    priv.set_remap_from(Privatization::kRemapFloor);  // the remapping path, whatever this host measures
    ASSERT_EQ(priv.start(image, 4), "");
    EXPECT_EQ(priv.remapped_bytes(), 0u);
    priv.switch_to(0);
    for (std::size_t p = 0; p < 120; ++p) at(p) = '0';  // pages 1..119 whole: a run to remap
    at(0, 40) = '0';
    priv.switch_to(1);
    // Pages 1..119 and page 150 (written before start-up), joined across the 30 pages no one
    // wrote between them (shorter than the runs they join): one run of pages 1..150.
    EXPECT_EQ(priv.remapped_bytes(), 150 * page);
    EXPECT_EQ(priv.switched_bytes(), page - 40);  // page 0's privatized part
    EXPECT_EQ(at(0), 0);
    EXPECT_EQ(at(60), 0);
    EXPECT_EQ(at(119), 0);
    EXPECT_EQ(at(150), 's');
    for (std::size_t p = 0; p < 120; ++p) at(p) = '1';
    // Rank 3, which never ran: its bytes written from outside, across page 0 into the run.
    char* seen = static_cast<char*>(priv.view(&at(0, 4000), page, 3));
    EXPECT_NE(seen, &at(0, 4000));
    std::memset(seen, '3', page);
    EXPECT_EQ(at(0, 4000), 0);  // rank 1's own are unchanged
    EXPECT_EQ(at(1, 3000), 0);
    EXPECT_EQ(at(1), '1');
    priv.switch_to(0);
    EXPECT_EQ(at(0), '0');
    EXPECT_EQ(at(0, 40), '0');
    EXPECT_EQ(at(77), '0');
    EXPECT_EQ(at(150), 's');
    priv.switch_to(2);
    EXPECT_EQ(at(0), 0);
    EXPECT_EQ(at(77), 0);
    EXPECT_EQ(at(150), 's');
    priv.switch_to(3);
    EXPECT_EQ(at(0, 4000), '3');
    EXPECT_EQ(at(1, 3000), '3');
    EXPECT_EQ(at(1, 4000), 0);  // past the view's end
    EXPECT_EQ(at(50), 0);
    EXPECT_EQ(at(150), 's');
    write_in_callback_of_rank_1(priv, at(99));
    EXPECT_EQ(at(99), 0);
    priv.switch_to(1);
    EXPECT_EQ(at(99), 'c');
    EXPECT_EQ(at(98), '1');
    // view of the loaded rank is the live page; of another, its own copy in the run.
    EXPECT_EQ(priv.view(&at(10), 1, 1), &at(10));
    EXPECT_EQ(*static_cast<char*>(priv.view(&at(10), 1, 0)), '0');
    munmap(mapped, pages * page);
}

// The long runs of written pages that lie close (MITgcm's COMMON blocks: 7.8 MB in 11 runs,
// 88 KiB to 2.8 MB apart) are remapped as one, across the pages between them that no one
// wrote, when the gap is no longer than the runs it joins: one map per switch instead of
// one per run. Each rank's image of the pages between is the start-up one (here a file's
// pages) until it writes them, and its own after; a gap longer than the runs stays out.
TEST(Privatization, CloseRunsOfWrittenPagesAreRemappedAsOne) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 400;
    char* g = map_lettered_file(pages, "xsim_runs.bin");
    ASSERT_NE(g, nullptr);
    auto at = [&](std::size_t p, std::size_t byte = 100) -> char& { return g[p * page + byte]; };
    auto file_byte = [](std::size_t p) { return static_cast<char>('A' + p % 26); };
    // The live mappings that lie wholly in [from, to) pages (the remapped runs are maps of their own).
    auto maps_in = [&](std::size_t from, std::size_t to) {
        std::vector<std::pair<std::size_t, std::size_t>> found;
        std::ifstream maps("/proc/self/maps");
        for (std::string line; std::getline(maps, line);) {
            std::uintptr_t begin = 0, end = 0;
            if (std::sscanf(line.c_str(), "%lx-%lx", &begin, &end) != 2) continue;
            const auto base = reinterpret_cast<std::uintptr_t>(g);
            if (begin >= base + from * page && end <= base + to * page)
                found.emplace_back((begin - base) / page, (end - base) / page);
        }
        return found;
    };

    Privatization priv;
    priv.set_remap_from(Privatization::kRemapFloor);  // the remapping path, whatever this host measures
    ASSERT_EQ(priv.start({{g, pages * page, "common blocks"}}, 3), "");
    priv.switch_to(0);
    for (std::size_t p = 10; p < 40; ++p) at(p) = '0';    // 30 pages
    for (std::size_t p = 60; p < 90; ++p) at(p) = '0';    // 30 pages, 20 after
    for (std::size_t p = 300; p < 330; ++p) at(p) = '0';  // 30 pages, 210 after: too far
    priv.switch_to(1);
    EXPECT_EQ(priv.remapped_bytes(), (80 + 30) * page);
    EXPECT_EQ(priv.switched_bytes(), 0u);
    using Map = std::pair<std::size_t, std::size_t>;
    EXPECT_EQ(maps_in(10, 90), (std::vector<Map>{{10, 90}}));  // one map, not two
    EXPECT_EQ(maps_in(300, 330), (std::vector<Map>{{300, 330}}));
    for (std::size_t p : {10, 39, 40, 50, 59, 60, 89, 90, 200, 300, 329})
        EXPECT_EQ(at(p), file_byte(p)) << "rank 1, page " << p;
    at(50) = '1';  // a page between the runs, now rank 1's
    at(35) = '1';
    at(200) = '1';  // a page no run holds: switched by copy from now on
    priv.switch_to(2);
    EXPECT_EQ(at(50), file_byte(50));
    EXPECT_EQ(at(35), file_byte(35));
    EXPECT_EQ(at(200), file_byte(200));
    EXPECT_EQ(priv.switched_bytes(), page);
    at(45) = '2';
    // xsim's write into rank 0's copy of a page between the runs, while rank 2 runs.
    char* seen = static_cast<char*>(priv.view(&at(55), 1, 0));
    EXPECT_NE(seen, &at(55));
    EXPECT_EQ(*seen, file_byte(55));
    *seen = 'x';
    EXPECT_EQ(at(55), file_byte(55));
    priv.switch_to(0);
    for (std::size_t p : {10, 39, 60, 89, 300, 329}) EXPECT_EQ(at(p), '0') << "rank 0, page " << p;
    for (std::size_t p : {40, 45, 50, 59, 90, 200}) EXPECT_EQ(at(p), file_byte(p)) << "rank 0, page " << p;
    EXPECT_EQ(at(55), 'x');
    priv.switch_to(1);
    EXPECT_EQ(at(50), '1');
    EXPECT_EQ(at(35), '1');
    EXPECT_EQ(at(200), '1');
    EXPECT_EQ(at(45), file_byte(45));
    EXPECT_EQ(at(55), file_byte(55));
    EXPECT_EQ(at(10), file_byte(10));
    priv.switch_to(2);
    EXPECT_EQ(at(45), '2');
    EXPECT_EQ(at(50), file_byte(50));
    EXPECT_EQ(at(300), file_byte(300));
    munmap(g, pages * page);
}

// A switch moves the remapped runs' pages (mremap, with their page table entries) between the
// live addresses and the ranks' slots, rather than mapping the file over the live pages: a rank
// that touches its pages again after a switch does not fault on them (MITgcm's ranks faulted
// on every page they touched in every turn: bench/RESULTS.md, "Session 37"). An image of
// megabytes is laid out in the slots at the same place in a 2 MiB block as live, so the kernel
// moves whole page tables. The same images come out with moving off (the mapping path, kept
// for kernels that refuse mremap), and when a run grows while its pages are moved live.
TEST(Privatization, RemappedRunsAreMovedWithTheirPageTables) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 1600, table = 2u << 20;
    auto minor_faults = [] {
        struct rusage u {};
        getrusage(RUSAGE_SELF, &u);
        return u.ru_minflt;
    };
    auto map_count = [] {
        std::ifstream maps("/proc/self/maps");
        std::size_t n = 0;
        for (std::string line; std::getline(maps, line);) ++n;
        return n;
    };
    for (const bool moving : {true, false}) {
        SCOPED_TRACE(moving ? "moving" : "mapping");
        // 6.25 MB of globals, 3 pages past a page table's start (not aligned live).
        void* mapped = mmap(nullptr, pages * page + table, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(mapped, MAP_FAILED);
        char* g = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(mapped) + table - 1) / table * table) + 3 * page;
        auto at = [&](std::size_t p, std::size_t byte = 100) -> char& { return g[p * page + byte]; };
        Privatization priv;
        priv.set_remap_from(Privatization::kRemapFloor);  // the remapping path, whatever this host measures
        priv.set_move_runs(moving);
        ASSERT_EQ(priv.start({{g, pages * page, "common blocks"}}, 4), "");
        priv.switch_to(0);
        for (std::size_t p = 0; p < 600; ++p) at(p) = '0';
        priv.switch_to(1);
        EXPECT_EQ(priv.remapped_bytes(), 600 * page);
        EXPECT_EQ(priv.moves_runs(), moving);
        // Rank 0's copy lies at the live bytes' place in a page table (view: its slot).
        const auto* seen = static_cast<const char*>(priv.view(&at(10), 1, 0));
        EXPECT_NE(seen, &at(10));
        EXPECT_EQ(*seen, '0');
        EXPECT_EQ((reinterpret_cast<std::uintptr_t>(seen) - reinterpret_cast<std::uintptr_t>(&at(10))) % table, 0u);
        for (std::size_t p = 0; p < 600; ++p) EXPECT_EQ(at(p), 0) << "rank 1, page " << p;
        for (std::size_t p = 0; p < 600; ++p) at(p) = '1';
        // While rank 1's pages are live, it writes pages that make the run longer.
        for (std::size_t p = 700; p < 1500; ++p) at(p) = '1';
        priv.switch_to(0);
        EXPECT_EQ(priv.remapped_bytes(), 1500 * page);
        for (std::size_t p = 0; p < 600; ++p) EXPECT_EQ(at(p), '0') << "rank 0, page " << p;
        for (std::size_t p = 600; p < 1500; ++p) EXPECT_EQ(at(p), 0) << "rank 0, page " << p;
        // Rank 0's slot, whose pages are now live, is still mapped (no hole that the next mmap
        // of the kernel's choosing could take): the same pages.
        EXPECT_EQ(*seen, '0');
        at(10, 101) = 'L';
        EXPECT_EQ(seen[1], 'L');
        for (std::size_t p = 0; p < 1500; ++p) at(p, 200) = '0';
        // xsim's write into rank 3's copy (never ran) while rank 0 runs.
        *static_cast<char*>(priv.view(&at(1000), 1, 3)) = '3';
        priv.switch_to(1);
        for (std::size_t p = 0; p < 1500; p += 7) {
            EXPECT_EQ(at(p), p >= 600 && p < 700 ? 0 : '1') << "rank 1, page " << p;
            EXPECT_EQ(at(p, 200), 0) << "rank 1, page " << p;
        }
        for (std::size_t p = 0; p < 1500; ++p) at(p, 200) = '1';
        // Every rank has touched every page: from now on switches between them fault on none
        // of the moved pages (mapped, each one is faulted in again after each switch).
        const long faults = minor_faults();
        const std::size_t maps = map_count();
        for (int round = 0; round < 6; ++round) {
            const std::size_t r = round % 2;
            priv.switch_to(r);
            const char mine = static_cast<char>('0' + r);
            std::size_t wrong = 0;
            for (std::size_t p = 0; p < 1500; ++p) {
                wrong += at(p, 200) != mine;
                at(p, 300) = mine;
            }
            EXPECT_EQ(wrong, 0u) << "rank " << r;
        }
        const long refaults = minor_faults() - faults;
        if (moving) EXPECT_LT(refaults, 100) << "faults over 6 switches of 1500 pages";
        else EXPECT_GT(refaults, 6 * 1500 / 32);  // at least one per fault-around block of 16 pages
        EXPECT_LE(map_count(), maps);  // moved pages merge back: no map areas pile up
        priv.switch_to(3);
        EXPECT_EQ(at(1000), '3');
        EXPECT_EQ(at(999), 0);
        EXPECT_EQ(at(1000, 200), 0);
        priv.switch_to(2);
        EXPECT_EQ(at(1000), 0);
        EXPECT_EQ(at(5), 0);
        priv.switch_to(0);
        EXPECT_EQ(at(5), '0');
        EXPECT_EQ(at(1000, 300), '0');
        munmap(mapped, pages * page + table);
    }
}

// Two segments that touch in memory but lie apart in the slot: the executable's copies of two
// 8-byte variables of a per-rank library (PETSc's petsc_TotalFlops at 16n, PETSC_COMM_WORLD
// at 16n + 8), which lay_out keeps at their places in a page, the second one page later. Each
// must be switched from its own place: every rank starts with the second one's value (it was
// read from the padding after the first one, 0: PETSc refused to start).
TEST(Privatization, SegmentsTouchingInMemoryKeepTheirOwnPlaceInTheSlot) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 64;
    void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mapped, MAP_FAILED);
    char* g = static_cast<char*>(mapped);
    std::memset(g, 'x', pages * page);  // every page written before start-up
    auto word = [&](std::size_t at) -> std::uint64_t& { return *reinterpret_cast<std::uint64_t*>(g + at); };
    const std::size_t first = 0x440, second = 0x448, third = 2 * page + 0x100;
    word(first) = 11;
    word(second) = 22;
    word(third) = 33;
    // A large image (its written pages are switched), then the two touching variables and one
    // more on another page, as discover() lists the executable's copies after the libraries.
    const std::vector<Segment> image{{g + 4 * page, (pages - 4) * page, "library data"},
                                     {g + first, 8, "petsc_TotalFlops"},
                                     {g + second, 8, "PETSC_COMM_WORLD"},
                                     {g + third, 8, "SNES_Solve"}};
    Privatization priv;
    ASSERT_EQ(priv.start(image, 3), "");
    priv.switch_to(0);
    EXPECT_EQ(word(first), 11u);
    EXPECT_EQ(word(second), 22u);
    EXPECT_EQ(word(third), 33u);
    word(first) = 110;
    word(second) = 220;
    word(third) = 330;
    priv.switch_to(1);
    EXPECT_EQ(word(first), 11u);
    EXPECT_EQ(word(second), 22u);
    EXPECT_EQ(word(third), 33u);
    word(second) = 221;
    priv.switch_to(0);
    EXPECT_EQ(word(first), 110u);
    EXPECT_EQ(word(second), 220u);
    EXPECT_EQ(word(third), 330u);
    priv.switch_to(2);
    EXPECT_EQ(word(first), 11u);
    EXPECT_EQ(word(second), 22u);
    // xsim's view of rank 1's copy of the second variable while rank 2 is loaded.
    EXPECT_EQ(*static_cast<std::uint64_t*>(priv.view(&word(second), 8, 1)), 221u);
    priv.switch_to(1);
    EXPECT_EQ(word(first), 11u);
    EXPECT_EQ(word(second), 221u);
    munmap(mapped, pages * page);
}

// A library a rank loads while it runs (dlopen): its image as loaded (constructed: a long
// run of pages already written, which is remapped at once) is every rank's start and the
// loading rank's own, switched with the program's image from then on.
TEST(Privatization, LibrariesLoadedByARankArePerRankFromTheirLoad) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 64;
    int program = 0;
    const std::vector<Segment> image{{reinterpret_cast<char*>(&program), sizeof program, "program"}};
    Privatization priv;
    priv.set_remap_from(Privatization::kRemapFloor);  // the remapping path, whatever this host measures
    ASSERT_EQ(priv.start(image, 3), "");
    priv.switch_to(0);
    void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mapped, MAP_FAILED);
    char* lib = static_cast<char*>(mapped);
    std::memset(lib, 'c', 40 * page);  // its constructor wrote 40 pages
    program = 10;
    priv.switch_to(1);
    program = 11;
    ASSERT_EQ(priv.add_loaded_library({{lib, pages * page, "library"}}, {"library.so"}), "");
    EXPECT_TRUE(priv.may_hold(lib + 5));
    EXPECT_EQ(priv.remapped_bytes(), 40 * page);  // the constructor's run, rank 1's already
    lib[0] = '1';
    lib[50 * page] = '1';
    priv.switch_to(0);
    EXPECT_EQ(program, 10);
    EXPECT_EQ(lib[0], 'c');  // as constructed: rank 0 had not opened it yet
    EXPECT_EQ(lib[39 * page], 'c');
    EXPECT_EQ(lib[50 * page], 0);
    lib[0] = '0';
    // Rank 2 never ran: written from outside, its copy is the constructed image.
    char* seen = static_cast<char*>(priv.view(lib + 50 * page, 1, 2));
    EXPECT_NE(seen, lib + 50 * page);
    *seen = '2';
    priv.switch_to(1);
    EXPECT_EQ(program, 11);
    EXPECT_EQ(lib[0], '1');
    EXPECT_EQ(lib[39 * page], 'c');
    EXPECT_EQ(lib[50 * page], '1');
    priv.switch_to(2);
    EXPECT_EQ(program, 0);
    EXPECT_EQ(lib[0], 'c');
    EXPECT_EQ(lib[50 * page], '2');
    priv.switch_to(0);
    EXPECT_EQ(lib[0], '0');
    EXPECT_EQ(priv.privatized_bytes(), sizeof program + pages * page);
    munmap(mapped, pages * page);
}

// How many of the `pages` pages from `at` the page map shows in memory or swapped out.
static std::size_t mapped_pages(const char* at, std::size_t pages) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    std::vector<std::uint64_t> entries(pages);
    const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ~std::size_t{0};
    const ssize_t want = static_cast<ssize_t>(pages * sizeof(std::uint64_t));
    const ssize_t got = pread(fd, entries.data(), static_cast<std::size_t>(want),
                              static_cast<off_t>(reinterpret_cast<std::uintptr_t>(at) / page * sizeof(std::uint64_t)));
    close(fd);
    if (got != want) return ~std::size_t{0};
    std::size_t n = 0;
    for (std::uint64_t e : entries) n += (e >> 62) != 0;  // present or swapped
    return n;
}

// Which runs of written pages are remapped follows what the host charges (remap_cost.hpp):
// the shortest run whose remap and a first write to each page cost less than copying it out and
// in, never below the floor; none where touching a remapped page costs as much as copying it
// (a hypervisor that shadows page tables: bench/RESULTS.md, "Session 40").
TEST(RemapCost, ThresholdFollowsTheCosts) {
    using xsim::runtime::remap_threshold;
    constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max(), page = 4096, floor = 64 * 1024;
    // Bare metal: 10 us of maps, 0.02 us a page to touch, 0.2 to copy: 56 pages, 224 KiB.
    EXPECT_EQ(remap_threshold(10, 0.02, 0.2, page, floor), 56 * page);
    EXPECT_EQ(remap_threshold(1, 0.02, 0.2, page, floor), floor);  // cheap maps: the floor
    EXPECT_EQ(remap_threshold(0, 0, 0.2, page, floor), floor);
    // PVM guest, as measured here: 210 us of maps, 19 us a page to touch, 0.24 to copy.
    EXPECT_EQ(remap_threshold(210, 19, 0.24, page, floor), kNever);
    EXPECT_EQ(remap_threshold(0, 0.3, 0.3, page, floor), kNever);  // as dear: copied
    EXPECT_EQ(remap_threshold(1e12, 0, 0.2, page, floor), kNever);  // beyond any image
}

TEST(RemapCost, MeasuredOnThisHost) {
    const xsim::runtime::RemapCost cost = xsim::runtime::measure_remap_cost(Privatization::kRemapFloor);
    ASSERT_TRUE(cost.measured);
    EXPECT_GE(cost.move_us, 0);
    EXPECT_GE(cost.touch_page_us, 0);
    EXPECT_GT(cost.copy_page_us, 0);
    EXPECT_EQ(cost.remap_from, xsim::runtime::remap_threshold(cost.move_us, cost.touch_page_us, cost.copy_page_us,
                                                              static_cast<std::size_t>(sysconf(_SC_PAGESIZE)),
                                                              Privatization::kRemapFloor));
    RecordProperty("remap_from", std::to_string(cost.remap_from));
    std::printf("remap cost here: %.1f us to remap, %.3f us a page touched after, %.3f us a page copied: from %zu bytes\n",
                cost.move_us, cost.touch_page_us, cost.copy_page_us, cost.remap_from);
}

// With remapping off (or measured dearer), a long run of written pages is copied like short
// ones, with the same per-rank images: a rank's own pages, the start-up image for a rank that
// never ran, xsim's writes into a rank that is not loaded (view), a callback acting for another.
// By default the threshold is measured the first time an image has a run long enough.
TEST(Privatization, LongRunsAreCopiedWhenRemappingCostsMore) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 200;
    for (const std::size_t from : {std::numeric_limits<std::size_t>::max(), std::size_t{0}}) {
        SCOPED_TRACE(from ? "off" : "measured");
        void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(mapped, MAP_FAILED);
        char* g = static_cast<char*>(mapped);
        auto at = [&](std::size_t p, std::size_t byte = 100) -> char& { return g[p * page + byte]; };
        at(150) = 's';
        Privatization priv;
        priv.set_remap_from(from);
        ASSERT_EQ(priv.start({{g, pages * page, "common block"}}, 4), "");
        EXPECT_FALSE(priv.remap_cost().measured);  // no run long enough yet
        priv.switch_to(0);
        for (std::size_t p = 0; p < 120; ++p) at(p) = '0';
        priv.switch_to(1);
        if (from) {
            EXPECT_FALSE(priv.remap_cost().measured);
            EXPECT_EQ(priv.remapped_bytes(), 0u);
            EXPECT_EQ(priv.switched_bytes(), 121 * page);  // pages 0..119 and 150, copied
        } else {
            EXPECT_TRUE(priv.remap_cost().measured);
            EXPECT_EQ(priv.remap_from(), priv.remap_cost().remap_from);
            // Remapped (pages 0..150, joined across the 30 no one wrote) or copied, as measured.
            if (priv.remap_from() <= 151 * page) EXPECT_EQ(priv.remapped_bytes(), 151 * page);
            else EXPECT_EQ(priv.remapped_bytes(), 0u);
        }
        EXPECT_EQ(at(0), 0);
        EXPECT_EQ(at(119), 0);
        EXPECT_EQ(at(150), 's');
        for (std::size_t p = 0; p < 120; ++p) at(p) = '1';
        char* seen = static_cast<char*>(priv.view(&at(5), page, 3));  // rank 3 never ran
        EXPECT_NE(seen, &at(5));
        std::memset(seen, '3', page);
        EXPECT_EQ(at(5), '1');
        priv.switch_to(0);
        for (std::size_t p = 0; p < 120; ++p) ASSERT_EQ(at(p), '0') << "rank 0, page " << p;
        EXPECT_EQ(at(150), 's');
        priv.switch_to(2);
        EXPECT_EQ(at(60), 0);
        EXPECT_EQ(at(150), 's');
        write_in_callback_of_rank_1(priv, at(99));
        EXPECT_EQ(at(99), 0);
        priv.switch_to(3);
        EXPECT_EQ(at(5, 0), 0);  // the view's page starts at byte 100 of page 5
        EXPECT_EQ(at(5), '3');
        EXPECT_EQ(at(5, page - 1), '3');
        EXPECT_EQ(at(6, 99), '3');
        EXPECT_EQ(at(6), 0);
        priv.switch_to(1);
        EXPECT_EQ(at(99), 'c');
        EXPECT_EQ(at(98), '1');
        munmap(mapped, pages * page);
    }
}

// A run left copied by the measured threshold is sampled at switches: where its ranks change
// few of its pages per turn (a large image written once), remapping it costs less than
// copying it (megabytes out and in) and it is remapped from then on; where remapping a page
// touched costs more than the whole copy it stays copied. The images stay each rank's own.
TEST(Privatization, CopiedRunsThatRanksBarelyChangeAreRemappedAfterSampling) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 300, ranks = 3;
    for (const double touch_us : {0.0, 1e9}) {
        SCOPED_TRACE(touch_us == 0 ? "remapping is cheap" : "remapping is dear");
        void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        ASSERT_NE(mapped, MAP_FAILED);
        char* g = static_cast<char*>(mapped);
        auto at = [&](std::size_t p, std::size_t byte = 100) -> char& { return g[p * page + byte]; };
        Privatization priv;
        xsim::runtime::RemapCost cost;
        cost.measured = true;
        cost.move_us = 0;
        cost.touch_page_us = touch_us;
        cost.copy_page_us = 0.2;
        cost.remap_from = std::numeric_limits<std::size_t>::max();  // no run by its length
        priv.set_remap_cost(cost);
        ASSERT_EQ(priv.start({{g, pages * page, "large array"}}, ranks), "");
        for (std::size_t r = 0; r < ranks; ++r) {  // each rank writes the whole array once
            priv.switch_to(r);
            for (std::size_t p = 0; p < pages; ++p) at(p) = static_cast<char>('a' + r);
        }
        EXPECT_EQ(priv.remapped_bytes(), 0u);
        EXPECT_EQ(priv.switched_bytes(), pages * page);
        // Then one page per turn.
        for (std::size_t turn = 0; turn < 200; ++turn) {
            const std::size_t r = turn % ranks;
            priv.switch_to(r);
            ASSERT_EQ(at(turn % pages, 0), turn < ranks ? 0 : static_cast<char>('A' + r)) << "turn " << turn;
            ASSERT_EQ(at((turn * 7) % pages), static_cast<char>('a' + r)) << "turn " << turn;
            at((turn + ranks) % pages, 0) = static_cast<char>('A' + r);
        }
        if (touch_us == 0) EXPECT_EQ(priv.remapped_bytes(), pages * page);
        else EXPECT_EQ(priv.remapped_bytes(), 0u);
        for (std::size_t r = 0; r < ranks; ++r) {
            priv.switch_to(r);
            for (std::size_t p = 0; p < pages; ++p) ASSERT_EQ(at(p), static_cast<char>('a' + r)) << "rank " << r << ", page " << p;
        }
        munmap(mapped, pages * page);
    }
}

// Start-up takes the live image as every rank's start without reading the pages nothing has
// touched (a large .bss no one wrote: they read as zero), so they stay unmapped (whatever a
// read fault maps on this kernel: the shared zero page, or a page the page map shows written)
// and no switch moves them; the pages of a file mapping that nothing touched either (.data:
// its initial values) are still every rank's start.
TEST(Privatization, StartUpReadsNoUntouchedPagesAndCopiesFilePages) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), pages = 64;
    void* mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(mapped, MAP_FAILED);
    char* bss = static_cast<char*>(mapped);
    bss[3 * page + 100] = 'a';  // written before start-up (a constructor)
    bss[40 * page + 100] = 'b';
    char name[] = "/tmp/xsim_privatization_XXXXXX";
    const int fd = mkstemp(name);
    ASSERT_GE(fd, 0);
    unlink(name);
    std::vector<char> contents(pages * page);
    for (std::size_t p = 0; p < pages; ++p) contents[p * page + 100] = static_cast<char>('A' + p % 26);
    ASSERT_EQ(write(fd, contents.data(), contents.size()), static_cast<ssize_t>(contents.size()));
    void* file_mapped = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    ASSERT_NE(file_mapped, MAP_FAILED);
    char* data = static_cast<char*>(file_mapped);  // untouched: no page of it is mapped yet
    ASSERT_EQ(mapped_pages(bss, pages), 2u);
    Privatization priv;
    ASSERT_EQ(priv.start({{bss, pages * page, "bss"}, {data, pages * page, "data"}}, 3), "");
    EXPECT_EQ(mapped_pages(bss, pages), 2u) << "start-up read pages nothing had touched";
    priv.switch_to(0);
    EXPECT_EQ(priv.switched_bytes(), 2 * page);  // the two written pages, copied
    EXPECT_EQ(priv.remapped_bytes(), 0u);
    EXPECT_EQ(mapped_pages(bss, pages), 2u);
    bss[10 * page] = '0';
    data[5 * page + 100] = '0';
    priv.switch_to(1);
    EXPECT_EQ(bss[10 * page], 0);
    EXPECT_EQ(bss[3 * page + 100], 'a');
    EXPECT_EQ(bss[40 * page + 100], 'b');
    EXPECT_EQ(data[5 * page + 100], 'A' + 5);
    for (std::size_t p = 0; p < pages; ++p) EXPECT_EQ(data[p * page + 100], 'A' + p % 26) << "rank 1, page " << p;
    bss[20 * page] = '1';
    priv.switch_to(2);
    EXPECT_EQ(bss[10 * page], 0);
    EXPECT_EQ(bss[20 * page], 0);
    EXPECT_EQ(bss[3 * page + 100], 'a');
    EXPECT_EQ(data[5 * page + 100], 'A' + 5);
    priv.switch_to(0);
    EXPECT_EQ(bss[10 * page], '0');
    EXPECT_EQ(bss[20 * page], 0);
    EXPECT_EQ(data[5 * page + 100], '0');
    EXPECT_EQ(data[6 * page + 100], 'A' + 6);
    priv.switch_to(1);
    EXPECT_EQ(bss[20 * page], '1');
    EXPECT_EQ(data[5 * page + 100], 'A' + 5);
    // Pages 3, 10, 20 and 40 were written, and the ones the checks read (10 and 20 in every
    // rank); the 60 others stay as they were: unmapped.
    EXPECT_EQ(mapped_pages(bss, pages), 4u);
    munmap(file_mapped, pages * page);
    munmap(mapped, pages * page);
}

TEST(PrivatizeOption, ParsedAndCheckedLikeTheOthers) {
    auto parse = [](std::vector<std::string> words) {
        std::vector<char*> argv;
        for (auto& w : words) argv.push_back(w.data());
        return xsim::parse_command_line(static_cast<int>(argv.size()), argv.data(), nullptr);
    };
    EXPECT_EQ(parse({"app"}).options.privatize, xsim::PrivatizeMode::Auto);
    EXPECT_EQ(parse({"app", "-xsim-privatize", "on"}).options.privatize, xsim::PrivatizeMode::On);
    EXPECT_EQ(parse({"app", "-xsim-privatize=off"}).options.privatize, xsim::PrivatizeMode::Off);
    try {
        parse({"app", "-xsim-privatize", "maybe"});
        FAIL() << "accepted -xsim-privatize maybe";
    } catch (const xsim::OptionError& e) {
        EXPECT_STREQ(e.what(), "-xsim-privatize: expected 'auto', 'on' or 'off', got 'maybe'");
    }
}
