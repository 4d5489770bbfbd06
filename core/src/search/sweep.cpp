#include "comet/sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <tbb/parallel_for.h>

#include "comet/evaluate.hpp"
#include "search/search_engine.hpp"

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

namespace {

// Cells share one prepared engine when their class keys are equal (SearchEngine::class_key():
// the cell's configuration with the fields prepare() does not read neutralised, compared
// whole), and one memory donor when their memory keys are.
using ClassKey = SearchEngine::ClassKey;

// Cells of a class searched one after the other, each seeded by the one before.
constexpr std::size_t seeded_block = 4;
// Chains of classes searched side by side after the first class (see run_sweep).
constexpr std::size_t sweep_chains = 4;

Config cell_config(const Config& base, const SweepSpec& spec, int ix, int iy) {
    Config c = base;
    set_knob(c, spec.x.knob, spec.x.values[static_cast<std::size_t>(ix)]);
    if (spec.y) set_knob(c, spec.y->knob, spec.y->values[static_cast<std::size_t>(iy)]);
    return c;
}

// Cell i of the row-major grid: records its axis values and returns its configuration.
Config enter_cell(const Config& base, const SweepSpec& spec, int nx, std::size_t i, SweepCell& cell) {
    const int ix = static_cast<int>(i % static_cast<std::size_t>(nx));
    const int iy = static_cast<int>(i / static_cast<std::size_t>(nx));
    cell.x = spec.x.values[static_cast<std::size_t>(ix)];
    if (spec.y) cell.y = spec.y->values[static_cast<std::size_t>(iy)];
    return cell_config(base, spec, ix, iy);
}

void fill_from_search(SweepCell& cell, const Config& c, const SearchResult& sr) {
    cell.evaluated = sr.stats.evaluated;
    cell.infeasible = sr.stats.infeasible_total();
    const Candidate best = best_or_reason(c, sr);
    cell.strategy = best.strategy;
    cell.result = best.result;
    if (sr.top.size() > 1) {
        cell.has_runner_up = true;
        cell.runner_up_strategy = sr.top[1].strategy;
        cell.runner_up_iteration_s = sr.top[1].result.iteration_s;
    }
}

}  // namespace

