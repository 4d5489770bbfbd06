// Economics: cost and energy equal hand computations, invalid inputs are named, the tornado
// is ordered by the effect comet::search measures directly and never says more of a resource
// slows training, and the Pareto front marks exactly the non-dominated points.
#include <QtTest>

#include <atomic>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "comet/compare.hpp"
#include "comet/economics.hpp"
#include "comet/evaluate.hpp"
#include "comet/search.hpp"
#include "fixtures.hpp"

using namespace comet;

namespace {

// A 1.3B-parameter GPT on 4 nodes of 8 A100-class GPUs: every search takes milliseconds.
Config small_config() {
    Config c = test::small_gpt_config();
    c.strategy.tp = 2;
    c.strategy.pp = 2;
    c.strategy.dp = 8;
    return c;
}

bool has_error(const std::vector<FieldError>& errors, const std::string& path) {
    for (const FieldError& e : errors)
        if (e.path == path && e.message().find(path) == 0) return true;
    return false;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-15; }

bool more_is_better(Knob k) {
    return k != Knob::scale_up_latency_us && k != Knob::scale_out_latency_us && k != Knob::scale_out_oversubscription;
}

ParetoPoint pt(const char* label, double t, double c) {
    ParetoPoint p;
    p.label = label;
    p.time_to_train_s = t;
    p.cost_usd = c;
    return p;
}

std::vector<bool> fronts(const std::vector<ParetoPoint>& v) {
    std::vector<bool> f;
    f.reserve(v.size());
    for (const ParetoPoint& p : v) f.push_back(p.on_front);
    return f;
}

}  // namespace

class TestEconomics : public QObject {
    Q_OBJECT

private slots:
    void hourly_price_matches_hand_computation() {
        Config c = small_config();
        c.node.power_kw = 10.0;  // the node's power, not a price: it lives on NodeSpec
        const Result r = evaluate(c);
        QVERIFY(r.feasible);
        const double T = r.iteration_s;
        CostInputs in;
        in.price_per_gpu_hour_usd = 2.0;
        in.purchase_price_per_gpu_usd = 30000;  // ignored: the hourly price wins
        in.pue = 1.5;
        in.price_per_kwh_usd = 0.2;
        in.tokens_to_train = 1e9;
        const CostReport rep = cost_report(c, r, in);
        QVERIFY(rep.valid);
        QVERIFY(!rep.amortised);
        QCOMPARE(rep.gpus, 32LL);
        QCOMPARE(rep.nodes_powered, 4LL);
        const double tokens = 64.0 * 2048;
        const double gpu_cost = 32 * 2.0 * T / 3600;
        const double energy = 10.0 * 4 * (T / 3600) * 1.5;
        const double cost = gpu_cost + energy * 0.2;
        QVERIFY(close(rep.tokens_per_iteration, tokens));
        QVERIFY(close(rep.gpu_hours_per_iteration, 32 * T / 3600));
        QVERIFY(close(rep.gpu_cost_per_iteration_usd, gpu_cost));
        QVERIFY(close(rep.energy_per_iteration_kwh, energy));
        QVERIFY(close(rep.cost_per_iteration_usd, cost));
        QVERIFY(close(rep.cost_per_million_tokens_usd, cost * 1e6 / tokens));
        QVERIFY(close(rep.energy_per_million_tokens_kwh, energy * 1e6 / tokens));
        QVERIFY(close(rep.time_per_million_tokens_s, T * 1e6 / tokens));
        QVERIFY(close(rep.time_to_train_s, T * 1e9 / tokens));
        QVERIFY(close(rep.cost_to_train_usd, cost * 1e9 / tokens));
        QVERIFY(close(rep.energy_to_train_kwh, energy * 1e9 / tokens));
    }

    void amortised_purchase_price() {
        Config c = small_config();
        c.node.power_kw = 0;
        const Result r = evaluate(c);
        CostInputs in;
        in.purchase_price_per_gpu_usd = 35064;  // 1 $/h over 4 years of 8766 h
        in.lifetime_years = 4;
        const CostReport rep = cost_report(c, r, in);
        QVERIFY(rep.valid);
        QVERIFY(rep.amortised);
        QVERIFY(close(rep.gpu_hour_price_usd, 35064.0 / (4 * 365.25 * 24)));
        QVERIFY(close(rep.gpu_hour_price_usd, 1.0));
        QVERIFY(close(rep.cost_per_iteration_usd, 32 * 1.0 * r.iteration_s / 3600));
        QCOMPARE(rep.energy_per_iteration_kwh, 0.0);
        QCOMPARE(rep.time_to_train_s, 0.0);  // no tokens to train given
    }

