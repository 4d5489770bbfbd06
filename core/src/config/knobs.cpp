#include "comet/knobs.hpp"

#include <array>
#include <algorithm>
#include <cmath>

#include "comet/dlrm.hpp"
#include "comet/fields.hpp"
#include "comet/units.hpp"

namespace comet {
namespace {

// A knob's id, label and kind, and the registry field it moves (fields.cpp gives its unit,
// range and accessors); embedding_gib moves no single field.
struct KnobRow {
    Knob knob;
    std::string_view id;
    std::string_view label;
    KnobKind kind;
    std::string_view field;
};

constexpr std::array<KnobRow, static_cast<std::size_t>(Knob::count_)> rows{{
    {Knob::tp, "tp", "tensor parallelism", KnobKind::strategy, "strategy.tp"},
    {Knob::pp, "pp", "pipeline parallelism", KnobKind::strategy, "strategy.pp"},
    {Knob::dp, "dp", "data parallelism", KnobKind::strategy, "strategy.dp"},
    {Knob::microbatch, "microbatch", "microbatch", KnobKind::strategy, "strategy.microbatch"},
    {Knob::interleave, "interleave", "pipeline interleaving", KnobKind::strategy, "strategy.interleave"},
    {Knob::recompute, "recompute", "recomputation (0 none, 1 selective, 2 full)", KnobKind::strategy, "strategy.recompute"},
    {Knob::sequence_parallel, "sequence_parallel", "sequence parallelism", KnobKind::strategy, "strategy.sequence_parallel"},
    {Knob::zero_stage, "zero_stage", "ZeRO stage", KnobKind::strategy, "strategy.zero_stage"},
    {Knob::offload_optimizer, "offload_optimizer", "offload optimizer state", KnobKind::strategy, "strategy.offload_optimizer"},
    {Knob::offload_weights, "offload_weights", "offload weights", KnobKind::strategy, "strategy.offload_weights"},
    {Knob::offload_activations, "offload_activations", "offload activations", KnobKind::strategy, "strategy.offload_activations"},
    {Knob::dp_overlap, "dp_overlap", "overlap DP communication", KnobKind::strategy, "strategy.dp_overlap"},
    {Knob::tp_overlap, "tp_overlap", "overlap TP communication", KnobKind::strategy, "strategy.tp_overlap"},
    {Knob::cp, "cp", "context parallelism", KnobKind::strategy, "strategy.cp"},
    {Knob::ep, "ep", "expert parallelism", KnobKind::strategy, "strategy.ep"},
    {Knob::etp, "etp", "expert tensor parallelism", KnobKind::strategy, "strategy.etp"},
    {Knob::zero_shard, "zero_shard", "ZeRO sharding group (0 = all of dp x cp)", KnobKind::strategy, "strategy.zero_shard"},
    {Knob::emb_sharding, "emb_sharding", "table sharding (0 table-wise, 1 row-wise, 2 column-wise)", KnobKind::strategy,
     "strategy.emb_sharding"},
    {Knob::emb_placement, "emb_placement", "row placement (0 HBM, 1 expanded tier, 2 expanded with HBM cache)", KnobKind::strategy,
     "strategy.emb_placement"},
    {Knob::emb_state, "emb_state", "table optimizer state (0 with the rows, 1 HBM, 2 expanded)", KnobKind::strategy, "strategy.emb_state"},
    {Knob::ep_overlap, "ep_overlap", "EP all-to-all overlap", KnobKind::strategy, "strategy.ep_overlap"},
    {Knob::emb_cache_fraction, "emb_cache_fraction", "HBM cache share of the rows", KnobKind::strategy, "strategy.emb_cache_fraction"},
    {Knob::emb_cache_hit_rate, "emb_cache_hit_rate", "HBM cache hit rate", KnobKind::strategy, "strategy.emb_cache_hit_rate"},
    {Knob::matrix_tflops, "matrix_tflops", "matrix throughput (fp16)", KnobKind::hardware, "node.matrix_fp16_tflops"},
    {Knob::vector_tflops, "vector_tflops", "vector throughput", KnobKind::hardware, "node.vector_tflops"},
    {Knob::hbm_gib, "hbm_gib", "HBM capacity", KnobKind::hardware, "node.hbm_capacity_gib"},
    {Knob::hbm_gbps, "hbm_gbps", "HBM bandwidth", KnobKind::hardware, "node.hbm_bandwidth_gbps"},
    {Knob::expanded_gib, "expanded_gib", "expanded memory capacity", KnobKind::hardware, "node.expanded.capacity_gib"},
    {Knob::expanded_gbps, "expanded_gbps", "expanded memory bandwidth", KnobKind::hardware, "node.expanded.bandwidth_gbps"},
    {Knob::scale_up_gbps, "scale_up_gbps", "scale-up bandwidth", KnobKind::hardware, "node.scale_up.bandwidth_gbps"},
    {Knob::scale_up_latency_us, "scale_up_latency_us", "scale-up latency", KnobKind::hardware, "node.scale_up.latency_us"},
    {Knob::scale_up_domain, "scale_up_domain", "scale-up domain size", KnobKind::hardware, "node.scale_up.domain_size"},
    {Knob::scale_out_gbps, "scale_out_gbps", "scale-out bandwidth", KnobKind::hardware, "node.scale_out.bandwidth_gbps"},
    {Knob::scale_out_latency_us, "scale_out_latency_us", "scale-out latency", KnobKind::hardware, "node.scale_out.latency_us"},
    {Knob::scale_out_oversubscription, "scale_out_oversubscription", "spine oversubscription (leaf : spine)", KnobKind::hardware,
     "node.scale_out.oversubscription"},
    {Knob::scale_out_leaf_domains, "scale_out_leaf_domains", "scale-up domains per leaf (0 = one tier)", KnobKind::hardware,
     "node.scale_out.leaf_domains"},
    {Knob::scale_out_rail_only, "scale_out_rail_only", "rail-only fabric (0 any-to-any, 1 rail-only)", KnobKind::hardware,
     "node.scale_out.rail_only"},
    {Knob::accelerators_per_node, "accelerators_per_node", "accelerators per node", KnobKind::hardware, "node.accelerators"},
    {Knob::nodes, "nodes", "nodes", KnobKind::hardware, "cluster.nodes"},
    {Knob::seq_len, "seq_len", "sequence length", KnobKind::workload, "model.seq_len"},
    {Knob::global_batch, "global_batch", "global batch", KnobKind::workload, "training.global_batch"},
    {Knob::layers, "layers", "layers", KnobKind::workload, "model.layers"},
    {Knob::hidden, "hidden", "hidden size", KnobKind::workload, "model.hidden"},
    {Knob::embedding_gib, "embedding_gib", "embedding tables (all rows)", KnobKind::workload, ""},
    {Knob::cuda_graphs, "cuda_graphs", "CUDA graphs (0 eager, 1 captured)", KnobKind::workload, "training.cuda_graphs"},
    {Knob::host_op_us, "host_op_us", "host time per op", KnobKind::software, "software.host_op_us"},
    {Knob::grouped_gemm, "grouped_gemm", "expert GEMMs (0 one launch per expert, 1 one grouped kernel)", KnobKind::software,
     "software.grouped_gemm"},
    {Knob::moe_host_sync, "moe_host_sync", "MoE dispatch waits for the host (0 no, 1 yes)", KnobKind::software, "software.moe_host_sync"},
    {Knob::fused_attention, "fused_attention", "attention kernel (0 the vendor's, 1 FlashAttention-2)", KnobKind::software,
     "software.fused_attention"},
    {Knob::graph_scope, "graph_scope", "CUDA-graph scope (0 none, 1 dense layers, 2 whole step)", KnobKind::software,
     "software.graph_scope"},
    {Knob::nvls, "nvls", "all-reduce in the NVLink switches, NCCL's NVLS (0 no, 1 yes)", KnobKind::software, "software.nvls"},
}};

constexpr bool rows_in_knob_order() {
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (static_cast<std::size_t>(rows[i].knob) != i) return false;
    return true;
}
static_assert(rows_in_knob_order(), "knobs.cpp: one row per Knob, in the enumeration's order");

// The smallest value a sweep may give a field whose range is open at its minimum (> 0).
constexpr double open_min_step = 1e-3;

struct KnobTable {
    std::array<KnobInfo, static_cast<std::size_t>(Knob::count_)> info{};
    std::array<const FieldDesc*, static_cast<std::size_t>(Knob::count_)> field{};
};

const KnobTable& table() {
    static const KnobTable t = [] {
        KnobTable out;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const KnobRow& r = rows[i];
            const FieldDesc* f = r.field.empty() ? nullptr : find_field(r.field);
            out.field[i] = f;
            if (f == nullptr) {  // embedding_gib: every DLRM table's rows scaled to a total
                out.info[i] = {r.knob, r.id, r.label, "GiB", r.kind, false, 1e-6, 1e9};
                continue;
            }
            const bool integer = f->type != FieldType::real;
            const double min = f->min_exclusive ? f->min + open_min_step : f->min;
            out.info[i] = {r.knob, r.id, r.label, f->unit, r.kind, integer, min, f->max};
        }
        return out;
    }();
    return t;
}

int to_int(double v) noexcept {
    if (!(v == v)) return 0;  // NaN: left for the range check to reject
    return static_cast<int>(std::llround(std::clamp(v, -2e9, 2e9)));
}

// nodes / accelerators_per_node: keep tp, cp and pp, give dp the rest of the cluster.
void refill_dp(Config& c) noexcept {
    const long long gpus = static_cast<long long>(c.cluster.nodes) * c.node.accelerators;
    const long long tp_pp = static_cast<long long>(c.strategy.tp) * c.strategy.pp * c.strategy.cp;
    if (tp_pp > 0 && gpus >= tp_pp) c.strategy.dp = static_cast<int>(std::min<long long>(gpus / tp_pp, 1 << 30));
}

}  // namespace

