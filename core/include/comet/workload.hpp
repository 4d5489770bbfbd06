#pragma once
// The workload: the operations of a transformer layer and of the model's ends, as FLOPs and
// bytes moved per tensor-parallel rank per microbatch. Pure arithmetic on the model shape.

#include <array>
#include <cstdint>

#include "comet/spec.hpp"

namespace comet {

enum class OpKind : std::uint8_t { gemm, fused_attention, elementwise };

// One GEMM product of a pass, for the tiled (wave-quantized) GEMM time: `batch` products
// x[m,k] w[k,n] run as `kernels` kernels (one grid of tiles each; a batched GEMM or a grouped
// kernel is one, per-expert launches are one per expert). batch 0 = none.
struct GemmDims {
    double batch = 0, m = 0, n = 0, k = 0;
    double kernels = 1;
};

// Work of one kernel in one pass.
struct PassCost {
    double flops = 0;
    double bytes = 0;    // HBM traffic
    double kernels = 0;  // kernel launches, each issued by the framework (SoftwareSpec::host_op_us)
    // Fused attention only: 1 / keys per query row, which pays AttentionModel::fill_keys. GEMMs
    // are timed from their products (`gemms`), tile by tile, and leave it 0.
    double inv_inner = 0;
    // Fused attention only: the head size the products run over, and whether this is the
    // backward pass (which runs at AttentionModel::backward_efficiency).
    double head_dim = 0;
    bool backward = false;
    // Single-thread helper kernels a library call launches next to its main kernel (Transformer
    // Engine's current scaling zeroes the amax and turns it into a scale): a launch each, on the
    // host and on the accelerator (GemmModel::launch_overhead_us), no framework issue time.
    double helper_kernels = 0;
    // The kernel's shapes follow the MoE routing (token dispatch, experts, combine): issued by
    // the host even when the software captures the dense layers as CUDA graphs
    // (GraphScope::dense).
    bool routed = false;
    // GEMMs only: the products (forward one, backward the input and the weight gradient).
    std::array<GemmDims, 2> gemms{};
    // Launches the accelerator pays for: framework kernels and helper kernels.
    [[nodiscard]] double launches() const noexcept { return kernels + helper_kernels; }
};

struct Op {
    OpKind kind = OpKind::elementwise;
    bool attention_core = false;  // recomputed by selective recomputation
    bool expert = false;          // a routed-expert GEMM (what the EP all-to-all can hide behind)
    // The host waits for the accelerator before issuing this op in forward (a dropless MoE
    // dispatcher copies the tokens per expert to the host to size the all-to-all and the
    // grouped GEMM): the accelerator's queue drains there (docs/model.md, host-bound kernels).
    bool host_sync = false;
    // The TP collective of the block this GEMM hides with TP overlap (Transformer Engine pairs
    // each collective with the GEMM next to it): 0 before QKV, 1 after the output projection,
    // 2 before the MLP, 3 after it; -1 none.
    int tp_pair = -1;
    PassCost fwd;
    PassCost bwd;
};

// Operations of one transformer block, in execution order: norm, QKV, rotary embedding (without
// learned positions), scores, softmax, attention dropout, context, projection, bias-dropout-add,
// norm, MLP in, activation, MLP out, bias-dropout-add. With a fused attention kernel,
// scores..context is one op. An MoE block replaces the MLP by router, permutation, expert MLP
// in, the activation's clamp (ModelSpec::glu_clamp), activation, expert MLP out, the experts'
// output bias (ModelSpec::bias), un-permutation and, with shared experts, a second (dense) MLP.
inline constexpr int max_layer_ops = 32;

struct LayerWork {
    std::array<Op, max_layer_ops> ops{};
    int count = 0;
    double tp_bytes = 0;     // bytes of one TP collective (the s*b*h activation), per microbatch
    double pp_bytes = 0;     // bytes sent across a pipeline boundary, per microbatch, before splitting
    double cp_kv_bytes = 0;  // one key/value chunk passed around the CP ring (0 without CP)
    double ep_bytes = 0;     // one EP all-to-all buffer per rank (routed tokens x hidden; 0 if dense)
    double etp_bytes = 0;    // the routed tokens gathered in the expert-TP group (0 without ETP)
};

// The model's ends: embedding lookup (first stage), final norm, LM head and loss (last stage).
struct EndsWork {
    Op embedding;
    Op final_norm;
    Op lm_head;
    Op loss;
    Op mtp_projection;  // multi-token prediction: [hidden; embedding] (2h) -> h, split over TP
};

struct WorkShape {
    int tp = 1;
    bool sequence_parallel = false;
    int microbatch = 1;
    int cp = 1;   // context parallelism: each rank holds seq_len / cp tokens of a sequence
    int ep = 1;   // expert parallelism (MoE layers)
    int etp = 1;  // expert tensor parallelism (MoE layers)
};

// Routed token copies an expert-parallel rank sends in one all-to-all, per microbatch:
// capacity_factor x experts_per_token x the tokens of its share (seq_len x microbatch /
// (cp x tp)). 0 for a dense model.
[[nodiscard]] double routed_tokens_per_rank(const ModelSpec& m, WorkShape s) noexcept;
// One EP all-to-all buffer per rank (the routed token copies x hidden, LayerWork::ep_bytes) and
// the routed tokens gathered in the expert-TP group (LayerWork::etp_bytes; 0 without ETP).
[[nodiscard]] double ep_buffer_bytes(const ModelSpec& m, WorkShape s) noexcept;
[[nodiscard]] double etp_buffer_bytes(const ModelSpec& m, WorkShape s) noexcept;

// Head sizes of the attention: query/key and value head size, heads with their own keys and
// values, and for MLA the query latent and the key/value latent (+ the shared RoPE key).
struct AttentionDims {
    double qk = 0, v = 0, kv_heads = 0, q_latent = 0, kv_latent = 0;
};
[[nodiscard]] AttentionDims attention_dims(const ModelSpec& m) noexcept;
// Query rows of a fused-attention tile (FlashAttention's block size).
inline constexpr double attention_tile = 128.0;
// Share of the layers with sliding-window attention (0 without a window).
[[nodiscard]] double sliding_layer_share(const ModelSpec& m) noexcept;
// Keys a query attends to on average in a fused kernel (causal, tile-granular; within the window).
[[nodiscard]] double attended_keys(const ModelSpec& m, bool sliding) noexcept;

// The two kinds of op every workload is built from (docs/model.md, "Workload"): a GEMM
// C[M,N] = A[M,K] B[K,N] repeated `batch` times, with `in_bytes` per operand element and 16-bit
// outputs, whose backward is an input-gradient and a weight-gradient GEMM of the same size (the
// weight gradient accumulating in fp32 when `weight`); and an element-wise kernel over
// `elements` values moving the given bytes per element in forward and backward.
[[nodiscard]] Op gemm_op(double batch, double m, double n, double k, bool weight, double in_bytes = 2.0) noexcept;
[[nodiscard]] Op elementwise_op(double elements, double fwd_bytes_per_elem, double bwd_bytes_per_elem, double flops_per_elem) noexcept;

// One block as `sw` issues it; `moe` selects the MoE block (ignored for a dense model),
// `sliding` the sliding-window attention (ignored without a window).
[[nodiscard]] LayerWork layer_work(const ModelSpec& m, const TrainingSpec& t, const SoftwareSpec& sw, WorkShape s, bool moe = false,
                                   bool sliding = false) noexcept;
[[nodiscard]] EndsWork ends_work(const ModelSpec& m, const TrainingSpec& t, WorkShape s) noexcept;

// Layers by kind: MoE layers (0 for a dense model) and dense ones.
[[nodiscard]] int moe_layer_count(const ModelSpec& m) noexcept;
[[nodiscard]] int dense_layer_count(const ModelSpec& m) noexcept;

// Parameters.
[[nodiscard]] double layer_parameters(const ModelSpec& m) noexcept;      // a dense layer
[[nodiscard]] double attention_parameters(const ModelSpec& m) noexcept;  // attention and the two norms
// An MoE layer: attention, norms, router and shared experts (replicated like a dense layer),
// and the routed experts (split by expert parallelism).
[[nodiscard]] double moe_layer_shared_parameters(const ModelSpec& m) noexcept;
[[nodiscard]] double moe_layer_expert_parameters(const ModelSpec& m) noexcept;
[[nodiscard]] double active_parameters(const ModelSpec& m) noexcept;     // what one token touches
[[nodiscard]] double embedding_parameters(const ModelSpec& m) noexcept;  // token (+position) table
[[nodiscard]] double lm_head_parameters(const ModelSpec& m) noexcept;    // 0 when tied
[[nodiscard]] double final_norm_parameters(const ModelSpec& m) noexcept;
// Multi-token prediction: per module its projection (2h x h) and its three norms, without its
// transformer layer (a layer of the model's last kind, counted with the layers).
[[nodiscard]] double mtp_extra_parameters(const ModelSpec& m) noexcept;
// The main model's parameters as published (without multi-token prediction modules).
[[nodiscard]] double total_parameters(const ModelSpec& m) noexcept;

// How model FLOPs count the keys each query attends to: as Megatron-LM counts them (every key
// of the sequence, or of the window: no causal discount; Result::mfu), or as a causal kernel
// needs them (a query at position i sees i + 1 keys; Result::mfu_causal).
enum class KeyCount : std::uint8_t { megatron, causal };
// Forward FLOPs of one layer's attention core (scores and context) over one sequence, the
// sliding-window layers in the model's proportion.
[[nodiscard]] double attention_core_flops_per_sequence(const ModelSpec& m, KeyCount count) noexcept;
// What selective recomputation executes again per sequence: every layer's attention core
// (Megatron-LM's count, as hardware FLOPs are reported).
[[nodiscard]] double selective_recompute_flops_per_sequence(const ModelSpec& m) noexcept;
// FLOPs of the matrix multiplications of one forward pass over one sequence (the whole model,
// no parallelism): the basis of model FLOPs and MFU.
[[nodiscard]] double forward_gemm_flops_per_sequence(const ModelSpec& m, KeyCount count = KeyCount::megatron) noexcept;

}  // namespace comet