    void partial_node_is_powered_whole() {
        Config c = small_config();
        c.strategy.tp = 4;
        c.strategy.pp = 3;
        c.strategy.dp = 1;  // 12 GPUs: one and a half nodes -> 2 nodes powered
        const Result r = evaluate(c);
        QVERIFY(r.feasible);
        c.node.power_kw = 6.5;
        CostInputs in;
        in.pue = 1.25;
        const CostReport rep = cost_report(c, r, in);
        QCOMPARE(rep.gpus, 12LL);
        QCOMPARE(rep.nodes_powered, 2LL);
        QVERIFY(close(rep.energy_per_iteration_kwh, 6.5 * 2 * r.iteration_s / 3600 * 1.25));
        QVERIFY(close(rep.cost_per_iteration_usd, rep.energy_per_iteration_kwh * 0.10));
    }

    void infeasible_or_invalid_gives_zeros() {
        Config c = small_config();
        c.node.hbm_capacity_gib = 3;
        const Result r = evaluate(c);
        QVERIFY(!r.feasible);
        CostInputs in;
        in.price_per_gpu_hour_usd = 2;
        c.node.power_kw = 10;
        CostReport rep = cost_report(c, r, in);
        QVERIFY(!rep.valid);
        QCOMPARE(rep.cost_per_iteration_usd, 0.0);
        QCOMPARE(rep.energy_per_iteration_kwh, 0.0);
        QCOMPARE(rep.cost_per_million_tokens_usd, 0.0);

        in.pue = 0.9;
        rep = cost_report(small_config(), evaluate(small_config()), in);
        QVERIFY(!rep.valid);
        QCOMPARE(rep.cost_per_iteration_usd, 0.0);
    }

    void invalid_inputs_are_named() {
        QVERIFY(check_cost_inputs(CostInputs{}).empty());
        CostInputs in;
        in.price_per_gpu_hour_usd = -1;
        in.purchase_price_per_gpu_usd = -5;
        in.lifetime_years = 0;
        in.pue = 0.8;
        in.price_per_kwh_usd = -0.1;
        in.tokens_to_train = -1;
        const auto e = check_cost_inputs(in);
        QCOMPARE(e.size(), std::size_t{6});
        for (const char* path : {"cost.price_per_gpu_hour_usd", "cost.purchase_price_per_gpu_usd", "cost.lifetime_years", "cost.pue",
                                 "cost.price_per_kwh_usd", "cost.tokens_to_train"})
            QVERIFY2(has_error(e, path), path);
        CostInputs nan_in;
        nan_in.pue = std::nan("");
        QVERIFY(has_error(check_cost_inputs(nan_in), "cost.pue"));
    }

    void tornado_matches_direct_search() {
        Config base = small_config();
        base.node.expanded = {512, 64, 1.0, ExpandedAttach::per_node, 1};
        SearchOptions opt;
        const double f = 0.5;
        const auto bars = sensitivity(base, f, opt);
        QCOMPARE(bars.size(), std::size_t{9});
        SearchOptions one = opt;
        one.top_k = 1;
        const SearchResult b = search(base, one);
        QVERIFY(b.found());
        const double t0 = b.top.front().result.iteration_s;
        double previous = std::numeric_limits<double>::infinity();
        for (const SensitivityBar& bar : bars) {
            QVERIFY(bar.base_feasible);
            QCOMPARE(bar.base_time_s, t0);
            // Recompute both sides directly.
            double times[2] = {0, 0};
            const double values[2] = {get_knob(base, bar.knob) * (1 - f), get_knob(base, bar.knob) * (1 + f)};
            for (int i = 0; i < 2; ++i) {
                Config c = base;
                set_knob(c, bar.knob, values[i]);
                const SearchResult s = search(c, one);
                QVERIFY(s.found());
                times[i] = s.top.front().result.iteration_s;
            }
            QVERIFY(close(bar.low_value, values[0]));
            QVERIFY(close(bar.high_value, values[1]));
            QCOMPARE(bar.time_low_s, times[0]);
            QCOMPARE(bar.time_high_s, times[1]);
            const double effect = std::max(std::abs(times[0] - t0), std::abs(times[1] - t0));
            QCOMPARE(bar.effect_s, effect);
            QVERIFY2(effect <= previous, std::string(knob_info(bar.knob).id).c_str());
            previous = effect;
            // More of a resource never slows training; more latency never speeds it up.
            const char* id = knob_info(bar.knob).id.data();
            if (more_is_better(bar.knob)) {
                QVERIFY2(bar.time_high_s <= t0 && t0 <= bar.time_low_s, id);
            } else {
                QVERIFY2(bar.time_low_s <= t0 && t0 <= bar.time_high_s, id);
            }
        }
        QVERIFY(bars.front().effect_s > 0);  // something matters
    }

