/* boost_mpi_objects: Boost.MPI (libboost-mpi-dev) as a user writes it: broadcast and reduce of
 * std::string and of a serialized user type, a non-commutative reduction of strings, isend/
 * irecv of serialized objects in a ring, all_gather, scatter and scan of strings, skeleton and
 * content of a std::list, split and duplicated communicators, probe of a serialized message.
 * Boost.Serialization keeps a registry of type information (one per process natively) where
 * the program's and Boost.MPI's singletons register themselves from their static
 * constructors: shared by the ranks of a real process, the second rank's constructors met the
 * first rank's entry, not constructed in the second rank's globals, and crashed
 * (extended_type_info_typeid_0::type_register). */
#include <boost/mpi.hpp>
#include <boost/serialization/list.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include <list>
#include <string>
#include <vector>

#include "xsim_test.h"

namespace mpi = boost::mpi;

struct Particle {
    int id = 0;
    double pos[3] = {0, 0, 0};
    std::string tag;
    std::vector<int> neighbours;
    template <class Archive>
    void serialize(Archive& ar, unsigned) {
        ar & id & pos & tag & neighbours;
    }
};

struct Concat {
    std::string operator()(const std::string& a, const std::string& b) const { return a + b; }
};

static std::string digit(int i) { return std::to_string(i % 10); }

static void run(xt_t* t) {
    mpi::communicator world;
    const int r = world.rank(), n = world.size();
    XT_CHECK(t, r == t->rank && n == t->size, "Boost.MPI sees rank %d of %d", r, n);

    std::string s = r == 0 ? "hello from the root" : "";
    mpi::broadcast(world, s, 0);
    XT_CHECK(t, s == "hello from the root", "broadcast string '%s'", s.c_str());
    Particle p;
    if (r == 0) {
        p.id = 42;
        p.pos[1] = 2.5;
        p.tag = "root";
        p.neighbours = {1, 2, 3};
    }
    mpi::broadcast(world, p, 0);
    XT_CHECK(t, p.id == 42 && p.pos[1] == 2.5 && p.tag == "root" && p.neighbours.size() == 3,
             "broadcast object %d '%s' %zu", p.id, p.tag.c_str(), p.neighbours.size());

    std::string all;
    mpi::reduce(world, digit(r), all, Concat(), 0);
    if (r == 0) {
        std::string expected;
        for (int i = 0; i < n; ++i) expected += digit(i);
        XT_CHECK(t, all == expected, "reduce of strings in rank order '%s'", all.c_str());
    }
    const long sum = mpi::all_reduce(world, static_cast<long>(r), std::plus<long>());
    XT_CHECK(t, sum == static_cast<long>(n) * (n - 1) / 2, "all_reduce %ld", sum);

    Particle out, in;
    out.id = r;
    out.tag = "p" + std::to_string(r);
    out.neighbours.assign(r % 7 + 1, r);
    const int next = (r + 1) % n, prev = (r + n - 1) % n;
    mpi::request reqs[2] = {world.irecv(prev, 7, in), world.isend(next, 7, out)};
    mpi::wait_all(reqs, reqs + 2);
    XT_CHECK(t, in.id == prev && in.tag == "p" + std::to_string(prev) &&
                    in.neighbours.size() == static_cast<std::size_t>(prev % 7 + 1),
             "ring object %d '%s'", in.id, in.tag.c_str());
    std::vector<std::string> vout(3, "x" + std::to_string(r)), vin;
    mpi::request vreqs[2] = {world.irecv(prev, 9, vin), world.isend(next, 9, vout)};
    mpi::wait_all(vreqs, vreqs + 2);
    XT_CHECK(t, vin.size() == 3 && vin[2] == "x" + std::to_string(prev), "ring vector of %zu strings", vin.size());

    std::vector<std::string> names;
    mpi::all_gather(world, "r" + std::to_string(r), names);
    bool names_ok = names.size() == static_cast<std::size_t>(n);
    for (int i = 0; names_ok && i < n; ++i) names_ok = names[i] == "r" + std::to_string(i);
    XT_CHECK(t, names_ok, "all_gather of strings (%zu)", names.size());
    std::vector<Particle> everyone;
    mpi::all_gather(world, out, everyone);
    bool everyone_ok = everyone.size() == static_cast<std::size_t>(n);
    for (int i = 0; everyone_ok && i < n; ++i)
        everyone_ok = everyone[i].id == i && everyone[i].neighbours.size() == static_cast<std::size_t>(i % 7 + 1);
    XT_CHECK(t, everyone_ok, "all_gather of objects");
    std::vector<std::string> parts;
    if (r == 0)
        for (int i = 0; i < n; ++i) parts.push_back(std::string(i % 5 + 1, static_cast<char>('a' + i % 26)));
    std::string mine;
    mpi::scatter(world, parts, mine, 0);
    XT_CHECK(t, mine == std::string(r % 5 + 1, static_cast<char>('a' + r % 26)), "scatter '%s'", mine.c_str());
    std::string prefix;
    mpi::scan(world, digit(r), prefix, Concat());
    XT_CHECK(t, prefix.size() == static_cast<std::size_t>(r + 1), "scan of strings '%s'", prefix.c_str());

    if (n >= 2) {  // skeleton once, then its content three times
        std::list<int> list;
        if (r == 0) {
            for (int i = 0; i < 10; ++i) list.push_back(i);
            for (int d = 1; d < n; ++d) world.send(d, 20, mpi::skeleton(list));
            const mpi::content c = mpi::get_content(list);
            for (int round = 0; round < 3; ++round) {
                int k = 0;
                for (int& v : list) v = round * 100 + k++;
                for (int d = 1; d < n; ++d) world.send(d, 21, c);
            }
        } else {
            world.recv(0, 20, mpi::skeleton(list));
            XT_CHECK(t, list.size() == 10, "skeleton of %zu elements", list.size());
            const mpi::content c = mpi::get_content(list);
            for (int round = 0; round < 3; ++round) {
                world.recv(0, 21, c);
                int k = 0;
                bool ok = true;
                for (int v : list) ok = ok && v == round * 100 + k++;
                XT_CHECK(t, ok, "content of round %d", round);
            }
        }
        std::list<int> small;
        if (r == 0) small = {5, 6, 7};
        mpi::broadcast(world, mpi::skeleton(small), 0);
        const mpi::content c = mpi::get_content(small);
        mpi::broadcast(world, c, 0);
        XT_CHECK(t, small.size() == 3 && small.back() == 7, "broadcast skeleton and content");
    }

    mpi::communicator half = world.split(r % 2, r);
    XT_CHECK(t, half.size() == (n + 1 - r % 2) / 2, "split size %d", half.size());
    const std::string letters =
        mpi::all_reduce(half, std::string(1, static_cast<char>('A' + half.rank() % 26)), Concat());
    XT_CHECK(t, letters.size() == static_cast<std::size_t>(half.size()), "all_reduce on the split '%s'", letters.c_str());
    mpi::communicator dup(world, mpi::comm_duplicate);
    if (n >= 2 && r == 1) dup.send(0, 3, std::string("probe me"));
    if (n >= 2 && r == 0) {
        const mpi::status st = dup.probe(mpi::any_source, 3);
        std::string got;
        dup.recv(st.source(), st.tag(), got);
        XT_CHECK(t, got == "probe me", "probed string '%s'", got.c_str());
    }
}

int main(int argc, char** argv) {
    mpi::environment env(argc, argv);
    xt_t xt, *t = &xt;
    xt_init_after(t, "boost_mpi_objects");
    run(t);  // its communicators are freed before MPI_Finalize
    return xt_finish(t, nullptr);
}
