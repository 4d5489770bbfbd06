#include "comet/knobs.hpp"

#include <array>
#include <algorithm>
#include <cmath>

#include "comet/dlrm.hpp"
#include "comet/units.hpp"

namespace comet {
namespace {

constexpr double huge = 1e9;

constexpr std::array<KnobInfo, static_cast<std::size_t>(Knob::count_)> knobs{{
    {Knob::tp, "tp", "tensor parallelism", "", KnobKind::strategy, true, 1, 65536},
    {Knob::pp, "pp", "pipeline parallelism", "", KnobKind::strategy, true, 1, 65536},
    {Knob::dp, "dp", "data parallelism", "", KnobKind::strategy, true, 1, 1e7},
    {Knob::microbatch, "microbatch", "microbatch", "sequences", KnobKind::strategy, true, 1, huge},
    {Knob::interleave, "interleave", "pipeline interleaving", "chunks", KnobKind::strategy, true, 1, 100000},
    {Knob::recompute, "recompute", "recomputation (0 none, 1 selective, 2 full)", "", KnobKind::strategy, true, 0, 2},
    {Knob::sequence_parallel, "sequence_parallel", "sequence parallelism", "", KnobKind::strategy, true, 0, 1},
    {Knob::zero_stage, "zero_stage", "ZeRO stage", "", KnobKind::strategy, true, 0, 3},
    {Knob::offload_optimizer, "offload_optimizer", "offload optimizer state", "", KnobKind::strategy, true, 0, 1},
    {Knob::offload_weights, "offload_weights", "offload weights", "", KnobKind::strategy, true, 0, 1},
    {Knob::offload_activations, "offload_activations", "offload activations", "", KnobKind::strategy, true, 0, 1},
    {Knob::dp_overlap, "dp_overlap", "overlap DP communication", "", KnobKind::strategy, true, 0, 1},
    {Knob::tp_overlap, "tp_overlap", "overlap TP communication", "", KnobKind::strategy, true, 0, 1},
    {Knob::cp, "cp", "context parallelism", "", KnobKind::strategy, true, 1, 65536},
    {Knob::ep, "ep", "expert parallelism", "", KnobKind::strategy, true, 1, 65536},
    {Knob::etp, "etp", "expert tensor parallelism", "", KnobKind::strategy, true, 1, 65536},
    {Knob::zero_shard, "zero_shard", "ZeRO sharding group (0 = all of dp x cp)", "", KnobKind::strategy, true, 0, 1e7},
    {Knob::emb_sharding, "emb_sharding", "table sharding (0 table-wise, 1 row-wise, 2 column-wise)", "", KnobKind::strategy, true, 0, 2},
    {Knob::emb_placement, "emb_placement", "row placement (0 HBM, 1 expanded tier, 2 expanded with HBM cache)", "", KnobKind::strategy,
     true, 0, 2},
    {Knob::emb_state, "emb_state", "table optimizer state (0 with the rows, 1 HBM, 2 expanded)", "", KnobKind::strategy, true, 0, 2},
    {Knob::ep_overlap, "ep_overlap", "EP all-to-all overlap", "fraction", KnobKind::strategy, false, 0, 1},
    {Knob::emb_cache_fraction, "emb_cache_fraction", "HBM cache share of the rows", "fraction", KnobKind::strategy, false, 0, 1},
    {Knob::emb_cache_hit_rate, "emb_cache_hit_rate", "HBM cache hit rate", "fraction", KnobKind::strategy, false, 0, 1},
    {Knob::matrix_tflops, "matrix_tflops", "matrix throughput (fp16)", "TFLOP/s", KnobKind::hardware, false, 1e-3, 1e6},
    {Knob::vector_tflops, "vector_tflops", "vector throughput", "TFLOP/s", KnobKind::hardware, false, 1e-3, 1e6},
    {Knob::hbm_gib, "hbm_gib", "HBM capacity", "GiB", KnobKind::hardware, false, 1e-3, 1e6},
    {Knob::hbm_gbps, "hbm_gbps", "HBM bandwidth", "GB/s", KnobKind::hardware, false, 1e-3, 1e7},
    {Knob::expanded_gib, "expanded_gib", "expanded memory capacity", "GiB", KnobKind::hardware, false, 0, 1e9},
    {Knob::expanded_gbps, "expanded_gbps", "expanded memory bandwidth", "GB/s", KnobKind::hardware, false, 0, 1e7},
    {Knob::scale_up_gbps, "scale_up_gbps", "scale-up bandwidth", "GB/s", KnobKind::hardware, false, 1e-3, 1e7},
    {Knob::scale_up_latency_us, "scale_up_latency_us", "scale-up latency", "us", KnobKind::hardware, false, 0, 1e6},
    {Knob::scale_up_domain, "scale_up_domain", "scale-up domain size", "accelerators", KnobKind::hardware, true, 1, 1e6},
    {Knob::scale_out_gbps, "scale_out_gbps", "scale-out bandwidth", "GB/s", KnobKind::hardware, false, 1e-3, 1e7},
    {Knob::scale_out_latency_us, "scale_out_latency_us", "scale-out latency", "us", KnobKind::hardware, false, 0, 1e6},
    {Knob::scale_out_oversubscription, "scale_out_oversubscription", "spine oversubscription (leaf : spine)", "x", KnobKind::hardware,
     false, 1, 64},
    {Knob::scale_out_leaf_domains, "scale_out_leaf_domains", "scale-up domains per leaf (0 = one tier)", "domains", KnobKind::hardware,
     true, 0, 1e7},
    {Knob::scale_out_rail_only, "scale_out_rail_only", "rail-only fabric (0 any-to-any, 1 rail-only)", "", KnobKind::hardware, true, 0, 1},
    {Knob::accelerators_per_node, "accelerators_per_node", "accelerators per node", "", KnobKind::hardware, true, 1, 65536},
    {Knob::nodes, "nodes", "nodes", "", KnobKind::hardware, true, 1, 1e7},
    {Knob::seq_len, "seq_len", "sequence length", "tokens", KnobKind::workload, true, 1, 67108864},
    {Knob::global_batch, "global_batch", "global batch", "sequences", KnobKind::workload, true, 1, huge},
    {Knob::layers, "layers", "layers", "", KnobKind::workload, true, 1, 100000},
    {Knob::hidden, "hidden", "hidden size", "", KnobKind::workload, true, 1, 1048576},
    {Knob::embedding_gib, "embedding_gib", "embedding tables (all rows)", "GiB", KnobKind::workload, false, 1e-6, 1e9},
    {Knob::cuda_graphs, "cuda_graphs", "CUDA graphs (0 eager, 1 captured)", "", KnobKind::workload, true, 0, 1},
}};

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

std::span<const KnobInfo> all_knobs() noexcept { return knobs; }

const KnobInfo& knob_info(Knob k) noexcept { return knobs[static_cast<std::size_t>(k)]; }

std::optional<Knob> knob_from_id(std::string_view id) noexcept {
    for (const auto& k : knobs)
        if (k.id == id) return k.knob;
    return std::nullopt;
}

void set_knob(Config& c, Knob k, double v) noexcept {
    Strategy& s = c.strategy;
    NodeSpec& n = c.node;
    switch (k) {
    case Knob::tp: s.tp = to_int(v); break;
    case Knob::pp: s.pp = to_int(v); break;
    case Knob::dp: s.dp = to_int(v); break;
    case Knob::microbatch: s.microbatch = to_int(v); break;
    case Knob::interleave: s.interleave = to_int(v); break;
    case Knob::recompute: s.recompute = static_cast<Recompute>(std::clamp(to_int(v), 0, 2)); break;
    case Knob::sequence_parallel: s.sequence_parallel = v >= 0.5; break;
    case Knob::zero_stage: s.zero_stage = to_int(v); break;
    case Knob::offload_optimizer: s.offload_optimizer = v >= 0.5; break;
    case Knob::offload_weights: s.offload_weights = v >= 0.5; break;
    case Knob::offload_activations: s.offload_activations = v >= 0.5; break;
    case Knob::dp_overlap: s.dp_overlap = v >= 0.5; break;
    case Knob::tp_overlap: s.tp_overlap = v >= 0.5; break;
    case Knob::cp: s.cp = to_int(v); break;
    case Knob::ep: s.ep = to_int(v); break;
    case Knob::etp: s.etp = to_int(v); break;
    case Knob::zero_shard: s.zero_shard = to_int(v); break;
    case Knob::ep_overlap: s.ep_overlap = v; break;
    case Knob::emb_sharding:
        s.emb_sharding = static_cast<EmbeddingSharding>(std::clamp(to_int(v), 0, 2));
        break;
    case Knob::emb_placement:
        s.emb_placement = static_cast<EmbeddingPlacement>(std::clamp(to_int(v), 0, 2));
        break;
    case Knob::emb_state:
        s.emb_state = static_cast<EmbeddingStateTier>(std::clamp(to_int(v), 0, 2));
        break;
    case Knob::emb_cache_fraction:
        s.emb_cache_fraction = v;
        break;
    case Knob::emb_cache_hit_rate:
        s.emb_cache_hit_rate = v;
        break;
    case Knob::matrix_tflops: {
        // The FP8 and FP4 peaks keep their ratio to the 16-bit one (the same tensor cores).
        const double ratio = n.matrix_fp16_tflops > 0 ? n.matrix_fp8_tflops / n.matrix_fp16_tflops : 0.0;
        const double ratio4 = n.matrix_fp16_tflops > 0 ? n.matrix_fp4_tflops / n.matrix_fp16_tflops : 0.0;
        n.matrix_fp16_tflops = v;
        n.matrix_fp8_tflops = v * ratio;
        n.matrix_fp4_tflops = v * ratio4;
        break;
    }
    case Knob::vector_tflops: n.vector_tflops = v; break;
    case Knob::hbm_gib: n.hbm_capacity_gib = v; break;
    case Knob::hbm_gbps: n.hbm_bandwidth_gbps = v; break;
    case Knob::expanded_gib: n.expanded.capacity_gib = v; break;
    case Knob::expanded_gbps: n.expanded.bandwidth_gbps = v; break;
    case Knob::scale_up_gbps: n.scale_up.bandwidth_gbps = v; break;
    case Knob::scale_up_latency_us: n.scale_up.latency_us = v; break;
    case Knob::scale_up_domain: n.scale_up.domain_size = to_int(v); break;
    case Knob::scale_out_gbps: n.scale_out.bandwidth_gbps = v; break;
    case Knob::scale_out_latency_us: n.scale_out.latency_us = v; break;
    case Knob::scale_out_oversubscription: n.scale_out.oversubscription = v; break;
    case Knob::scale_out_leaf_domains: n.scale_out.leaf_domains = to_int(v); break;
    case Knob::scale_out_rail_only: n.scale_out.rail_only = v >= 0.5; break;
    case Knob::accelerators_per_node: n.accelerators = to_int(v); refill_dp(c); break;
    case Knob::nodes: c.cluster.nodes = to_int(v); refill_dp(c); break;
    case Knob::seq_len: c.model.seq_len = to_int(v); break;
    case Knob::global_batch: c.training.global_batch = to_int(v); break;
    case Knob::cuda_graphs:
        c.training.cuda_graphs = v >= 0.5;
        break;
    case Knob::layers: c.model.layers = to_int(v); break;
    case Knob::embedding_gib:
        dlrm_scale_embedding_bytes(c.dlrm, units::gib_to_bytes(v));
        break;
    case Knob::hidden: {
        ModelSpec& m = c.model;
        const int h = to_int(v);
        const double ffn_ratio = m.hidden > 0 ? double(m.ffn_hidden) / m.hidden : 4.0;
        if (m.heads > 0 && m.head_dim * m.heads == m.hidden && h % m.heads == 0) m.head_dim = h / m.heads;
        m.ffn_hidden = to_int(ffn_ratio * h);
        m.hidden = h;
        break;
    }
    case Knob::count_: break;
    }
}

double get_knob(const Config& c, Knob k) noexcept {
    const Strategy& s = c.strategy;
    const NodeSpec& n = c.node;
    switch (k) {
    case Knob::tp: return s.tp;
    case Knob::pp: return s.pp;
    case Knob::dp: return s.dp;
    case Knob::microbatch: return s.microbatch;
    case Knob::interleave: return s.interleave;
    case Knob::recompute: return static_cast<double>(s.recompute);
    case Knob::sequence_parallel: return s.sequence_parallel;
    case Knob::zero_stage: return s.zero_stage;
    case Knob::offload_optimizer: return s.offload_optimizer;
    case Knob::offload_weights: return s.offload_weights;
    case Knob::offload_activations: return s.offload_activations;
    case Knob::dp_overlap: return s.dp_overlap;
    case Knob::tp_overlap: return s.tp_overlap;
    case Knob::cp: return s.cp;
    case Knob::ep: return s.ep;
    case Knob::etp: return s.etp;
    case Knob::zero_shard: return s.zero_shard;
    case Knob::ep_overlap: return s.ep_overlap;
    case Knob::emb_sharding:
        return static_cast<double>(s.emb_sharding);
    case Knob::emb_placement:
        return static_cast<double>(s.emb_placement);
    case Knob::emb_state:
        return static_cast<double>(s.emb_state);
    case Knob::emb_cache_fraction:
        return s.emb_cache_fraction;
    case Knob::emb_cache_hit_rate:
        return s.emb_cache_hit_rate;
    case Knob::matrix_tflops: return n.matrix_fp16_tflops;
    case Knob::vector_tflops: return n.vector_tflops;
    case Knob::hbm_gib: return n.hbm_capacity_gib;
    case Knob::hbm_gbps: return n.hbm_bandwidth_gbps;
    case Knob::expanded_gib: return n.expanded.capacity_gib;
    case Knob::expanded_gbps: return n.expanded.bandwidth_gbps;
    case Knob::scale_up_gbps: return n.scale_up.bandwidth_gbps;
    case Knob::scale_up_latency_us: return n.scale_up.latency_us;
    case Knob::scale_up_domain: return n.scale_up.domain_size;
    case Knob::scale_out_gbps: return n.scale_out.bandwidth_gbps;
    case Knob::scale_out_latency_us: return n.scale_out.latency_us;
    case Knob::scale_out_oversubscription: return n.scale_out.oversubscription;
    case Knob::scale_out_leaf_domains: return n.scale_out.leaf_domains;
    case Knob::scale_out_rail_only: return n.scale_out.rail_only ? 1.0 : 0.0;
    case Knob::accelerators_per_node: return n.accelerators;
    case Knob::nodes: return c.cluster.nodes;
    case Knob::seq_len: return c.model.seq_len;
    case Knob::global_batch: return static_cast<double>(c.training.global_batch);
    case Knob::cuda_graphs:
        return c.training.cuda_graphs ? 1.0 : 0.0;
    case Knob::layers: return c.model.layers;
    case Knob::hidden: return c.model.hidden;
    case Knob::embedding_gib:
        return units::bytes_to_gib(dlrm_embedding_bytes(c.dlrm));
    case Knob::count_: break;
    }
    return 0;
}

bool knob_for_workload(Knob k, Workload w) noexcept {
    switch (k) {
        case Knob::dp:
        case Knob::dp_overlap:
        case Knob::global_batch:
        case Knob::cuda_graphs:
            return true;
        case Knob::emb_sharding:
        case Knob::emb_placement:
        case Knob::emb_state:
        case Knob::emb_cache_fraction:
        case Knob::emb_cache_hit_rate:
        case Knob::embedding_gib:
            return w == Workload::dlrm;
        case Knob::seq_len:
        case Knob::layers:
        case Knob::hidden:
            return w == Workload::transformer;
        default:
            return knob_info(k).kind == KnobKind::hardware || w == Workload::transformer;
    }
}

}  // namespace comet
