#pragma once
// The workload: the operations of a transformer layer and of the model's ends, as FLOPs and
// bytes moved per tensor-parallel rank per microbatch. Pure arithmetic on the model shape.

#include <array>
#include <cstdint>

#include "comet/spec.hpp"

namespace comet {

enum class OpKind : std::uint8_t { gemm, fused_attention, elementwise };

// Work of one kernel in one pass.
struct PassCost {
    double flops = 0;
    double bytes = 0;    // HBM traffic
    double kernels = 0;  // kernel launches
    // FLOP-weighted mean of 1/K over the pass's matrix products (K = inner dimension); a
    // short inner loop pays proportionally more for each output tile's fill and write-back.
    double inv_inner = 0;
};

struct Op {
    OpKind kind = OpKind::elementwise;
    bool attention_core = false;  // recomputed by selective recomputation
    PassCost fwd;
    PassCost bwd;
};

// Operations of one transformer block, in execution order: norm, QKV, scores, softmax,
// attention dropout, context, projection, bias-dropout-add, norm, MLP in, activation,
// MLP out, bias-dropout-add. With a fused attention kernel, scores..context is one op.
inline constexpr int max_layer_ops = 13;

struct LayerWork {
    std::array<Op, max_layer_ops> ops{};
    int count = 0;
    double tp_bytes = 0;  // bytes of one TP collective (the s*b*h activation), per microbatch
    double pp_bytes = 0;  // bytes sent across a pipeline boundary, per microbatch, before splitting
};

// The model's ends: embedding lookup (first stage), final norm, LM head and loss (last stage).
struct EndsWork {
    Op embedding;
    Op final_norm;
    Op lm_head;
    Op loss;
};

struct WorkShape {
    int tp = 1;
    bool sequence_parallel = false;
    int microbatch = 1;
};

[[nodiscard]] LayerWork layer_work(const ModelSpec& m, const TrainingSpec& t, WorkShape s) noexcept;
[[nodiscard]] EndsWork ends_work(const ModelSpec& m, const TrainingSpec& t, WorkShape s) noexcept;

// Parameters.
[[nodiscard]] double layer_parameters(const ModelSpec& m) noexcept;
[[nodiscard]] double embedding_parameters(const ModelSpec& m) noexcept;  // token (+position) table
[[nodiscard]] double lm_head_parameters(const ModelSpec& m) noexcept;    // 0 when tied
[[nodiscard]] double final_norm_parameters(const ModelSpec& m) noexcept;
[[nodiscard]] double total_parameters(const ModelSpec& m) noexcept;

// FLOPs of the matrix multiplications of one forward pass over one sequence (the whole model,
// no parallelism): the basis of model FLOPs and MFU.
[[nodiscard]] double forward_gemm_flops_per_sequence(const ModelSpec& m) noexcept;

}  // namespace comet
