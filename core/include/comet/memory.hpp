#pragma once
// Memory accounting: bytes per parameter for model states, activation bytes per layer
// (Korthikanti et al. 2022, generalised to GQA, gated MLPs and fused attention).

#include "comet/spec.hpp"
#include "comet/workload.hpp"

namespace comet {

// Bytes per parameter of each model state in mixed-precision training.
struct StateBytes {
    double weights = 2;    // 16-bit working weights
    double gradients = 4;  // main gradients (fp32 by default)
    double optimizer = 12; // fp32 master weights + Adam moments
};
[[nodiscard]] StateBytes state_bytes_per_parameter(const TrainingSpec& t) noexcept;

// HBM per accelerator that training cannot use: the runtime's reservation plus the caching
// allocator's margin (NodeSpec::hbm_allocator_margin of the capacity).
[[nodiscard]] double hbm_unusable_bytes(const NodeSpec& n) noexcept;

// Activation bytes stored for backward by one layer for one microbatch on one TP rank.
[[nodiscard]] double activation_bytes_per_layer(const ModelSpec& m, const TrainingSpec& t, int tp,
                                                bool sequence_parallel, Recompute recompute,
                                                int microbatch) noexcept;

// The same for a block of the given kind and work shape: context parallelism divides every
// term by cp (each rank holds seq_len / cp tokens; its score rows span the whole sequence);
// an MoE block stores the router input and probabilities, the permuted token copies and the
// expert MLP's intermediate tensors for its routed tokens, and the shared experts' as a dense
// MLP of their width.
[[nodiscard]] double activation_bytes_per_layer(const ModelSpec& m, const TrainingSpec& t, WorkShape shape,
                                                Recompute recompute, bool moe) noexcept;

}  // namespace comet
