#include "comet/economics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "comet/evaluate.hpp"

namespace comet {
namespace {

void require(std::vector<FieldError>& out, const char* path, double v, bool ok, const char* allowed) {
    if (!ok || !std::isfinite(v)) out.push_back({path, v, allowed});
}

struct BestTime {
    bool feasible = false;
    double time_s = 0;
};

BestTime best_time(const Config& c, const SearchOptions& opt, const SearchControl& control = {}) {
    const SearchResult sr = search(c, opt, control);
    if (!sr.found()) return {};
    return {true, sr.top.front().result.iteration_s};
}

}  // namespace

std::vector<FieldError> check_cost_inputs(const CostInputs& in) {
    std::vector<FieldError> e;
    require(e, "cost.price_per_gpu_hour_usd", in.price_per_gpu_hour_usd, in.price_per_gpu_hour_usd >= 0, "at least 0 USD");
    require(e, "cost.purchase_price_per_gpu_usd", in.purchase_price_per_gpu_usd, in.purchase_price_per_gpu_usd >= 0, "at least 0 USD");
    require(e, "cost.lifetime_years", in.lifetime_years, in.lifetime_years > 0, "> 0 years");
    require(e, "cost.pue", in.pue, in.pue >= 1, "at least 1");
    require(e, "cost.price_per_kwh_usd", in.price_per_kwh_usd, in.price_per_kwh_usd >= 0, "at least 0 USD");
    require(e, "cost.tokens_to_train", in.tokens_to_train, in.tokens_to_train >= 0, "at least 0");
    return e;
}

CostReport cost_report(const Config& config, const Result& result, const CostInputs& in) {
    CostReport r;
    if (!result.feasible || !(result.iteration_s > 0) || !check_cost_inputs(in).empty()) return r;
    const long long gpus = accelerators_used(config.strategy);
    const int per_node = config.node.accelerators;
    if (gpus <= 0 || per_node <= 0) return r;
    const double t = result.iteration_s;
    r.valid = true;
    r.gpus = gpus;
    r.nodes_powered = (gpus + per_node - 1) / per_node;
    if (in.price_per_gpu_hour_usd > 0) {
        r.gpu_hour_price_usd = in.price_per_gpu_hour_usd;
    } else if (in.purchase_price_per_gpu_usd > 0) {
        r.amortised = true;
        r.gpu_hour_price_usd = in.purchase_price_per_gpu_usd / (in.lifetime_years * hours_per_year);
    }
    r.tokens_per_iteration = items_per_iteration(config);  // a DLRM's samples
    r.gpu_hours_per_iteration = static_cast<double>(gpus) * t / 3600.0;
    r.gpu_cost_per_iteration_usd = r.gpu_hours_per_iteration * r.gpu_hour_price_usd;
    r.energy_per_iteration_kwh = config.node.power_kw * static_cast<double>(r.nodes_powered) * (t / 3600.0) * in.pue;
    r.energy_cost_per_iteration_usd = r.energy_per_iteration_kwh * in.price_per_kwh_usd;
    r.cost_per_iteration_usd = r.gpu_cost_per_iteration_usd + r.energy_cost_per_iteration_usd;
    if (r.tokens_per_iteration > 0) {
        const double per_million = 1e6 / r.tokens_per_iteration;  // iterations per million tokens
        r.time_per_million_tokens_s = t * per_million;
        r.cost_per_million_tokens_usd = r.cost_per_iteration_usd * per_million;
        r.energy_per_million_tokens_kwh = r.energy_per_iteration_kwh * per_million;
        const double iterations = in.tokens_to_train / r.tokens_per_iteration;
        r.time_to_train_s = t * iterations;
        r.cost_to_train_usd = r.cost_per_iteration_usd * iterations;
        r.energy_to_train_kwh = r.energy_per_iteration_kwh * iterations;
    }
    return r;
}

std::vector<Knob> sensitivity_knobs(const Config& base) {
    std::vector<Knob> k = {Knob::matrix_tflops, Knob::hbm_gbps, Knob::hbm_gib};
    if (base.node.expanded.capacity_gib > 0) {
        k.push_back(Knob::expanded_gib);
        k.push_back(Knob::expanded_gbps);
    }
    for (Knob x : {Knob::scale_up_gbps, Knob::scale_out_gbps, Knob::scale_up_latency_us, Knob::scale_out_latency_us}) k.push_back(x);
    // A leaf-spine fabric's spine: its oversubscription (1:1 cannot get better; the low side
    // clamps at 1).
    if (base.node.scale_out.leaf_domains > 0) k.push_back(Knob::scale_out_oversubscription);
    // The software's host issue time, where the host issues each op.
    if (base.software.host_op_us > 0 && !captures_whole_step(base.training, base.software)) k.push_back(Knob::host_op_us);
    return k;
}

std::vector<SensitivityBar> sensitivity(const Config& base, double fraction, const SearchOptions& search_options) {
    std::vector<SensitivityBar> bars;
    if (!(fraction > 0 && fraction <= 0.95)) return bars;
    SearchOptions opt = search_options;
    opt.top_k = 1;
    const BestTime b = best_time(base, opt);
    for (Knob k : sensitivity_knobs(base)) {
        SensitivityBar bar;
        bar.knob = k;
        bar.base_value = get_knob(base, k);
        const KnobInfo& info = knob_info(k);
        bar.low_value = std::clamp(bar.base_value * (1 - fraction), info.min, info.max);
        bar.high_value = std::clamp(bar.base_value * (1 + fraction), info.min, info.max);
        bar.base_feasible = b.feasible;
        bar.base_time_s = b.time_s;
        Config c = base;
        set_knob(c, k, bar.low_value);
        const BestTime lo = best_time(c, opt);
        c = base;
        set_knob(c, k, bar.high_value);
        const BestTime hi = best_time(c, opt);
        bar.low_feasible = lo.feasible;
        bar.time_low_s = lo.time_s;
        bar.high_feasible = hi.feasible;
        bar.time_high_s = hi.time_s;
        if (lo.feasible != b.feasible || hi.feasible != b.feasible) {
            bar.effect_s = std::numeric_limits<double>::infinity();
        } else if (b.feasible) {
            bar.effect_s = std::max(std::abs(lo.time_s - b.time_s), std::abs(hi.time_s - b.time_s));
        }
        bars.push_back(bar);
    }
    std::stable_sort(bars.begin(), bars.end(), [](const SensitivityBar& x, const SensitivityBar& y) { return x.effect_s > y.effect_s; });
    return bars;
}

std::vector<SoftwareChange> software_changes(const Config& base, const SearchOptions& search_options, const SearchControl& control) {
    std::vector<SoftwareChange> out;
    SearchOptions opt = search_options;
    opt.top_k = 1;
    const SoftwareSpec& sw = base.software;
    const bool moe = base.workload == Workload::transformer && base.model.is_moe();
    const bool captured = captures_whole_step(base.training, sw);
    auto scope_name = [](GraphScope g) { return std::string(g == GraphScope::none ? "none" : g == GraphScope::dense ? "dense" : "full"); };
    std::vector<std::pair<SoftwareChange, Config>> candidates;
    auto add = [&](std::string what, std::string field, std::string from, std::string to, const Config& c) {
        SoftwareChange ch;
        ch.what = std::move(what);
        ch.field = std::move(field);
        ch.from = std::move(from);
        ch.to = std::move(to);
        candidates.emplace_back(std::move(ch), c);
    };
    if (!captured) {
        // A dense model has no routed op: its dense layers are its whole step.
        if (moe && sw.graph_scope == GraphScope::none) {
            Config c = base;
            c.software.graph_scope = GraphScope::dense;
            add("CUDA graphs over the dense layers (experts eager)", "software.graph_scope", "none", "dense", c);
        }
        Config c = base;
        c.software.graph_scope = GraphScope::full;
        c.software.moe_host_sync = false;  // a captured step cannot wait for the host
        add(moe && sw.moe_host_sync ? "the whole step as CUDA graphs, dispatch sizes on the device" : "the whole step as CUDA graphs",
            "software.graph_scope", scope_name(sw.graph_scope), "full", c);
    }
    if (moe && sw.grouped_gemm == GroupedGemm::per_expert) {
        Config c = base;
        c.software.grouped_gemm = GroupedGemm::one_kernel;
        add("the experts as one grouped kernel", "software.grouped_gemm", "per_expert", "one_kernel", c);
    }
    if (moe && sw.moe_host_sync && !captured) {
        Config c = base;
        c.software.moe_host_sync = false;
        add("MoE dispatch sizes on the device (no host wait)", "software.moe_host_sync", "true", "false", c);
    }
    if (base.workload == Workload::transformer && base.training.attention == AttentionKernel::fused &&
        sw.fused_attention == FusedAttention::flash2 && base.node.attention_flash2.max_fraction > 0) {
        Config c = base;
        c.software.fused_attention = FusedAttention::vendor;
        add("the vendor's attention kernel instead of FlashAttention-2", "software.fused_attention", "flash2", "vendor", c);
    }
    if (!sw.nvls && switch_can_reduce(base.node)) {
        Config c = base;
        c.software.nvls = true;
        add("all-reduce in the NVLink switches (NCCL's NVLS)", "software.nvls", "false", "true", c);
    }
    if (candidates.empty()) return out;
    const auto cancelled = [&] { return control.cancel && control.cancel->load(std::memory_order_relaxed); };
    const BestTime b = best_time(base, opt, control);
    for (auto& [ch, c] : candidates) {
        if (cancelled()) return {};
        const BestTime t = best_time(c, opt, control);
        ch.base_feasible = b.feasible;
        ch.base_time_s = b.time_s;
        ch.feasible = t.feasible;
        ch.time_s = t.time_s;
        out.push_back(std::move(ch));
    }
    if (cancelled()) return {};  // a search stopped early: its times are not the best
    // The largest gain first; a change that makes a run possible before any that does not.
    auto gain = [](const SoftwareChange& x) {
        if (!x.feasible) return -std::numeric_limits<double>::infinity();
        if (!x.base_feasible) return std::numeric_limits<double>::infinity();
        return x.base_time_s - x.time_s;
    };
    std::stable_sort(out.begin(), out.end(), [&](const SoftwareChange& x, const SoftwareChange& y) { return gain(x) > gain(y); });
    return out;
}

std::vector<ParetoPoint> pareto_front(const std::vector<ParetoPoint>& points) {
    std::vector<ParetoPoint> out = points;
    for (ParetoPoint& p : out) {
        p.on_front = p.feasible;
        if (!p.feasible) continue;
        for (const ParetoPoint& q : points) {
            if (!q.feasible) continue;
            const bool no_worse = q.time_to_train_s <= p.time_to_train_s && q.cost_usd <= p.cost_usd;
            const bool better = q.time_to_train_s < p.time_to_train_s || q.cost_usd < p.cost_usd;
            if (no_worse && better) {
                p.on_front = false;
                break;
            }
        }
    }
    return out;
}

std::vector<ParetoPoint> pareto_over_cluster_sizes(const Config& base, const std::vector<int>& node_counts, const CostInputs& in,
                                                   const SearchOptions& search_options) {
    SearchOptions opt = search_options;
    opt.top_k = 1;
    std::vector<ParetoPoint> points;
    points.reserve(node_counts.size());
    for (int n : node_counts) {
        ParetoPoint p;
        p.nodes = n;
        p.workload = base.workload;
        Config c = base;
        set_knob(c, Knob::nodes, n);
        const long long gpus = static_cast<long long>(c.cluster.nodes) * c.node.accelerators;
        p.label = std::to_string(c.cluster.nodes) + " nodes (" + std::to_string(gpus) + " GPUs)";
        const SearchResult sr = search(c, opt);
        p.feasible = sr.found();
        if (p.feasible) {
            p.strategy = sr.top.front().strategy;
            c.strategy = p.strategy;
            const CostReport r = cost_report(c, sr.top.front().result, in);
            p.feasible = r.valid;
            const bool totals = in.tokens_to_train > 0;
            p.time_to_train_s = totals ? r.time_to_train_s : r.time_per_million_tokens_s;
            p.cost_usd = totals ? r.cost_to_train_usd : r.cost_per_million_tokens_usd;
        }
        points.push_back(std::move(p));
    }
    return pareto_front(points);
}

}  // namespace comet
