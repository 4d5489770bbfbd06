#pragma once
// The two stages of evaluate(), shared with the search engine so that a search evaluates
// exactly what evaluate() would, while caching the expensive first stage.
//
// Stage 1, rank_work(): the per-microbatch work of one tensor-parallel rank. It depends only
// on the model, the training setup, the node and (tp, sequence_parallel, microbatch,
// recompute) of the strategy.
// Stage 2, compose(): everything else (pipeline, data parallelism, ZeRO, offload, overlap,
// memory), cheap arithmetic.

#include <tuple>

#include "comet/collectives.hpp"
#include "comet/compute.hpp"
#include "comet/evaluate.hpp"
#include "comet/memory.hpp"
#include "comet/pipeline.hpp"
#include "comet/result.hpp"
#include "comet/spec.hpp"

namespace comet {

struct PassTimes {
    double fwd_flops = 0;  // hardware-independent shares of the work
    double bwd_flops = 0;
    double recompute_flops = 0;
    double fwd = 0;  // seconds per layer
    double bwd = 0;
    double recompute = 0;
    // The GEMMs each TP collective of a layer hides behind with TP overlap (Op::tp_pair), per
    // pass: forward, backward, recomputed forward.
    double tp_window_fwd[4] = {0, 0, 0, 0};
    double tp_window_bwd[4] = {0, 0, 0, 0};
    double tp_window_rec[4] = {0, 0, 0, 0};
    double attention_fwd = 0;  // attention core (what the CP ring exchange hides behind)
    double attention_bwd = 0;
    double attention_recompute = 0;
    double expert_fwd = 0;  // routed-expert GEMMs (what the EP all-to-all hides behind)
    double expert_bwd = 0;
    double expert_recompute = 0;
    // The accelerator's idle time in each pass: the pass's time (fwd, bwd, recompute) less its
    // kernels' time. A pass bound by host issue leaves the accelerator waiting for kernels, and
    // the pass's collectives run in that time (rank_comm(), docs/model.md "Host-bound kernels").
    double idle_fwd = 0;
    double idle_bwd = 0;
    double idle_recompute = 0;
};

// Compute side of stage 1: reads the model, the training setup, the node's compute and HBM
// fields and (tp, sequence_parallel, microbatch, recompute). The expensive part.
struct RankCompute {
    PassTimes layer;  // the mean layer: dense and MoE layers in the model's proportion
    // Routed-expert GEMM time of one MoE layer (zero for a dense model): the EP all-to-all's window.
    double moe_expert_fwd = 0, moe_expert_bwd = 0, moe_expert_recompute = 0;
    double moe_share = 0;    // MoE layers / layers
    double first_extra = 0;  // embedding, forward + backward
    double last_extra = 0;   // final norm, LM head and loss, forward + backward
    double tp_bytes = 0;
    double pp_bytes = 0;
    double cp_kv_bytes = 0;     // one key/value chunk of the CP ring
    double ep_bytes = 0;        // one EP all-to-all buffer of an MoE layer
    double etp_bytes = 0;       // routed tokens gathered in the expert-TP group
    double act_layer = 0;       // activation bytes stored per (mean) layer and microbatch
    double act_layer_full = 0;  // the same without recomputation
    double model_flops_per_sequence = 0;
    double model_flops_causal_per_sequence = 0;  // attention counted as causal kernels run it
    double recompute_flops_per_sequence = 0;
    double hbm_bytes_per_s = 0;
    double launch_s = 0;
    // Parameter counts of the model (per layer and of its ends), computed once. Per layer:
    // the mean over dense and MoE layers; `layer_params` is replicated like a dense layer's
    // (split by TP), `expert_params` is split by EP x ETP.
    double layer_params = 0;
    double expert_params = 0;
    double active_params = 0;
    double embedding_params = 0;
    double head_params = 0;
    double final_norm_params = 0;
    double mtp_params = 0;  // multi-token prediction: projections and norms (its layers count as layers)
    double total_params = 0;
};

// Stage 1 complete: the compute side plus the TP collectives on the node's networks (cheap).
struct RankWork : RankCompute {
    double tp_one = 0;          // one TP collective on the layer activation
    double tp_layer_total = 0;  // forward and backward
    // Exposed parts, indexed by tp_overlap (off / on): what the paired compute does not hide,
    // less what the pass's idle accelerator time absorbs (PassTimes::idle_fwd; a pass's TP, EP
    // and CP collectives share its idle time in proportion to what each leaves exposed).
    double tp_layer_exposed[2] = {0, 0};
    double tp_rec_total = 0;  // the recomputed forward's collectives
    double tp_rec_exposed[2] = {0, 0};
    double pp_gather = 0;  // all-gather of a scattered pipeline message in the TP group
    GroupSpan tp_group;
    double cp_layer_total = 0;                            // CP ring exchange of one layer per microbatch (fwd + bwd)
    double cp_layer_exposed[2] = {0, 0};                  // what attention does not hide
    double cp_rec_total = 0, cp_rec_exposed[2] = {0, 0};  // ... of the recomputed forward
    double ep_layer_total = 0;                            // EP all-to-all (and ETP gathers) of one MoE layer per microbatch (fwd + bwd)
    double ep_layer_exposed[2] = {0, 0};                  // what the expert GEMMs do not hide at the strategy's ep_overlap
    double ep_rec_total = 0, ep_rec_exposed[2] = {0, 0};  // ... of the recomputed forward
};

// The communication one layer leaves exposed per microbatch, with `rshare` of its forward
// recomputed and tp_overlap off (0) or on (1): TP, EP (of an MoE layer) and CP; `total`
// weighs EP by the MoE layers' share. timing() and the search's bounds both build on it.
struct LayerExposure {
    double tp = 0, ep = 0, cp = 0, total = 0;
};
[[nodiscard]] inline LayerExposure layer_exposure(const RankWork& w, double rshare, int tp_overlap) noexcept {
    LayerExposure e;
    e.tp = w.tp_layer_exposed[tp_overlap] + rshare * w.tp_rec_exposed[tp_overlap];
    e.ep = w.ep_layer_exposed[tp_overlap] + rshare * w.ep_rec_exposed[tp_overlap];
    e.cp = w.cp_layer_exposed[tp_overlap] + rshare * w.cp_rec_exposed[tp_overlap];
    e.total = e.tp + w.moe_share * e.ep + e.cp;
    return e;
}

// Structural checks, split like the stages. Both assume first_invalid_field(c) < 0.
[[nodiscard]] Infeasible rank_problem(const Config& c, double& a, double& b) noexcept;
// `layout`, when given, is stage_layout(c.model.layers, c.strategy) already computed.
// split_problem() is split_layout_problem(), then split_sharding_problem() if that passes: the
// first reads only tp, cp, pp, dp, ep, etp, the interleaving and the microbatch, the second
// the ZeRO sharding group and the offload switches too (a search checks the first once per
// interleaving and the second for each inner choice, in this same order).
[[nodiscard]] Infeasible split_problem(const Config& c, double& a, double& b, const StageLayout* layout = nullptr) noexcept;
[[nodiscard]] Infeasible split_layout_problem(const Config& c, double& a, double& b, const StageLayout* layout = nullptr) noexcept;
[[nodiscard]] Infeasible split_sharding_problem(const Config& c, double& a, double& b) noexcept;

// The roofline of the layers and the model's ends: the part of rank_compute() that reads only
// the model, the training, the node's compute rates and, of the strategy, the work shape
// (tp, sequence parallelism, microbatch, cp, ep, etp) and the recomputation mode; not pp or dp.
// Groups of a search that share those share it (SearchEngine).
struct LayerCompute {
    PassTimes layer;  // the mean layer (RankCompute::layer)
    double moe_expert_fwd = 0, moe_expert_bwd = 0, moe_expert_recompute = 0;
    double tp_bytes = 0, pp_bytes = 0, cp_kv_bytes = 0;
    double first_extra = 0, last_extra = 0;
};
// The kernel times under layer_compute() split by bounding rate (TimeSplit): per pass of the
// mean layer (without host issue time), and of the first and last stage's extras.
struct LayerSplit {
    TimeSplit fwd, bwd, recompute, first, last;
    // The host's issue time of each pass (host_issue_s()), which a pass never beats.
    double host_fwd = 0, host_bwd = 0, host_recompute = 0;
};
// `split`, when given, receives the parts of the same kernel times.
[[nodiscard]] LayerCompute layer_compute(const Config& c, LayerSplit* split = nullptr) noexcept;
// What layer_compute() reads of the strategy (the work shape and the recomputation mode):
// equal keys, equal layer compute for the same model, training and node.
using LayerComputeKey = std::tuple<int, bool, int, int, int, int, Recompute>;
[[nodiscard]] LayerComputeKey layer_compute_key(const Strategy& s) noexcept;

// `memory`, when given, is rank_memory() of a configuration with the same model, training and
// strategy (any node): its memory part is taken instead of being computed again. `layers`,
// when given, is layer_compute() of a configuration with the same model, training, node and
// layer_compute_key().
[[nodiscard]] RankCompute rank_compute(const Config& c, const RankCompute* memory = nullptr, const LayerCompute* layers = nullptr) noexcept;
// Only the fields place() and fits() read (activations, parameter counts): what memory needs.
[[nodiscard]] RankCompute rank_memory(const Config& c) noexcept;
[[nodiscard]] RankWork rank_comm(const Config& c, const RankCompute& rc) noexcept;
[[nodiscard]] inline RankWork rank_work(const Config& c) noexcept { return rank_comm(c, rank_compute(c)); }
// Stage 2 in parts: the placement of the split (shared), the memory verdict (does not read
// the overlap switches) and the timing. compose() runs all three.
struct Placement {
    int t, p, d, v, cp;
    bool sp;
    int mbs;             // microbatches per pipeline per iteration
    StageLayout layout;  // layers per stage
    double rshare;       // share of the layers full recomputation recomputes (full_recompute_share)
    StateBytes sb;
    // Replicated parameters per rank: of one layer, of the first / last stage's ends, and the
    // totals held by the first, the fullest middle and the last stage and by the fullest.
    double layer_params_rank, first_ends_params, last_ends_params;
    double first_params, last_params, mid_params, rank_params;
    double expert_params_layer;  // routed-expert parameters of one layer on any rank
    double expert_params;        // ... held by the stage with the most layers
    // ZeRO: replicated states are sharded over `shard` of the `replicas` = dp x cp ranks
    // that hold them (stride tp); expert states over `expert_shard` of `expert_replicas`
    // (stride ep x etp).
    int replicas, shard, expert_replicas, expert_stride;
    double expert_shard;
    ExpandedShare xs;
};
[[nodiscard]] Placement place(const Config& c, const RankWork& w) noexcept;
// The part of place() that depends on the ZeRO sharding group (Strategy::zero_shard): the
// search re-runs only this while it varies the group over one placement.
void place_sharding(const Strategy& s, Placement& pl) noexcept;
// What ZeRO divides one rank's model states by (the one place the stages read it): the
// optimizer states from stage 1, the gradients from stage 2, the weights at stage 3, each over
// the sharding group of the replicated and of the expert parameters.
struct ZeroDivisors {
    double weights, gradients, states;
    double expert_weights, expert_gradients, expert_states;
};
[[nodiscard]] inline ZeroDivisors zero_divisors(const Strategy& s, const Placement& pl) noexcept {
    const auto over = [&](int stage, double group) noexcept { return s.zero_stage >= stage ? group : 1.0; };
    const auto shard = static_cast<double>(pl.shard);
    return {over(3, shard), over(2, shard), over(1, shard), over(3, pl.expert_shard), over(2, pl.expert_shard), over(1, pl.expert_shard)};
}
// Fills r.hbm, r.expanded and the verdict (feasible, reason, details); returns r.feasible.
// `verdict_only` (the search) may stop at the first stage that overflows HBM: the reason is
// the same, r.hbm and the details then describe that stage, not necessarily the fullest.
bool fits(const Config& c, const RankWork& w, const Placement& pl, Result& r, bool verdict_only = false) noexcept;
// The communication and memory-tier traffic of a configuration, before the overlap switches
// decide what of it is exposed: the search computes it once for the overlap variants.
struct Traffic {
    double pp_one = 0;          // one pipeline message (timing() exposes what its windows do not hide)
    double pp_mb_total = 0;     // pipeline point-to-point per microbatch: 2 x interleave messages
    double dp_mb_total = 0;     // ZeRO-3 per microbatch
    double dp_mb_edge = 0;      // ... of which nothing can hide (first gather, last reduce-scatter)
    double dp_mb_grad = 0;      // ZeRO-2 per microbatch (behind backward)
    double dp_grad_reduce = 0;  // once per iteration
    double dp_weight_gather = 0;
    double mem_mb_total = 0;  // expanded-tier traffic per microbatch
    double opt_hbm_s = 0;     // optimizer step
    double opt_mem_exposed = 0;
    double other = 0;  // tied-embedding gradient all-reduce
};
[[nodiscard]] Traffic traffic(const Config& c, const RankWork& w, const Placement& pl) noexcept;
// Fills the time breakdown, communication totals and throughput metrics.
void timing(const Config& c, const RankWork& w, const Placement& pl, Result& r) noexcept;
// The same with the traffic already computed (traffic(c, w, pl) of the same configuration).
void timing(const Config& c, const RankWork& w, const Placement& pl, const Traffic& tf, Result& r) noexcept;

[[nodiscard]] Result compose(const Config& c, const RankWork& w) noexcept;
[[nodiscard]] Result infeasible(Infeasible why, double a = 0, double b = 0) noexcept;

// Whether a pipeline message is split over the TP ranks' links (scatter/gather, or sequence
// parallelism, whose activations are split already): each rank sends 1/tp of it.
[[nodiscard]] constexpr bool pp_message_split(const Strategy& s) noexcept {
    return s.tp > 1 && (s.sequence_parallel || s.pp_scatter_gather);
}

}  // namespace comet
