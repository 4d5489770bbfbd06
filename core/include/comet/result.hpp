#pragma once
// Result of evaluating one configuration. Plain numbers; no strings, no heap.

#include <cstdint>
#include <string_view>

namespace comet {

// Why a configuration cannot run. `detail_a`/`detail_b` in Result carry the numbers that the
// message needs (for example the bytes needed and the bytes available).
enum class Infeasible : std::uint8_t {
    none = 0,
    invalid_input,            // a field is out of range (see check_config for the message)
    too_many_accelerators,    // tp*cp*pp*dp > accelerators in the cluster
    tp_heads,                 // tp does not divide the attention heads
    tp_kv_heads,              // tp does not divide the KV heads
    tp_ffn,                   // tp does not divide the MLP width
    pp_layers,                // pp*interleave does not divide the layers
    batch_split,              // global batch not divisible by dp*microbatch
    interleave_needs_pp,      // interleaving with one pipeline stage
    interleave_microbatches,  // interleaving needs the microbatch count to be a multiple of pp
    sequence_parallel_seq,    // sequence parallelism: tp does not divide seq_len
    fp8_unsupported,          // fp8 precision on a node without fp8 throughput
    offload_without_tier,     // offload selected but the node has no expanded tier
    hbm_capacity,             // per-accelerator HBM overflows
    expanded_capacity,        // expanded tier overflows
    no_feasible_strategy,     // a search found nothing that fits (detail_a: most common reason)
    cp_seq,                   // context parallelism: 2*cp (times tp with sequence parallelism) does not divide seq_len
    ep_dense_model,           // expert parallelism > 1 on a model without experts
    ep_experts,               // ep does not divide the routed experts
    ep_group,                 // ep*etp does not divide tp*cp*dp
    etp_ffn,                  // etp does not divide the expert MLP width
    zero_shard_group,         // the ZeRO sharding group does not divide dp*cp
    fp4_unsupported,          // fp4 precision on a node without fp4 throughput
    dlrm_column_split,        // DLRM column-wise sharding: dp does not divide a table's dim
    count_
};

[[nodiscard]] std::string_view to_string(Infeasible reason) noexcept;  // short id, e.g. "hbm_capacity"
[[nodiscard]] std::string_view describe(Infeasible reason) noexcept;   // a sentence

// Iteration time, split so that the parts add up exactly to the total.
struct TimeBreakdown {
    double compute_s = 0;    // forward, backward and recompute work of the slowest stage
    double bubble_s = 0;     // pipeline fill and drain (idle)
    double tp_comm_s = 0;    // exposed tensor-parallel collectives
    double pp_comm_s = 0;    // exposed pipeline point-to-point transfers
    double dp_comm_s = 0;    // exposed data-parallel / ZeRO collectives
    double memory_s = 0;     // exposed traffic to the expanded memory tier
    double optimizer_s = 0;  // optimizer step
    double other_s = 0;      // embedding gradient sync between first and last stage
    double ep_comm_s = 0;    // exposed expert-parallel all-to-all (and expert-TP gathers)
    double cp_comm_s = 0;    // exposed context-parallel (ring attention) key/value exchange
    double lookup_s = 0;     // DLRM: embedding lookups and row updates in HBM
    double emb_comm_s = 0;   // DLRM: exposed embedding all-to-all (indices, pooled vectors, gradients)

    [[nodiscard]] constexpr double total() const noexcept {
        return compute_s + bubble_s + tp_comm_s + pp_comm_s + dp_comm_s + memory_s + optimizer_s + other_s + ep_comm_s + cp_comm_s +
               lookup_s + emb_comm_s;
    }
};

// Bytes per accelerator held in one memory tier.
struct MemoryFootprint {
    double weights_bytes = 0;
    double gradients_bytes = 0;
    double optimizer_bytes = 0;
    double activations_bytes = 0;
    double other_bytes = 0;  // reserved runtime memory, logits, communication buffers
    double capacity_bytes = 0;
    double margin_bytes = 0;  // allocator margin: HBM the caching allocator cannot hand out (counted as used)

    [[nodiscard]] constexpr double used_bytes() const noexcept {
        return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes + other_bytes + margin_bytes;
    }
};

// Total (un-overlapped) communication time per iteration by kind, before overlap.
struct CommVolume {
    double tp_s = 0;
    double pp_s = 0;
    double dp_s = 0;
    double memory_s = 0;         // expanded-tier traffic time
    double dp_microbatch_s = 0;  // ZeRO-3 / FSDP gathers and reduce-scatter of one microbatch (part of dp_s)
    double ep_s = 0;             // expert-parallel all-to-all and expert-TP collectives
    double cp_s = 0;             // context-parallel key/value exchange
    double emb_s = 0;            // DLRM: embedding index, pooled-vector and gradient exchanges
};

struct Result {
    bool feasible = false;
    Infeasible reason = Infeasible::none;
    double detail_a = 0;  // numbers for the reason's message (e.g. bytes needed)
    double detail_b = 0;  // (e.g. bytes available)

    double iteration_s = 0;
    TimeBreakdown time;
    CommVolume comm;
    MemoryFootprint hbm;
    MemoryFootprint expanded;

    int microbatches = 0;                // per pipeline per iteration
    double parameters = 0;               // whole model
    double active_parameters = 0;        // touched by one token (== parameters for a dense model)
    double model_flops = 0;              // per iteration, fwd+bwd, no recompute
    double hardware_flops = 0;           // per iteration, including recompute
    double tokens_per_s = 0;             // tokens (DLRM: samples) per second
    double model_tflops_per_gpu = 0;     // model_flops / (time * gpus)
    double hardware_tflops_per_gpu = 0;  // hardware_flops / (time * gpus), as Megatron-LM reports
    // Model FLOPs utilisation, Megatron-LM's convention: model_tflops_per_gpu / the precision's
    // dense tensor peak, with attention over every key of the sequence (no causal discount).
    double mfu = 0;
    // The same model with causal attention counted as a causal kernel runs it (a query attends
    // to (s + 1) / 2 keys on average, docs/model.md "MFU"); a DLRM has no attention: equal to
    // model_flops and mfu.
    double model_flops_causal = 0;
    double mfu_causal = 0;
};

// Model FLOPs utilisation: `flops` per iteration over `seconds` on `accelerators`, against a
// dense tensor peak of `peak_tflops` each; 0 without a peak or a time. The one formula of MFU
// (evaluate(), the DLRM's evaluation and the search's bound use it).
[[nodiscard]] double model_flops_utilization(double flops, double seconds, double accelerators, double peak_tflops) noexcept;

}  // namespace comet