SweepResult run_sweep(const Config& base, const SweepSpec& spec, const SearchControl& control) {
    SweepResult out;
    out.nx = static_cast<int>(spec.x.values.size());
    out.ny = spec.y ? static_cast<int>(spec.y->values.size()) : 1;
    out.workload = base.workload;
    out.cells.resize(static_cast<std::size_t>(out.nx) * static_cast<std::size_t>(out.ny));
    if (out.cells.empty()) return out;

    std::atomic<std::uint64_t> done{0};
    std::atomic<bool> cancelled{false};
    const std::uint64_t total = out.cells.size();
    auto stop = [&] {
        if (control.cancel && control.cancel->load(std::memory_order_relaxed)) {
            cancelled.store(true, std::memory_order_relaxed);
            return true;
        }
        return false;
    };
    auto tick = [&] {
        const std::uint64_t n = done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (control.progress) control.progress(n, total);
    };

    if (!spec.search) {
        tbb::parallel_for(std::size_t{0}, out.cells.size(), [&](std::size_t i) {
            if (stop()) return;
            SweepCell& cell = out.cells[i];
            const Config c = enter_cell(base, spec, out.nx, i, cell);
            cell.strategy = c.strategy;
            cell.result = evaluate(c);
            cell.evaluated = 1;
            cell.infeasible = cell.result.feasible ? 0 : 1;
            tick();
        });
        out.cancelled = cancelled.load();
        return out;
    }

    SearchOptions options = spec.search_options;
    // An axis fixes its own knob in every cell.
    options.knobs &= ~knob_bit(spec.x.knob);
    if (spec.y) options.knobs &= ~knob_bit(spec.y->knob);

    // A DLRM's search is a few evaluate() calls per cell (search_dlrm): no engine to share.
    if (base.workload == Workload::dlrm) {
        tbb::parallel_for(std::size_t{0}, out.cells.size(), [&](std::size_t i) {
            if (stop()) return;
            SweepCell& cell = out.cells[i];
            const Config c = enter_cell(base, spec, out.nx, i, cell);
            const SearchResult sr = search(c, options);
            const Candidate best = best_or_reason(c, sr);
            cell.strategy = best.strategy;
            cell.result = best.result;
            if (sr.top.size() > 1) {
                cell.has_runner_up = true;
                cell.runner_up_strategy = sr.top[1].strategy;
                cell.runner_up_iteration_s = sr.top[1].result.iteration_s;
            }
            cell.evaluated = sr.stats.evaluated;
            cell.infeasible = sr.stats.infeasible_total();
            tick();
        });
        out.cancelled = cancelled.load();
        return out;
    }

    // Sort the cells into classes that can share one prepared engine; each class's engine is
    // built from its first cell.
    std::vector<ClassKey> keys;
    std::vector<std::vector<std::size_t>> members;
    std::vector<std::size_t> class_of(out.cells.size());
    for (std::size_t i = 0; i < out.cells.size(); ++i) {
        const int ix = static_cast<int>(i % static_cast<std::size_t>(out.nx));
        const int iy = static_cast<int>(i / static_cast<std::size_t>(out.nx));
        const ClassKey key = SearchEngine::class_key(cell_config(base, spec, ix, iy), options);
        // Usually a cell shares its class with the neighbour above or to the left: try those first.
        std::size_t k = keys.size();
        for (const std::size_t guess :
             {iy > 0 ? class_of[i - static_cast<std::size_t>(out.nx)] : keys.size(), ix > 0 ? class_of[i - 1] : keys.size()})
            if (guess < keys.size() && keys[guess] == key) {
                k = guess;
                break;
            }
        if (k == keys.size()) k = static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
        if (k == keys.size()) {
            keys.push_back(key);
            members.emplace_back();
        }
        class_of[i] = k;
        members[k].push_back(i);
    }
    // Within a class, cells differ only in run-time fields (class_key()). Searched from the
    // fastest network to the slowest, each cell can hand the next the bounds it proved for
    // every group (SearchFloors), which hold wherever the network is no faster.
    std::vector<SearchEngine::NetworkSpeed> speed(out.cells.size());
    for (std::size_t i = 0; i < out.cells.size(); ++i)
        speed[i] = SearchEngine::network_speed(cell_config(base, spec, static_cast<int>(i % static_cast<std::size_t>(out.nx)),
                                                           static_cast<int>(i / static_cast<std::size_t>(out.nx))));
    for (auto& m : members) std::stable_sort(m.begin(), m.end(), [&](std::size_t a, std::size_t b) { return speed[a] < speed[b]; });

    const SearchControl quiet{control.cancel, {}};
    // A class that differs from an earlier one only in compute rates reuses its memory verdicts
    // (from the first class of that memory key, the donor) and computes the roofline only for
    // the groups its cells reach, ordered by the bounds of the class before it (prepare_lazy).
    struct Chain {
        std::shared_ptr<SearchEngine> donor, previous;
        std::size_t donor_key = 0, previous_key = 0;
        std::vector<Strategy> previous_anchor;  // the top of the previous class's first cell
    };
    auto same_memory = [&](std::size_t a, std::size_t b) {
        return keys[a].valid && keys[b].valid && SearchEngine::memory_key(keys[a]) == SearchEngine::memory_key(keys[b]);
    };
    // Searches every cell of class k; false when cancelled.
    auto run_class = [&](std::size_t k, Chain& chain) -> bool {
        const std::size_t first = members[k].front();
        const Config representative = cell_config(base, spec, static_cast<int>(first % static_cast<std::size_t>(out.nx)),
                                                  static_cast<int>(first / static_cast<std::size_t>(out.nx)));
        const bool from_donor = chain.donor && same_memory(chain.donor_key, k);
        auto owned = from_donor ? std::make_shared<SearchEngine>(representative, options, *chain.donor)
                                : std::make_shared<SearchEngine>(representative, options);
        SearchEngine& engine = *owned;
        const bool follows = chain.previous && same_memory(chain.previous_key, k);
        if (!engine.invalid()) {
            const bool ok =
                from_donor ? engine.prepare_lazy(quiet, *chain.donor, follows ? *chain.previous : *chain.donor) : engine.prepare(quiet);
            if (!ok) return false;
        }
        const auto& cells = members[k];
        // Searches cell i; `from` is the cell searched before whose bounds `in` holds (or none).
        auto search_cell = [&](std::size_t i, const std::vector<Strategy>& seeds, std::vector<Strategy>& top, bool parallel,
                               const Config* from, const std::vector<double>* in, std::vector<double>& floors) -> Config {
            SweepCell& cell = out.cells[i];
            const Config c = enter_cell(base, spec, out.nx, i, cell);
            const bool carried_ok = from && in && SearchEngine::no_faster(*from, c);
            const SearchResult sr = engine.run(c, seeds, parallel, quiet, {carried_ok ? in : nullptr, &floors});
            fill_from_search(cell, c, sr);
            top.clear();
            for (const Candidate& cand : sr.top) top.push_back(cand.strategy);
            tick();
            return c;
        };
        // Seeds start a search with a tight bound. The class's first cell is searched first (its
        // groups spread over the threads, seeded by the previous class's first cell when both
        // share one search space) and seeds the first cell of every block of the rest; within a
        // block (consecutive cells, neighbours on the grid) each cell seeds the next. The blocks
        // are fixed, not the scheduler's chunks, so every cell's seeds, and so its statistics,
        // are too.
        std::vector<Strategy> anchor;
        if (stop()) return false;
        const std::vector<Strategy> carried = follows ? chain.previous_anchor : std::vector<Strategy>{};
        std::vector<double> anchor_floors;
        const Config anchor_config = search_cell(cells.front(), carried, anchor, true, nullptr, nullptr, anchor_floors);
        const std::size_t rest = cells.size() - 1;
        const std::size_t blocks = (rest + seeded_block - 1) / seeded_block;
        tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t bi) {
            std::vector<Strategy> seeds = anchor, top;
            // The block's bounds, raised in place from cell to cell.
            std::vector<double> floors = anchor_floors;
            Config from = anchor_config;
            for (std::size_t j = 1 + bi * seeded_block; j < std::min(cells.size(), 1 + (bi + 1) * seeded_block); ++j) {
                if (stop()) return;
                from = search_cell(cells[j], seeds, top, false, &from, &floors, floors);
                std::swap(seeds, top);
            }
        });
        if (!engine.invalid()) {
            if (!from_donor) {
                chain.donor = owned;
                chain.donor_key = k;
            }
            chain.previous = owned;
            chain.previous_key = k;
            chain.previous_anchor = anchor;
        }
        return !stop();
    };
    // The first class alone, then the others in a fixed number of chains of consecutive
    // classes run side by side, each starting from the first class (its donor and anchor). A
    // class waits only for the one before it in its chain, so the classes' preparation and first
    // cells, which one class cannot spread over many threads, overlap. The chains are fixed, not
    // the scheduler's, so every cell's seeds and bounds, and so its statistics, are too.
    Chain head;
    if (!run_class(0, head)) {
        out.cancelled = cancelled.load();
        return out;
    }
    const std::size_t others = keys.size() - 1;
    const std::size_t chains = std::min(sweep_chains, others);
    tbb::parallel_for(
        std::size_t{0}, chains,
        [&](std::size_t ci) {
            Chain chain = head;
            for (std::size_t k = 1 + ci * others / chains; k < 1 + (ci + 1) * others / chains; ++k)
                if (!run_class(k, chain)) return;
        },
        tbb::simple_partitioner{});
    out.cancelled = cancelled.load();
    return out;
}

}  // namespace comet
