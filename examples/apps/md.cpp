// md.cpp -- short-range molecular dynamics (2-D Lennard-Jones) with spatial decomposition.
//
// Written like the C++ mini-apps it imitates: the rank lives in a file-scope static used by
// the logging helpers, packing buffers are file-scope std::vectors reused every step, the
// particles are std::vector<Particle> members of a Domain object, parameter errors are thrown
// as exceptions and caught in main, and the program includes <mpi.h> with Open MPI's C++
// bindings enabled and links with mpicxx (libmpi_cxx), as users build it.
//
// The periodic box is split over a 2-D Cartesian grid of ranks. Each step: velocity Verlet
// half kick and drift, migration of particles that left the subdomain (x, then y, so corner
// moves take two hops), ghost exchange of particles within the cut-off of a face (x, then y
// including the x ghosts, which covers corners), cell-list force computation, second half
// kick. Particles start on a square lattice with velocities from a hash of their id, in
// +v/-v pairs so that the total momentum is exactly zero.
//
// Checks (RESULT lines): the particle count and the sum of ids are exact for any
// decomposition; energies are sums over ranks and pairs whose order depends on the
// decomposition, so they carry a relative tolerance. The run itself fails if a particle is
// lost or duplicated or the total energy drifts by more than 5e-3.
//
// usage: md [-n lattice side] [-s steps] [-e energy interval] [-t dt]
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

static int my_rank = 0; // file-scope static, as the logging below relies on
static int num_ranks = 1;

static std::vector<double> sendbuf; // packing buffers, reused every exchange
static std::vector<double> recvbuf;

static void log_root(const char *text)
{
    if (my_rank == 0)
        std::printf("%s\n", text);
}

struct Particle {
    std::int64_t id;
    double x, y, vx, vy, fx, fy;
};
constexpr int kPacked = 5; // id, x, y, vx, vy travel; forces are recomputed

struct Params {
    int lattice = 48;        // particles per side of the initial lattice
    double spacing = 1.5;    // lattice spacing (box side = lattice * spacing)
    int steps = 300;
    int energy_every = 50;
    double dt = 0.005;
    double cutoff = 2.5;
};

static int to_int(const std::string &option, const char *text)
{
    std::size_t used = 0;
    int v = std::stoi(text, &used); // throws std::invalid_argument / std::out_of_range
    if (used != std::string(text).size() || v < 1)
        throw std::invalid_argument(option + " needs a positive integer, got '" + text + "'");
    return v;
}

static Params parse_args(int argc, char **argv)
{
    Params p;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc)
            throw std::invalid_argument("option " + a + " needs a value");
        const char *v = argv[++i];
        if (a == "-n")
            p.lattice = to_int(a, v);
        else if (a == "-s")
            p.steps = to_int(a, v);
        else if (a == "-e")
            p.energy_every = to_int(a, v);
        else if (a == "-t") {
            p.dt = std::stod(v);
            if (!(p.dt > 0 && p.dt < 0.05))
                throw std::invalid_argument("-t needs a time step in (0, 0.05)");
        } else
            throw std::invalid_argument("unknown option " + a + " (usage: md [-n side] [-s steps] [-e every] [-t dt])");
    }
    if (p.lattice % 2 != 0)
        throw std::invalid_argument("-n must be even (velocities come in +v/-v pairs)");
    return p;
}

// A deterministic hash of the particle id (splitmix64): velocities independent of the ranks.
static double uniform_from_id(std::uint64_t id, int which)
{
    std::uint64_t z = id * 2 + static_cast<std::uint64_t>(which) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * (1.0 / 9007199254740992.0) - 0.5;
}