    void tornado_has_the_spine_on_a_leaf_spine_fabric() {
        // 16 DGX A100 under leaves of 2 nodes and a 2:1 spine, data-parallel heavy: the spine's
        // oversubscription is a bar, and more of it never speeds training up.
        Config base = small_config();
        base.cluster.nodes = 16;
        base.strategy.tp = 8;
        base.strategy.pp = 1;
        base.strategy.dp = 16;
        base.training.global_batch = 256;
        const auto flat = sensitivity_knobs(base);
        QVERIFY(std::none_of(flat.begin(), flat.end(), [](Knob k) { return k == Knob::scale_out_oversubscription; }));
        base.node.scale_out.leaf_domains = 2;
        base.node.scale_out.oversubscription = 2;
        const auto knobs = sensitivity_knobs(base);
        QCOMPARE(knobs.back(), Knob::scale_out_oversubscription);
        SearchOptions opt;
        opt.knobs = knob_bit(Knob::microbatch);
        const auto bars = sensitivity(base, 0.5, opt);
        QCOMPARE(bars.size(), std::size_t{8});
        const auto spine =
            std::find_if(bars.begin(), bars.end(), [](const SensitivityBar& b) { return b.knob == Knob::scale_out_oversubscription; });
        QVERIFY(spine != bars.end());
        QCOMPARE(spine->low_value, 1.0);
        QCOMPARE(spine->high_value, 3.0);
        QVERIFY(spine->low_feasible && spine->high_feasible);
        QVERIFY2(spine->time_low_s <= spine->base_time_s && spine->base_time_s <= spine->time_high_s,
                 (std::to_string(spine->time_low_s) + " " + std::to_string(spine->base_time_s) + " " + std::to_string(spine->time_high_s))
                     .c_str());
        QVERIFY(spine->effect_s > 0);  // the spine matters to this data-parallel ring
    }

