#pragma once
// Compute time of one operation: a roofline of achievable matrix/vector throughput against
// achievable HBM bandwidth, plus a fixed cost per kernel launch.

#include "comet/spec.hpp"
#include "comet/workload.hpp"

namespace comet {

// Achievable rates of one accelerator for one precision, in SI units.
struct ComputeRates {
    double matrix_flops_per_s = 0;     // sustained GEMM throughput
    double attention_flops_per_s = 0;  // fused attention: the 16-bit tensor rate x AttentionModel::max_fraction
    double attention_backward = 1;     // AttentionModel::backward_efficiency
    double softmax_head_dim = 0;       // AttentionModel::softmax_head_dim
    double vector_flops_per_s = 0;
    double hbm_bytes_per_s = 0;
    double launch_s = 0;
    double host_op_s = 0;  // NodeSpec::host_op_us
    double tile_overhead_k = 0;
};

// Communication overlapped with computation is not free: NCCL's kernels occupy streaming
// multiprocessors and HBM bandwidth (Calculon assumes 15 % of the processor for NVLink
// collectives). The hidden part of a collective costs this fraction of its duration.
inline constexpr double overlap_contention = 0.15;

// Dense tensor peak for the GEMMs of this precision (fp8 and mxfp8 share the FP8 peak, fp4
// has its own).
[[nodiscard]] double matrix_peak_tflops(const NodeSpec& node, Precision precision) noexcept;
// The fraction of that peak large GEMMs reach: fp4_max_fraction for FP4, fp8_max_fraction for
// FP8 (and for FP4 without its own), else max_fraction.
[[nodiscard]] double gemm_max_fraction(const NodeSpec& node, Precision precision) noexcept;

[[nodiscard]] ComputeRates compute_rates(const NodeSpec& node, Precision precision) noexcept;
[[nodiscard]] double pass_time_s(const PassCost& cost, OpKind kind, const ComputeRates& r) noexcept;

// Forward time of a layer whose forward synchronises the host with the accelerator
// (Op::host_sync, an MoE dispatch): host issue time and accelerator time add up around the
// sync instead of overlapping. 0 when no op of the layer synchronises.
[[nodiscard]] double synced_forward_s(const LayerWork& lw, const ComputeRates& rates) noexcept;

}  // namespace comet
