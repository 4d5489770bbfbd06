// The search engine and the sweep runner: pruning returns exactly what exhaustive enumeration
// returns, results do not depend on the thread count, cancellation is prompt, and every
// sweep axis moves the configuration it names.
#include <QtTest>

#include <atomic>
#include <random>
#include <tbb/global_control.h>

#include "comet/evaluate.hpp"
#include "comet/report.hpp"
#include "comet/search.hpp"
#include "fixtures.hpp"
#include "comet/sweep.hpp"

using namespace comet;

namespace {

Config small_config() {
    return test::small_gpt_config();
}

// A random small problem: model shape, cluster, batch, memory and an optional expanded tier.
Config random_config(std::mt19937& rng) {
    auto pick = [&](std::initializer_list<int> v) {
        return *(v.begin() + std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng));
    };
    Config c = small_config();
    c.model.layers = pick({4, 6, 8, 12, 16});
    c.model.heads = pick({4, 8, 12, 16});
    c.model.kv_heads = pick({1, 2, 4}) > 2 ? c.model.heads : c.model.heads / pick({1, 2, 4});
    if (c.model.heads % c.model.kv_heads != 0) c.model.kv_heads = c.model.heads;
    c.model.head_dim = pick({64, 128});
    c.model.hidden = c.model.heads * c.model.head_dim;
    c.model.ffn_hidden = 4 * c.model.hidden;
    c.model.gated_mlp = pick({0, 1}) == 1;
    c.model.seq_len = pick({512, 1024, 2048, 4096});
    c.node.accelerators = pick({2, 4, 8});
    c.node.scale_up.domain_size = c.node.accelerators;
    c.cluster.nodes = pick({1, 2, 3, 4});
    c.training.global_batch = pick({8, 12, 16, 32, 48});
    c.node.hbm_capacity_gib = pick({4, 8, 16, 40, 80});
    c.node.scale_out.bandwidth_gbps = pick({5, 25, 100});
    if (pick({0, 1}) == 1) c.node.expanded = {double(pick({64, 512})), double(pick({32, 128})), 1.0, ExpandedAttach::per_node, 1};
    c.training.attention = pick({0, 1}) == 1 ? AttentionKernel::fused : AttentionKernel::unfused;
    return c;
}

bool same_strategy(const Strategy& a, const Strategy& b) {
    return format_strategy(a) == format_strategy(b) && a.zero_stage == b.zero_stage;
}

void compare_tops(const SearchResult& a, const SearchResult& b) {
    QCOMPARE(a.top.size(), b.top.size());
    for (std::size_t i = 0; i < a.top.size(); ++i) {
        QVERIFY2(same_strategy(a.top[i].strategy, b.top[i].strategy),
                 (format_strategy(a.top[i].strategy) + " vs " + format_strategy(b.top[i].strategy)).c_str());
        QCOMPARE(a.top[i].result.iteration_s, b.top[i].result.iteration_s);
        QCOMPARE(a.top[i].index, b.top[i].index);
    }
}

}  // namespace

class TestSearch : public QObject {
    Q_OBJECT
private slots:
    void pruningIsExact();
    void bestMatchesBruteForceEvaluate();
    void deterministicAcrossThreadCounts();
    void cancellationStopsWithinAChunk();
    void fixedKnobsStayFixed();
    void invalidBaseIsReported();
    void everyAxisKnobMovesItsField();
    void searchingSweepEqualsPerCellSearch();
    void sweepDeterministicAcrossThreads();
};

void TestSearch::pruningIsExact() {
    std::mt19937 rng(20261130);
    int with_result = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const Config c = random_config(rng);
        for (Objective obj : {Objective::time, Objective::mfu}) {
            SearchOptions o;
            o.objective = obj;
            o.top_k = 1 + trial % 4;
            o.all_accelerators = trial % 5 != 0;
            o.prune = false;
            const SearchResult exhaustive = search(c, o);
            o.prune = true;
            const SearchResult pruned = search(c, o);
            compare_tops(exhaustive, pruned);
            QCOMPARE(pruned.stats.space, exhaustive.stats.space);
            QCOMPARE(pruned.stats.evaluated + pruned.stats.pruned, exhaustive.stats.evaluated);
            QCOMPARE(exhaustive.stats.evaluated, exhaustive.stats.space);
            with_result += exhaustive.found() ? 1 : 0;
        }
    }
    QVERIFY2(with_result > 150, "too few random problems had a feasible strategy to compare");
}

