#include "link_fit.hpp"

#include <cmath>

namespace xsim::machine {
namespace {

// Weighted least squares of y = c + g x (weights w); fixed_c: c is given, only g is fitted.
void weighted_line(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& w,
                   bool fixed_c, double& c, double& g) {
    double W = 0, Sx = 0, Sy = 0, Sxx = 0, Sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double yi = y[i] - (fixed_c ? c : 0);
        W += w[i];
        Sx += w[i] * x[i];
        Sy += w[i] * yi;
        Sxx += w[i] * x[i] * x[i];
        Sxy += w[i] * x[i] * yi;
    }
    const double den = W * Sxx - Sx * Sx;
    if (fixed_c || !(den > 0)) {
        g = Sxx > 0 ? Sxy / Sxx : 0;
        if (!fixed_c) c = 0;
        return;
    }
    g = (W * Sxy - Sx * Sy) / den;
    c = (Sy - g * Sx) / W;
}

}  // namespace

LinkFit fit_link_model(const std::vector<long>& s, const std::vector<double>& t) {
    const std::size_t k = s.size();
    LinkFit best;
    if (k < 3 || s[0] != 0 || t.size() != k) return best;
    // y = t - offset against x = s over [from, to), weights 1 / t^2 (relative error).
    auto fit_range = [&](std::size_t from, std::size_t to, double offset, bool free_c, double& c, double& g) {
        std::vector<double> x, y, w;
        for (std::size_t i = from; i < to; ++i) {
            x.push_back(static_cast<double>(s[i]));
            y.push_back(t[i] - offset);
            w.push_back(1.0 / (t[i] * t[i]));
        }
        c = 0;
        weighted_line(x, y, w, !free_c, c, g);
        if (free_c && c < 0) {  // a negative overhead is noise: refit through zero
            c = 0;
            weighted_line(x, y, w, true, c, g);
        }
    };
    for (std::size_t last = 1; last < k; ++last) {   // sizes 1..last eager, the rest rendezvous
        if (last + 2 == k) continue;                 // a rendezvous side of one size: no line
        LinkFit f;
        f.latency = t[0];
        f.last_eager = last;
        f.eager_limit = s[last];
        double unused = 0;
        fit_range(1, last + 1, f.latency, false, unused, f.eager_per_byte);
        if (last + 1 < k) fit_range(last + 1, k, 3 * f.latency, true, f.overhead, f.per_byte);
        else f.per_byte = f.eager_per_byte;
        if (!(f.eager_per_byte > 0) || !(f.per_byte > 0)) continue;
        f.cost = 0;
        for (std::size_t i = 0; i < k; ++i) f.cost += std::pow((f.one_way(s[i]) - t[i]) / t[i], 2);
        if (best.cost < 0 || f.cost < best.cost) best = f;
    }
    return best;
}

}  // namespace xsim::machine
