#include "nice_ticks.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace comet::ui {

double nice_step(double raw) {
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0})
        if (m * mag >= raw * (1 - 1e-9)) return m * mag;
    return 10 * mag;
}

std::vector<double> linear_nice_ticks(double lo, double hi, int max_count) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) return {};
    const double step = nice_step((hi - lo) / std::max(1, max_count - 1));
    std::vector<double> out;
    const double first = std::ceil(lo / step - 1e-9);
    for (double k = first;; k += 1) {
        double v = k * step;
        if (v > hi + step * 1e-9) break;
        if (std::abs(v) < step * 1e-9) v = 0;
        out.push_back(v);
    }
    return out;
}

std::vector<double> log_nice_ticks(double lo, double hi, int max_count, bool dense) {
    if (!(lo > 0) || !std::isfinite(hi) || !(hi > lo)) return {};
    const int low = static_cast<int>(std::floor(std::log10(lo)));
    const int high = static_cast<int>(std::ceil(std::log10(hi)));
    auto collect = [&](std::span<const double> mantissas, int first, int decade_step) {
        std::vector<double> out;
        for (int e = first; e <= high; e += decade_step)
            for (double m : mantissas) {
                const double v = m * std::pow(10.0, e);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
            }
        return out;
    };
    constexpr std::array<double, 9> every{1, 2, 3, 4, 5, 6, 7, 8, 9};
    constexpr std::array<double, 4> one_two_three_five{1, 2, 3, 5};
    constexpr std::array<double, 3> one_two_five{1, 2, 5};
    constexpr std::array<double, 1> one{1};
    if (dense) {
        if (auto t = collect(every, low, 1); static_cast<int>(t.size()) <= max_count) return t;
        if (auto t = collect(one_two_three_five, low, 1); static_cast<int>(t.size()) <= max_count) return t;
    }
    if (auto t = collect(one_two_five, low, 1); static_cast<int>(t.size()) <= max_count) return t;
    // Powers of ten from the first one inside the range.
    const int first = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
    for (int decade_step = 1;; ++decade_step)
        if (auto t = collect(one, first, decade_step); static_cast<int>(t.size()) <= max_count) return t;
}

std::vector<double> nice_ticks(double lo, double hi, int max_count, bool log) {
    if (log) {
        std::vector<double> t = log_nice_ticks(lo, hi, max_count, true);
        if (t.size() >= 2) return t;
    }
    return linear_nice_ticks(lo, hi, max_count);
}

bool is_round(double v) {
    if (!std::isfinite(v)) return false;
    if (v == 0) return true;
    const double m = std::abs(v) / std::pow(10.0, std::floor(std::log10(std::abs(v))));  // 1 <= m < 10
    return std::abs(2 * m - std::round(2 * m)) <= 1e-9 * m;
}

std::optional<double> fractional_index(std::span<const double> values, double v, bool log) {
    const std::size_t n = values.size();
    if (n == 0 || !std::isfinite(v) || (log && !(v > 0))) return std::nullopt;
    for (double x : values)
        if (!std::isfinite(x) || (log && !(x > 0))) return std::nullopt;
    if (n == 1) return std::abs(v - values[0]) <= 1e-9 * std::max(1.0, std::abs(v)) ? std::optional<double>(0.0) : std::nullopt;
    const bool up = values[1] > values[0];
    for (std::size_t i = 1; i < n; ++i)
        if (up ? !(values[i] > values[i - 1]) : !(values[i] < values[i - 1])) return std::nullopt;
    auto g = [log](double x) { return log ? std::log(x) : x; };
    const double tol = 1e-9 * std::max({1.0, std::abs(values.front()), std::abs(values.back())});
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const double a = values[i], b = values[i + 1];
        const double lo = std::min(a, b) - tol, hi = std::max(a, b) + tol;
        if (v < lo || v > hi) continue;
        const double t = std::clamp((g(std::clamp(v, std::min(a, b), std::max(a, b))) - g(a)) / (g(b) - g(a)), 0.0, 1.0);
        return static_cast<double>(i) + t;
    }
    return std::nullopt;
}

}  // namespace comet::ui