void TestSearch::bestMatchesBruteForceEvaluate() {
    // An independent enumeration through evaluate() finds the same best time.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        Config c = random_config(rng);
        c.node.expanded = {};
        SearchOptions o;
        o.top_k = 1;
        const SearchResult sr = search(c, o);
        const long long gpus = accelerators_available(c);
        double best = std::numeric_limits<double>::infinity();
        std::uint64_t feasible = 0;
        for (int tp = 1; tp <= gpus; ++tp)
            for (int pp = 1; tp * pp <= gpus; ++pp) {
                if (gpus % (tp * pp)) continue;
                const int dp = int(gpus / (tp * pp));
                for (int mb = 1; mb <= c.training.global_batch; ++mb)
                    for (int v = 1; v <= c.model.layers; ++v)
                        for (int rc = 0; rc < 3; ++rc)
                            for (int sp = 0; sp < (tp > 1 ? 2 : 1); ++sp)
                                for (int z = 0; z < (dp > 1 ? 4 : 1); ++z)
                                    for (int ov = 0; ov < 4; ++ov) {
                                        Config x = c;
                                        x.strategy = {tp, pp, dp, mb, v, Recompute(rc), sp == 1, z, false, false, false, (ov & 1) == 0, (ov & 2) != 0, true};
                                        const Result r = evaluate(x);
                                        if (!r.feasible) continue;
                                        ++feasible;
                                        best = std::min(best, r.iteration_s);
                                    }
            }
        QCOMPARE(sr.found(), feasible > 0);
        QCOMPARE(sr.stats.feasible <= feasible, true);
        if (feasible) QCOMPARE(sr.top[0].result.iteration_s, best);
    }
}

void TestSearch::deterministicAcrossThreadCounts() {
    std::mt19937 rng(99);
    for (int trial = 0; trial < 10; ++trial) {
        const Config c = random_config(rng);
        SearchOptions o;
        o.top_k = 5;
        o.prune = trial % 2 == 0;
        SearchResult runs[3];
        const int threads[3] = {1, 2, 4};
        for (int i = 0; i < 3; ++i) {
            tbb::global_control gc(tbb::global_control::max_allowed_parallelism, std::size_t(threads[i]));
            runs[i] = search(c, o);
        }
        compare_tops(runs[0], runs[1]);
        compare_tops(runs[0], runs[2]);
        if (!o.prune)
            for (int i = 1; i < 3; ++i) {
                QCOMPARE(runs[i].stats.evaluated, runs[0].stats.evaluated);
                QCOMPARE(runs[i].stats.feasible, runs[0].stats.feasible);
                QVERIFY(runs[i].stats.infeasible == runs[0].stats.infeasible);
            }
    }
}

void TestSearch::cancellationStopsWithinAChunk() {
    Config c = small_config();
    c.cluster.nodes = 64;
    c.training.global_batch = 1024;
    std::atomic<bool> cancel{false};
    std::atomic<int> calls_after{0};
    std::atomic<std::uint64_t> total_seen{0};
    SearchControl ctl;
    ctl.cancel = &cancel;
    ctl.progress = [&](std::uint64_t, std::uint64_t total) {
        total_seen = total;
        if (cancel.exchange(true)) ++calls_after;
    };
    const SearchResult r = search(c, {}, ctl);
    QVERIFY(r.cancelled);
    QVERIFY(total_seen > 64);
    // Each worker finishes at most the chunk it was in when the flag went up.
    QVERIFY2(calls_after <= 4, qPrintable(QString::number(calls_after.load())));
}

void TestSearch::fixedKnobsStayFixed() {
    Config c = small_config();
    c.strategy.tp = 4;
    c.strategy.recompute = Recompute::full;
    SearchOptions o;
    o.knobs = all_strategy_knobs & ~knob_bit(Knob::tp) & ~knob_bit(Knob::recompute);
    o.top_k = 10;
    const SearchResult r = search(c, o);
    QVERIFY(r.found());
    for (const auto& cand : r.top) {
        QCOMPARE(cand.strategy.tp, 4);
        QCOMPARE(cand.strategy.recompute, Recompute::full);
        QCOMPARE(accelerators_used(cand.strategy), accelerators_available(c));
    }
}

void TestSearch::invalidBaseIsReported() {
    Config c = small_config();
    c.node.scale_out.bandwidth_gbps = -1;
    const SearchResult r = search(c);
    QVERIFY(!r.found());
    QCOMPARE(r.stats.infeasible[std::size_t(Infeasible::invalid_input)], std::uint64_t{1});
}