    // Which software change buys most: each switch that differs from the base, priced by the
    // search on the base with that switch, the largest gain first; none when all are on.
    void software_changes_are_each_priced_by_the_search() {
        Config base = small_config();
        base.model.experts = 8;
        base.model.experts_per_token = 2;
        base.model.expert_ffn_hidden = 1408;
        base.training.attention = AttentionKernel::fused;
        base.node.attention_flash2 = {0.405, 18, 0.91};
        base.software.host_op_us = 500;  // a slow host: the passes are host-bound
        base.software.fused_attention = FusedAttention::flash2;
        base.strategy.ep = 2;
        SearchOptions opt;
        opt.knobs = knob_bit(Knob::microbatch);
        const auto changes = software_changes(base, opt);
        QCOMPARE(changes.size(), std::size_t{5});
        SearchOptions one = opt;
        one.top_k = 1;
        const SearchResult b = search(base, one);
        QVERIFY(b.found());
        double last_gain = std::numeric_limits<double>::infinity();
        for (const SoftwareChange& c : changes) {
            QVERIFY2(c.base_feasible && c.feasible, c.what.c_str());
            QCOMPARE(c.base_time_s, b.top.front().result.iteration_s);
            // The same change applied by hand and searched gives the same time.
            Config x = base;
            if (c.field == "software.graph_scope") {
                x.software.graph_scope = c.to == "full" ? GraphScope::full : GraphScope::dense;
                if (c.to == "full") x.software.moe_host_sync = false;
            } else if (c.field == "software.grouped_gemm") {
                x.software.grouped_gemm = GroupedGemm::one_kernel;
            } else if (c.field == "software.moe_host_sync") {
                x.software.moe_host_sync = false;
            } else if (c.field == "software.nvls") {
                x.software.nvls = true;
            } else {
                QCOMPARE(QString::fromStdString(c.field), QStringLiteral("software.fused_attention"));
                x.software.fused_attention = FusedAttention::vendor;
            }
            const SearchResult r = search(x, one);
            QVERIFY(r.found());
            QCOMPARE(c.time_s, r.top.front().result.iteration_s);
            const double gain = c.base_time_s - c.time_s;
            QVERIFY2(gain <= last_gain, c.what.c_str());
            last_gain = gain;
        }
        // Capturing the dense layers removes host time from these host-bound passes: a gain.
        const auto dense = std::find_if(changes.begin(), changes.end(), [](const SoftwareChange& c) { return c.to == "dense"; });
        QVERIFY(dense != changes.end() && dense->time_s < dense->base_time_s);
        // Every switch on: nothing left to offer.
        Config all = base;
        all.software.graph_scope = GraphScope::full;
        all.software.moe_host_sync = false;
        all.software.grouped_gemm = GroupedGemm::one_kernel;
        all.software.fused_attention = FusedAttention::vendor;
        QVERIFY(software_changes(all, opt).empty());
        // A fabric that reduces in its switches: NVLS is offered while the software keeps it
        // off, priced by the search like every other change, and not once it is on.
        Config nvl = base;
        nvl.node.scale_up.switch_allreduce_fraction = 0.61;
        const auto with_switch = software_changes(nvl, opt);
        QCOMPARE(with_switch.size(), std::size_t{6});
        const auto nvls =
            std::find_if(with_switch.begin(), with_switch.end(), [](const SoftwareChange& c) { return c.field == "software.nvls"; });
        QVERIFY(nvls != with_switch.end());
        QVERIFY(nvls->feasible && nvls->time_s <= nvls->base_time_s);
        Config nvl_on = nvl;
        nvl_on.software.nvls = true;
        const SearchResult searched = search(nvl_on, one);
        QVERIFY(searched.found());
        QCOMPARE(nvls->time_s, searched.top.front().result.iteration_s);
        all.node.scale_up.switch_allreduce_fraction = 0.61;
        all.software.nvls = true;
        QVERIFY(software_changes(all, opt).empty());
        // A dense model: no routed part, so only the whole step as CUDA graphs.
        Config gpt = small_config();
        gpt.software.host_op_us = 20.4;
        const auto dense_model = software_changes(gpt, opt);
        QCOMPARE(dense_model.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(dense_model.front().what), QStringLiteral("the whole step as CUDA graphs"));
        QVERIFY(dense_model.front().time_s <= dense_model.front().base_time_s);
        // Cancelled: nothing (a stopped search's time is not the best one).
        std::atomic<bool> stop{true};
        SearchControl control;
        control.cancel = &stop;
        QVERIFY(software_changes(base, opt, control).empty());
    }

    void tornado_without_expanded_tier_and_bad_fraction() {
        const Config base = small_config();
        const auto bars = sensitivity(base, 0.1, SearchOptions{});
        QCOMPARE(bars.size(), std::size_t{7});
        for (const SensitivityBar& bar : bars) QVERIFY(bar.knob != Knob::expanded_gib && bar.knob != Knob::expanded_gbps);
        QVERIFY(sensitivity(base, 0, SearchOptions{}).empty());
        QVERIFY(sensitivity(base, 0.96, SearchOptions{}).empty());
        QVERIFY(sensitivity(base, -0.1, SearchOptions{}).empty());
    }

    void tornado_capacity_can_make_infeasible() {
        Config base = small_config();
        base.model.layers = 96;  // tight on small HBM: halving capacity breaks every strategy
        base.node.hbm_capacity_gib = 16;
        SearchOptions opt;
        const auto bars = sensitivity(base, 0.9, opt);
        bool hbm_seen = false;
        for (const SensitivityBar& bar : bars) {
            if (bar.knob != Knob::hbm_gib) continue;
            hbm_seen = true;
            QVERIFY(bar.base_feasible);
            QVERIFY(!bar.low_feasible);
            {
                QVERIFY(std::isinf(bar.effect_s));
                QCOMPARE(bars.front().effect_s, bar.effect_s);
                QCOMPARE(bar.time_low_s, 0.0);
            }
        }
        QVERIFY(hbm_seen);
    }

    void pareto_dominated_points() {
        const auto out = pareto_front({pt("a", 10, 100), pt("b", 20, 50), pt("c", 15, 120), pt("d", 30, 40), pt("e", 25, 60)});
        QCOMPARE(out.size(), std::size_t{5});
        QCOMPARE(fronts(out), (std::vector<bool>{true, true, false, true, false}));
        QCOMPARE(out[2].label, std::string("c"));  // input order kept
    }

