#pragma once
// Memory accounting: bytes per parameter for model states, activation bytes per layer
// (Korthikanti et al. 2022, generalised to GQA, gated MLPs and fused attention).

#include "comet/result.hpp"
#include "comet/spec.hpp"
#include "comet/workload.hpp"

namespace comet {

// Bytes per parameter of each model state in mixed-precision training.
// The defaults are Megatron-Core's layout with Adam (SoftwareSpec's defaults).
struct StateBytes {
    double weights = 2;     // the stored weights: 16-bit, or fp32 where there is no master copy
    double gathered = 2;    // the 16-bit copy a layer computes with: what ZeRO-3 gathers and holds
    double gradients = 4;   // main gradients (fp32 by default)
    double optimizer = 12;  // the fp32 master weights (if any) + the optimizer's moments
    bool master = true;     // the optimizer holds an fp32 master copy of the weights
};
// The training's precision, optimizer and gradient type laid out as the software keeps them.
[[nodiscard]] StateBytes state_bytes_per_parameter(const TrainingSpec& t, const SoftwareSpec& sw) noexcept;
// HBM bytes per parameter of the optimizer step: it streams the local model states once (reads
// the gradient, reads and writes the optimizer's states, and writes the new 16-bit weights, or
// reads and writes the fp32 weights where they are their own master copy).
[[nodiscard]] constexpr double optimizer_step_bytes_per_parameter(const StateBytes& sb) noexcept {
    return sb.gradients + 2.0 * sb.optimizer + (sb.master ? sb.weights : 2.0 * sb.weights);
}

// HBM per accelerator that training cannot use: the software's runtime reservation plus its
// allocator's margin (SoftwareSpec::hbm_allocator_margin of the node's capacity).
[[nodiscard]] double hbm_unusable_bytes(const NodeSpec& n, const SoftwareSpec& sw) noexcept;
// The capacity verdict of a footprint already in `r` (r.hbm with its capacity): feasible, or
// infeasible for HBM first, else for the expanded tier (`expanded_used_bytes` of its
// `expanded_capacity_bytes`), with the bytes needed and held as the reason's details. Returns
// r.feasible. The transformer's fits() and the DLRM's memory both decide by it.
bool capacity_verdict(Result& r, double expanded_used_bytes, double expanded_capacity_bytes) noexcept;

// Activation bytes stored for backward by one layer for one microbatch on one TP rank.
[[nodiscard]] double activation_bytes_per_layer(const ModelSpec& m, const TrainingSpec& t, int tp, bool sequence_parallel,
                                                Recompute recompute, int microbatch) noexcept;

// The same for a block of the given kind and work shape: context parallelism divides every
// term by cp (each rank holds seq_len / cp tokens; its score rows span the whole sequence);
// an MoE block stores the router input and probabilities, the permuted token copies and the
// expert MLP's intermediate tensors for its routed tokens, and the shared experts' as a dense
// MLP of their width.
[[nodiscard]] double activation_bytes_per_layer(const ModelSpec& m, const TrainingSpec& t, WorkShape shape, Recompute recompute,
                                                bool moe) noexcept;

// The rules one rank's memory follows, the same for every pipeline stage (evaluate.cpp's fits()
// fills them from the strategy and the placement).
struct FootprintRules {
    StateBytes sb;
    int zero_stage = 0;
    // What ZeRO divides the states by (stages.hpp, zero_divisors()): replicated and expert.
    double zero_weights = 1, zero_gradients = 1, zero_states = 1;
    double expert_zero_weights = 1, expert_zero_gradients = 1, expert_zero_states = 1;
    bool offload_weights = false, offload_optimizer = false, offload_activations = false;
    double layer_weights_bytes = 0;      // one layer's 16-bit weights on this rank (gathered, fetched)
    double quantized_copy = 0;           // FP8/FP4 weight copy per 16-bit weight byte (0 in 16 bits)
    double activation_layer_bytes = 0;   // one layer's activations of one microbatch (held for backward)
    double recompute_working_bytes = 0;  // what recomputing a layer needs on top
    double reserved_bytes = 0;           // the runtime's reservation
    double token_buffer_bytes = 0;       // the EP/ETP send and receive buffers (MoE stages)
    double allocator_margin = 0;         // SoftwareSpec::hbm_allocator_margin
    double hbm_capacity_bytes = 0;
    double expanded_capacity_bytes = 0;  // this rank's share of the expanded tier
};

// What one stage holds on one rank.
struct StageHolding {
    double params = 0;             // replicated parameters of its layers and ends
    double expert_params = 0;      // routed-expert parameters of its layers
    double activations = 0;        // the activations held for backward (layers x microbatches in flight)
    double extra_activations = 0;  // the embedding's output, the logits
};

// HBM and expanded-tier footprint of one stage: weights (sharded by ZeRO-3, plus the gathered
// and prefetched layers, plus the quantized copy), gradients (ZeRO-2: plus one layer's waiting
// for its reduce-scatter), optimizer states, activations, and the runtime's reservation and
// buffers; offloaded states live in the expanded tier with a double buffer left in HBM.
void stage_footprint(const StageHolding& stage, const FootprintRules& rules, MemoryFootprint& hbm, MemoryFootprint& expanded) noexcept;

}  // namespace comet
