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

// One run of run_sweep(): the grid, the cancel flag and the progress count its parts share.
class SweepRun {
public:
    SweepRun(const Config& base, const SweepSpec& spec, const SearchControl& control, SweepResult& out)
        : base_(base), spec_(spec), control_(control), out_(out), total_(out.cells.size()) {}

    // Whether the run was asked to stop (and, once asked, remembers it for cancelled()).
    bool stop() {
        if (control_.cancel && control_.cancel->load(std::memory_order_relaxed)) {
            cancelled_.store(true, std::memory_order_relaxed);
            return true;
        }
        return false;
    }
    // One more cell done.
    void tick() {
        const std::uint64_t n = done_.fetch_add(1, std::memory_order_relaxed) + 1;
        if (control_.progress) control_.progress(n, total_);
    }
    [[nodiscard]] bool cancelled() const { return cancelled_.load(); }

    [[nodiscard]] std::size_t cells() const { return out_.cells.size(); }
    SweepCell& cell(std::size_t i) { return out_.cells[i]; }
    // Cell i's configuration, without recording anything in the cell.
    [[nodiscard]] Config config(std::size_t i) const {
        return cell_config(base_, spec_, static_cast<int>(i % static_cast<std::size_t>(out_.nx)),
                           static_cast<int>(i / static_cast<std::size_t>(out_.nx)));
    }
    // Records cell i's axis values and returns its configuration.
    Config enter(std::size_t i) { return enter_cell(base_, spec_, out_.nx, i, out_.cells[i]); }
    [[nodiscard]] int nx() const { return out_.nx; }
    [[nodiscard]] const SearchControl& control() const { return control_; }

private:
    const Config& base_;
    const SweepSpec& spec_;
    const SearchControl& control_;
    SweepResult& out_;
    std::atomic<std::uint64_t> done_{0};
    std::atomic<bool> cancelled_{false};
    std::uint64_t total_;
};

// Every cell evaluated as the scenario gives it (no search).
void evaluate_cells(SweepRun& run) {
    tbb::parallel_for(std::size_t{0}, run.cells(), [&](std::size_t i) {
        if (run.stop()) return;
        SweepCell& cell = run.cell(i);
        const Config c = run.enter(i);
        cell.strategy = c.strategy;
        cell.result = evaluate(c);
        cell.evaluated = 1;
        cell.infeasible = cell.result.feasible ? 0 : 1;
        run.tick();
    });
}

// A DLRM's search is a few evaluate() calls per cell (search_dlrm): no engine to share.
void search_cells_alone(SweepRun& run, const SearchOptions& options) {
    tbb::parallel_for(std::size_t{0}, run.cells(), [&](std::size_t i) {
        if (run.stop()) return;
        const Config c = run.enter(i);
        fill_from_search(run.cell(i), c, search(c, options));
        run.tick();
    });
}

// The cells sorted into classes that can share one prepared engine (each class's engine is
// built from its first cell), each class's cells from the fastest network to the slowest.
struct CellClasses {
    std::vector<ClassKey> keys;
    std::vector<std::vector<std::size_t>> members;
};

CellClasses classify_cells(const SweepRun& run, const SearchOptions& options) {
    CellClasses cc;
    const auto nx = static_cast<std::size_t>(run.nx());
    std::vector<std::size_t> class_of(run.cells());
    for (std::size_t i = 0; i < run.cells(); ++i) {
        const ClassKey key = SearchEngine::class_key(run.config(i), options);
        // Usually a cell shares its class with the neighbour above or to the left: try those first.
        std::size_t k = cc.keys.size();
        for (const std::size_t guess : {i >= nx ? class_of[i - nx] : cc.keys.size(), i % nx > 0 ? class_of[i - 1] : cc.keys.size()})
            if (guess < cc.keys.size() && cc.keys[guess] == key) {
                k = guess;
                break;
            }
        if (k == cc.keys.size()) k = static_cast<std::size_t>(std::find(cc.keys.begin(), cc.keys.end(), key) - cc.keys.begin());
        if (k == cc.keys.size()) {
            cc.keys.push_back(key);
            cc.members.emplace_back();
        }
        class_of[i] = k;
        cc.members[k].push_back(i);
    }
    // Within a class, cells differ only in run-time fields (class_key()). Searched from the
    // fastest network to the slowest, each cell can hand the next the bounds it proved for
    // every group (SearchFloors), which hold wherever the network is no faster.
    std::vector<SearchEngine::NetworkSpeed> speed(run.cells());
    for (std::size_t i = 0; i < run.cells(); ++i) speed[i] = SearchEngine::network_speed(run.config(i));
    for (auto& m : cc.members) std::stable_sort(m.begin(), m.end(), [&](std::size_t a, std::size_t b) { return speed[a] < speed[b]; });
    return cc;
}

