#include "comet/check.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

#include "comet/dlrm.hpp"
#include "comet/memory.hpp"
#include "comet/units.hpp"

namespace comet {

namespace {
constexpr double big = 1e9;

bool violates(const FieldRule& r, double v) noexcept {
    if (!std::isfinite(v)) return true;
    if (r.min_exclusive ? !(v > r.min) : !(v >= r.min)) return true;
    return !(v <= r.max);
}

#define COMET_GET(expr) [](const Config& c) noexcept -> double { return static_cast<double>(c.expr); }

const std::vector<FieldRule> rules = {
    {"model.layers", COMET_GET(model.layers), 1, 100000, false, "an integer from 1 to 100000"},
    {"model.hidden", COMET_GET(model.hidden), 1, 1048576, false, "an integer from 1 to 1048576"},
    {"model.heads", COMET_GET(model.heads), 1, 65536, false, "an integer from 1 to 65536"},
    {"model.kv_heads", COMET_GET(model.kv_heads), 1, 65536, false, "an integer from 1 to model.heads that divides it"},
    {"model.head_dim", COMET_GET(model.head_dim), 1, 65536, false, "an integer from 1 to 65536"},
    {"model.ffn_hidden", COMET_GET(model.ffn_hidden), 1, 16777216, false, "an integer from 1 to 16777216"},
    {"model.seq_len", COMET_GET(model.seq_len), 1, 67108864, false, "an integer from 1 to 67108864 tokens"},
    {"model.vocab", COMET_GET(model.vocab), 1, 67108864, false, "an integer from 1 to 67108864"},
    {"model.experts", COMET_GET(model.experts), 0, 65536, false, "0 (a dense model) or an integer up to 65536 routed experts"},
    {"model.experts_per_token", COMET_GET(model.experts_per_token), 0, 65536, false,
     "an integer from 1 to model.experts (0 for a dense model)"},
    {"model.expert_ffn_hidden", COMET_GET(model.expert_ffn_hidden), 0, 16777216, false,
     "an integer from 1 to 16777216 (0 for a dense model)"},
    {"model.shared_experts", COMET_GET(model.shared_experts), 0, 1024, false, "an integer from 0 to 1024"},
    {"model.dense_layers", COMET_GET(model.dense_layers), 0, 100000, false, "an integer from 0 to model.layers"},
    {"model.moe_layer_interval", COMET_GET(model.moe_layer_interval), 1, 100000, false, "an integer from 1 to 100000"},
    {"model.capacity_factor", COMET_GET(model.capacity_factor), 0, 64, true, "> 0 and at most 64"},
    {"model.q_lora_rank", COMET_GET(model.q_lora_rank), 0, 1048576, false, "0 (queries projected directly) or an integer up to 1048576"},
    {"model.kv_lora_rank", COMET_GET(model.kv_lora_rank), 0, 1048576, false,
     "0 (no multi-head latent attention) or an integer up to 1048576"},
    {"model.qk_nope_head_dim", COMET_GET(model.qk_nope_head_dim), 0, 65536, false, "an integer from 0 to 65536"},
    {"model.qk_rope_head_dim", COMET_GET(model.qk_rope_head_dim), 0, 65536, false, "an integer from 0 to 65536"},
    {"model.v_head_dim", COMET_GET(model.v_head_dim), 0, 65536, false,
     "an integer from 1 to 65536 with multi-head latent attention (else 0)"},
    {"model.sliding_window", COMET_GET(model.sliding_window), 0, 67108864, false, "0 (full attention) or a window of 1 to 67108864 tokens"},
    {"model.full_attention_interval", COMET_GET(model.full_attention_interval), 0, 100000, false,
     "0 (every layer uses the window) or an integer up to 100000"},
    {"model.mtp_layers", COMET_GET(model.mtp_layers), 0, 16, false, "0 (no multi-token prediction) or an integer up to 16"},
    {"model.rope_mscale", COMET_GET(model.rope_mscale), 0, 100, true, "> 0 and at most 100 (1 = plain RoPE)"},
    {"model.glu_clamp", COMET_GET(model.glu_clamp), 0, 1e6, false, "0 (no clamp) or a limit up to 1e6"},
    {"node.accelerators", COMET_GET(node.accelerators), 1, 65536, false, "an integer from 1 to 65536"},
    {"node.matrix_fp16_tflops", COMET_GET(node.matrix_fp16_tflops), 0, 1e6, true, "> 0 and at most 1e6 TFLOP/s"},
    {"node.matrix_fp8_tflops", COMET_GET(node.matrix_fp8_tflops), 0, 1e7, false, "0 (no fp8) up to 1e7 TFLOP/s"},
    {"node.matrix_fp4_tflops", COMET_GET(node.matrix_fp4_tflops), 0, 1e7, false, "0 (no fp4) up to 1e7 TFLOP/s"},
    {"node.vector_tflops", COMET_GET(node.vector_tflops), 0, 1e6, true, "> 0 and at most 1e6 TFLOP/s"},
    {"node.gemm.max_fraction", COMET_GET(node.gemm.max_fraction), 0, 1, true, "a fraction > 0 and <= 1"},
    {"node.gemm.tile_overhead_k", COMET_GET(node.gemm.tile_overhead_k), 0, 1e6, false, "0 to 1e6 inner-loop steps"},
    {"node.gemm.launch_overhead_us", COMET_GET(node.gemm.launch_overhead_us), 0, 1e4, false, "0 to 10000 us"},
    {"node.gemm.fp8_max_fraction", COMET_GET(node.gemm.fp8_max_fraction), 0, 1, false,
     "0 (as node.gemm.max_fraction) or a fraction up to 1"},
    {"node.gemm.fp4_max_fraction", COMET_GET(node.gemm.fp4_max_fraction), 0, 1, false,
     "0 (as node.gemm.fp8_max_fraction) or a fraction up to 1"},
    {"node.attention.max_fraction", COMET_GET(node.attention.max_fraction), 0, 1, true, "a fraction > 0 and <= 1"},
    {"node.attention.softmax_head_dim", COMET_GET(node.attention.softmax_head_dim), 0, 1e5, false, "0 to 100000 head-dimension steps"},
    {"node.attention.backward_efficiency", COMET_GET(node.attention.backward_efficiency), 0, 1, true, "a fraction > 0 and <= 1"},
    {"node.host_op_us", COMET_GET(node.host_op_us), 0, 1e4, false, "0 (the host keeps ahead) to 10000 us per kernel"},
    {"node.hbm_capacity_gib", COMET_GET(node.hbm_capacity_gib), 0, 1e6, true, "> 0 and at most 1e6 GiB"},
    {"node.hbm_bandwidth_gbps", COMET_GET(node.hbm_bandwidth_gbps), 0, 1e7, true, "> 0 and at most 1e7 GB/s"},
    {"node.hbm_efficiency", COMET_GET(node.hbm_efficiency), 0, 1, true, "a fraction > 0 and <= 1"},
    {"node.hbm_reserved_gib", COMET_GET(node.hbm_reserved_gib), 0, 1e6, false, "0 or more GiB, less than node.hbm_capacity_gib"},
    {"node.hbm_allocator_margin", COMET_GET(node.hbm_allocator_margin), 0, 0.5, false, "a fraction from 0 to 0.5 of node.hbm_capacity_gib"},
    {"node.expanded.capacity_gib", COMET_GET(node.expanded.capacity_gib), 0, 1e9, false, "0 (no expanded tier) up to 1e9 GiB"},
    {"node.expanded.bandwidth_gbps", COMET_GET(node.expanded.bandwidth_gbps), 0, 1e7, false, "0 to 1e7 GB/s, > 0 when capacity_gib > 0"},
    {"node.expanded.latency_us", COMET_GET(node.expanded.latency_us), 0, 1e6, false, "0 to 1e6 us"},
    {"node.expanded.pool_nodes", COMET_GET(node.expanded.pool_nodes), 1, 1e6, false, "an integer from 1 to 1e6"},
    {"node.scale_up.domain_size", COMET_GET(node.scale_up.domain_size), 1, 1e6, false, "an integer from 1 to 1e6 accelerators"},
    {"node.scale_up.bandwidth_gbps", COMET_GET(node.scale_up.bandwidth_gbps), 0, 1e7, true, "> 0 and at most 1e7 GB/s"},
    {"node.scale_up.latency_us", COMET_GET(node.scale_up.latency_us), 0, 1e6, false, "0 to 1e6 us"},
    {"node.scale_up.efficiency", COMET_GET(node.scale_up.efficiency), 0, 1, true, "a fraction > 0 and <= 1"},
    {"node.scale_out.bandwidth_gbps", COMET_GET(node.scale_out.bandwidth_gbps), 0, 1e7, true, "> 0 and at most 1e7 GB/s"},
    {"node.scale_out.latency_us", COMET_GET(node.scale_out.latency_us), 0, 1e6, false, "0 to 1e6 us"},
    {"node.scale_out.efficiency", COMET_GET(node.scale_out.efficiency), 0, 1, true, "a fraction > 0 and <= 1"},
    {"node.scale_out.leaf_domains", COMET_GET(node.scale_out.leaf_domains), 0, 1e7, false,
     "0 (one non-blocking tier) or an integer up to 1e7 scale-up domains per leaf"},
    {"node.scale_out.oversubscription", COMET_GET(node.scale_out.oversubscription), 1, 64, false,
     "from 1 (non-blocking) to 64 (leaf downlink : spine uplink)"},
    {"node.scale_out.spine_latency_us", COMET_GET(node.scale_out.spine_latency_us), 0, 1e6, false, "0 to 1e6 us"},
    {"node.power_kw", COMET_GET(node.power_kw), 0, 1e4, false, "0 (unknown) up to 10000 kW per node"},
    {"cluster.nodes", COMET_GET(cluster.nodes), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"training.global_batch", COMET_GET(training.global_batch), 1, big, false, "an integer from 1 to 1e9 sequences"},
    {"strategy.tp", COMET_GET(strategy.tp), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"strategy.pp", COMET_GET(strategy.pp), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"strategy.dp", COMET_GET(strategy.dp), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"strategy.microbatch", COMET_GET(strategy.microbatch), 1, big, false, "an integer from 1 to the global batch"},
    {"strategy.interleave", COMET_GET(strategy.interleave), 1, 100000, false, "an integer from 1 to model.layers"},
    {"strategy.zero_stage", COMET_GET(strategy.zero_stage), 0, 3, false, "0, 1, 2 or 3"},
    {"strategy.cp", COMET_GET(strategy.cp), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"strategy.ep", COMET_GET(strategy.ep), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"strategy.etp", COMET_GET(strategy.etp), 1, 1e7, false, "an integer from 1 to 1e7"},
    {"strategy.ep_overlap", COMET_GET(strategy.ep_overlap), 0, 1, false, "a fraction from 0 (sequential) to 1 (fully hidden)"},
    {"strategy.zero_shard", COMET_GET(strategy.zero_shard), 0, 1e7, false, "0 (the whole dp x cp group) or a divisor of dp x cp"},
    {"strategy.pipeline_first_layers", COMET_GET(strategy.pipeline_first_layers), 0, 100000, false,
     "0 (automatic) or the first stage's layers, a multiple of strategy.interleave"},
    {"strategy.recompute_layers", COMET_GET(strategy.recompute_layers), 0, 100000, false,
     "0 (every layer) or the layers of each virtual stage that full recomputation recomputes"},
    {"strategy.pipeline_last_layers", COMET_GET(strategy.pipeline_last_layers), 0, 100000, false,
     "0 (automatic) or the last stage's layers, a multiple of strategy.interleave"},
    {"strategy.emb_cache_fraction", COMET_GET(strategy.emb_cache_fraction), 0, 1, false,
     "a fraction from 0 to 1 of each shard's rows (> 0 with the cached placement)"},
    {"strategy.emb_cache_hit_rate", COMET_GET(strategy.emb_cache_hit_rate), 0, 1, false, "a fraction from 0 to 1 of the lookups"},
    {"dlrm.dense_features", COMET_GET(dlrm.dense_features), 0, 1e6, false, "an integer from 0 to 1e6"},
    {"dlrm.cross_layers", COMET_GET(dlrm.cross_layers), 0, 64, false, "an integer from 0 to 64 cross layers"},
    {"dlrm.cross_rank", COMET_GET(dlrm.cross_rank), 0, 1e6, false, "0 (full-rank cross layers) or an integer up to 1e6"},
    {"dlrm.unique_rows_fraction", COMET_GET(dlrm.unique_rows_fraction), 0, 1, true, "a fraction > 0 and <= 1 of the lookups"},
};
#undef COMET_GET

// Cross-field rules. Index after the table; returns the violated one or -1.
enum CrossRule {
    kv_divides_heads = 0,
    reserved_below_capacity,
    expanded_bandwidth,
    moe_top_k,
    moe_width,
    moe_dense_layers,
    mla_dims,
    dlrm_rules,
    cross_count
};

// A rule about the transformer's shape (model.*) or the DLRM's (dlrm.*) applies to that workload only.
bool applies(const FieldRule& r, const Config& c) noexcept {
    const std::string_view path = r.path;
    if (path.rfind("model.", 0) == 0) return c.workload == Workload::transformer;
    if (path.rfind("dlrm.", 0) == 0) return c.workload == Workload::dlrm;
    return true;
}

// The DLRM's per-entry and cross-field rules, visited in order: `report(path, index, field,
// value, allowed)` is called for each violation (path "dlrm.tables", index 3, field "rows" names
// dlrm.tables[3].rows; index -1 a plain key) and returns true to stop. Allocation-free.
template <class Report>
void visit_dlrm_violations(const Config& c, Report&& report) {
    const DlrmSpec& d = c.dlrm;
    const Strategy& s = c.strategy;
    // The lists' lengths (a file gives them as lists, which the reader bounds).
    if (!(d.table_groups >= 1 && d.table_groups <= DlrmSpec::max_table_groups) &&
        report("dlrm.tables", -1, "", d.table_groups, "a list of 1 to 32 table groups"))
        return;
    if (!(d.bottom_layers >= 0 && d.bottom_layers <= DlrmSpec::max_mlp_layers) &&
        report("dlrm.bottom_mlp", -1, "", d.bottom_layers, "a list of 0 to 8 layer widths"))
        return;
    if (!(d.top_layers >= 1 && d.top_layers <= DlrmSpec::max_mlp_layers) &&
        report("dlrm.top_mlp", -1, "", d.top_layers, "a list of 1 to 8 layer widths"))
        return;
    if (d.table_groups < 1 || d.table_groups > DlrmSpec::max_table_groups || d.bottom_layers < 0 ||
        d.bottom_layers > DlrmSpec::max_mlp_layers || d.top_layers < 1 || d.top_layers > DlrmSpec::max_mlp_layers)
        return;  // the per-entry rules below index the lists
    for (int g = 0; g < d.table_groups; ++g) {
        const EmbeddingTableGroup& t = d.tables[static_cast<std::size_t>(g)];
        if (!(t.count >= 1 && t.count <= 1000000) && report("dlrm.tables", g, "count", t.count, "an integer from 1 to 1e6 tables")) return;
        if (!(t.rows >= 1 && t.rows <= 1e13 && std::floor(t.rows) == t.rows) &&
            report("dlrm.tables", g, "rows", t.rows, "a whole number of rows from 1 to 1e13"))
            return;
        if (!(t.dim >= 1 && t.dim <= 65536) && report("dlrm.tables", g, "dim", t.dim, "an integer from 1 to 65536 elements")) return;
        if (!(t.pooling > 0 && t.pooling <= 1e6) &&
            report("dlrm.tables", g, "pooling", t.pooling, "> 0 and at most 1e6 lookups per sample"))
            return;
    }
    for (int i = 0; i < d.bottom_layers; ++i) {
        const double w = d.bottom_mlp[static_cast<std::size_t>(i)];
        if (!(w >= 1 && w <= 1e7) && report("dlrm.bottom_mlp", i, "", w, "an integer width from 1 to 1e7")) return;
    }
    for (int i = 0; i < d.top_layers; ++i) {
        const double w = d.top_mlp[static_cast<std::size_t>(i)];
        if (!(w >= 1 && w <= 1e7) && report("dlrm.top_mlp", i, "", w, "an integer width from 1 to 1e7")) return;
    }
    if (d.interaction == DlrmInteraction::dot && d.table_groups > 0) {
        const int dim = d.tables[0].dim;
        for (int g = 1; g < d.table_groups; ++g)
            if (d.tables[static_cast<std::size_t>(g)].dim != dim &&
                report("dlrm.tables", g, "dim", d.tables[static_cast<std::size_t>(g)].dim,
                       "the same dim as dlrm.tables[0] with the dot interaction (pairwise dot products)"))
                return;
        const double bottom = d.bottom_layers > 0 ? d.bottom_mlp[static_cast<std::size_t>(d.bottom_layers - 1)] : d.dense_features;
        if (bottom != 0 && bottom != dim &&
            report(d.bottom_layers > 0 ? "dlrm.bottom_mlp" : "dlrm.dense_features", d.bottom_layers > 0 ? d.bottom_layers - 1 : -1, "",
                   bottom, "the tables' dim with the dot interaction (the bottom MLP's output is one of the vectors)"))
            return;
        // The dot interaction pairs the vectors: one vector alone leaves the top MLP no input.
        if (!(dlrm_interaction_width(d) > 0) &&
            report("dlrm.tables", 0, "count", dlrm_table_count(d),
                   "at least 2 tables with the dot interaction and no dense features (it pairs the vectors: one vector gives "
                   "the top MLP no input; add dense features or use the dcn interaction)"))
            return;
    }
    // The MLPs are data-parallel over every rank: no model parallelism beyond the tables.
    const std::pair<const char*, int> ones[] = {{"strategy.tp", s.tp}, {"strategy.pp", s.pp},   {"strategy.cp", s.cp},
                                                {"strategy.ep", s.ep}, {"strategy.etp", s.etp}, {"strategy.interleave", s.interleave}};
    for (const auto& [path, v] : ones)
        if (v != 1 && report(path, -1, "", v, "1 for a DLRM (its MLPs are data-parallel over strategy.dp ranks; the tables are sharded)"))
            return;
    if (s.zero_stage != 0 && report("strategy.zero_stage", -1, "", s.zero_stage, "0 for a DLRM (its MLPs are replicated)")) return;
    if (s.emb_placement == EmbeddingPlacement::cached && !(s.emb_cache_fraction > 0) &&
        report("strategy.emb_cache_fraction", -1, "", s.emb_cache_fraction,
               "> 0 with emb_placement \"cached\" (the HBM cache's share of the rows)"))
        return;
}

int first_cross_violation(const Config& c) noexcept {
    if (c.workload == Workload::dlrm) {
        int first = -1;
        visit_dlrm_violations(c, [&](const char*, int, const char*, double, const char*) {
            first = dlrm_rules;
            return true;
        });
        if (first >= 0) return first;
        if (hbm_unusable_bytes(c.node) >= units::gib_to_bytes(c.node.hbm_capacity_gib)) return reserved_below_capacity;
        if (c.node.expanded.capacity_gib > 0 && !(c.node.expanded.bandwidth_gbps > 0)) return expanded_bandwidth;
        return -1;
    }
    const ModelSpec& m = c.model;
    if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0) return kv_divides_heads;
    if (hbm_unusable_bytes(c.node) >= units::gib_to_bytes(c.node.hbm_capacity_gib)) return reserved_below_capacity;
    if (c.node.expanded.capacity_gib > 0 && !(c.node.expanded.bandwidth_gbps > 0)) return expanded_bandwidth;
    if (m.is_moe() && (m.experts_per_token < 1 || m.experts_per_token > m.experts)) return moe_top_k;
    if (m.is_moe() && m.expert_ffn_hidden < 1) return moe_width;
    if (m.is_moe() && m.dense_layers > m.layers) return moe_dense_layers;
    if (m.is_mla() && (m.qk_nope_head_dim + m.qk_rope_head_dim < 1 || m.v_head_dim < 1)) return mla_dims;
    return -1;
}

std::string format_value(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

}  // namespace

std::string FieldError::message() const {
    return path + " = " + format_value(value) + ": must be " + allowed;
}

const std::vector<FieldRule>& field_rules() { return rules; }

int first_invalid_field(const Config& c) noexcept {
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (applies(rules[i], c) && violates(rules[i], rules[i].get(c))) return static_cast<int>(i);
    if (int x = first_cross_violation(c); x >= 0) return static_cast<int>(rules.size()) + x;
    return -1;
}

std::vector<FieldError> check_config(const Config& c) {
    std::vector<FieldError> out;
    for (const auto& r : rules) {
        if (!applies(r, c)) continue;
        const double v = r.get(c);
        if (violates(r, v)) out.push_back({r.path, v, r.allowed});
    }
    if (!out.empty()) return out;  // cross rules assume each field is in range
    if (c.workload == Workload::dlrm)
        visit_dlrm_violations(c, [&](const char* path, int index, const char* field, double v, const char* allowed) {
            std::string p = path;
            if (index >= 0) p += "[" + std::to_string(index) + "]";
            if (*field != '\0') p.append(".").append(field);
            out.push_back({p, v, allowed});
            return false;  // every one of them
        });
    if (!out.empty()) return out;
    switch (first_cross_violation(c)) {
    case kv_divides_heads:
        out.push_back({"model.kv_heads", double(c.model.kv_heads),
                       "a divisor of model.heads (" + format_value(c.model.heads) + ")"});
        break;
    case reserved_below_capacity:
        out.push_back({"node.hbm_reserved_gib", c.node.hbm_reserved_gib,
                       "less than node.hbm_capacity_gib (" + format_value(c.node.hbm_capacity_gib) + ")" +
                           (c.node.hbm_allocator_margin > 0
                                ? " less the allocator margin (" + format_value(c.node.hbm_allocator_margin) + " of it)"
                                : std::string())});
        break;
    case expanded_bandwidth:
        out.push_back({"node.expanded.bandwidth_gbps", c.node.expanded.bandwidth_gbps,
                       "> 0 GB/s when node.expanded.capacity_gib > 0"});
        break;
    case moe_top_k:
        out.push_back({"model.experts_per_token", double(c.model.experts_per_token),
                       "an integer from 1 to model.experts (" + format_value(c.model.experts) + ")"});
        break;
    case moe_width:
        out.push_back({"model.expert_ffn_hidden", double(c.model.expert_ffn_hidden), "at least 1 when model.experts > 0"});
        break;
    case moe_dense_layers:
        out.push_back({"model.dense_layers", double(c.model.dense_layers),
                       "at most model.layers (" + format_value(c.model.layers) + ")"});
        break;
    case mla_dims:
        out.push_back({"model.v_head_dim", double(c.model.v_head_dim),
                       "at least 1, with model.qk_nope_head_dim + model.qk_rope_head_dim at least 1, when model.kv_lora_rank > 0"});
        break;
    default: break;
    }
    return out;
}

}  // namespace comet
