#include "comet/check.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

#include "comet/dlrm.hpp"
#include "comet/fields.hpp"
#include "comet/memory.hpp"
#include "comet/units.hpp"

namespace comet {

namespace {

bool violates(const FieldRule& r, double v) noexcept {
    if (!std::isfinite(v)) return true;
    if (r.min_exclusive ? !(v > r.min) : !(v >= r.min)) return true;
    return !(v <= r.max);
}

// The range rules of the field registry (fields.cpp), in its order.
const std::vector<FieldRule>& rules_table() {
    static const std::vector<FieldRule> table = [] {
        std::vector<FieldRule> out;
        for (const FieldDesc& f : all_fields())
            if (f.ranged) out.push_back({f.path.data(), f.get, f.min, f.max, f.min_exclusive, f.allowed.data()});
        return out;
    }();
    return table;
}

// Cross-field rules. Index after the table; returns the violated one or -1.
enum CrossRule {
    kv_divides_heads = 0,
    reserved_below_capacity,
    expanded_bandwidth,
    moe_top_k,
    moe_width,
    moe_dense_layers,
    mla_dims,
    graphs_host_sync,
    flash2_backward,
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
        if (hbm_unusable_bytes(c.node, c.software) >= units::gib_to_bytes(c.node.hbm_capacity_gib)) return reserved_below_capacity;
        if (c.node.expanded.capacity_gib > 0 && !(c.node.expanded.bandwidth_gbps > 0)) return expanded_bandwidth;
        return -1;
    }
    const ModelSpec& m = c.model;
    if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0) return kv_divides_heads;
    // A node that gives FlashAttention-2 a rate gives its backward one too (0 would be no rate).
    if (c.node.attention_flash2.max_fraction > 0 && !(c.node.attention_flash2.backward_efficiency > 0)) return flash2_backward;
    if (hbm_unusable_bytes(c.node, c.software) >= units::gib_to_bytes(c.node.hbm_capacity_gib)) return reserved_below_capacity;
    if (c.node.expanded.capacity_gib > 0 && !(c.node.expanded.bandwidth_gbps > 0)) return expanded_bandwidth;
    if (m.is_moe() && (m.experts_per_token < 1 || m.experts_per_token > m.experts)) return moe_top_k;
    if (m.is_moe() && m.expert_ffn_hidden < 1) return moe_width;
    if (m.is_moe() && m.dense_layers > m.layers) return moe_dense_layers;
    if (m.is_mla() && (m.qk_nope_head_dim + m.qk_rope_head_dim < 1 || m.v_head_dim < 1)) return mla_dims;
    // A captured step cannot wait for the host: a dropless MoE whose dispatch needs the split
    // sizes on the host cannot run as CUDA graphs (spec.hpp, TrainingSpec::cuda_graphs).
    if (m.is_moe() && captures_whole_step(c.training, c.software) && c.software.moe_host_sync) return graphs_host_sync;
    return -1;
}

std::string format_value(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

}  // namespace

std::string FieldError::message() const { return path + " = " + format_value(value) + ": must be " + allowed; }

const std::vector<FieldRule>& field_rules() { return rules_table(); }

int first_invalid_field(const Config& c) noexcept {
    const auto& rules = rules_table();
    for (std::size_t i = 0; i < rules.size(); ++i)
        if (applies(rules[i], c) && violates(rules[i], rules[i].get(c))) return static_cast<int>(i);
    if (int x = first_cross_violation(c); x >= 0) return static_cast<int>(rules.size()) + x;
    return -1;
}

std::vector<FieldError> check_config(const Config& c) {
    std::vector<FieldError> out;
    for (const auto& r : rules_table()) {
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
            out.push_back({"model.kv_heads", double(c.model.kv_heads), "a divisor of model.heads (" + format_value(c.model.heads) + ")"});
            break;
        case reserved_below_capacity:
            out.push_back({"software.hbm_reserved_gib", c.software.hbm_reserved_gib,
                           "less than node.hbm_capacity_gib (" + format_value(c.node.hbm_capacity_gib) + ")" +
                               (c.software.hbm_allocator_margin > 0
                                    ? " less the software's allocator margin (" + format_value(c.software.hbm_allocator_margin) + " of it)"
                                    : std::string())});
            break;
        case expanded_bandwidth:
            out.push_back({"node.expanded.bandwidth_gbps", c.node.expanded.bandwidth_gbps, "> 0 GB/s when node.expanded.capacity_gib > 0"});
            break;
        case moe_top_k:
            out.push_back({"model.experts_per_token", double(c.model.experts_per_token),
                           "an integer from 1 to model.experts (" + format_value(c.model.experts) + ")"});
            break;
        case moe_width:
            out.push_back({"model.expert_ffn_hidden", double(c.model.expert_ffn_hidden), "at least 1 when model.experts > 0"});
            break;
        case moe_dense_layers:
            out.push_back(
                {"model.dense_layers", double(c.model.dense_layers), "at most model.layers (" + format_value(c.model.layers) + ")"});
            break;
        case mla_dims:
            out.push_back({"model.v_head_dim", double(c.model.v_head_dim),
                           "at least 1, with model.qk_nope_head_dim + model.qk_rope_head_dim at least 1, when model.kv_lora_rank > 0"});
            break;
        case graphs_host_sync:
            if (c.training.cuda_graphs)
                out.push_back({"training.cuda_graphs", 1.0,
                               "off for a dropless MoE whose dispatch waits for the host (software.moe_host_sync): a captured step "
                               "cannot wait for the host; turn CUDA graphs off or use software whose dispatch keeps the split sizes on "
                               "the device"});
            else
                out.push_back(
                    {"software.graph_scope", double(static_cast<int>(c.software.graph_scope)),
                     "none (0) or dense (1), not full (2), for a dropless MoE whose dispatch waits for the host "
                     "(software.moe_host_sync): a step captured whole cannot wait for the host; capture the dense layers only or use "
                     "software whose "
                     "dispatch keeps the split sizes on the device"});
            break;
        case flash2_backward:
            out.push_back({"node.attention_flash2.backward_efficiency", c.node.attention_flash2.backward_efficiency,
                           "> 0 and at most 1 when node.attention_flash2.max_fraction > 0"});
            break;
        default:
            break;
    }
    return out;
}

}  // namespace comet
