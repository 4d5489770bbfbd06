#include "comet/evaluate.hpp"

#include <algorithm>
#include <cmath>

#include "comet/check.hpp"
#include "comet/collectives.hpp"
#include "comet/compute.hpp"
#include "comet/dlrm.hpp"
#include "comet/memory.hpp"
#include "comet/pipeline.hpp"
#include "comet/units.hpp"
#include "comet/workload.hpp"
#include "model/stages.hpp"

namespace comet {

long long accelerators_used(const Strategy& s) noexcept { return static_cast<long long>(s.tp) * s.cp * s.pp * s.dp; }

double items_per_iteration(const Config& c) noexcept {
    return static_cast<double>(c.training.global_batch) * (c.workload == Workload::dlrm ? 1.0 : static_cast<double>(c.model.seq_len));
}

const char* item_name(Workload w) noexcept { return w == Workload::dlrm ? "samples" : "tokens"; }

long long accelerators_available(const Config& c) noexcept { return static_cast<long long>(c.cluster.nodes) * c.node.accelerators; }

ExpandedShare expanded_share(const NodeSpec& node) noexcept {
    const ExpandedMemory& x = node.expanded;
    double sharers = 1.0;
    if (x.attach == ExpandedAttach::per_node) sharers = node.accelerators;
    if (x.attach == ExpandedAttach::pooled) sharers = static_cast<double>(node.accelerators) * x.pool_nodes;
    return {units::gib_to_bytes(x.capacity_gib) / sharers, units::gbps_to_bytes_per_s(x.bandwidth_gbps) / sharers,
            units::us_to_s(x.latency_us)};
}

Result infeasible(Infeasible why, double a, double b) noexcept {
    Result r;
    r.feasible = false;
    r.reason = why;
    r.detail_a = a;
    r.detail_b = b;
    return r;
}

// Checks that only depend on the tensor-parallel shape of the work.
Infeasible rank_problem(const Config& c, double& a, double& b) noexcept {
    const Strategy& s = c.strategy;
    const ModelSpec& m = c.model;
    if (m.heads % s.tp != 0) {
        a = s.tp;
        b = m.heads;
        return Infeasible::tp_heads;
    }
    if (m.kv_heads % s.tp != 0) {
        a = s.tp;
        b = m.kv_heads;
        return Infeasible::tp_kv_heads;
    }
    if (m.ffn_hidden % s.tp != 0) {
        a = s.tp;
        b = m.ffn_hidden;
        return Infeasible::tp_ffn;
    }
    if (s.cp > 1 && m.seq_len % (2LL * s.cp) != 0) {
        a = s.cp;
        b = m.seq_len;
        return Infeasible::cp_seq;
    }
    if (s.sequence_parallel && m.seq_len % (static_cast<long long>(s.tp) * s.cp) != 0) {
        a = double(s.tp) * s.cp;
        b = m.seq_len;
        return Infeasible::sequence_parallel_seq;
    }
    if (is_fp8(c.training.precision) && !(c.node.matrix_fp8_tflops > 0)) return Infeasible::fp8_unsupported;
    if (is_fp4(c.training.precision) && !(c.node.matrix_fp4_tflops > 0)) return Infeasible::fp4_unsupported;
    if (!m.is_moe() && (s.ep > 1 || s.etp > 1)) {
        a = s.ep;
        b = s.etp;
        return Infeasible::ep_dense_model;
    }
    if (m.is_moe() && m.experts % s.ep != 0) {
        a = s.ep;
        b = m.experts;
        return Infeasible::ep_experts;
    }
    if (m.is_moe() && m.expert_ffn_hidden % s.etp != 0) {
        a = s.etp;
        b = m.expert_ffn_hidden;
        return Infeasible::etp_ffn;
    }
    return Infeasible::none;
}

// Checks of the rest of the strategy: does it divide the cluster, the layers and the batch?
Infeasible split_problem(const Config& c, double& a, double& b, const StageLayout* layout) noexcept {
    const Infeasible why = split_layout_problem(c, a, b, layout);
    return why != Infeasible::none ? why : split_sharding_problem(c, a, b);
}

Infeasible split_layout_problem(const Config& c, double& a, double& b, const StageLayout* layout) noexcept {
    const Strategy& s = c.strategy;
    const ModelSpec& m = c.model;
    if (accelerators_used(s) > accelerators_available(c)) {
        a = double(accelerators_used(s));
        b = double(accelerators_available(c));
        return Infeasible::too_many_accelerators;
    }
    if (s.interleave > 1 && s.pp == 1) {
        a = s.interleave;
        return Infeasible::interleave_needs_pp;
    }
    if (!(layout ? layout->ok : model_stage_layout(m, s).ok)) {
        a = double(s.pp) * s.interleave;
        b = m.layers;
        return Infeasible::pp_layers;
    }
    const long long per_step = static_cast<long long>(s.dp) * s.microbatch;
    if (c.training.global_batch % per_step != 0) {
        a = double(per_step);
        b = double(c.training.global_batch);
        return Infeasible::batch_split;
    }
    const long long microbatches = c.training.global_batch / per_step;
    if (s.interleave > 1 && microbatches % s.pp != 0) {
        a = static_cast<double>(microbatches);
        b = s.pp;
        return Infeasible::interleave_microbatches;
    }
    const long long replicas = static_cast<long long>(s.dp) * s.cp;
    if (m.is_moe() && (static_cast<long long>(s.tp) * replicas) % (static_cast<long long>(s.ep) * s.etp) != 0) {
        a = double(s.ep) * s.etp;
        b = double(s.tp) * double(replicas);
        return Infeasible::ep_group;
    }
    return Infeasible::none;
}

Infeasible split_sharding_problem(const Config& c, double& a, double& b) noexcept {
    const Strategy& s = c.strategy;
    const long long replicas = static_cast<long long>(s.dp) * s.cp;
    if (s.zero_shard > 0 && replicas % s.zero_shard != 0) {
        a = s.zero_shard;
        b = double(replicas);
        return Infeasible::zero_shard_group;
    }
    const bool offload = s.offload_optimizer || s.offload_weights || s.offload_activations;
    if (offload && !(c.node.expanded.capacity_gib > 0)) return Infeasible::offload_without_tier;
    return Infeasible::none;
}

namespace {

// Each communication hides behind its own compute, so that no compute is counted twice as a
// window: each TP collective behind the GEMM it is paired with, the EP all-to-all behind the
// routed-expert GEMMs and, with context parallelism, the CP ring behind the attention core.
// `split` (optional) receives the same kernel times by bounding rate, weighted by `weight`.
PassTimes layer_times(const LayerWork& lw, Recompute rc, const ComputeRates& rates, LayerSplit* split = nullptr,
                      double weight = 1.0) noexcept {
    PassTimes p;
    double hf = 0, hb = 0, hr = 0;  // the host's issue time per pass
    for (int i = 0; i < lw.count; ++i) {
        const Op& op = lw.ops[static_cast<std::size_t>(i)];
        const double f = pass_time_s(op.fwd, op.kind, rates);
        const double b = pass_time_s(op.bwd, op.kind, rates);
        hf += host_issue_s(op.fwd, rates);
        hb += host_issue_s(op.bwd, rates);
        p.fwd += f;
        p.bwd += b;
        p.fwd_flops += op.fwd.flops;
        p.bwd_flops += op.bwd.flops;
        const bool recomputed = rc == Recompute::full || (rc == Recompute::selective && op.attention_core);
        if (split) {
            TimeSplit fs, bs;
            fs.add(op.fwd, op.kind, rates);
            bs.add(op.bwd, op.kind, rates);
            split->fwd.add(fs, weight);
            split->bwd.add(bs, weight);
            if (recomputed) split->recompute.add(fs, weight);
        }
        if (recomputed) {
            p.recompute += f;
            p.recompute_flops += op.fwd.flops;
            hr += host_issue_s(op.fwd, rates);
        }
        if (op.tp_pair >= 0 && op.tp_pair < 4) {
            const auto k = static_cast<std::size_t>(op.tp_pair);
            p.tp_window_fwd[k] += f;
            p.tp_window_bwd[k] += b;
            if (recomputed) p.tp_window_rec[k] += f;
        }
        if (op.attention_core) {
            p.attention_fwd += f;
            p.attention_bwd += b;
            if (recomputed) p.attention_recompute += f;
        }
        if (op.expert) {
            p.expert_fwd += f;
            p.expert_bwd += b;
            if (recomputed) p.expert_recompute += f;
        }
    }
    // A pass is never faster than the host issues its kernels (the accelerator then idles).
    // Backward has no host synchronisation: the host runs ahead of the accelerator across
    // layers, so the slower of the two paces the pass. A forward pass with a host sync drains
    // the accelerator's queue there, and host and accelerator time add up around it.
    if (split) {
        split->host_fwd += weight * hf;
        split->host_bwd += weight * hb;
        split->host_recompute += weight * hr;
    }
    const double fwd_synced = synced_forward_s(lw, rates);
    const double kernels_fwd = p.fwd, kernels_bwd = p.bwd, kernels_rec = p.recompute;
    p.fwd = std::max({p.fwd, hf, fwd_synced});
    p.bwd = std::max(p.bwd, hb);
    const double rec_synced = rc == Recompute::full ? fwd_synced : 0.0;
    p.recompute = std::max({p.recompute, hr, rec_synced});
    // What the host (or a host sync) adds to a pass the accelerator spends idle.
    p.idle_fwd = p.fwd - kernels_fwd;
    p.idle_bwd = p.bwd - kernels_bwd;
    p.idle_recompute = p.recompute - kernels_rec;
    return p;
}

// The mean of `nd` dense and `nm` MoE layers (exactly the dense layer when there is no MoE).
PassTimes mean_layer(const PassTimes& dense, const PassTimes& moe, double nd, double nm) noexcept {
    if (nm == 0) return dense;
    if (nd == 0) return moe;
    const double n = nd + nm;
    auto mix = [&](double PassTimes::*f) noexcept { return (nd * dense.*f + nm * moe.*f) / n; };
    PassTimes p;
    for (double PassTimes::*f : {&PassTimes::fwd_flops, &PassTimes::bwd_flops, &PassTimes::recompute_flops, &PassTimes::fwd,
                                 &PassTimes::bwd, &PassTimes::recompute, &PassTimes::attention_fwd, &PassTimes::attention_bwd,
                                 &PassTimes::attention_recompute, &PassTimes::expert_fwd, &PassTimes::expert_bwd,
                                 &PassTimes::expert_recompute, &PassTimes::idle_fwd, &PassTimes::idle_bwd, &PassTimes::idle_recompute})
        p.*f = mix(f);
    for (std::size_t k = 0; k < 4; ++k) {
        p.tp_window_fwd[k] = (nd * dense.tp_window_fwd[k] + nm * moe.tp_window_fwd[k]) / n;
        p.tp_window_bwd[k] = (nd * dense.tp_window_bwd[k] + nm * moe.tp_window_bwd[k]) / n;
        p.tp_window_rec[k] = (nd * dense.tp_window_rec[k] + nm * moe.tp_window_rec[k]) / n;
    }
    return p;
}

// Communication of which `overlap` (0..1) hides behind `window` of compute; the hidden part
// still costs `overlap_contention` of itself (it shares the SMs and HBM with the compute).
double partly_exposed(double comm, double window, double overlap) noexcept { return exposed_comm_s(comm, window, overlap); }

double op_time(const Op& op, const ComputeRates& r) noexcept { return pass_time_s(op.fwd, op.kind, r) + pass_time_s(op.bwd, op.kind, r); }

// Time of overlappable communication that cannot hide behind `window` of compute.
// Overlapped, a collective's kernels still take streaming multiprocessors and HBM bandwidth
// from the computation they hide behind: the hidden part costs `overlap_contention` of itself.
double exposed(double comm, double window, bool overlap) noexcept { return partly_exposed(comm, window, overlap ? 1.0 : 0.0); }

}  // namespace

namespace {
WorkShape work_shape(const Strategy& s) noexcept {
    return WorkShape{s.tp, s.sequence_parallel && s.tp > 1, s.microbatch, s.cp, s.ep, s.etp};
}
}  // namespace

RankCompute rank_memory(const Config& c) noexcept {
    const ModelSpec& m = c.model;
    const TrainingSpec& tr = c.training;
    const Strategy& s = c.strategy;
    const WorkShape shape = work_shape(s);
    RankCompute w;
    const double nm = moe_layer_count(m);
    const double nd = m.layers - nm;
    w.moe_share = nm / m.layers;
    auto mean = [&](double dense, double moe) noexcept { return nm == 0 ? dense : (nd * dense + nm * moe) / m.layers; };
    w.act_layer = mean(activation_bytes_per_layer(m, tr, shape, s.recompute, false),
                       nm == 0 ? 0.0 : activation_bytes_per_layer(m, tr, shape, s.recompute, true));
    w.act_layer_full = mean(activation_bytes_per_layer(m, tr, shape, Recompute::none, false),
                            nm == 0 ? 0.0 : activation_bytes_per_layer(m, tr, shape, Recompute::none, true));
    w.layer_params = mean(layer_parameters(m), moe_layer_shared_parameters(m));
    w.expert_params = nm == 0 ? 0.0 : nm * moe_layer_expert_parameters(m) / m.layers;
    w.active_params = active_parameters(m);
    if (nm > 0) {
        // Token buffers of the EP all-to-all are sized by the routed tokens.
        w.ep_bytes = ep_buffer_bytes(m, shape);
        w.etp_bytes = etp_buffer_bytes(m, shape);
    }
    w.embedding_params = embedding_parameters(m);
    w.head_params = lm_head_parameters(m);
    w.final_norm_params = final_norm_parameters(m);
    w.mtp_params = mtp_extra_parameters(m);
    w.total_params = total_parameters(m);
    return w;
}

LayerComputeKey layer_compute_key(const Strategy& s) noexcept {
    const WorkShape w = work_shape(s);
    return {w.tp, w.sequence_parallel, w.microbatch, w.cp, w.ep, w.etp, s.recompute};
}

LayerCompute layer_compute(const Config& c, LayerSplit* split) noexcept {
    const ModelSpec& m = c.model;
    const TrainingSpec& tr = c.training;
    const Strategy& s = c.strategy;
    LayerCompute w;
    const ComputeRates rates = compute_rates(c.node, tr, c.software);
    const WorkShape shape = work_shape(s);
    const LayerWork lw = layer_work(m, tr, c.software, shape);
    const EndsWork ends = ends_work(m, tr, shape);
    const double nm = moe_layer_count(m);
    // Sliding-window layers in the model's proportion (the same share of dense and MoE layers).
    const double sw = sliding_layer_share(m);
    // The split's weights are those of the means below: the layer kind's share of the layers
    // (mean_layer() keeps one kind whole when the other is absent), then the window's share.
    if (split) *split = LayerSplit{};
    const double layers = m.layers;
    auto times = [&](const LayerWork& full, bool moe_layer) noexcept {
        const double kind = nm == 0 ? (moe_layer ? 0.0 : 1.0) : (moe_layer ? nm : layers - nm) / layers;
        const PassTimes f = layer_times(full, s.recompute, rates, split, kind * (1.0 - sw));
        if (sw == 0) return f;
        return mean_layer(f, layer_times(layer_work(m, tr, c.software, shape, moe_layer, true), s.recompute, rates, split, kind * sw),
                          1.0 - sw, sw);
    };
    const PassTimes dense = times(lw, false);
    PassTimes moe;
    if (nm > 0) {
        moe = times(layer_work(m, tr, c.software, shape, true), true);
        w.moe_expert_fwd = moe.expert_fwd;
        w.moe_expert_bwd = moe.expert_bwd;
        w.moe_expert_recompute = moe.expert_recompute;
    }
    w.layer = mean_layer(dense, moe, m.layers - nm, nm);
    w.tp_bytes = lw.tp_bytes;
    w.pp_bytes = lw.pp_bytes;
    w.cp_kv_bytes = lw.cp_kv_bytes;

    // The model's ends: the embedding on the first rank, final norm, LM head and loss on the last.
    w.first_extra = op_time(ends.embedding, rates);
    w.last_extra = op_time(ends.final_norm, rates) + op_time(ends.lm_head, rates) + op_time(ends.loss, rates);
    // Multi-token prediction: per module the next tokens' embedding, two norms and the
    // projection before its layer (priced with the layers of the last stage), then the final
    // norm, the LM head and the loss once more.
    if (m.mtp_layers > 0)
        w.last_extra += m.mtp_layers * (op_time(ends.embedding, rates) + 3.0 * op_time(ends.final_norm, rates) +
                                        op_time(ends.mtp_projection, rates) + op_time(ends.lm_head, rates) + op_time(ends.loss, rates));
    if (split) {
        auto add = [&rates](TimeSplit& to, const Op& op, double n) noexcept {
            TimeSplit t;
            t.add(op.fwd, op.kind, rates);
            t.add(op.bwd, op.kind, rates);
            to.add(t, n);
        };
        add(split->first, ends.embedding, 1.0);
        add(split->last, ends.final_norm, 1.0);
        add(split->last, ends.lm_head, 1.0);
        add(split->last, ends.loss, 1.0);
        if (m.mtp_layers > 0) {
            const double n = m.mtp_layers;
            add(split->last, ends.embedding, n);
            add(split->last, ends.final_norm, 3.0 * n);
            add(split->last, ends.mtp_projection, n);
            add(split->last, ends.lm_head, n);
            add(split->last, ends.loss, n);
        }
    }
    return w;
}

RankCompute rank_compute(const Config& c, const RankCompute* memory, const LayerCompute* layers) noexcept {
    const ModelSpec& m = c.model;
    const Strategy& s = c.strategy;

    // Every field below the memory part is assigned, never accumulated, so a memory part that
    // carries another evaluation's times is fully overwritten.
    RankCompute w = memory ? *memory : rank_memory(c);
    const ComputeRates rates = compute_rates(c.node, c.training, c.software);
    w.hbm_bytes_per_s = rates.hbm_bytes_per_s;
    w.launch_s = rates.launch_s;
    const LayerCompute lc = layers ? *layers : layer_compute(c);
    w.layer = lc.layer;
    w.moe_expert_fwd = lc.moe_expert_fwd;
    w.moe_expert_bwd = lc.moe_expert_bwd;
    w.moe_expert_recompute = lc.moe_expert_recompute;
    w.tp_bytes = lc.tp_bytes;
    w.pp_bytes = lc.pp_bytes;
    w.cp_kv_bytes = lc.cp_kv_bytes;
    w.first_extra = lc.first_extra;
    w.last_extra = lc.last_extra;

    const double fwd_flops = forward_gemm_flops_per_sequence(m);
    const double head_fwd = 2.0 * m.seq_len * static_cast<double>(m.hidden) * m.vocab;
    w.model_flops_per_sequence = 3.0 * fwd_flops;
    w.model_flops_causal_per_sequence = 3.0 * forward_gemm_flops_per_sequence(m, KeyCount::causal);
    w.recompute_flops_per_sequence = 0;
    if (s.recompute == Recompute::full) w.recompute_flops_per_sequence = fwd_flops - head_fwd;
    if (s.recompute == Recompute::selective) w.recompute_flops_per_sequence = selective_recompute_flops_per_sequence(m);
    return w;
}

RankWork rank_comm(const Config& c, const RankCompute& rc) noexcept {
    const Strategy& s = c.strategy;
    const NodeSpec& node = c.node;
    const int t = s.tp;
    const bool sp = s.sequence_parallel && t > 1;
    RankWork w;
    static_cast<RankCompute&>(w) = rc;

    // Tensor parallelism: two collectives per layer in forward, two in backward, two more when
    // the forward is recomputed. Sequence parallelism turns each all-reduce into a
    // reduce-scatter plus an all-gather of the same bytes. The vocabulary-parallel embedding
    // reduces its output over TP, and the LM head its input gradient: one collective each.
    w.tp_group = span_group(t, 1, c.node, c.cluster.nodes, c.software);
    if (t > 1)
        w.tp_one =
            sp ? reduce_scatter_s(rc.tp_bytes, w.tp_group) + all_gather_s(rc.tp_bytes, w.tp_group) : all_reduce_s(rc.tp_bytes, w.tp_group);
    const double tp_fwd = 2.0 * w.tp_one;
    const double tp_bwd = 2.0 * w.tp_one;
    const double tp_rec = s.recompute == Recompute::full ? tp_fwd : 0.0;
    w.tp_layer_total = tp_fwd + tp_bwd;
    w.tp_rec_total = tp_rec;
    // What each pass's compute does not hide, per pass (forward, backward, recomputed forward),
    // before the pass's idle accelerator time absorbs it (below); TP per tp_overlap choice.
    struct PassExposure {
        double tp[2][3] = {};
        double ep[3] = {}, cp[3] = {};
    } x;
    x.tp[0][0] = x.tp[1][0] = tp_fwd;
    x.tp[0][1] = x.tp[1][1] = tp_bwd;
    x.tp[0][2] = x.tp[1][2] = tp_rec;
    // Overlapping TP collectives with GEMMs (as Transformer Engine's userbuffers do) needs the
    // peers' memory over the scale-up fabric: a TP group that leaves the domain cannot.
    const bool can_overlap = w.tp_group.outer == 1;
    // Transformer Engine pairs each collective with the GEMM next to it: with sequence
    // parallelism the all-gather before QKV and before the MLP, the reduce-scatter after the
    // output projection and after the MLP (each half of tp_one); without, the all-reduce after
    // the output projection and after the MLP. A collective hides only behind its partner
    // (the same GEMM's backward in backward); a collective without a partner (an MoE block's,
    // in the token dispatcher) stays exposed.
    if (can_overlap) {
        const PassTimes& lt = rc.layer;
        double fwd = 0, bwd = 0, rec = 0;
        for (std::size_t k = sp ? 0 : 1; k < 4; k += sp ? 1 : 2) {
            const double one = sp ? 0.5 * w.tp_one : w.tp_one;
            fwd += exposed(one, lt.tp_window_fwd[k], true);
            bwd += exposed(one, lt.tp_window_bwd[k], true);
            if (tp_rec > 0) rec += exposed(one, lt.tp_window_rec[k], true);
        }
        x.tp[1][0] = fwd;
        x.tp[1][1] = bwd;
        x.tp[1][2] = rec;
    }

    // Pipeline messages split across the TP ranks are all-gathered inside the TP group.
    if (t > 1 && !sp) w.pp_gather = all_gather_s(rc.pp_bytes, w.tp_group);

    // Context parallelism (ring attention): cp - 1 steps, each passing one key/value chunk to
    // the next rank of the CP group while attention works on the chunk it has. Backward
    // passes the chunk again and its gradient; recomputed attention passes it once more.
    // The ring is as fast as its slowest hop: scale-out once the group leaves the domain.
    if (s.cp > 1) {
        const GroupSpan cp_group = span_group(s.cp, t, node, c.cluster.nodes);
        const double ring = (s.cp - 1.0) * p2p_s(rc.cp_kv_bytes, cp_group.outer == 1, cp_group);
        const double fwd = ring, bwd = 2.0 * ring;
        const double rec = s.recompute != Recompute::none ? ring : 0.0;
        w.cp_layer_total = fwd + bwd;
        w.cp_rec_total = rec;
        x.cp[0] = exposed(fwd, rc.layer.attention_fwd, true);
        x.cp[1] = exposed(bwd, rc.layer.attention_bwd, true);
        x.cp[2] = exposed(rec, rc.layer.attention_recompute, true);
    }

    // Expert parallelism: each MoE layer dispatches its routed token copies to the experts
    // and combines the results (two all-to-alls over the EP group, whose members sit etp
    // ranks apart) in forward, two in backward, two more in a recomputed forward; expert
    // tensor parallelism all-gathers the copies in the ETP group and reduce-scatters the
    // outputs. `ep_overlap` of it hides behind the expert GEMMs.
    if (rc.moe_share > 0) {
        const GroupSpan ep_group = span_group(s.ep, s.etp, node, c.cluster.nodes);
        double pass = 2.0 * (s.ep_dispatch == EpDispatch::hierarchical
                                 ? hierarchical_all_to_all_s(rc.ep_bytes, ep_group,
                                                             dispatch_dedup(c.model.experts, c.model.experts_per_token, ep_group.outer))
                                 : all_to_all_s(rc.ep_bytes, ep_group));
        if (s.etp > 1) {
            const GroupSpan etp_group = span_group(s.etp, 1, node, c.cluster.nodes);
            pass += all_gather_s(rc.etp_bytes, etp_group) + reduce_scatter_s(rc.etp_bytes, etp_group);
        }
        const double rec = s.recompute == Recompute::full ? pass : 0.0;
        w.ep_layer_total = 2.0 * pass;
        w.ep_rec_total = rec;
        x.ep[0] = partly_exposed(pass, rc.moe_expert_fwd, s.ep_overlap);
        x.ep[1] = partly_exposed(pass, rc.moe_expert_bwd, s.ep_overlap);
        x.ep[2] = partly_exposed(rec, rc.moe_expert_recompute, s.ep_overlap);
    }

    // A pass bound by host issue leaves the accelerator idle for `idle` of its time: its
    // collectives (NCCL and userbuffers kernels, issued with the pass and not waited on by the
    // host) run in that time before they delay the pass. Per pass the layer then takes
    // max(kernels + exposed communication, host issue), never more because its kernels got
    // faster (docs/model.md, "Host-bound kernels"). The pass's TP, EP (weighed by the MoE
    // layers' share, as the mean layer's idle time is) and CP parts keep their proportions.
    const double idle[3] = {rc.layer.idle_fwd, rc.layer.idle_bwd, rc.layer.idle_recompute};
    for (int ov = 0; ov < 2; ++ov) {
        double keep[3];
        for (int k = 0; k < 3; ++k) {
            const double e = x.tp[ov][k] + rc.moe_share * x.ep[k] + x.cp[k];
            keep[k] = e > 0 ? std::max(0.0, e - idle[k]) / e : 0.0;
        }
        w.tp_layer_exposed[ov] = keep[0] * x.tp[ov][0] + keep[1] * x.tp[ov][1];
        w.tp_rec_exposed[ov] = keep[2] * x.tp[ov][2];
        w.ep_layer_exposed[ov] = keep[0] * x.ep[0] + keep[1] * x.ep[1];
        w.ep_rec_exposed[ov] = keep[2] * x.ep[2];
        w.cp_layer_exposed[ov] = keep[0] * x.cp[0] + keep[1] * x.cp[1];
        w.cp_rec_exposed[ov] = keep[2] * x.cp[2];
    }
    return w;
}

Placement place(const Config& c, const RankWork& w) noexcept {
    const Strategy& s = c.strategy;
    Placement pl;
    pl.t = s.tp;
    pl.p = s.pp;
    pl.d = s.dp;
    pl.v = s.interleave;
    pl.sp = s.sequence_parallel && s.tp > 1;
    pl.mbs = static_cast<int>(c.training.global_batch / (static_cast<long long>(s.dp) * s.microbatch));
    pl.layout = model_stage_layout(c.model, s);
    pl.rshare = full_recompute_share(c.model.layers, s);
    pl.sb = state_bytes_per_parameter(c.training, c.software);
    // A pipeline keeps a copy of tied embeddings on the last stage for the LM head.
    const double t = s.tp;
    const double ends_params = w.embedding_params / t + w.head_params / t + w.final_norm_params;
    const double head_copy = (c.model.tied_embeddings ? w.embedding_params : w.head_params) / t;
    pl.first_ends_params = s.pp == 1 ? ends_params : w.embedding_params / t;
    pl.last_ends_params = s.pp == 1 ? ends_params : head_copy + w.final_norm_params;
    // Multi-token prediction: each module's projection and norms, and with a pipeline the last
    // stage's copy of an untied embedding (it embeds the next tokens).
    pl.last_ends_params += w.mtp_params / t;
    if (c.model.mtp_layers > 0 && s.pp > 1 && !c.model.tied_embeddings) pl.last_ends_params += w.embedding_params / t;
    pl.layer_params_rank = w.layer_params / t;
    pl.first_params = pl.layout.first * pl.layer_params_rank + pl.first_ends_params;
    pl.last_params = pl.layout.last * pl.layer_params_rank + pl.last_ends_params;
    pl.mid_params = s.pp > 2 ? pl.layout.mid_hi * pl.layer_params_rank : 0.0;
    pl.rank_params = std::max({pl.first_params, pl.last_params, pl.mid_params});
    pl.cp = s.cp;
    const long long experts_group = static_cast<long long>(s.ep) * s.etp;
    pl.expert_params_layer = w.expert_params / static_cast<double>(experts_group);
    pl.expert_params = pl.layout.max_layers() * pl.expert_params_layer;
    // Group sizes and strides in int (as GroupSpan has them), clamped: absurd strategies stay finite.
    auto clamp_int = [](long long v) noexcept { return static_cast<int>(std::clamp<long long>(v, 1, 1 << 30)); };
    const long long replicas = static_cast<long long>(s.dp) * s.cp;
    pl.replicas = clamp_int(replicas);
    pl.expert_replicas = clamp_int(static_cast<long long>(s.tp) * replicas / experts_group);
    pl.expert_stride = clamp_int(experts_group);
    place_sharding(s, pl);
    pl.xs = expanded_share(c.node);
    return pl;
}

void place_sharding(const Strategy& s, Placement& pl) noexcept {
    pl.shard = s.zero_shard > 0 ? s.zero_shard : pl.replicas;
    // Hierarchical sharding keeps the same fraction of the expert replicas in a shard group.
    pl.expert_shard = std::max(1.0, static_cast<double>(pl.expert_replicas) * pl.shard / pl.replicas);
}

bool fits(const Config& c, const RankWork& w, const Placement& pl, Result& r, bool verdict_only) noexcept {
    const ModelSpec& m = c.model;
    const NodeSpec& node = c.node;
    const Strategy& s = c.strategy;
    const int t = pl.t, p = pl.p, v = pl.v, mbs = pl.mbs;
    const bool sp = pl.sp;
    const StateBytes& sb = pl.sb;
    const ExpandedShare& xs = pl.xs;
    const StageLayout& lay = pl.layout;
    // Partial full recomputation: the recomputed share of the layers keeps only its input.
    const double rshare = pl.rshare;
    const double act_layer =
        s.recompute == Recompute::full && rshare < 1.0 ? rshare * w.act_layer + (1.0 - rshare) * w.act_layer_full : w.act_layer;
    const double recompute_working = s.recompute == Recompute::full        ? w.act_layer_full
                                     : s.recompute == Recompute::selective ? w.act_layer_full - w.act_layer
                                                                           : 0.0;
    const double tokens = static_cast<double>(s.microbatch) * m.seq_len / pl.cp;
    // The logits as the software's loss holds them at its peak (SoftwareSpec::logits_bytes).
    const double logits = tokens * m.vocab / t * c.software.logits_bytes;
    const ZeroDivisors zd = zero_divisors(s, pl);
    FootprintRules rules;
    rules.sb = sb;
    rules.zero_stage = s.zero_stage;
    rules.zero_weights = zd.weights;
    rules.zero_gradients = zd.gradients;
    rules.zero_states = zd.states;
    rules.expert_zero_weights = zd.expert_weights;
    rules.expert_zero_gradients = zd.expert_gradients;
    rules.expert_zero_states = zd.expert_states;
    rules.offload_weights = s.offload_weights;
    rules.offload_optimizer = s.offload_optimizer;
    rules.offload_activations = s.offload_activations;
    rules.layer_weights_bytes = pl.expert_params_layer > 0 ? (w.layer_params / t + w.expert_params / pl.expert_stride) * sb.gathered
                                                           : w.layer_params / t * sb.gathered;
    // FP8 and FP4 training keep a quantized copy (row-wise and column-wise) of the weights
    // they multiply, next to the 16-bit weights; with ZeRO-3 only of the gathered layers.
    rules.quantized_copy = is_quantized(c.training.precision) ? 2.0 * gemm_operand_bytes(c.training.precision) / sb.gathered : 0.0;
    rules.activation_layer_bytes = act_layer;
    rules.recompute_working_bytes = recompute_working;
    rules.reserved_bytes = units::gib_to_bytes(c.software.hbm_reserved_gib);
    // Send and receive buffers of the EP all-to-all (dispatch and combine) and of ETP.
    rules.token_buffer_bytes = 2.0 * (w.ep_bytes + w.etp_bytes);
    rules.allocator_margin = c.software.hbm_allocator_margin;
    rules.hbm_capacity_bytes = units::gib_to_bytes(node.hbm_capacity_gib);
    rules.expanded_capacity_bytes = xs.capacity_bytes;

    // One stage: `layers` layers, its ends' parameters, the activations it holds (memory.cpp).
    auto footprint = [&](double layers, double ends_params, double act, double extra_act, MemoryFootprint& hbm,
                         MemoryFootprint& ex) noexcept {
        StageHolding stage;
        stage.params = layers * pl.layer_params_rank + ends_params;
        stage.expert_params = layers * pl.expert_params_layer;
        stage.activations = act;
        stage.extra_activations = extra_act;
        stage_footprint(stage, rules, hbm, ex);
    };
    // The first stage (embedding, the most microbatches in flight), the first middle stage
    // (the most in flight after it, given the most layers) and the last (LM head and loss).
    MemoryFootprint hbm_first, ex_first, hbm_last, ex_last, hbm_mid, ex_mid;
    const double emb_act = 2.0 * tokens * m.hidden / (sp ? t : 1);
    footprint(lay.first, pl.first_ends_params, act_layer * held_layer_microbatches(lay.first, p, v, mbs, 0),
              emb_act + (p == 1 ? logits * (1.0 + m.mtp_layers) : 0.0), hbm_first, ex_first);
    const auto overflow = [&r](const MemoryFootprint& hbm) noexcept {
        r.hbm = hbm;
        r.feasible = false;
        r.reason = Infeasible::hbm_capacity;
        r.detail_a = hbm.used_bytes();
        r.detail_b = hbm.capacity_bytes;
        return false;
    };
    if (verdict_only && hbm_first.used_bytes() > hbm_first.capacity_bytes) return overflow(hbm_first);
    footprint(lay.last, pl.last_ends_params, act_layer * held_layer_microbatches(lay.last, p, v, mbs, p - 1), logits * (1.0 + m.mtp_layers),
              hbm_last, ex_last);
    r.hbm = hbm_first;
    r.expanded = ex_first;
    if (hbm_last.used_bytes() > r.hbm.used_bytes()) {
        r.hbm = hbm_last;
        r.expanded = ex_last;
    }
    double ex_used = std::max(ex_first.used_bytes(), ex_last.used_bytes());
    // A middle stage holds fewer microbatches than the first and no embedding: it can only be
    // fuller when it holds more layers.
    if (p > 2 && (lay.mid_hi_count > 0 ? lay.mid_hi : lay.mid_lo) > lay.first) {
        const int mid = lay.mid_hi_count > 0 ? lay.mid_hi : lay.mid_lo;
        footprint(mid, 0.0, act_layer * held_layer_microbatches(mid, p, v, mbs, 1), 0.0, hbm_mid, ex_mid);
        if (hbm_mid.used_bytes() > r.hbm.used_bytes()) {
            r.hbm = hbm_mid;
            r.expanded = ex_mid;
        }
        ex_used = std::max(ex_used, ex_mid.used_bytes());
    }

    return capacity_verdict(r, ex_used, xs.capacity_bytes);
}

namespace {

// The kinds of pipeline stage of a layout (the first, with the embedding; the middle ones,
// the fullest and the others; the last, with the LM head and the loss), each with its layers'
// compute and exposed TP, EP and CP communication per microbatch; the slowest sets the pace.
struct StageKind {
    double layers = 0, count = 0, compute = 0, tp = 0, busy = 0;
};
struct StagePace {
    StageKind kinds[4];
    int count = 0;
    int pace = 0;              // the first stage wins ties (as it holds the most microbatches)
    double layer_compute = 0;  // one layer, with its share of recomputation
    LayerExposure exposure;    // one layer's exposed communication
};

StagePace stage_pace(const RankWork& w, const Placement& pl, int tp_overlap) noexcept {
    StagePace sp;
    const PassTimes& lt = w.layer;
    const StageLayout& lay = pl.layout;
    const int p = pl.p;
    // Partial full recomputation recomputes `rshare` of the layers (with their collectives).
    sp.layer_compute = lt.fwd + lt.bwd + pl.rshare * lt.recompute;
    sp.exposure = layer_exposure(w, pl.rshare, tp_overlap);
    auto add = [&](double layers, double count, bool first, bool last) noexcept {
        StageKind& st = sp.kinds[sp.count++];
        st.layers = layers;
        st.count = count;
        // The ends' TP collectives: the embedding's output on the first, the LM head's input gradient on the last.
        const double first_tp = first ? w.tp_one : 0.0, last_tp = last ? w.tp_one : 0.0;
        st.compute = layers * sp.layer_compute + (first ? w.first_extra : 0.0) + (last ? w.last_extra : 0.0);
        st.tp = layers * sp.exposure.tp + first_tp + last_tp;
        st.busy = st.compute + layers * sp.exposure.total + first_tp + last_tp;
    };
    add(lay.first, 1, true, p == 1);
    if (p > 1) add(lay.last, 1, false, true);
    if (p > 2 && lay.mid_hi_count > 0) add(lay.mid_hi, lay.mid_hi_count, false, false);
    if (p > 2 && lay.mid_hi_count < p - 2) add(lay.mid_lo, p - 2 - lay.mid_hi_count, false, false);
    for (int k = 1; k < sp.count; ++k)
        if (sp.kinds[k].busy > sp.kinds[sp.pace].busy) sp.pace = k;
    return sp;
}

// Pipeline exchange per microbatch: blocking, every transfer is exposed; with interleaving
// (and pp_overlap) each transfer runs behind the next chunk, whose wall time is the window:
// one chunk of the stage with the fewest layers (its compute with its share of recomputation
// and its exposed TP, EP and CP), so that no stage hides more than its own time covers, split
// into forward and backward by the passes' FLOP shares (as the per-iteration DP windows), so
// that faster compute never exposes more than it saves.
double pipeline_exchange_mb(const RankWork& w, const Placement& pl, const Traffic& tf, const StagePace& sp, bool pp_overlap) noexcept {
    if (!(pl.p > 1 && pl.v > 1 && pp_overlap)) return tf.pp_mb_total;
    const PassTimes& lt = w.layer;
    const double chunk = static_cast<double>(pl.layout.min_layers()) / pl.v;
    const double chunk_wall = chunk * (sp.layer_compute + sp.exposure.total);
    const double flops = lt.fwd_flops + lt.bwd_flops + pl.rshare * lt.recompute_flops;
    const double fwd_share = flops > 0 ? lt.fwd_flops / flops : 1.0 / 3.0;
    return pipeline_exchange_s(tf.pp_one, pl.v, fwd_share * chunk_wall, (1.0 - fwd_share) * chunk_wall);
}

// ZeRO-3 gathers (network) and offload traffic (memory tier) prefetch behind a microbatch's
// compute (with its exposed TP collectives) and run side by side: the microbatch takes the
// longest of the three; what exceeds compute is charged to DP first, then to memory. ZeRO-2's
// reduce-scatter hides behind the backward's share of the microbatch's wall time. `busy` is
// the stage's microbatch time before this traffic, with the pipeline waits (during which the
// collectives move too).
struct MicrobatchTraffic {
    double dp = 0, memory = 0;
};
MicrobatchTraffic microbatch_traffic(const Traffic& tf, const PassTimes& lt, double busy, bool dp_overlap) noexcept {
    const double work = lt.fwd_flops + lt.bwd_flops + lt.recompute_flops;
    const double bwd_share = work > 0 ? lt.bwd_flops / work : 1.0;
    MicrobatchTraffic out;
    out.dp =
        exposed(tf.dp_mb_total - tf.dp_mb_edge, busy, dp_overlap) + tf.dp_mb_edge + exposed(tf.dp_mb_grad, busy * bwd_share, dp_overlap);
    out.memory = std::max(0.0, tf.mem_mb_total - (busy + out.dp));
    return out;
}

}  // namespace

void timing(const Config& c, const RankWork& w, const Placement& pl, const Traffic& tf, Result& r) noexcept {
    const ModelSpec& m = c.model;
    const TrainingSpec& tr = c.training;
    const Strategy& s = c.strategy;
    const int v = pl.v, mbs = pl.mbs;
    const PassTimes& lt = w.layer;
    const double rshare = pl.rshare;

    // --- The stage that sets the pace, its microbatch time, and the pipeline around it: the
    // bubble sums the other stages' microbatch times (each with the same ZeRO-3 and memory traffic).
    const StagePace sp = stage_pace(w, pl, s.tp_overlap ? 1 : 0);
    const StageKind& pace = sp.kinds[sp.pace];
    const double pp_mb = pipeline_exchange_mb(w, pl, tf, sp, s.pp_overlap);
    const double ep_mb = pace.layers * w.moe_share * sp.exposure.ep;
    const double cp_mb = pace.layers * sp.exposure.cp;
    const double busy_mb = pace.compute + pace.tp + ep_mb + cp_mb;
    const MicrobatchTraffic mt = microbatch_traffic(tf, lt, busy_mb + pp_mb, s.dp_overlap);
    const double t_mb = busy_mb + pp_mb + mt.dp + mt.memory;
    double stage_sum = 0;
    for (int k = 0; k < sp.count; ++k) {
        const StageKind& st = sp.kinds[k];
        if (k == sp.pace) {
            stage_sum += st.count * t_mb;
            continue;
        }
        const MicrobatchTraffic other = microbatch_traffic(tf, lt, st.busy + pp_mb, s.dp_overlap);
        stage_sum += st.count * (st.busy + pp_mb + other.dp + other.memory);
    }
    const double bubble = pipeline_bubble_s(stage_sum, t_mb, v);

    // --- Once-per-iteration DP traffic hides behind the last microbatch's backward (gradient
    // reduction) and the first microbatch's forward (weight gather). Those windows are the
    // passes' FLOP shares of the microbatch's wall time (with the pipeline waits), so that
    // faster compute never exposes more communication than it saves.
    const double work = lt.fwd_flops + lt.bwd_flops + lt.recompute_flops;
    const double dp_per_iter_exposed = exposed(tf.dp_grad_reduce, t_mb * lt.bwd_flops / work, s.dp_overlap) +
                                       exposed(tf.dp_weight_gather, t_mb * lt.fwd_flops / work, s.dp_overlap);

    r.microbatches = mbs;
    r.time.compute_s = mbs * pace.compute;
    r.time.tp_comm_s = mbs * pace.tp;
    r.time.pp_comm_s = mbs * pp_mb;
    r.time.dp_comm_s = mbs * mt.dp + dp_per_iter_exposed;
    r.time.memory_s = mbs * mt.memory + tf.opt_mem_exposed;
    r.time.bubble_s = bubble;
    r.time.optimizer_s = tf.opt_hbm_s;
    r.time.other_s = tf.other;
    r.time.ep_comm_s = mbs * ep_mb;
    r.time.cp_comm_s = mbs * cp_mb;
    r.iteration_s = r.time.total();

    const double layers_per_rank = pace.layers;
    r.comm.tp_s = mbs * (layers_per_rank * (w.tp_layer_total + rshare * w.tp_rec_total) + 2.0 * w.tp_one);
    r.comm.pp_s = mbs * tf.pp_mb_total;
    r.comm.dp_s = mbs * (tf.dp_mb_total + tf.dp_mb_grad) + tf.dp_grad_reduce + tf.dp_weight_gather;
    r.comm.memory_s = mbs * tf.mem_mb_total + (s.offload_optimizer ? tf.opt_mem_exposed + tf.opt_hbm_s : 0.0);
    r.comm.dp_microbatch_s = tf.dp_mb_total + tf.dp_mb_grad;
    r.comm.ep_s = mbs * layers_per_rank * w.moe_share * (w.ep_layer_total + rshare * w.ep_rec_total);
    r.comm.cp_s = mbs * layers_per_rank * (w.cp_layer_total + rshare * w.cp_rec_total);

    // --- Throughput metrics.
    const double gpus = static_cast<double>(accelerators_used(s));
    const double B = static_cast<double>(tr.global_batch);
    r.parameters = w.total_params;
    r.active_parameters = w.active_params;
    r.model_flops = B * w.model_flops_per_sequence;
    r.hardware_flops = B * (w.model_flops_per_sequence + rshare * w.recompute_flops_per_sequence);
    r.tokens_per_s = B * m.seq_len / r.iteration_s;
    r.model_flops_causal = B * w.model_flops_causal_per_sequence;
    r.model_tflops_per_gpu = units::flops_to_tflops(r.model_flops / (r.iteration_s * gpus));
    r.hardware_tflops_per_gpu = units::flops_to_tflops(r.hardware_flops / (r.iteration_s * gpus));
    const double peak = matrix_peak_tflops(c.node, tr.precision);
    r.mfu = model_flops_utilization(r.model_flops, r.iteration_s, gpus, peak);
    r.mfu_causal = model_flops_utilization(r.model_flops_causal, r.iteration_s, gpus, peak);
}

void timing(const Config& c, const RankWork& w, const Placement& pl, Result& r) noexcept { timing(c, w, pl, traffic(c, w, pl), r); }

Result compose(const Config& c, const RankWork& w) noexcept {
    const Placement pl = place(c, w);
    Result r;
    fits(c, w, pl, r);
    timing(c, w, pl, r);
    return r;
}

Result evaluate(const Config& c) noexcept {
    if (const int bad = first_invalid_field(c); bad >= 0) return infeasible(Infeasible::invalid_input, bad);
    if (c.workload == Workload::dlrm) return evaluate_dlrm(c);
    double a = 0, b = 0;
    if (const Infeasible why = rank_problem(c, a, b); why != Infeasible::none) return infeasible(why, a, b);
    if (const Infeasible why = split_problem(c, a, b); why != Infeasible::none) return infeasible(why, a, b);
    return compose(c, rank_work(c));
}

}  // namespace comet