class Domain {
public:
    Domain(const Params &p) : p_(p), box_(p.lattice * p.spacing)
    {
        int periods[2] = {1, 1};
        dims_[0] = dims_[1] = 0;
        MPI_Dims_create(num_ranks, 2, dims_);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims_, periods, 0, &cart_);
        MPI_Cart_coords(cart_, my_rank, 2, coords_);
        MPI_Cart_shift(cart_, 0, 1, &lower_[0], &upper_[0]);
        MPI_Cart_shift(cart_, 1, 1, &lower_[1], &upper_[1]);
        for (int d = 0; d < 2; d++) {
            lo_[d] = box_ * coords_[d] / dims_[d];
            hi_[d] = box_ * (coords_[d] + 1) / dims_[d];
            // The same test on every rank (box / dims), so all ranks throw or none does.
            if (box_ / dims_[d] < p.cutoff)
                throw std::runtime_error("subdomains of " + std::to_string(box_ / dims_[d]) +
                                         " are narrower than the cut-off " + std::to_string(p.cutoff) +
                                         " on " + std::to_string(num_ranks) + " ranks; use a larger -n");
        }
        double rc6 = std::pow(p.cutoff, -6.0);
        shift_ = 4.0 * (rc6 * rc6 - rc6);
    }
    ~Domain() { MPI_Comm_free(&cart_); }

    void create_lattice()
    {
        const double scale = std::sqrt(12.0); // unit variance per component
        for (std::int64_t j = 0; j < p_.lattice; j++)
            for (std::int64_t i = 0; i < p_.lattice; i++) {
                double x = (i + 0.5) * p_.spacing, y = (j + 0.5) * p_.spacing;
                if (!owns(x, y))
                    continue;
                Particle q{};
                q.id = j * p_.lattice + i;
                q.x = x;
                q.y = y;
                std::uint64_t pair = static_cast<std::uint64_t>(q.id) / 2;
                double sign = (q.id % 2 == 0) ? 1.0 : -1.0;
                q.vx = sign * scale * uniform_from_id(pair, 0);
                q.vy = sign * scale * uniform_from_id(pair, 1);
                atoms_.push_back(q);
            }
    }

    void step()
    {
        const double h = 0.5 * p_.dt;
        for (Particle &q : atoms_) {
            q.vx += h * q.fx;
            q.vy += h * q.fy;
            q.x += p_.dt * q.vx;
            q.y += p_.dt * q.vy;
        }
        migrate();
        exchange_ghosts();
        compute_forces();
        for (Particle &q : atoms_) {
            q.vx += h * q.fx;
            q.vy += h * q.fy;
        }
    }

    void start()
    {
        exchange_ghosts();
        compute_forces();
    }

    // Global kinetic and potential energy, particle count, id sum, migrations.
    void totals(double &kinetic, double &potential, long &count, long long &id_sum, long &moved) const
    {
        double e[2] = {0.0, potential_};
        for (const Particle &q : atoms_)
            e[0] += 0.5 * (q.vx * q.vx + q.vy * q.vy);
        double g[2];
        MPI_Allreduce(e, g, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        kinetic = g[0];
        potential = g[1];
        long long n[3] = {static_cast<long long>(atoms_.size()), 0, migrated_};
        for (const Particle &q : atoms_)
            n[1] += q.id;
        long long ng[3];
        MPI_Allreduce(n, ng, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        count = static_cast<long>(ng[0]);
        id_sum = ng[1];
        moved = static_cast<long>(ng[2]);
    }

private:
    bool owns(double x, double y) const { return x >= lo_[0] && x < hi_[0] && y >= lo_[1] && y < hi_[1]; }

    static void pack(const Particle &q, double shift, int d, std::vector<double> &buf)
    {
        double pos[2] = {q.x, q.y};
        pos[d] += shift;
        buf.push_back(static_cast<double>(q.id));
        buf.push_back(pos[0]);
        buf.push_back(pos[1]);
        buf.push_back(q.vx);
        buf.push_back(q.vy);
    }

    static Particle unpack(const double *b)
    {
        Particle q{};
        q.id = static_cast<std::int64_t>(b[0]);
        q.x = b[1];
        q.y = b[2];
        q.vx = b[3];
        q.vy = b[4];
        return q;
    }

    // Periodic image shift for a particle sent across the box edge in dimension d.
    double shift_to_lower(int d) const { return coords_[d] == 0 ? box_ : 0.0; }
    double shift_to_upper(int d) const { return coords_[d] == dims_[d] - 1 ? -box_ : 0.0; }

    // Send buffer `out` to `dest` and receive from `source`; counts first.
    void sendrecv_particles(const std::vector<double> &out, int dest, int source, int tag,
                            std::vector<Particle> &into)
    {
        int nsend = static_cast<int>(out.size()), nrecv = 0;
        MPI_Sendrecv(&nsend, 1, MPI_INT, dest, tag, &nrecv, 1, MPI_INT, source, tag, cart_,
                     MPI_STATUS_IGNORE);
        recvbuf.resize(static_cast<std::size_t>(nrecv));
        MPI_Sendrecv(out.data(), nsend, MPI_DOUBLE, dest, tag + 1, recvbuf.data(), nrecv,
                     MPI_DOUBLE, source, tag + 1, cart_, MPI_STATUS_IGNORE);
        for (int k = 0; k < nrecv; k += kPacked)
            into.push_back(unpack(&recvbuf[static_cast<std::size_t>(k)]));
    }

    void migrate()
    {
        for (int d = 0; d < 2; d++) {
            std::vector<Particle> stay, arrived;
            std::vector<double> to_upper;
            sendbuf.clear();
            for (const Particle &q : atoms_) {
                double c = d == 0 ? q.x : q.y;
                if (c < lo_[d]) {
                    pack(q, shift_to_lower(d), d, sendbuf);
                    migrated_++;
                } else if (c >= hi_[d]) {
                    pack(q, shift_to_upper(d), d, to_upper);
                    migrated_++;
                } else {
                    stay.push_back(q);
                }
            }
            sendrecv_particles(sendbuf, lower_[d], upper_[d], 10 + 4 * d, arrived);
            sendrecv_particles(to_upper, upper_[d], lower_[d], 12 + 4 * d, arrived);
            for (const Particle &q : arrived) {
                double c = d == 0 ? q.x : q.y;
                if (c < lo_[d] || c >= hi_[d]) {
                    // Only this rank knows: stop everyone rather than leave them waiting.
                    std::fprintf(stderr, "md: rank %d: particle %lld moved more than one subdomain in a step; use a smaller -t\n",
                                 my_rank, static_cast<long long>(q.id));
                    MPI_Abort(MPI_COMM_WORLD, 3);
                }
            }
            stay.insert(stay.end(), arrived.begin(), arrived.end());
            atoms_.swap(stay);
        }
    }

    void exchange_ghosts()
    {
        ghosts_.clear();
        for (int d = 0; d < 2; d++) {
            std::vector<double> to_upper;
            sendbuf.clear();
            // In y, the x ghosts travel too, so corner neighbours are covered.
            auto consider = [&](const Particle &q) {
                double c = d == 0 ? q.x : q.y;
                if (c < lo_[d] + p_.cutoff)
                    pack(q, shift_to_lower(d), d, sendbuf);
                if (c >= hi_[d] - p_.cutoff)
                    pack(q, shift_to_upper(d), d, to_upper);
            };
            for (const Particle &q : atoms_)
                consider(q);
            std::size_t nghost = ghosts_.size();
            for (std::size_t k = 0; k < nghost; k++)
                consider(ghosts_[k]);
            sendrecv_particles(sendbuf, lower_[d], upper_[d], 20 + 4 * d, ghosts_);
            sendrecv_particles(to_upper, upper_[d], lower_[d], 22 + 4 * d, ghosts_);
        }
    }

    // Forces on owned particles from owned and ghost particles within the cut-off (cell lists).
    void compute_forces()
    {
        const double rc = p_.cutoff, rc2 = rc * rc;
        double org[2], len[2];
        int nc[2];
        for (int d = 0; d < 2; d++) {
            org[d] = lo_[d] - rc;
            len[d] = hi_[d] - lo_[d] + 2 * rc;
            nc[d] = std::max(1, static_cast<int>(len[d] / rc));
        }
        std::vector<std::vector<const Particle *>> cells(static_cast<std::size_t>(nc[0] * nc[1]));
        auto cell_of = [&](double x, double y, int &cx, int &cy) {
            cx = std::min(nc[0] - 1, std::max(0, static_cast<int>((x - org[0]) / len[0] * nc[0])));
            cy = std::min(nc[1] - 1, std::max(0, static_cast<int>((y - org[1]) / len[1] * nc[1])));
        };
        auto insert = [&](const Particle &q) {
            int cx, cy;
            cell_of(q.x, q.y, cx, cy);
            cells[static_cast<std::size_t>(cy * nc[0] + cx)].push_back(&q);
        };
        for (const Particle &q : atoms_)
            insert(q);
        for (const Particle &q : ghosts_)
            insert(q);

        potential_ = 0.0;
        for (Particle &q : atoms_) {
            int cx, cy;
            cell_of(q.x, q.y, cx, cy);
            double fx = 0.0, fy = 0.0;
            for (int ny = std::max(0, cy - 1); ny <= std::min(nc[1] - 1, cy + 1); ny++)
                for (int nx = std::max(0, cx - 1); nx <= std::min(nc[0] - 1, cx + 1); nx++)
                    for (const Particle *o : cells[static_cast<std::size_t>(ny * nc[0] + nx)]) {
                        if (o == &q)
                            continue;
                        double dx = q.x - o->x, dy = q.y - o->y, r2 = dx * dx + dy * dy;
                        if (r2 >= rc2)
                            continue;
                        double ir2 = 1.0 / r2, ir6 = ir2 * ir2 * ir2;
                        double f = 24.0 * ir2 * ir6 * (2.0 * ir6 - 1.0);
                        fx += f * dx;
                        fy += f * dy;
                        potential_ += 0.5 * (4.0 * ir6 * (ir6 - 1.0) - shift_);
                    }
            q.fx = fx;
            q.fy = fy;
        }
    }

    Params p_;
    double box_;
    int dims_[2], coords_[2], lower_[2], upper_[2];
    double lo_[2], hi_[2];
    double shift_ = 0.0;
    double potential_ = 0.0;
    long long migrated_ = 0;
    MPI_Comm cart_ = MPI_COMM_NULL;
    std::vector<Particle> atoms_;
    std::vector<Particle> ghosts_;
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &num_ranks);

    int status = 0;
    try {
        Params p = parse_args(argc, argv);
        Domain dom(p);
        dom.create_lattice();
        dom.start();

        double ke, pe, e0 = 0.0;
        long n, moved;
        long long ids;
        char line[200];
        std::snprintf(line, sizeof line, "2-D Lennard-Jones MD: %d particles, box %.1f, %d steps, %d ranks",
                      p.lattice * p.lattice, p.lattice * p.spacing, p.steps, num_ranks);
        log_root(line);
        double t0 = MPI_Wtime();
        for (int s = 0; s <= p.steps; s++) {
            if (s > 0)
                dom.step();
            if (s % p.energy_every == 0 || s == p.steps) {
                dom.totals(ke, pe, n, ids, moved);
                if (s == 0)
                    e0 = ke + pe;
                std::snprintf(line, sizeof line, "step %5d  kinetic %.10f  potential %.10f  total %.10f",
                              s, ke, pe, ke + pe);
                log_root(line);
            }
        }
        double elapsed = MPI_Wtime() - t0;

        const long expect_n = static_cast<long>(p.lattice) * p.lattice;
        const long long expect_ids = static_cast<long long>(expect_n) * (expect_n - 1) / 2;
        const double drift = std::fabs((ke + pe - e0) / e0);
        bool ok = n == expect_n && ids == expect_ids && drift < 5e-3;
        std::snprintf(line, sizeof line, "time %.6f s, %ld subdomain face crossings, energy drift %.3e",
                      elapsed, moved, drift);
        log_root(line);
        std::snprintf(line, sizeof line, "RESULT particles exact %ld", n);
        log_root(line);
        std::snprintf(line, sizeof line, "RESULT id_sum exact %lld", ids);
        log_root(line);
        std::snprintf(line, sizeof line, "RESULT kinetic rel 1e-9 %.15e", ke);
        log_root(line);
        std::snprintf(line, sizeof line, "RESULT potential rel 1e-9 %.15e", pe);
        log_root(line);
        std::snprintf(line, sizeof line, "RESULT total_energy rel 1e-9 %.15e", ke + pe);
        log_root(line);
        log_root(ok ? "RESULT verification exact SUCCESSFUL" : "RESULT verification exact UNSUCCESSFUL");
        status = ok ? 0 : 1;
    } catch (const std::exception &e) {
        // Every rank reaches the same decision from the same input; rank 0 reports it.
        if (my_rank == 0)
            std::fprintf(stderr, "md: %s\n", e.what());
        MPI_Finalize();
        return 2;
    }
    MPI_Finalize();
    return status;
}
