#include "comet/report.hpp"

#include "comet/dlrm.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>
#include <nlohmann/json.hpp>

#include "comet/breakdown.hpp"
#include "comet/check.hpp"
#include "comet/compare.hpp"
#include "comet/evaluate.hpp"
#include "comet/units.hpp"
#include "comet/workload.hpp"
#include "reports/report_json.hpp"

namespace comet {
namespace {

// Width of a part's name in the text breakdown: the longest label, "exposed embedding all-to-all".
constexpr int label_width = 28;

// "Exposed TP comm" as a row of the text breakdown reads it: "exposed TP comm".
std::string lower_first(std::string_view label) {
    std::string out(label);
    if (!out.empty() && out[0] >= 'A' && out[0] <= 'Z' && !(out.size() > 1 && out[1] >= 'A' && out[1] <= 'Z'))
        out[0] = static_cast<char>(out[0] - 'A' + 'a');
    return out;
}

std::string gib(double bytes) { return format_printf("%.1f", units::bytes_to_gib(bytes)) + " GiB"; }

std::string seconds(double s) { return format_seconds(s); }

std::string percent(double part, double whole) {
    return whole > 0 ? format_printf("%5.1f", 100.0 * part / whole) + " %" : std::string("    - %");
}

nlohmann::json memory_json(const MemoryFootprint& m) {
    return {{"weights_gib", units::bytes_to_gib(m.weights_bytes)},     {"gradients_gib", units::bytes_to_gib(m.gradients_bytes)},
            {"optimizer_gib", units::bytes_to_gib(m.optimizer_bytes)}, {"activations_gib", units::bytes_to_gib(m.activations_bytes)},
            {"other_gib", units::bytes_to_gib(m.other_bytes)},         {"allocator_margin_gib", units::bytes_to_gib(m.margin_bytes)},
            {"used_gib", units::bytes_to_gib(m.used_bytes())},         {"capacity_gib", units::bytes_to_gib(m.capacity_bytes)}};
}

}  // namespace

std::string format_printf(const char* format, double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

namespace {
const std::string not_finite = "\u2013";  // en dash

// 12345.6 -> "12,346"
std::string grouped_integer(double v) {
    const std::string digits = format_printf("%.0f", v);
    const std::size_t first = !digits.empty() && digits[0] == '-' ? 1 : 0;
    std::string out = digits.substr(0, first);
    for (std::size_t i = first; i < digits.size(); ++i) {
        if (i > first && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}
}  // namespace

std::string format_seconds(double s) {
    if (!std::isfinite(s)) return not_finite;
    if (s == 0.0) return "0 s";
    if (s < 0) return "-" + format_seconds(-s);
    if (s >= 1.0) return format_printf("%.3f", s) + " s";
    if (s >= 1e-3) return format_printf("%.2f", s * 1e3) + " ms";
    return format_printf("%.1f", s * 1e6) + " \u00b5s";
}

std::string format_duration(double s) {
    if (!std::isfinite(s)) return not_finite;
    if (s >= 2 * 86400.0) return format_printf("%.2f", s / 86400.0) + " days";
    if (s >= 2 * 3600.0) return format_printf("%.2f", s / 3600.0) + " h";
    return format_seconds(s);
}

std::string format_usd(double usd) {
    if (!std::isfinite(usd)) return not_finite;
    if (usd < 0) return "-" + format_usd(-usd);
    if (usd >= 1e6) return "$" + format_printf("%.2f", usd / 1e6) + " M";
    if (usd >= 100) return "$" + grouped_integer(usd);
    return "$" + format_printf("%#.3g", usd);
}

std::string format_hourly_price(double usd) {
    if (!std::isfinite(usd) || usd < 0.1 || usd >= 1e4) return format_usd(usd);
    return "$" + format_printf("%.2f", usd);
}

std::string format_gpu_price(const CostInputs& in) {
    if (in.price_per_gpu_hour_usd > 0) return format_hourly_price(in.price_per_gpu_hour_usd) + " per GPU-hour";
    if (in.purchase_price_per_gpu_usd > 0)
        return format_usd(in.purchase_price_per_gpu_usd) + " per GPU, amortised over " + format_printf("%g", in.lifetime_years) +
               " years at 100 % use";
    return "none given (GPU cost counted as 0)";
}

std::string format_kwh(double kwh) {
    if (!std::isfinite(kwh)) return not_finite;
    if (kwh >= 1e6) return format_printf("%.2f", kwh / 1e6) + " GWh";
    if (kwh >= 1e3) return format_printf("%.2f", kwh / 1e3) + " MWh";
    return format_printf("%.4g", kwh) + " kWh";
}

std::string format_strategy(const Strategy& s) {
    std::string out =
        "tp" + std::to_string(s.tp) + " pp" + std::to_string(s.pp) + " dp" + std::to_string(s.dp) + " mb" + std::to_string(s.microbatch);
    if (s.cp > 1) out += " cp" + std::to_string(s.cp);
    if (s.ep > 1) out += " ep" + std::to_string(s.ep);
    if (s.etp > 1) out += " etp" + std::to_string(s.etp);
    if (s.interleave > 1) out += " v" + std::to_string(s.interleave);
    if (s.pipeline_first_layers > 0) out += " first" + std::to_string(s.pipeline_first_layers);
    if (s.pipeline_last_layers > 0) out += " last" + std::to_string(s.pipeline_last_layers);
    if (s.embedding_in_pipeline_split) out += " emb-split";
    if (s.loss_in_pipeline_split) out += " loss-split";
    out += " recompute=" + std::string(to_string(s.recompute));
    if (s.recompute == Recompute::full && s.recompute_layers > 0) out += "(" + std::to_string(s.recompute_layers) + " per stage)";
    if (s.sequence_parallel) out += " sp";
    if (s.zero_stage > 0) out += " zero" + std::to_string(s.zero_stage);
    if (s.zero_stage > 0 && s.zero_shard > 0) out += " shard" + std::to_string(s.zero_shard);
    if (s.offload_optimizer) out += " offload-opt";
    if (s.offload_weights) out += " offload-weights";
    if (s.offload_activations) out += " offload-act";
    if (!s.dp_overlap) out += " no-dp-overlap";
    if (s.tp_overlap) out += " tp-overlap";
    if (!s.pp_overlap && s.pp > 1 && s.interleave > 1) out += " no-pp-overlap";
    if (s.ep_overlap > 0) out += " ep-overlap=" + format_printf("%.2g", s.ep_overlap);
    if (s.ep > 1 && s.ep_dispatch == EpDispatch::hierarchical) out += " ep-hierarchical";
    return out;
}

std::string format_strategy(const Strategy& s, Workload w) {
    if (w == Workload::transformer) return format_strategy(s);
    std::string out = "dp" + std::to_string(s.dp) + " " +
                      (s.emb_sharding == EmbeddingSharding::table_wise ? "table-wise"
                       : s.emb_sharding == EmbeddingSharding::row_wise ? "row-wise"
                                                                       : "column-wise");
    out += " rows=" + std::string(to_string(s.emb_placement));
    if (s.emb_placement == EmbeddingPlacement::cached)
        out += "(" + format_printf("%.3g", 100 * s.emb_cache_fraction) + " % of rows, " +
               format_printf("%.3g", 100 * s.emb_cache_hit_rate) + " % hits)";
    if (s.emb_state != EmbeddingStateTier::with_rows) out += " state=" + std::string(to_string(s.emb_state));
    if (!s.dp_overlap) out += " no-dp-overlap";
    return out;
}

std::string format_dlrm_size(const DlrmSpec& d) {
    auto count = [](double n) {
        if (n >= 1e12) return format_printf("%.2f", n / 1e12) + " T";
        if (n >= 1e9) return format_printf("%.1f", n / 1e9) + " B";
        if (n >= 1e6) return format_printf("%.1f", n / 1e6) + " M";
        return format_printf("%.0f", n);
    };
    const double bytes = dlrm_embedding_bytes(d);
    const std::string size = bytes >= units::gib_to_bytes(1024) ? format_printf("%.2f", units::bytes_to_gib(bytes) / 1024) + " TiB"
                                                                : format_printf("%.1f", units::bytes_to_gib(bytes)) + " GiB";
    return format_printf("%.0f", dlrm_table_count(d)) + " tables, " + count(dlrm_embedding_rows(d)) + " rows, " + size + " of rows; MLPs " +
           count(dlrm_mlp_parameters(d)) + " parameters";
}

std::string explain_lead(const Result& better, const Result& worse) {
    const double lead = worse.iteration_s - better.iteration_s;
    if (!(lead > 1e-12 * worse.iteration_s)) return "ties with the next (same time; found first)";
    std::vector<std::pair<std::string, double>> gains;
    for (const TimePart& p : time_parts()) gains.emplace_back(lower_first(p.label), p.of(better.time) - p.of(worse.time));
    std::sort(gains.begin(), gains.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    std::string text = seconds(lead) + " (" + format_printf("%.1f", 100.0 * lead / worse.iteration_s) + " %) faster:";
    int shown = 0;
    for (const auto& [name, delta] : gains) {
        if (shown == 2 || !(delta < -0.05 * lead)) break;
        text += std::string(shown++ ? ", " : " ") + name + " -" + seconds(-delta);
    }
    if (const auto& [name, delta] = gains.back(); delta > 0.05 * lead)
        text += std::string(shown ? "; " : " ") + name + " +" + seconds(delta);
    return text;
}

std::string explain(const Result& r) {
    std::string text(describe(r.reason));
    switch (r.reason) {
        case Infeasible::invalid_input: {
            const auto& rules = field_rules();
            const auto i = static_cast<std::size_t>(r.detail_a);
            if (i < rules.size()) text += ": " + std::string(rules[i].path) + " must be " + rules[i].allowed;
            break;
        }
        case Infeasible::too_many_accelerators:
            text += ": needs " + format_printf("%.0f", r.detail_a) + ", has " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::tp_heads:
        case Infeasible::tp_kv_heads:
        case Infeasible::tp_ffn:
        case Infeasible::sequence_parallel_seq:
            text += ": tp " + format_printf("%.0f", r.detail_a) + " vs " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::cp_seq:
            text += ": cp " + format_printf("%.0f", r.detail_a) + ", sequence length " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::ep_dense_model:
            text += ": ep " + format_printf("%.0f", r.detail_a) + ", etp " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::ep_experts:
            text += ": ep " + format_printf("%.0f", r.detail_a) + ", experts " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::etp_ffn:
            text += ": etp " + format_printf("%.0f", r.detail_a) + ", expert MLP width " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::ep_group:
            text += ": ep x etp = " + format_printf("%.0f", r.detail_a) + ", tp x cp x dp = " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::zero_shard_group:
            text += ": shard group " + format_printf("%.0f", r.detail_a) + ", dp x cp = " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::pp_layers:
            text += ": pp x interleave = " + format_printf("%.0f", r.detail_a) + ", layers = " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::batch_split:
            text += ": dp x microbatch = " + format_printf("%.0f", r.detail_a) + ", global batch = " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::dlrm_column_split:
            text += ": dp " + format_printf("%.0f", r.detail_a) + ", a table's dim " + format_printf("%.0f", r.detail_b);
            break;
        case Infeasible::no_feasible_strategy: {
            const auto why = static_cast<std::size_t>(r.detail_a);
            if (why < static_cast<std::size_t>(Infeasible::count_) && r.detail_b > 0)
                text += " (most often: " + std::string(describe(static_cast<Infeasible>(why))) + ", " + format_printf("%.0f", r.detail_b) +
                        " configurations)";
            break;
        }
        case Infeasible::hbm_capacity:
        case Infeasible::expanded_capacity:
            text += ": needs " + gib(r.detail_a) + " per accelerator, has " + gib(r.detail_b);
            break;
        default:
            break;
    }
    return text;
}

std::string format_result_text(const Scenario& sc, const Result& r) {
    const Config& c = sc.config;
    std::string o;
    o += "Scenario    " + (sc.name.empty() ? std::string("(unnamed)") : sc.name) + "\n";
    const bool dlrm = c.workload == Workload::dlrm;
    if (dlrm)
        o += "Model       " + (sc.model_info.name.empty() ? std::string("(unnamed)") : sc.model_info.name) + " (DLRM), " +
             format_dlrm_size(c.dlrm) + "\n";
    else
        o += "Model       " + (sc.model_info.name.empty() ? std::string("(unnamed)") : sc.model_info.name) + ", " +
             format_printf("%.1f", total_parameters(c.model) / 1e9) + " B parameters" +
             (c.model.is_moe() ? " (" + format_printf("%.1f", active_parameters(c.model) / 1e9) + " B active per token)" : "") + "\n";
    o += "Cluster     " + std::to_string(c.cluster.nodes) + " x " + (sc.node_info.name.empty() ? std::string("node") : sc.node_info.name) +
         " (" + std::to_string(accelerators_available(c)) + " accelerators)\n";
    o += "Software    " + (sc.software_info.name.empty() ? std::string("(unnamed)") : sc.software_info.name) + ": " + format_software(c) +
         "\n";
    o += "Strategy    " + format_strategy(c.strategy, c.workload) + "\n";
    if (r.reason == Infeasible::invalid_input || (!r.feasible && r.iteration_s <= 0)) {
        o += "Result      INFEASIBLE: " + explain(r) + "\n";
        return o;
    }
    o += std::string("Result      ") + (r.feasible ? "feasible" : "INFEASIBLE: " + explain(r)) + "\n\n";
    const double T = r.iteration_s;
    {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%-*s%12s\n", label_width + 2, "Iteration time", seconds(T).c_str());
        o += buf;
    }
    auto row = [&](const std::string& name, double v) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "  %-*s%12s  %s\n", label_width, name.c_str(), seconds(v).c_str(), percent(v, T).c_str());
        o += buf;
    };
    // The parts of the breakdown (comet/breakdown.hpp) the workload has; EP and CP only where the
    // model or the strategy has them (or they cost time).
    for (const TimePart& p : time_parts()) {
        if (!p.for_workload(c.workload)) continue;
        const bool has = p.seconds == &TimeBreakdown::ep_comm_s   ? c.model.is_moe()
                         : p.seconds == &TimeBreakdown::cp_comm_s ? c.strategy.cp > 1
                                                                  : false;
        if (p.optional && !has && !(p.of(r.time) > 0)) continue;
        row(lower_first(time_part_label(p, c.workload)), p.of(r.time));
    }
    if (dlrm) {
        o += "\nThroughput              " + format_printf("%.0f", r.tokens_per_s) + " samples/s\n";
        o += "Model TFLOP/s per GPU   " + format_printf("%.1f", r.model_tflops_per_gpu) + "  (MFU " + format_printf("%.1f", 100 * r.mfu) +
             " %, MLPs and interaction)\n";
    } else {
        o += "\nThroughput              " + format_printf("%.0f", r.tokens_per_s) + " tokens/s\n";
        o += "Model TFLOP/s per GPU   " + format_printf("%.1f", r.model_tflops_per_gpu) + "  (MFU " + format_printf("%.1f", 100 * r.mfu) +
             " %, Megatron count: attention over every key)\n";
        o += "Causal MFU              " + format_printf("%.1f", 100 * r.mfu_causal) + " %  (attention counted as causal kernels run it)\n";
        o += "Hardware TFLOP/s per GPU " + format_printf("%.1f", r.hardware_tflops_per_gpu) + "  (incl. recompute)\n";
        o += "Microbatches / pipeline " + std::to_string(r.microbatches) + "\n";
    }
    auto mem = [&](const char* tier, const MemoryFootprint& m) {
        o += std::string("\n") + tier + "  " + gib(m.used_bytes()) + " of " + gib(m.capacity_bytes) + " per accelerator\n";
        o += std::string(dlrm ? "  rows and weights " : "  weights ") + gib(m.weights_bytes) + ", gradients " + gib(m.gradients_bytes) +
             ", optimizer " + gib(m.optimizer_bytes) + ", activations " + gib(m.activations_bytes) + ", other " + gib(m.other_bytes) +
             (m.margin_bytes > 0 ? ", allocator margin " + gib(m.margin_bytes) : std::string()) + "\n";
    };
    mem("HBM     ", r.hbm);
    if (r.expanded.capacity_bytes > 0 || r.expanded.used_bytes() > 0) mem("Expanded", r.expanded);
    return o;
}

namespace {

// The result's keys of `comet-cli eval --json` (docs/cli.md), shared with the comparison.
void put_result(nlohmann::ordered_json& j, const Result& r) {
    j["feasible"] = r.feasible;
    j["reason"] = std::string(to_string(r.reason));
    j["reason_text"] = r.feasible ? std::string() : explain(r);
    if (r.reason != Infeasible::invalid_input && r.iteration_s > 0) {
        j["iteration_s"] = r.iteration_s;
        j["time_s"] = nlohmann::ordered_json::object();
        for (const TimePart& p : time_parts()) j["time_s"][std::string(p.id)] = p.of(r.time);
        j["comm_total_s"] = {{"tp", r.comm.tp_s}, {"pp", r.comm.pp_s}, {"dp", r.comm.dp_s},  {"memory", r.comm.memory_s},
                             {"ep", r.comm.ep_s}, {"cp", r.comm.cp_s}, {"emb", r.comm.emb_s}};
        j["tokens_per_s"] = r.tokens_per_s;
        j["model_tflops_per_gpu"] = r.model_tflops_per_gpu;
        j["hardware_tflops_per_gpu"] = r.hardware_tflops_per_gpu;
        j["mfu"] = r.mfu;
        j["mfu_causal"] = r.mfu_causal;
        j["model_flops_causal"] = r.model_flops_causal;
        j["microbatches"] = r.microbatches;
        j["parameters"] = r.parameters;
        j["active_parameters"] = r.active_parameters;
        j["memory"] = {{"hbm", memory_json(r.hbm)}, {"expanded", memory_json(r.expanded)}};
    }
}

}  // namespace

std::string format_software(const Config& c) {
    const SoftwareSpec& sw = c.software;
    // With the dense layers captured, only an MoE layer's routed part is issued by the host.
    const bool routed = c.workload == Workload::transformer && c.model.is_moe();
    const bool whole = captures_whole_step(c.training, sw) || (sw.graph_scope == GraphScope::dense && !routed);
    std::string o = whole               ? "captured as CUDA graphs (no host issue per op)"
                    : sw.host_op_us > 0 ? format_printf("%g", sw.host_op_us) + " us of host time per op"
                                        : "the host keeps ahead";
    if (!whole && sw.graph_scope == GraphScope::dense) o += " of the routed part (dense layers as CUDA graphs)";
    if (c.workload == Workload::transformer && c.model.is_moe()) {
        o += sw.grouped_gemm == GroupedGemm::one_kernel ? ", experts as one grouped kernel" : ", one GEMM launch per expert";
        o += sw.moe_host_sync ? ", dispatch synced with the host" : ", dispatch sizes on the device";
    }
    if (uses_nvls(c.node, sw)) o += ", all-reduce in the NVLink switches (NVLS)";
    // The memory layout, where it is not Megatron-Core's (SoftwareSpec's defaults).
    const SoftwareSpec mcore;
    if (sw.weight_bytes != mcore.weight_bytes || sw.master_weights != mcore.master_weights)
        o += ", " + format_printf("%g", sw.weight_bytes) + "-byte weights" +
             (sw.master_weights ? " with an fp32 master copy" : " without a master copy");
    if (sw.moment_bytes != mcore.moment_bytes) o += ", " + format_printf("%g", sw.moment_bytes) + "-byte optimizer moments";
    if (c.workload == Workload::transformer && sw.logits_bytes != mcore.logits_bytes)
        o += sw.logits_bytes > 0 ? ", " + format_printf("%g", sw.logits_bytes) + " bytes per logit in the loss" : ", a chunked loss";
    if (sw.hbm_reserved_gib != mcore.hbm_reserved_gib || sw.hbm_allocator_margin != mcore.hbm_allocator_margin)
        o += ", " + format_printf("%g", sw.hbm_reserved_gib) + " GiB of HBM reserved" +
             (sw.hbm_allocator_margin > 0 ? " and " + format_printf("%g", 100.0 * sw.hbm_allocator_margin) + " % lost to its allocator"
                                          : " and no allocator margin");
    return o;
}

namespace {
nlohmann::ordered_json trust_json(const TrustBand& band, const Result& r) {
    nlohmann::ordered_json t = {{"validated", band.validated()}, {"runs", band.runs}, {"basis", band.basis}};
    if (band.validated()) {
        t["measured_over_predicted_low"] = band.low;
        t["measured_over_predicted_high"] = band.high;
        t["mean_abs_error"] = band.mean_abs;
        t["mean_signed_error"] = band.mean_signed;
        if (r.feasible) t["iteration_s_range"] = {band.low * r.iteration_s, band.high * r.iteration_s};
    }
    t["max_published_mfu"] = band.max_measured_mfu;
    t["mfu_above_published"] = r.feasible && band.mfu_above_published(r.mfu);
    return t;
}
}  // namespace

std::string format_token_budget(double tokens) {
    if (tokens >= 1e12) return format_printf("%.3g T tokens", tokens / 1e12);
    if (tokens >= 1e9) return format_printf("%.3g B tokens", tokens / 1e9);
    if (tokens >= 1e6) return format_printf("%.3g M tokens", tokens / 1e6);
    return format_printf("%.0f tokens", tokens);
}

std::string assumptions_line(const Scenario& s) {
    const Config& c = s.config;
    const std::string_view dot = " \u00b7 ";
    std::string out = short_name(s.model_info.name, "custom model");
    out += dot;
    out += "global batch " + grouped_integer(static_cast<double>(c.training.global_batch));
    if (c.workload == Workload::transformer)
        out += " \u00d7 " + grouped_integer(c.model.seq_len) + " tokens";
    else
        out += " samples";
    out += dot;
    std::string precision(to_string(c.training.precision));
    for (char& ch : precision) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    out += precision;
    out += dot;
    out += short_name(s.software_info.name, "software: custom");
    out += dot;
    out += std::to_string(c.cluster.nodes) + " \u00d7 " + short_name(s.node_info.name, "custom node") + " (" +
           grouped_integer(static_cast<double>(c.cluster.nodes) * c.node.accelerators) +
           (c.node.accelerators * c.cluster.nodes == 1 ? " accelerator)" : " accelerators)");
    return out;
}

std::string format_result_json(const Scenario& sc, const Result& r, const std::optional<TrustBand>& band) {
    nlohmann::ordered_json j;
    j["scenario"] = sc.name;
    j["workload"] = std::string(to_string(sc.config.workload));
    j["software"] = sc.software_info.name;
    j["strategy"] = format_strategy(sc.config.strategy, sc.config.workload);
    put_result(j, r);
    if (band) j["trust"] = trust_json(*band, r);
    return j.dump(2) + "\n";
}

namespace {
// A design's band, or an unvalidated one without bands.
TrustBand band_of(const std::vector<TrustBand>& bands, std::size_t i) { return i < bands.size() ? bands[i] : TrustBand{}; }
}  // namespace

std::string format_comparison_text(const Comparison& c, const std::vector<TrustBand>& bands) {
    std::string o;
    char buf[320];
    const bool trust = !bands.empty();
    std::snprintf(buf, sizeof buf, "%-3s %-28s %7s %6s %12s %9s %8s %10s %s %s\n", "#", "design", "nodes", "GPUs", "iteration", "speedup",
                  "MFU", "HBM GiB", trust ? " likely error     " : "", "strategy");
    o += buf;
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const DesignOutcome& d = c.designs[i];
        const Result& r = d.result;
        const std::string mark = static_cast<int>(i) == c.baseline ? "*" : " ";
        const std::string name = d.name.size() > 28 ? d.name.substr(0, 27) + "~" : d.name;
        const long long gpus = static_cast<long long>(d.config.cluster.nodes) * d.config.node.accelerators;
        if (!r.feasible) {
            std::snprintf(buf, sizeof buf, "%-3s %-28s %7d %6lld  INFEASIBLE: %s\n", (std::to_string(i) + mark).c_str(), name.c_str(),
                          d.config.cluster.nodes, gpus, explain(r).c_str());
        } else {
            const TrustBand band = band_of(bands, i);
            std::string likely;
            if (trust) {
                likely = " " + format_trust_range(band);
                likely.resize(std::max<std::size_t>(likely.size(), 18), ' ');
            }
            // No ratio against a baseline that cannot run.
            const std::string speedup = d.speedup > 0 ? format_printf("%.2fx", d.speedup) : "-";
            std::snprintf(buf, sizeof buf, "%-3s %-28s %7d %6lld %12s %9s %6.1f%%%s %10.1f %s %s%s\n", (std::to_string(i) + mark).c_str(),
                          name.c_str(), d.config.cluster.nodes, gpus, seconds(r.iteration_s).c_str(), speedup.c_str(), 100 * r.mfu,
                          band.mfu_above_published(r.mfu) ? "!" : " ", units::bytes_to_gib(r.hbm.used_bytes()), likely.c_str(),
                          d.best_strategy ? "best: " : "", format_strategy(d.config.strategy, d.config.workload).c_str());
        }
        o += buf;
    }
    o += "(* = baseline; speedup = baseline iteration time / design iteration time";
    if (trust)
        o += "; likely error = measured / predicted time over the published runs of the design's node with its software "
             "(docs/model.md, \"How far to trust an answer\"); ! = MFU above every published run on the node";
    return o + ")\n";
}

namespace {
std::string csv_quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}
}  // namespace

std::string format_comparison_csv(const Comparison& c, const std::vector<TrustBand>& bands) {
    std::string o =
        "design,baseline,nodes,accelerators,best_strategy,strategy,feasible,reason,iteration_s,speedup,mfu,"
        "tokens_per_s,hbm_used_gib,hbm_capacity_gib,cost_per_iteration_usd,cost_per_million_tokens_usd,"
        "time_to_train_s,cost_to_train_usd,energy_to_train_kwh,trust_runs,trust_basis,likely_low,likely_high,"
        "mfu_above_published\n";
    auto num = [](double v) { return format_printf("%.10g", v); };
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const DesignOutcome& d = c.designs[i];
        const Result& r = d.result;
        o += csv_quoted(d.name) + "," + (static_cast<int>(i) == c.baseline ? "1" : "0") + "," + std::to_string(d.config.cluster.nodes) +
             "," + std::to_string(static_cast<long long>(d.config.cluster.nodes) * d.config.node.accelerators) + "," +
             (d.best_strategy ? "1" : "0") + "," + csv_quoted(format_strategy(d.config.strategy, d.config.workload)) + "," +
             (r.feasible ? "1" : "0") + "," + csv_quoted(r.feasible ? std::string() : explain(r));
        if (r.feasible) {
            o += "," + num(r.iteration_s) + "," + (d.speedup > 0 ? num(d.speedup) : std::string()) + "," + num(r.mfu) + "," +
                 num(r.tokens_per_s) + "," + num(units::bytes_to_gib(r.hbm.used_bytes())) + "," +
                 num(units::bytes_to_gib(r.hbm.capacity_bytes)) + "," + num(d.cost.cost_per_iteration_usd) + "," +
                 num(d.cost.cost_per_million_tokens_usd) + "," + num(d.cost.time_to_train_s) + "," + num(d.cost.cost_to_train_usd) + "," +
                 num(d.cost.energy_to_train_kwh);
        } else {
            o += ",,,,,,,,,,,";
        }
        if (i < bands.size()) {
            const TrustBand& b = bands[i];
            o += "," + std::to_string(b.runs) + "," + csv_quoted(b.basis) + "," +
                 (b.validated() ? num(b.low) + "," + num(b.high) : std::string(",")) + "," +
                 (r.feasible ? (b.mfu_above_published(r.mfu) ? "1" : "0") : "");
        } else {
            o += ",,,,";
        }
        o += "\n";
    }
    return o;
}

