// The traffic of one configuration before the overlap switches decide what of it is exposed:
// pipeline messages, data parallelism and ZeRO/FSDP/HSDP sharding, the expanded memory tier,
// the optimizer step and tied embeddings (docs/model.md, "Data parallelism and sharding").
// timing() (evaluate.cpp) exposes or hides it; the search computes it once per candidate and
// shares it between the candidate's overlap variants.
#include <algorithm>
#include <cmath>

#include "comet/collectives.hpp"
#include "comet/memory.hpp"
#include "model/stages.hpp"

namespace comet {
namespace {

// Pipeline point-to-point: each microbatch crosses v chunk boundaries per rank in each
// direction. Scatter/gather (or sequence parallelism) sends 1/t of the message per TP rank. A
// pipeline whose stages do not all share one scale-up domain crosses scale-out.
void pipeline_traffic(const Config& c, const RankWork& w, const Placement& pl, Traffic& f) noexcept {
    const Strategy& s = c.strategy;
    const int t = pl.t, p = pl.p, d = pl.d, v = pl.v;
    if (p <= 1) return;
    const bool split = pp_message_split(s);
    const double msg = split ? w.pp_bytes / t : w.pp_bytes;
    const long long pp_stride = static_cast<long long>(t) * pl.cp * d;  // (tp x cp x dp fits: the split was checked)
    const bool same_domain = pp_stride * p <= placement_domain(c.node, c.cluster.nodes);
    // The pipeline's own span: its stages' neighbours may sit under other leaves.
    const GroupSpan pp_span = span_group(p, static_cast<int>(std::min<long long>(pp_stride, 1 << 30)), c.node, c.cluster.nodes);
    double one = p2p_s(msg, same_domain, pp_span);
    if (split && !pl.sp) one += w.pp_gather;
    f.pp_one = one;
    f.pp_mb_total = 2.0 * v * one;
}

// One group of parameters that data parallelism replicates: the replicated parameters (over the
// dp x cp ranks that hold them, tp apart) or the routed experts (over the expert-data-parallel
// ranks, ep x etp apart).
struct ReplicatedParams {
    double params = 0;  // per rank
    int replicas = 1;   // ranks holding a copy
    int stride = 1;     // distance between them
    double shard = 1;   // ZeRO's sharding group (HSDP: fewer than the replicas)
    double units = 1;   // FSDP units (gathered and reduced one at a time)
};

// Data parallelism and ZeRO for one group. Hierarchical sharding (HSDP) shards over a group of
// `shard` ranks and all-reduces each shard across the replicas once per iteration. `gathers`:
// the weight gathers per microbatch under ZeRO-3 (forward, backward, the recomputed forward).
void data_parallel_traffic(const Config& c, const StateBytes& sb, double gathers, const ReplicatedParams& g, Traffic& f) noexcept {
    if (g.replicas <= 1 || g.params <= 0) return;
    const Strategy& s = c.strategy;
    const NodeSpec& node = c.node;
    const double grad_bytes = g.params * sb.gradients;
    const double weight_bytes = g.params * sb.gathered;  // the 16-bit copy is gathered
    const int shard = std::clamp(static_cast<int>(g.shard), 1, g.replicas);
    if (s.zero_stage <= 0) {
        f.dp_grad_reduce += all_reduce_s(grad_bytes, span_group(g.replicas, g.stride, node, c.cluster.nodes, c.software));
        return;
    }
    const GroupSpan group = span_group(shard, g.stride, node, c.cluster.nodes);
    double across = 0;  // HSDP: the shard's gradient all-reduced across the replica groups
    if (shard < g.replicas)
        across = all_reduce_s(
            grad_bytes / shard,
            span_group(g.replicas / shard, static_cast<int>(std::min<long long>(static_cast<long long>(g.stride) * shard, 1 << 30)), node,
                       c.cluster.nodes, c.software));
    if (s.zero_stage == 1) {
        f.dp_grad_reduce += reduce_scatter_s(grad_bytes, group) + across;
        f.dp_weight_gather += all_gather_s(weight_bytes, group);
    } else if (s.zero_stage == 2) {
        // ZeRO-2 keeps only its shard of the gradients, so each microbatch's gradients are
        // reduce-scattered into the shards as its backward produces them (DeepSpeed's stage 2
        // with gradient accumulation), not once per iteration.
        f.dp_mb_grad += reduce_scatter_s(grad_bytes, group);
        f.dp_grad_reduce += across;
        f.dp_weight_gather += all_gather_s(weight_bytes, group);
    } else {
        // ZeRO-3 / FSDP, per unit (a layer; the embedding and head one more): gather a unit's
        // weights for forward, again for backward (and for the recomputed forward),
        // reduce-scatter its gradients, every microbatch. Each collective is its own ring with its
        // own latency steps; with one unit of lookahead it hides behind the neighbouring unit's
        // compute, except the first gather of the forward and the last reduce-scatter of the
        // backward, which have nothing to hide behind.
        const double gather_unit = all_gather_s(weight_bytes / g.units, group);
        const double reduce_unit = reduce_scatter_s(grad_bytes / g.units, group);
        f.dp_mb_total += g.units * (gathers * gather_unit + reduce_unit);
        f.dp_mb_edge += gather_unit + reduce_unit;
        f.dp_grad_reduce += across;
    }
}

// The expanded memory tier (offloaded weights and activations per microbatch) and the
// optimizer step, which streams the local model states once (read the gradient, read and
// write the states, write the new 16-bit weights), from HBM or from the expanded tier.
void state_traffic(const Config& c, const RankWork& w, const Placement& pl, Traffic& f) noexcept {
    const Strategy& s = c.strategy;
    const StateBytes& sb = pl.sb;
    const ExpandedShare& xs = pl.xs;
    const double fullest = pl.layout.max_layers();
    const ZeroDivisors zd = zero_divisors(s, pl);
    const double weight_bytes = pl.rank_params * sb.weights;
    const double expert_weight_bytes = pl.expert_params * sb.weights;
    if (s.offload_weights || s.offload_activations) {
        double bytes = 0, transfers = 0;
        if (s.offload_weights) {
            const double passes = s.recompute == Recompute::full ? 2.0 + pl.rshare : 2.0;
            bytes += passes * weight_bytes / zd.weights;
            if (expert_weight_bytes > 0) bytes += passes * expert_weight_bytes / zd.expert_weights;
            transfers += passes * fullest;
        }
        if (s.offload_activations) {
            bytes += 2.0 * fullest * w.act_layer;  // out after forward, back before backward
            transfers += 2.0 * fullest;
        }
        f.mem_mb_total = bytes / xs.bytes_per_s + transfers * xs.latency_s;
    }
    double opt_params = pl.rank_params / zd.states;
    if (pl.expert_params > 0) opt_params += pl.expert_params / zd.expert_states;
    const double opt_bytes_per_param = optimizer_step_bytes_per_parameter(sb);
    f.opt_hbm_s = opt_params * opt_bytes_per_param / w.hbm_bytes_per_s + fullest * w.launch_s;
    if (s.offload_optimizer) {
        // States live in the expanded tier: the step streams them there and back, and the
        // gradients go down and the new weights come up.
        const double bytes = opt_params * (2.0 * sb.optimizer + sb.gradients + sb.weights);
        const double t_tier = bytes / xs.bytes_per_s + fullest * xs.latency_s;
        f.opt_mem_exposed = std::max(0.0, t_tier - f.opt_hbm_s);
    }
}

}  // namespace

Traffic traffic(const Config& c, const RankWork& w, const Placement& pl) noexcept {
    const Strategy& s = c.strategy;
    const int t = pl.t, p = pl.p, d = pl.d;
    const double fullest = pl.layout.max_layers();
    Traffic f;
    pipeline_traffic(c, w, pl, f);

    // FSDP units: the stage's layers, plus one for its share of the embedding, head and norm.
    const double gathers = s.recompute == Recompute::full ? 2.0 + pl.rshare : 2.0;
    const double units = std::max(1.0, fullest) + 1.0;
    const double expert_units = std::max(1.0, std::round(fullest * w.moe_share));
    data_parallel_traffic(c, pl.sb, gathers, {pl.rank_params, pl.replicas, t, static_cast<double>(pl.shard), units}, f);
    data_parallel_traffic(c, pl.sb, gathers, {pl.expert_params, pl.expert_replicas, pl.expert_stride, pl.expert_shard, expert_units}, f);

    state_traffic(c, w, pl, f);

    // Tied embeddings with a pipeline: first and last stage all-reduce the embedding gradient
    // once per iteration.
    if (p > 1 && c.model.tied_embeddings) {
        const long long stride = static_cast<long long>(t) * pl.cp * d * (p - 1);
        const GroupSpan pair = span_group(2, static_cast<int>(std::min<long long>(stride, 1 << 30)), c.node, c.cluster.nodes, c.software);
        f.other = all_reduce_s(w.embedding_params / t * pl.sb.gradients, pair);
    }
    return f;
}

}  // namespace comet
