#pragma once
// Per-operation time model of one GPU, with physically named parameters fitted on measured
// per-op tables (presets/measurements/, docs/model.md "Per-op rates from measurements"):
// GEMMs over (M, N, K, precision), fused attention per kernel family, grouped GEMMs (one
// kernel or one launch per expert) and HBM copies. Plain structs; bad input never throws and
// never yields NaN: the result carries a reason instead of a time.
//
// The training-step model (compute.cpp) prices its GEMMs with tiled_gemm_s(), the GEMM of this
// model without the terms a pass prices itself (HBM traffic, launches); the rest is validated on
// its own with `comet-cli validate --ops FILE`.

#include <limits>
#include <string>
#include <string_view>

namespace comet::ops {

enum class Precision { bf16, fp8 };
// The GEMM kernels the measured tables distinguish: F.linear (x W^T), _scaled_mm (FP8) and the
// weight-gradient product dY^T X whose inner dimension is the tokens.
enum class GemmKind { forward, weight_gradient };
enum class AttentionKernel { cudnn, flash2 };  // FlashAttention-3 class (cuDNN on Hopper), FlashAttention-2
enum class Pass { forward, backward };

// Datasheet figures of the GPU (dense, no sparsity).
struct GpuDatasheet {
    double bf16_tflops = 989.4;  // H200 SXM
    double fp8_tflops = 1978.9;
    double hbm_gbps = 4800;  // bytes per second / 1e9, read and write together
    int sms = 132;
};

// The SM clock under the power limit: a kernel stream that has kept the GPU busy for less than
// `settle_s` runs at `burst_factor` x the sustained clock; longer streams average down toward the
// sustained clock (speed = 1 + (burst - 1) x min(1, settle / busy)). A training step keeps the GPU
// busy for far longer than settle_s, so it sees the sustained clock (busy = infinity).
struct PowerClock {
    double burst_factor = 1.0;
    double settle_s = 0.0;
};

// One GEMM kernel class (bf16 forward, fp8 forward, bf16 weight gradient).
struct GemmClass {
    double sustained_fraction = 0.7;  // of the datasheet peak at the sustained clock
    double tile_fill_k = 128;         // per-tile fixed cost (prologue, pipeline fill), in K steps
    int max_split_k = 3;              // most K splits (the library picks the fastest split, 1 included)
};

// Assumptions, stated: output tiles of 128x128, 128x256 or 256x128 (Hopper warp-group MMA tiles);
// the library picks the fastest tile and split-K for the shape; tiles run in waves of `sms`.
// The defaults here are starting points, not a GPU: fit_op_rates() (comet/op_table.hpp) gives the
// values of a measured table.
struct GemmParams {
    GemmClass bf16{};
    GemmClass fp8{0.63, 384, 3};
    GemmClass wgrad_bf16{};
    double min_split_k_depth = 128;   // K per split at least this
    double split_reduce_exposed = 0;  // share of the fp32 partial sums' traffic not hidden
    double hbm_efficiency = 0.675;    // of hbm_gbps reached by a GEMM's operand streams
    double epilogue_exposed = 0.5;    // share of one wave's output write not overlapped with math
    double launch_us = 2.0;           // per kernel, back to back in a CUDA graph
};

// Fused attention of one kernel family, per (query, key) pair: the matrix products take d units
// (d = head size) at peak x fraction, the softmax (exp, max, sum, rescale) takes softmax_cost units,
// of which the share softmax_overlap runs under the products (FlashAttention-3 overlaps them,
// FlashAttention-2 does not): rate = peak x fraction x d / (d + c - overlap x min(d, c)), at the
// sustained clock, on the FLOPs the kernel executes (causal: whole key blocks up to the diagonal)
// plus a fixed cost per query row (loading Q, writing O and the softmax statistics, the pipeline's
// fill; backward: the preprocessing and dQ conversion kernels) counted as row_fill_keys more keys.
// One launch (GemmParams::launch_us) per call.
struct AttentionPass {
    double fraction = 0.6;
    double softmax_cost = 16;    // head-dim units per pair
    double softmax_overlap = 0;  // 0..1
    double row_fill_keys = 0;    // key positions per query row
};
struct AttentionFamily {
    AttentionPass fwd{};
    AttentionPass bwd{};
    int block = 128;  // query/key block of the causal diagonal
};

// Grouped GEMM as one kernel: every expert's tiles share the SMs' waves, at a fraction of the
// dense GEMM's rate. Per-expert launches are the sum of single GEMMs (each with its launch).
struct GroupedParams {
    double grouped_fraction = 0.7;  // sustained fraction of peak of the grouped kernel
    double tile_fill_k = 128;
    double per_expert_us = 0;  // per expert inside the kernel (its problem's setup, the scheduler's walk)
};

// Device-to-device copy: latency + bytes / (bandwidth x efficiency); the efficiency drops once the
// copy's footprint (source + destination) passes `large_footprint_mib` (measured, not explained).
struct HbmParams {
    double latency_us = 1.0;
    double efficiency = 0.88;
    double large_efficiency = 0.58;
    double large_footprint_mib = 1024;
};

struct OpRateModel {
    GpuDatasheet gpu{};
    PowerClock clock{};
    GemmParams gemm{};
    AttentionFamily cudnn{};
    AttentionFamily flash2{};
    GroupedParams grouped{};
    HbmParams hbm{};
    double kernel_gap_us = 0;  // measured gap per tiny kernel in a CUDA graph (reported, not fitted)
};

// A time, or why there is none (time_s is then 0, never NaN).
struct OpTime {
    double time_s = 0;
    std::string problem;
    [[nodiscard]] bool ok() const noexcept { return problem.empty(); }
};

inline constexpr double sustained = std::numeric_limits<double>::infinity();

// The tiled compute of `batch` GEMMs x[m,k] w[k,n] issued as one kernel (all their output tiles
// share the waves) at `flops_per_s` over `sms` SMs, each tile paying `tile_fill_k` K steps: the
// fastest output tile (128x128, 128x256, 256x128) and split-K (1 to max_split_k, each split at
// least min_split_k_depth deep). sms = 0: one continuous stream, 2 batch m n (k + fill) / rate.
// The op model adds, inside the choice of tile and split: the operand traffic the compute cannot
// beat, the exposed share of the output write (epilogue_s over the waves) and the exposed fp32
// partial sums of a split (split_partials_s per split); the training model leaves them 0 (its
// pass adds its own HBM roofline). Bad input gives 0 (callers check their shapes and rates).
struct TiledGemm {
    double batch = 1, m = 0, n = 0, k = 0;
    double flops_per_s = 0;
    double tile_fill_k = 0;
    int sms = 0;
    int max_split_k = 1;
    double min_split_k_depth = 64;
    double traffic_s = 0;
    double epilogue_s = 0;
    double split_partials_s = 0;
};
[[nodiscard]] double tiled_gemm_s(const TiledGemm& g) noexcept;

// busy_s: how long the GPU has been busy when the op runs (the power clock); `sustained` for a
// training step.
struct GemmShape {
    long long m = 0, n = 0, k = 0;  // x[M,K] times w[N,K]^T; for weight gradients K is the tokens
    Precision precision = Precision::bf16;
    GemmKind kind = GemmKind::forward;
};
[[nodiscard]] OpTime gemm_time(const OpRateModel& model, const GemmShape& shape, double busy_s = sustained);

struct AttentionShape {
    long long batch = 0, q_heads = 0, seq = 0, head_dim = 0;
    bool causal = true;
};
// FLOPs as the tables count them: 4 b h s keys d, keys = (s + 1) / 2 when causal; backward 2.5x.
[[nodiscard]] double attention_counted_flops(const AttentionShape& shape, Pass pass);
[[nodiscard]] OpTime attention_time(const OpRateModel& model, AttentionKernel kernel, const AttentionShape& shape, Pass pass,
                                    double busy_s = sustained);

struct GroupedShape {
    long long experts = 0, tokens_per_expert = 0, k = 0, n = 0;  // per expert x[t,K] w[N,K]^T
};
[[nodiscard]] OpTime grouped_gemm_time(const OpRateModel& model, const GroupedShape& shape, double busy_s = sustained);
[[nodiscard]] OpTime per_expert_gemms_time(const OpRateModel& model, const GroupedShape& shape, double busy_s = sustained);

// A copy of `bytes` (read once, written once).
[[nodiscard]] OpTime hbm_copy_time(const OpRateModel& model, double bytes);

[[nodiscard]] std::string_view name(AttentionKernel k) noexcept;
[[nodiscard]] std::string_view name(Precision p) noexcept;

}  // namespace comet::ops
