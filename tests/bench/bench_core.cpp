// Speed of the core (Google Benchmark). Numbers, not assertions: see docs/performance.md.
//   build/dev/tests/bench/comet-bench --benchmark_min_time=2
#include <benchmark/benchmark.h>
#include <cmath>

#include <filesystem>

#include "comet/compare.hpp"
#include "comet/evaluate.hpp"
#include "comet/fsdp.hpp"
#include "comet/presets.hpp"
#include "comet/scenario.hpp"
#include "comet/search.hpp"
#include "comet/sweep.hpp"

using namespace comet;

namespace {

const Scenario& default_scenario() {
    static const Scenario scenario = [] {
        const auto s = load_scenario_file(presets_dir() / "scenarios" / "default.comet.json");
        if (!s.ok()) {
            std::fprintf(stderr, "%s\n", s.error_text().c_str());
            std::exit(2);
        }
        return *s.value;
    }();
    return scenario;
}

const Config& default_config() { return default_scenario().config; }

// One evaluation of Megatron 1T on 3072 A100 (the default scenario).
void BM_Evaluate(benchmark::State& state) {
    Config c = default_config();
    for (auto _ : state) {
        c.strategy.microbatch = c.strategy.microbatch == 1 ? 2 : 1;  // defeat caching by the compiler
        benchmark::DoNotOptimize(evaluate(c));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Evaluate);

// The full strategy search for Megatron 1T on 3072 A100: every tp/pp/dp split, microbatch,
// interleaving, recompute mode, sequence parallelism, ZeRO stage and overlap choice.
void BM_Search1T(benchmark::State& state) {
    SearchOptions o;
    o.prune = state.range(0) != 0;
    std::uint64_t space = 0;
    for (auto _ : state) {
        const SearchResult r = search(default_config(), o);
        space = r.stats.space;
        benchmark::DoNotOptimize(r.top.data());
    }
    state.counters["configs"] = double(space);
    state.counters["configs_per_s"] = benchmark::Counter(double(space), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Search1T)->Arg(1)->Arg(0)->ArgName("prune")->Unit(benchmark::kMillisecond)->UseRealTime();

// A 64 x 64 grid (HBM bandwidth x scale-out bandwidth) around the default scenario, with the
// best strategy searched in every cell (arg 1) or the default strategy evaluated (arg 0).
void BM_Grid64(benchmark::State& state) {
    SweepSpec spec;
    spec.x = {Knob::hbm_gbps, log_values(1000, 8000, 64)};
    spec.y = Axis{Knob::scale_out_gbps, log_values(6.25, 100, 64)};
    spec.search = state.range(0) != 0;
    for (auto _ : state) {
        const SweepResult r = run_sweep(default_config(), spec);
        benchmark::DoNotOptimize(r.cells.data());
    }
    state.counters["cells"] = 4096;
}
BENCHMARK(BM_Grid64)->Arg(1)->Arg(0)->ArgName("search")->Unit(benchmark::kMillisecond)->UseRealTime();

// The 32 x 32 grid with search that the desktop explorer redraws after an edit.
void BM_Grid32(benchmark::State& state) {
    SweepSpec spec;
    spec.x = {Knob::hbm_gbps, log_values(1000, 8000, 32)};
    spec.y = Axis{Knob::scale_out_gbps, log_values(6.25, 100, 32)};
    spec.search = true;
    for (auto _ : state) benchmark::DoNotOptimize(run_sweep(default_config(), spec).cells.data());
}
BENCHMARK(BM_Grid32)->Unit(benchmark::kMillisecond)->UseRealTime();

// The spine x leaf heatmap (issue 40: 1.3 s per redraw for 405B on 16k GPUs): the default
// scenario on a leaf-spine fabric, 33 x 33 cells of oversubscription 1-4 x 4-64 nodes per leaf,
// the best strategy searched in every cell.
void BM_GridSpine33(benchmark::State& state) {
    Config base = default_config();
    base.node.scale_out.leaf_domains = 16;
    SweepSpec spec;
    std::vector<double> over, leaf;
    for (int i = 0; i < 33; ++i) over.push_back(1.0 + 3.0 * i / 32);
    for (int i = 0; i < 33; ++i) leaf.push_back(std::round(4.0 * std::pow(16.0, i / 32.0)));
    spec.x = {Knob::scale_out_oversubscription, over};
    spec.y = Axis{Knob::scale_out_leaf_domains, leaf};
    spec.search = true;
    for (auto _ : state) benchmark::DoNotOptimize(run_sweep(base, spec).cells.data());
    state.counters["cells"] = 1089;
}
BENCHMARK(BM_GridSpine33)->Unit(benchmark::kMillisecond)->UseRealTime();

// The Compare page: the default scenario's four designs (one fixed, three best-strategy searches).
void BM_CompareDefault(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(compare_designs(default_scenario()).designs.data());
}
BENCHMARK(BM_CompareDefault)->Unit(benchmark::kMillisecond)->UseRealTime();

// The tornado of the Cost & Sensitivity page: 7 resources x 2 sides + the base, each a search.
void BM_Sensitivity(benchmark::State& state) {
    SearchOptions opt;
    opt.top_k = 1;
    for (auto _ : state) benchmark::DoNotOptimize(sensitivity(default_config(), 0.1, opt).data());
}
BENCHMARK(BM_Sensitivity)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

namespace {

// The Mixtral 8x7B 32K scenario on 128 H100, loaded once.
const Config& mixtral_config() {
    static const Config c = [] {
        const auto s = load_scenario_file(presets_dir() / "scenarios" / "mixtral-8x7b-32k-128xh100.comet.json");
        if (!s.ok()) {
            std::fprintf(stderr, "%s\n", s.error_text().c_str());
            std::exit(2);
        }
        return s.value->config;
    }();
    return c;
}

}  // namespace

// The full search for Mixtral 8x7B at 32K tokens on 128 H100: the dense knobs plus context
// parallelism, expert parallelism, expert tensor parallelism and hierarchical sharding.
void BM_SearchMoE(benchmark::State& state) {
    const Config& c = mixtral_config();
    std::uint64_t space = 0;
    for (auto _ : state) {
        const SearchResult r = search(c);
        space = r.stats.space;
        benchmark::DoNotOptimize(r.top.data());
    }
    state.counters["configs"] = double(space);
}
BENCHMARK(BM_SearchMoE)->Unit(benchmark::kMillisecond)->UseRealTime();

// Issue 16's heatmap: 33 x 33 (HBM bandwidth x scale-out bandwidth) around the Mixtral 8x7B 32K
// scenario with the best strategy searched in every cell (`comet-cli sweep` of the same grid).
void BM_GridMoE33(benchmark::State& state) {
    const Config& c = mixtral_config();
    SweepSpec spec;
    spec.x = {Knob::hbm_gbps, log_values(1000, 8000, 33)};
    spec.y = Axis{Knob::scale_out_gbps, log_values(6.25, 100, 33)};
    spec.search = true;
    for (auto _ : state) benchmark::DoNotOptimize(run_sweep(c, spec).cells.data());
    state.counters["cells"] = 1089;
}
BENCHMARK(BM_GridMoE33)->Unit(benchmark::kMillisecond)->UseRealTime();

// The FSDP balance of the default scenario at its default data-parallel degrees.
void BM_FsdpBalance(benchmark::State& state) {
    const std::vector<int> dps = fsdp_default_dps(default_config());
    for (auto _ : state) benchmark::DoNotOptimize(fsdp_balance(default_config(), dps).data());
    state.counters["points"] = double(dps.size());
}
BENCHMARK(BM_FsdpBalance)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
