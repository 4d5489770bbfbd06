#include "comet/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <tbb/parallel_for.h>

#include "comet/evaluate.hpp"

namespace comet {

std::vector<double> linear_values(double from, double to, int steps) {
    std::vector<double> v;
    if (steps <= 0) return v;
    if (steps == 1) return {from};
    v.reserve(static_cast<std::size_t>(steps));
    for (int i = 0; i < steps; ++i) v.push_back(from + (to - from) * i / (steps - 1));
    v.back() = to;
    return v;
}

std::vector<double> log_values(double from, double to, int steps) {
    std::vector<double> v;
    if (steps <= 0 || !(from > 0) || !(to > 0)) return v;
    if (steps == 1) return {from};
    v.reserve(static_cast<std::size_t>(steps));
    const double ratio = std::log(to / from);
    for (int i = 0; i < steps; ++i) v.push_back(from * std::exp(ratio * i / (steps - 1)));
    v.front() = from;
    v.back() = to;
    return v;
}

SweepResult run_sweep(const Config& base, const SweepSpec& spec, const SearchControl& control) {
    SweepResult out;
    out.nx = static_cast<int>(spec.x.values.size());
    out.ny = spec.y ? static_cast<int>(spec.y->values.size()) : 1;
    out.cells.resize(static_cast<std::size_t>(out.nx) * static_cast<std::size_t>(out.ny));
    if (out.cells.empty()) return out;

    SearchOptions options = spec.search_options;
    // An axis fixes its own knob in every cell.
    options.knobs &= ~knob_bit(spec.x.knob);
    if (spec.y) options.knobs &= ~knob_bit(spec.y->knob);

    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> cancelled{false};
    const std::uint64_t total = out.cells.size();
    SearchControl inner;
    inner.cancel = control.cancel;

    tbb::parallel_for(std::size_t{0}, out.cells.size(), [&](std::size_t i) {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            cancelled.store(true, std::memory_order_relaxed);
            return;
        }
        SweepCell& cell = out.cells[i];
        const int ix = static_cast<int>(i % static_cast<std::size_t>(out.nx));
        const int iy = static_cast<int>(i / static_cast<std::size_t>(out.nx));
        Config c = base;
        cell.x = spec.x.values[static_cast<std::size_t>(ix)];
        set_knob(c, spec.x.knob, cell.x);
        if (spec.y) {
            cell.y = spec.y->values[static_cast<std::size_t>(iy)];
            set_knob(c, spec.y->knob, cell.y);
        }
        if (spec.search) {
            const SearchResult sr = search(c, options, inner);
            if (sr.cancelled) cancelled.store(true, std::memory_order_relaxed);
            cell.evaluated = sr.stats.evaluated;
            cell.infeasible = sr.stats.infeasible_total();
            if (sr.found()) {
                cell.strategy = sr.top[0].strategy;
                cell.result = sr.top[0].result;
                if (sr.top.size() > 1) {
                    cell.has_runner_up = true;
                    cell.runner_up_strategy = sr.top[1].strategy;
                    cell.runner_up_iteration_s = sr.top[1].result.iteration_s;
                }
            } else {
                // Nothing fits: show the most common reason.
                cell.strategy = c.strategy;
                const auto& inf = sr.stats.infeasible;
                const auto most = std::max_element(inf.begin(), inf.end());
                cell.result.feasible = false;
                cell.result.reason = static_cast<Infeasible>(most - inf.begin());
            }
        } else {
            cell.strategy = c.strategy;
            cell.result = evaluate(c);
            cell.evaluated = 1;
            cell.infeasible = cell.result.feasible ? 0 : 1;
        }
        const std::uint64_t n = done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (control.progress) control.progress(n, total);
    });
    out.cancelled = cancelled.load();
    return out;
}

}  // namespace comet