std::span<const KnobInfo> all_knobs() noexcept { return table().info; }

const KnobInfo& knob_info(Knob k) noexcept { return table().info[static_cast<std::size_t>(k)]; }

std::optional<Knob> knob_from_id(std::string_view id) noexcept {
    for (const auto& r : rows)
        if (r.id == id) return r.knob;
    return std::nullopt;
}

void set_knob(Config& c, Knob k, double v) noexcept {
    NodeSpec& n = c.node;
    switch (k) {
        case Knob::matrix_tflops: {
            // The FP8 and FP4 peaks keep their ratio to the 16-bit one (the same tensor cores).
            const double ratio = n.matrix_fp16_tflops > 0 ? n.matrix_fp8_tflops / n.matrix_fp16_tflops : 0.0;
            const double ratio4 = n.matrix_fp16_tflops > 0 ? n.matrix_fp4_tflops / n.matrix_fp16_tflops : 0.0;
            n.matrix_fp16_tflops = v;
            n.matrix_fp8_tflops = v * ratio;
            n.matrix_fp4_tflops = v * ratio4;
            return;
        }
        case Knob::accelerators_per_node:
            n.accelerators = to_int(v);
            refill_dp(c);
            return;
        case Knob::nodes:
            c.cluster.nodes = to_int(v);
            refill_dp(c);
            return;
        case Knob::embedding_gib:
            dlrm_scale_embedding_bytes(c.dlrm, units::gib_to_bytes(v));
            return;
        case Knob::hidden: {
            ModelSpec& m = c.model;
            const int h = to_int(v);
            const double ffn_ratio = m.hidden > 0 ? double(m.ffn_hidden) / m.hidden : 4.0;
            if (m.heads > 0 && m.head_dim * m.heads == m.hidden && h % m.heads == 0) m.head_dim = h / m.heads;
            m.ffn_hidden = to_int(ffn_ratio * h);
            m.hidden = h;
            return;
        }
        case Knob::count_:
            return;
        default:
            break;
    }
    const FieldDesc* f = table().field[static_cast<std::size_t>(k)];
    if (f == nullptr) return;
    // Integer knobs round as to_int() does (NaN to 0, left for the range check to reject).
    f->set(c, f->type == FieldType::real || f->type == FieldType::boolean ? v : static_cast<double>(to_int(v)));
}

double get_knob(const Config& c, Knob k) noexcept {
    if (k == Knob::embedding_gib) return units::bytes_to_gib(dlrm_embedding_bytes(c.dlrm));
    if (k == Knob::count_) return 0;
    const FieldDesc* f = table().field[static_cast<std::size_t>(k)];
    return f != nullptr ? f->get(c) : 0.0;
}

bool knob_for_workload(Knob k, Workload w) noexcept {
    if (k == Knob::embedding_gib) return w == Workload::dlrm;
    if (k == Knob::count_) return false;
    const FieldDesc* f = table().field[static_cast<std::size_t>(k)];
    return f != nullptr && f->for_workload(w);
}

}  // namespace comet
