#pragma once
// The two stages of evaluate(), shared with the search engine so that a search evaluates
// exactly what evaluate() would, while caching the expensive first stage.
//
// Stage 1, rank_work(): the per-microbatch work of one tensor-parallel rank. It depends only
// on the model, the training setup, the node and (tp, sequence_parallel, microbatch,
// recompute) of the strategy.
// Stage 2, compose(): everything else (pipeline, data parallelism, ZeRO, offload, overlap,
// memory), cheap arithmetic.

#include "comet/collectives.hpp"
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
    double gemm_fwd = 0;  // matrix work that TP collectives can hide behind
    double gemm_bwd = 0;
};

struct RankWork {
    PassTimes layer;
    double first_extra = 0;  // embedding, forward + backward
    double last_extra = 0;   // final norm, LM head and loss, forward + backward
    double tp_one = 0;       // one TP collective on the layer activation
    double tp_layer_total = 0;
    double tp_layer_exposed[2] = {0, 0};  // without / with tp_overlap
    double pp_gather = 0;    // all-gather of a scattered pipeline message in the TP group
    double tp_bytes = 0;
    double pp_bytes = 0;
    double act_layer = 0;       // activation bytes stored per layer and microbatch
    double act_layer_full = 0;  // the same without recomputation
    double model_flops_per_sequence = 0;
    double recompute_flops_per_sequence = 0;
    double hbm_bytes_per_s = 0;
    double launch_s = 0;
    GroupSpan tp_group;
};

// Structural checks, split like the stages. Both assume first_invalid_field(c) < 0.
[[nodiscard]] Infeasible rank_problem(const Config& c, double& a, double& b) noexcept;
[[nodiscard]] Infeasible split_problem(const Config& c, double& a, double& b) noexcept;

[[nodiscard]] RankWork rank_work(const Config& c) noexcept;
[[nodiscard]] Result compose(const Config& c, const RankWork& w) noexcept;
[[nodiscard]] Result infeasible(Infeasible why, double a = 0, double b = 0) noexcept;

}  // namespace comet