// report_json.hpp: the one cost JSON (compare, analyze).
nlohmann::ordered_json cost_report_json(const CostReport& c) {
    return {{"valid", c.valid},
            {"gpus", c.gpus},
            {"nodes_powered", c.nodes_powered},
            {"gpu_hour_price_usd", c.gpu_hour_price_usd},
            {"amortised", c.amortised},
            {"tokens_per_iteration", c.tokens_per_iteration},
            {"gpu_hours_per_iteration", c.gpu_hours_per_iteration},
            {"gpu_cost_per_iteration_usd", c.gpu_cost_per_iteration_usd},
            {"energy_per_iteration_kwh", c.energy_per_iteration_kwh},
            {"energy_cost_per_iteration_usd", c.energy_cost_per_iteration_usd},
            {"cost_per_iteration_usd", c.cost_per_iteration_usd},
            {"time_per_million_tokens_s", c.time_per_million_tokens_s},
            {"cost_per_million_tokens_usd", c.cost_per_million_tokens_usd},
            {"energy_per_million_tokens_kwh", c.energy_per_million_tokens_kwh},
            {"time_to_train_s", c.time_to_train_s},
            {"cost_to_train_usd", c.cost_to_train_usd},
            {"energy_to_train_kwh", c.energy_to_train_kwh}};
}

std::string format_cost_json(const CostReport& c) { return cost_report_json(c).dump(2); }

std::string format_comparison_json(const Comparison& c, const std::vector<TrustBand>& bands) {
    nlohmann::ordered_json j;
    j["baseline"] = c.baseline;
    j["cancelled"] = c.cancelled;
    j["designs"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const DesignOutcome& d = c.designs[i];
        nlohmann::ordered_json dj;
        dj["name"] = d.name;
        dj["nodes"] = d.config.cluster.nodes;
        dj["accelerators"] = static_cast<long long>(d.config.cluster.nodes) * d.config.node.accelerators;
        dj["best_strategy"] = d.best_strategy;
        dj["strategy"] = format_strategy(d.config.strategy, d.config.workload);
        if (d.speedup > 0)
            dj["speedup"] = d.speedup;
        else
            dj["speedup"] = nullptr;  // the baseline cannot run (or this design cannot)
        put_result(dj, d.result);
        dj["cost"] = cost_report_json(d.cost);
        if (i < bands.size()) dj["trust"] = trust_json(bands[i], d.result);
        j["designs"].push_back(std::move(dj));
    }
    return j.dump(2) + "\n";
}

}  // namespace comet