void TestSearch::everyAxisKnobMovesItsField() {
    for (const KnobInfo& k : all_knobs()) {
        Config base = small_config();
        base.node.expanded = {256, 64, 1, ExpandedAttach::per_node, 1};
        base.strategy = {2, 2, 8, 1, 1, Recompute::selective, true, 1, false, false, false, true, false, true};
        // Two valid values of the knob near the base.
        double a = get_knob(base, k.knob), b = a;
        if (k.integer) b = std::min(k.max, std::max(k.min, a == k.min ? a + 1 : a - 1));
        else b = a * 1.5 > 0 ? a * 1.5 : 1.0;
        SweepSpec spec;
        spec.x = {k.knob, {a, b}};
        const SweepResult r = run_sweep(base, spec);
        QCOMPARE(r.cells.size(), std::size_t{2});
        Config moved = base;
        set_knob(moved, k.knob, b);
        QVERIFY2(get_knob(moved, k.knob) == b, std::string(k.id).c_str());
        QCOMPARE(r.cells[1].x, b);
        // The cell is the evaluation of exactly that configuration.
        const Result direct = evaluate(moved);
        QCOMPARE(r.cells[1].result.feasible, direct.feasible);
        QCOMPARE(r.cells[1].result.reason, direct.reason);
        QCOMPARE(r.cells[1].result.iteration_s, direct.iteration_s);
        if (k.kind == KnobKind::strategy) {
            spec.search = true;
            const SweepResult s = run_sweep(base, spec);
            for (const SweepCell& cell : s.cells)
                if (cell.result.feasible) {
                    Config c = base;
                    c.strategy = cell.strategy;
                    QVERIFY2(get_knob(c, k.knob) == cell.x, std::string(k.id).c_str());  // the axis knob is not searched
                }
        }
    }
}

void TestSearch::searchingSweepEqualsPerCellSearch() {
    const Config base = small_config();
    SweepSpec spec;
    spec.x = {Knob::hbm_gbps, log_values(500, 4000, 4)};
    spec.y = Axis{Knob::scale_out_gbps, {5, 12.5, 50}};
    spec.search = true;
    spec.search_options.top_k = 2;
    const SweepResult r = run_sweep(base, spec);
    for (int iy = 0; iy < r.ny; ++iy)
        for (int ix = 0; ix < r.nx; ++ix) {
            Config c = base;
            set_knob(c, Knob::hbm_gbps, spec.x.values[std::size_t(ix)]);
            set_knob(c, Knob::scale_out_gbps, spec.y->values[std::size_t(iy)]);
            SearchOptions o = spec.search_options;
            o.knobs &= ~knob_bit(Knob::hbm_gbps);
            const SearchResult s = search(c, o);
            const SweepCell& cell = r.at(ix, iy);
            QVERIFY(s.found());
            QCOMPARE(cell.result.iteration_s, s.top[0].result.iteration_s);
            QVERIFY(same_strategy(cell.strategy, s.top[0].strategy));
            QVERIFY(cell.has_runner_up);
            QCOMPARE(cell.runner_up_iteration_s, s.top[1].result.iteration_s);
        }
    // More scale-out bandwidth never makes the best strategy slower.
    for (int ix = 0; ix < r.nx; ++ix)
        for (int iy = 1; iy < r.ny; ++iy) QVERIFY(r.at(ix, iy).result.iteration_s <= r.at(ix, iy - 1).result.iteration_s);
}

void TestSearch::sweepDeterministicAcrossThreads() {
    const Config base = small_config();
    SweepSpec spec;
    spec.x = {Knob::nodes, {1, 2, 4}};
    spec.y = Axis{Knob::matrix_tflops, {150, 312, 600}};
    spec.search = true;
    SweepResult runs[2];
    for (int i = 0; i < 2; ++i) {
        tbb::global_control gc(tbb::global_control::max_allowed_parallelism, std::size_t(i + 1));
        runs[i] = run_sweep(base, spec);
    }
    for (std::size_t i = 0; i < runs[0].cells.size(); ++i) {
        QCOMPARE(runs[0].cells[i].result.iteration_s, runs[1].cells[i].result.iteration_s);
        QVERIFY(same_strategy(runs[0].cells[i].strategy, runs[1].cells[i].strategy));
    }
}

QTEST_APPLESS_MAIN(TestSearch)
#include "test_search.moc"