// A class that differs from an earlier one only in compute rates reuses its memory verdicts
// (from the first class of that memory key, the donor) and computes the roofline only for the
// groups its cells reach, ordered by the bounds of the class before it (prepare_lazy).
struct Chain {
    std::shared_ptr<SearchEngine> donor, previous;
    std::size_t donor_key = 0, previous_key = 0;
    std::vector<Strategy> previous_anchor;  // the top of the previous class's first cell
};

// Searches every cell of class k, after the class before it in `chain`; false when cancelled.
bool search_class(SweepRun& run, const CellClasses& cc, const SearchOptions& options, std::size_t k, Chain& chain) {
    auto same_memory = [&](std::size_t a, std::size_t b) {
        return cc.keys[a].valid && cc.keys[b].valid && SearchEngine::memory_key(cc.keys[a]) == SearchEngine::memory_key(cc.keys[b]);
    };
    const SearchControl quiet{run.control().cancel, {}};
    const auto& cells = cc.members[k];
    const Config representative = run.config(cells.front());
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
    // Searches cell i; `from` is the cell searched before whose bounds `in` holds (or none).
    auto search_cell = [&](std::size_t i, const std::vector<Strategy>& seeds, std::vector<Strategy>& top, bool parallel, const Config* from,
                           const std::vector<double>* in, std::vector<double>& floors) -> Config {
        const Config c = run.enter(i);
        const bool carried_ok = from && in && SearchEngine::no_faster(*from, c);
        const SearchResult sr = engine.run(c, seeds, parallel, quiet, {carried_ok ? in : nullptr, &floors});
        fill_from_search(run.cell(i), c, sr);
        top.clear();
        for (const Candidate& cand : sr.top) top.push_back(cand.strategy);
        run.tick();
        return c;
    };
    // Seeds start a search with a tight bound. The class's first cell is searched first (its
    // groups spread over the threads, seeded by the previous class's first cell when both share
    // one search space) and seeds the first cell of every block of the rest; within a block
    // (consecutive cells, neighbours on the grid) each cell seeds the next. The blocks are fixed,
    // not the scheduler's chunks, so every cell's seeds, and so its statistics, are too.
    std::vector<Strategy> anchor;
    if (run.stop()) return false;
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
            if (run.stop()) return;
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
    return !run.stop();
}

// The first class alone, then the others in a fixed number of chains of consecutive classes run
// side by side, each starting from the first class (its donor and anchor). A class waits only
// for the one before it in its chain, so the classes' preparation and first cells, which one
// class cannot spread over many threads, overlap. The chains are fixed, not the scheduler's, so
// every cell's seeds and bounds, and so its statistics, are too.
void search_classes(SweepRun& run, const SearchOptions& options) {
    const CellClasses cc = classify_cells(run, options);
    Chain head;
    if (!search_class(run, cc, options, 0, head)) return;
    const std::size_t others = cc.keys.size() - 1;
    const std::size_t chains = std::min(sweep_chains, others);
    tbb::parallel_for(
        std::size_t{0}, chains,
        [&](std::size_t ci) {
            Chain chain = head;
            for (std::size_t k = 1 + ci * others / chains; k < 1 + (ci + 1) * others / chains; ++k)
                if (!search_class(run, cc, options, k, chain)) return;
        },
        tbb::simple_partitioner{});
}

}  // namespace

SweepResult run_sweep(const Config& base, const SweepSpec& spec, const SearchControl& control) {
    SweepResult out;
    out.nx = static_cast<int>(spec.x.values.size());
    out.ny = spec.y ? static_cast<int>(spec.y->values.size()) : 1;
    out.workload = base.workload;
    out.cells.resize(static_cast<std::size_t>(out.nx) * static_cast<std::size_t>(out.ny));
    if (out.cells.empty()) return out;
    SweepRun run(base, spec, control, out);
    if (!spec.search) {
        evaluate_cells(run);
    } else {
        SearchOptions options = spec.search_options;
        // An axis fixes its own knob in every cell.
        options.knobs &= ~knob_bit(spec.x.knob);
        if (spec.y) options.knobs &= ~knob_bit(spec.y->knob);
        if (base.workload == Workload::dlrm)
            search_cells_alone(run, options);
        else
            search_classes(run, options);
    }
    out.cancelled = run.cancelled();
    return out;
}

}  // namespace comet