    void pareto_ties() {
        // Equal points are both on the front; a point equal in one objective and worse in the
        // other is dominated.
        const auto out = pareto_front({pt("a", 10, 100), pt("b", 10, 100), pt("c", 10, 120), pt("d", 12, 100)});
        QCOMPARE(fronts(out), (std::vector<bool>{true, true, false, false}));
    }

    void pareto_single_and_all_on_front() {
        QCOMPARE(fronts(pareto_front({pt("only", 5, 5)})), (std::vector<bool>{true}));
        QVERIFY(pareto_front({}).empty());
        const auto out = pareto_front({pt("a", 1, 4), pt("b", 2, 3), pt("c", 3, 2), pt("d", 4, 1)});
        QCOMPARE(fronts(out), (std::vector<bool>{true, true, true, true}));
    }

    void pareto_ignores_infeasible() {
        auto bad = pt("x", 0, 0);
        bad.feasible = false;
        const auto out = pareto_front({pt("a", 10, 100), bad, pt("b", 20, 200)});
        QCOMPARE(fronts(out), (std::vector<bool>{true, false, false}));
    }

    void pareto_over_cluster_sizes_uses_cost_report() {
        Config base = small_config();
        base.node.power_kw = 6.5;
        CostInputs in;
        in.price_per_gpu_hour_usd = 2;
        in.tokens_to_train = 1e10;
        const std::vector<int> nodes = {1, 2, 4, 8};
        const auto points = pareto_over_cluster_sizes(base, nodes, in, SearchOptions{});
        QCOMPARE(points.size(), nodes.size());
        bool any_front = false;
        for (std::size_t i = 0; i < points.size(); ++i) {
            const ParetoPoint& p = points[i];
            QCOMPARE(p.nodes, nodes[i]);
            QVERIFY2(p.feasible, p.label.c_str());
            QVERIFY(p.label.find(std::to_string(nodes[i]) + " nodes") == 0);
            Config c = base;
            set_knob(c, Knob::nodes, nodes[i]);
            c.strategy = p.strategy;
            const CostReport rep = cost_report(c, evaluate(c), in);
            QVERIFY(close(p.time_to_train_s, rep.time_to_train_s));
            QVERIFY(close(p.cost_usd, rep.cost_to_train_usd));
            any_front = any_front || p.on_front;
        }
        QVERIFY(any_front);
        QCOMPARE(fronts(points), fronts(pareto_front(points)));
    }

    // Speedups are the core's ratios: baseline iteration time over each design's, where each
    // design's time comes from an independent evaluate() (fixed strategy) or search() (best).
    void comparison_speedups_are_core_ratios() {
        Scenario sc;
        sc.config = small_config();
        sc.cost.price_per_gpu_hour_usd = 2;
        Design fixed = design_from_scenario(sc, "fixed tp2 pp2", false);
        fixed.node.power_kw = 6.5;
        Design best = design_from_scenario(sc, "best", true);
        Design faster = best;
        faster.name = "2x HBM bandwidth, 8 nodes";
        faster.node.hbm_bandwidth_gbps *= 2;
        faster.node.power_kw = 9;
        faster.price_per_gpu_hour_usd = 5;  // its own price
        faster.nodes = 8;
        Design tiny = best;
        tiny.name = "too small";
        tiny.node.hbm_capacity_gib = 1.05;  // 50 MiB usable: not even one layer fits
        tiny.own_software = true;
        tiny.software = sc.config.software;
        tiny.software.hbm_reserved_gib = 1;
        tiny.software.hbm_allocator_margin = 0;
        sc.designs = {fixed, best, faster, tiny};
        sc.baseline_design = 0;
        const Comparison cmp = compare_designs(sc);
        QCOMPARE(cmp.designs.size(), std::size_t{4});
        QVERIFY(!cmp.cancelled);
        const double base_t = evaluate(sc.config).iteration_s;
        QVERIFY(base_t > 0);
        QCOMPARE(cmp.designs[0].result.iteration_s, base_t);
        QCOMPARE(cmp.designs[0].speedup, 1.0);
        for (std::size_t i = 1; i < 3; ++i) {
            const DesignOutcome& o = cmp.designs[i];
            const Config c = design_config(sc.config, sc.designs[i]);
            const SearchResult sr = search(c);
            QVERIFY(sr.found());
            QCOMPARE(o.result.iteration_s, sr.top.front().result.iteration_s);
            QCOMPARE(o.config.strategy.tp, sr.top.front().strategy.tp);
            QVERIFY(close(o.speedup, base_t / o.result.iteration_s));
            QVERIFY2(o.speedup >= 1.0, o.name.c_str());  // the best strategy is never slower than a fixed one
            // Cost uses the design's own node power and size.
            const CostReport rep = cost_report(o.config, o.result, design_cost(sc.cost, sc.designs[i]));
            QCOMPARE(o.cost.gpu_hour_price_usd, i == 2 ? 5.0 : 2.0);
            QVERIFY(close(o.cost.cost_per_iteration_usd, rep.cost_per_iteration_usd));
        }
        QCOMPARE(cmp.designs[2].config.cluster.nodes, 8);
        QVERIFY(cmp.designs[2].cost.energy_per_iteration_kwh > 0);
        QVERIFY(close(cmp.designs[2].cost.energy_per_iteration_kwh, 9.0 * static_cast<double>(cmp.designs[2].cost.nodes_powered) *
                                                                        cmp.designs[2].result.iteration_s / 3600 * sc.cost.pue));
        // The design that fits nowhere has a reason and no speedup.
        QVERIFY(!cmp.designs[3].result.feasible);
        QCOMPARE(cmp.designs[3].result.reason, Infeasible::no_feasible_strategy);
        QCOMPARE(cmp.designs[3].speedup, 0.0);
        QVERIFY(!cmp.designs[3].cost.valid);
        // Another baseline: speedups rescale by the new baseline's time.
        sc.baseline_design = 2;
        const Comparison cmp2 = compare_designs(sc);
        QCOMPARE(cmp2.designs[2].speedup, 1.0);
        QVERIFY(close(cmp2.designs[0].speedup, cmp.designs[2].result.iteration_s / base_t));
        // The text and JSON renderings carry every design.
        const std::string text = format_comparison_text(cmp);
        const std::string json = format_comparison_json(cmp);
        for (const Design& d : sc.designs) {
            QVERIFY2(text.find(d.name.substr(0, 20)) != std::string::npos, text.c_str());
            QVERIFY(json.find("\"" + d.name + "\"") != std::string::npos);
        }
        QVERIFY(text.find("INFEASIBLE") != std::string::npos);
        // The text numbers designs by their index, the number `compare --baseline N` and the
        // file's "baseline" take; the baseline is marked.
        QVERIFY2(text.find("\n0* ") != std::string::npos && text.find("\n3  ") != std::string::npos, text.c_str());
    }

    void comparison_can_be_cancelled() {
        Scenario sc;
        sc.config = small_config();
        sc.designs = {design_from_scenario(sc, "a", true), design_from_scenario(sc, "b", true)};
        std::atomic<bool> cancel{true};
        SearchControl control;
        control.cancel = &cancel;
        const Comparison cmp = compare_designs(sc, SearchOptions{}, control);
        QVERIFY(cmp.cancelled);
        QVERIFY(cmp.designs.empty());
    }

    void pareto_over_designs_and_sizes() {
        Scenario sc;
        sc.config = small_config();
        sc.cost.price_per_gpu_hour_usd = 2;
        sc.cost.tokens_to_train = 1e10;
        Design a = design_from_scenario(sc, "A100", true);
        Design b = a;
        b.name = "fast";
        b.node.matrix_fp16_tflops *= 3;
        b.node.hbm_bandwidth_gbps *= 2;
        sc.designs = {a, b};
        const std::vector<int> sizes = {2, 4, 8};
        const auto points = pareto_over_designs(sc, sizes);
        QCOMPARE(points.size(), std::size_t{6});
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Design& d = sc.designs[i / 3];
            QCOMPARE(points[i].design, d.name);
            QCOMPARE(points[i].nodes, sizes[i % 3]);
            QVERIFY2(points[i].label.find(d.name + ", " + std::to_string(sizes[i % 3]) + " nodes") == 0, points[i].label.c_str());
        }
        QCOMPARE(fronts(points), fronts(pareto_front(points)));
        // At the same price per GPU-hour, a faster node at the same size dominates the slower one.
        for (std::size_t i = 0; i < 3; ++i) {
            QVERIFY(points[3 + i].time_to_train_s < points[i].time_to_train_s);
            QVERIFY(!points[i].on_front);
        }
        // No designs: the scenario's own node at its own size.
        sc.designs.clear();
        const auto own = pareto_over_designs(sc, {});
        QCOMPARE(own.size(), std::size_t{1});
        QCOMPARE(own[0].nodes, sc.config.cluster.nodes);
        QVERIFY(own[0].on_front);
    }
};

QTEST_APPLESS_MAIN(TestEconomics)
#include "test_economics.moc"
